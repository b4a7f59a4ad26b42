"""Where did a disc that is no longer seen go? Into a pocket, off the board, or nowhere (hidden).

Decided once, when the shot is over, from the disc's last observed motion: followed on in a
straight line from its last observation, it either reaches a pocket's point of no return (pocketed,
dated at that crossing), or reaches a cushion fast enough to have left the board (off the board,
dated at the cushion), or neither (it is hidden or was simply missed; it stays on the board). A disc
that vanished under a hand is never lost.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tracker.events._contacts import SIDE_OF_WALL
from tracker.specs import CORNERS, BoardSpec

__all__ = ["Loss", "classify_loss"]


@dataclass(frozen=True, slots=True)
class Loss:
    """A disc that left play: into `pocket` (corner name), or off the board over `side`, at `t_s`."""

    pocket: str | None
    side: str | None
    t_s: float


def classify_loss(p_mm: np.ndarray, v_mm_s: np.ndarray | None, t_last_s: float, radius_mm: float,
                  board: BoardSpec, *, horizon_s: float, pocket_reach_mm: float,
                  min_off_speed_mm_s: float) -> Loss | None:
    """Pocket, off the board, or None for one vanished disc.

    Args:
        p_mm: (2,) last observed centre, board mm.
        v_mm_s: (2,) velocity at the last observation (None if unknown: seen only once in a row).
        t_last_s: time of the last observation, s.
        radius_mm: the disc's radius, mm.
        board: the board.
        horizon_s: how far past the last observation the straight path is followed, s.
        pocket_reach_mm: a disc last seen this close to a point of no return went in, however it moved.
        min_off_speed_mm_s: slowest normal speed at a cushion with which a disc leaves the board.

    Examples:
        >>> from tracker.specs import load_board
        >>> b = load_board("carrom")
        >>> classify_loss(np.array([300.0, 300.0]), np.array([2000.0, 2000.0]), 1.0, 15.5, b,
        ...               horizon_s=0.1, pocket_reach_mm=20.0, min_off_speed_mm_s=1500.0)
        Loss(pocket='SE', side=None, t_s=1.0189)
    """
    r_nr = board.pocket_no_return_mm
    rel = board.pockets_mm - p_mm
    dist = np.hypot(rel[:, 0], rel[:, 1])
    j = int(np.argmin(dist))
    if v_mm_s is not None:
        speed = float(np.hypot(*v_mm_s))
        tp = _circle_time(rel[j], v_mm_s, r_nr) if dist[j] > r_nr else 0.0
        tw, wall = _wall_time(p_mm, v_mm_s, board.half_mm - radius_mm)
        if tp is not None and tp <= horizon_s and (tp <= tw + 1e-9 or dist[j] <= r_nr + pocket_reach_mm):
            return Loss(CORNERS[j], None, round(t_last_s + tp, 4))
        # passing over the pocket's mouth (closer than its radius) before a cushion: it goes in
        tc = max(float(rel[j] @ v_mm_s) / max(speed * speed, 1e-9), 0.0)
        miss = float(np.hypot(*(rel[j] - v_mm_s * tc)))
        if miss <= board.pocket_radius_mm and tc <= min(horizon_s, tw + 0.5 * board.pocket_radius_mm / max(speed, 1.0)):
            return Loss(CORNERS[j], None, round(t_last_s + tc, 4))
        if dist[j] <= r_nr + pocket_reach_mm:
            return Loss(CORNERS[j], None, round(t_last_s + max(dist[j] - r_nr, 0.0) / max(speed, 1.0), 4))
        normal = abs(float(v_mm_s[0 if wall < 2 else 1]))
        if tw <= horizon_s and normal >= min_off_speed_mm_s:
            return Loss(None, SIDE_OF_WALL[wall], round(t_last_s + tw, 4))
        return None
    if dist[j] <= r_nr + pocket_reach_mm:
        return Loss(CORNERS[j], None, round(t_last_s, 4))
    return None


def _circle_time(rel: np.ndarray, v: np.ndarray, r: float) -> float | None:
    """First time >= 0 at which a point moving with `v` from the origin is within `r` of `rel` (None if never)."""
    a = float(v @ v)
    if a < 1e-9:
        return None
    b = float(rel @ v)
    c = float(rel @ rel) - r * r
    disc = b * b - a * c
    if disc < 0:
        return None
    t = (b - np.sqrt(disc)) / a
    return float(t) if t >= 0 else None


def _wall_time(p: np.ndarray, v: np.ndarray, lim: float) -> tuple[float, int]:
    """Time until |x| or |y| reaches `lim` moving with `v` (0 if already there), and the wall index."""
    best, wall = np.inf, 0
    for axis in (0, 1):
        if abs(v[axis]) < 1e-9:
            continue
        target = lim if v[axis] > 0 else -lim
        t = max((target - p[axis]) / v[axis], 0.0)
        if t < best:
            best, wall = float(t), (0 if v[axis] > 0 else 1) + 2 * axis
    return best, wall
