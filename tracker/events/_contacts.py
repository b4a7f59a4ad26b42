"""Contacts inferred from positions only.

At 60 fps a striker at 4 m/s moves 67 mm between frames, so a collision is never seen; what is
seen is a track whose velocity changed (a "kick"). A kicked disc's cause is found by extending
every disc's motion before the kick in a straight line across the frame interval: the earliest
moment its path comes within the sum of the radii of another disc, or within its radius of a
cushion, is the contact.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tracker.events._motion import Motion, solve_contact_time, solve_wall_time
from tracker.specs import SIDES

__all__ = ["Contact", "find_kicks", "explain_kick"]


@dataclass(frozen=True, slots=True)
class Contact:
    """One inferred contact: row `a` (the kicked disc) touched row `b` (-1: cushion `side`) at `t_s`."""

    a: int
    b: int
    side: str | None
    t_s: float


def find_kicks(motion: Motion, eligible: np.ndarray, *, abs_mm_s: float, rel: float, noise_mm: float) -> np.ndarray:
    """Rows whose velocity changed between the last two frame intervals more than friction and noise explain.

    Args:
        motion: motion facts of every track.
        eligible: (M,) bool rows to consider (seen this frame, confirmed, on the board).
        abs_mm_s: smallest change of velocity that counts, mm/s.
        rel: fraction of the speed that a change must also exceed.
        noise_mm: position noise; its effect on a velocity grows as the interval shrinks.
    """
    dv = np.hypot(*(motion.v_new - motion.v_old).T)
    speed = np.hypot(*motion.v_old.T)
    dt = np.nan_to_num(motion.t[:, 0] - motion.t[:, 1], nan=1.0)
    thr = abs_mm_s + rel * speed + 3.0 * noise_mm / np.maximum(dt, 1e-3)
    known = np.isfinite(motion.t[:, 2])
    return np.flatnonzero(eligible & known & (dv > thr))


def explain_kick(j: int, motion: Motion, seen_now: np.ndarray, kicked: np.ndarray, on_board: np.ndarray,
                 radius_mm: np.ndarray, half_mm: float, *, tol_mm: float, slack: float) -> Contact | None:
    """The earliest contact that explains the kick of row `j`, or None.

    Args:
        j: the kicked row.
        motion: motion facts of every track.
        seen_now: (M,) bool rows observed in this frame.
        kicked: (M,) bool rows kicked in this frame.
        on_board: (M,) bool rows that are discs on the board (candidate partners).
        radius_mm: (M,) radius of each row's disc, mm.
        half_mm: half the playing surface, mm.
        tol_mm: extra reach allowed for noise and blur, mm.
        slack: fraction of the frame interval by which the window is widened at both ends.
    """
    t_a, t_b = motion.t[j, 1], motion.t[j, 0]
    span = t_b - t_a
    lo, hi = t_a - slack * span, t_b + slack * span
    p_j, v_j = motion.p[j, 1], motion.v_old[j]
    # every other disc's straight-line motion before this frame's change, evaluated at t_a
    pre = seen_now & kicked
    base_p = np.where(seen_now[:, None], motion.p[:, 1], motion.p[:, 0])
    base_t = np.where(seen_now, motion.t[:, 1], motion.t[:, 0])
    vel = np.where(pre[:, None], motion.v_old, motion.v_new)
    pos_at = base_p + vel * (t_a - base_t)[:, None]
    cand = on_board & np.isfinite(pos_at[:, 0])
    cand[j] = False
    best: Contact | None = None
    rows = np.flatnonzero(cand)
    if rows.size:
        dp = pos_at[rows] - p_j
        dv = vel[rows] - v_j
        reach = radius_mm[rows] + radius_mm[j] + tol_mm
        tc = solve_contact_time(dp, dv, reach)
        closing = (dp * dv).sum(axis=1) < 0
        overlap = (np.hypot(*dp.T) <= reach) & closing
        tc = np.where(overlap & ~(tc >= 0), 0.0, tc)
        t_hit = t_a + tc
        ok = np.isfinite(t_hit) & (t_hit >= lo) & (t_hit <= hi)
        if ok.any():
            k = int(np.argmin(np.where(ok, t_hit, np.inf)))
            best = Contact(j, int(rows[k]), None, float(t_hit[k]))
    tw, side = solve_wall_time(p_j[None], v_j[None], np.array([half_mm - radius_mm[j]]))
    t_wall = t_a + max(float(tw[0]), 0.0)  # already at the cushion when last seen: touched at once
    if np.isfinite(t_wall) and lo <= t_wall <= hi and (best is None or t_wall < best.t_s):
        best = Contact(j, -1, SIDES[int(side[0])], max(t_wall, t_a))
    return best
