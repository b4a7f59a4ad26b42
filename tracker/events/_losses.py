"""Where did a disc that is no longer seen go? Into a pocket, off the board, or under a hand.

Decided from its last motion: the straight line from its last observation, at its last
velocity, either reaches a pocket's point of no return (pocketed, at that crossing time), or
reaches a cushion fast enough to leave the board (off the board), or neither (the disc is hidden
or simply missed; it stays on the board).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tracker.events._motion import solve_contact_time, solve_wall_time
from tracker.specs import CORNERS, SIDES, BoardSpec

__all__ = ["Loss", "classify_losses", "pocket_crossing_now"]


@dataclass(frozen=True, slots=True)
class Loss:
    """Row `row` left play: `pocket` (corner name) or off the board (`pocket` None, over `side`) at `t_s`."""

    row: int
    pocket: str | None
    side: str | None
    t_s: float


def pocket_crossing_now(p_prev: np.ndarray, t_prev: np.ndarray, p_now: np.ndarray, t_now: float,
                        board: BoardSpec) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Seen discs whose centre is now within the no-return radius of a pocket.

    Args:
        p_prev: (M, 2) previous observed centres (NaN if none), board mm.
        t_prev: (M,) their times, s.
        p_now: (M, 2) centres in this frame, board mm.
        t_now: this frame's time, s.

    Returns:
        (inside (M,) bool, pocket index (M,), crossing time (M,) s interpolated along the last step).
    """
    d = np.linalg.norm(p_now[:, None, :] - board.pockets_mm[None], axis=-1)
    pocket = np.argmin(d, axis=1)
    r = board.pocket_no_return_mm
    inside = d[np.arange(len(d)), pocket] <= r
    step_v = (p_now - p_prev) / np.maximum(t_now - t_prev, 1e-6)[:, None]
    dp = board.pockets_mm[pocket] - p_prev
    tc = solve_contact_time(dp, -np.nan_to_num(step_v), np.full(len(d), r))
    t_cross = np.where(np.isfinite(tc) & (tc >= 0), t_prev + tc, t_now)
    t_cross = np.clip(np.nan_to_num(t_cross, nan=t_now), np.nan_to_num(t_prev, nan=t_now), t_now)
    return inside, pocket, t_cross


def classify_losses(rows: np.ndarray, p: np.ndarray, v: np.ndarray, t_last: np.ndarray, t_now: float,
                    radius_mm: np.ndarray, board: BoardSpec, *, horizon_s: float, reach_mm: float,
                    min_off_speed_mm_s: float) -> list[Loss]:
    """Pocket or off-board decisions for discs that disappeared.

    Args:
        rows: (L,) rows being decided.
        p: (L, 2) last observed centres, board mm.
        v: (L, 2) last velocities, mm/s.
        t_last: (L,) times of the last observations, s.
        t_now: this frame's time, s.
        radius_mm: (L,) disc radii, mm.
        board: the board.
        horizon_s: how far past the last observation the path may be followed, s (a disc is often
            lost a little before it reaches the point of no return, over the pocket's edge).
        reach_mm: a disc whose last centre is this close to a pocket's no-return circle and moving
            into it counts too, however slow.
        min_off_speed_mm_s: smallest speed towards a cushion with which a disc can leave the board.
    """
    out: list[Loss] = []
    if rows.size == 0:
        return out
    r_nr = board.pocket_no_return_mm
    n, k = rows.size, board.pockets_mm.shape[0]
    dp = (board.pockets_mm[None] - p[:, None]).reshape(-1, 2)
    vv = np.repeat(-v, k, axis=0)
    tc = solve_contact_time(dp, vv, np.full(n * k, r_nr)).reshape(n, k)
    dist = np.linalg.norm(dp, axis=1).reshape(n, k)
    tc = np.where(dist <= r_nr, 0.0, tc)
    speed = np.hypot(*v.T)
    # a disc lost near a corner is followed further: over the pocket it is often not seen at all
    reach = np.maximum(reach_mm, 2.5 * board.pocket_radius_mm)
    limit = np.maximum(horizon_s + (t_now - t_last), reach / np.maximum(speed, 1.0))
    ok = np.isfinite(tc) & (tc >= 0) & (tc <= limit[:, None])
    tw, side = solve_wall_time(p, v, board.half_mm - radius_mm)
    normal = np.where(np.isin(side, (1, 3)), np.abs(v[:, 0]), np.abs(v[:, 1]))
    off = np.isfinite(tw) & (tw <= horizon_s + (t_now - t_last)) & (normal >= min_off_speed_mm_s)
    for i in range(n):  # only the few discs that vanished this frame
        if ok[i].any():
            j = int(np.argmin(np.where(ok[i], tc[i], np.inf)))
            out.append(Loss(int(rows[i]), CORNERS[j], None, float(t_last[i] + tc[i, j])))
        elif off[i]:
            out.append(Loss(int(rows[i]), None, SIDES[int(side[i])], float(t_last[i] + max(tw[i], 0.0))))
    return out
