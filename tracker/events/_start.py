"""When did the striker leave its place? Back-dating a shot's start from the first observations.

The striker is often hidden under the flicking hand until it is well on its way, and at 30 fps
it may have moved 100 mm between frames, so the start is read off a straight line fitted to its
first few observations in motion, followed back to where it stood (if it was seen there) or to
the line it is placed on (base line in carrom, rail zone in korona).
"""

from __future__ import annotations

import numpy as np

__all__ = ["estimate_start_time", "straight_prefix"]


def straight_prefix(t_s: np.ndarray, xy_mm: np.ndarray, *, rel_tol: float = 0.2) -> int:
    """How many leading observations lie on one straight, steady path (at least 2).

    Args:
        t_s: (n,) observation times, s.
        xy_mm: (n, 2) centres, board mm.
        rel_tol: largest relative change of velocity between consecutive steps.

    Examples:
        >>> t = np.arange(5) / 60.0
        >>> straight_prefix(t, np.array([[0, 0], [10, 0], [20, 0], [30, 0], [30, 12]], float))
        4
    """
    n = len(t_s)
    if n < 3:
        return n
    v = np.diff(xy_mm, axis=0) / np.diff(t_s)[:, None]
    change = np.hypot(*(v[1:] - v[0]).T) / max(float(np.hypot(*v[0])), 1e-6)
    bad = np.flatnonzero(change > rel_tol)
    return int(bad[0] + 2) if bad.size else n


def estimate_start_time(t_s: np.ndarray, xy_mm: np.ndarray, *, rest_xy_mm: np.ndarray | None, line_mm: float,
                        extent_mm: float, earliest_s: float) -> tuple[float, str | None]:
    """Back-dated start time of a straight run (s), and the side it was played from.

    Args:
        t_s: (n,) times of the first observations in motion (n >= 2), s.
        xy_mm: (n, 2) their centres, board mm.
        rest_xy_mm: (2,) where the striker was last seen standing, if it was seen there just before.
        line_mm: distance from the board centre of the four placement lines (x or y = +-line_mm).
        extent_mm: half length of a placement line, mm.
        earliest_s: the start is not before this time (s).

    Returns:
        (start time in s, side "N"/"E"/"S"/"W" of the placement line the path comes from, or None
        when the striker was seen standing).

    Examples:
        >>> t = np.array([1.1, 1.2]); xy = np.array([[0.0, 200.0], [0.0, 100.0]])
        >>> estimate_start_time(t, xy, rest_xy_mm=None, line_mm=250.0, extent_mm=235.0, earliest_s=0.0)
        (1.05, 'S')
    """
    k = straight_prefix(t_s, xy_mm)
    t, p = t_s[:k], xy_mm[:k]
    tc = t - t[0]
    A = np.stack([np.ones_like(tc), tc], axis=1)
    coef, *_ = np.linalg.lstsq(A, p, rcond=None)
    p0, v = coef[0], coef[1]
    speed2 = float(v @ v)
    if speed2 < 1e-6:
        return float(t[0]), None
    side: str | None = None
    if rest_xy_mm is not None:
        back = float((rest_xy_mm - p0) @ v) / speed2
    else:
        back, side = _back_to_line(p0, v, line_mm, extent_mm)
    return round(float(np.clip(t[0] + back, earliest_s, t[0])), 6), side


def _back_to_line(p0: np.ndarray, v: np.ndarray, line_mm: float, extent_mm: float) -> tuple[float, str | None]:
    """The latest time before 0 at which the path p0 + v t crossed a placement line, and that line's side."""
    best, side = -np.inf, None
    for name, axis, sign in (("N", 1, -1.0), ("E", 0, 1.0), ("S", 1, 1.0), ("W", 0, -1.0)):
        if abs(v[axis]) < 1e-6:
            continue
        tb = (sign * line_mm - p0[axis]) / v[axis]
        along = p0[1 - axis] + v[1 - axis] * tb
        if tb <= 0 and abs(along) <= extent_mm and tb > best:
            best, side = float(tb), name
    return (best, side) if side is not None else (0.0, None)
