"""Gated one-to-one assignment of detections to tracks (Hungarian, with a cost for "no match").

Why not greedy: at a collision two discs are close together and a greedy nearest-first pass hands
the nearer detection to whichever track is processed first, swapping identities; the global
optimum of `scipy.optimize.linear_sum_assignment` does not depend on order.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from scipy.optimize import linear_sum_assignment

__all__ = [
    "assign", "closest_approach", "point_distance", "point_segment_distance", "segment_and_point_distance", "untangle",
]

_BIG = 1e9


def point_segment_distance(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance from every point `p` to every segment `a[i]`-`b[i]`.

    Args:
        p: (N, 2) points.
        a: (M, 2) segment starts.
        b: (M, 2) segment ends (equal to `a` for a point).

    Returns:
        (M, N) float64 distances, in the unit of the inputs.

    Examples:
        >>> point_segment_distance(np.array([[5.0, 3.0], [12.0, 0.0]]), np.array([[0.0, 0.0]]), np.array([[10.0, 0.0]]))
        array([[3., 2.]])
    """
    return _segment(p, a, b)[0]


def segment_and_point_distance(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`point_segment_distance(p, a, b)` and the (M, N) distances from every point `p` to every start `a`.

    Both to the bit as `point_segment_distance` and `point_distance(p, a)` give them, in one pass.

    Examples:
        >>> p, a, b = np.array([[5.0, 3.0]]), np.array([[0.0, 0.0]]), np.array([[10.0, 0.0]])
        >>> seg, dist = segment_and_point_distance(p, a, b)
        >>> seg.tolist(), dist.tolist()
        ([[3.0]], [[5.830951894845301]])
    """
    seg, apx, apy = _segment(p, a, b)
    return seg, np.sqrt(apx * apx + apy * apy)


def _segment(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(M, N) point-segment distances and the (M, N) x and y offsets of every point from every start."""
    # x and y kept apart: a sum over a last axis of length 2 costs more than the arithmetic itself
    # (and x*x + y*y is what that sum and `np.linalg.norm` compute, to the bit)
    apx = p[None, :, 0] - a[:, None, 0]
    apy = p[None, :, 1] - a[:, None, 1]
    abx = (b[:, 0] - a[:, 0])[:, None]
    aby = (b[:, 1] - a[:, 1])[:, None]
    den = np.maximum(abx * abx + aby * aby, 1e-12)
    s = np.minimum(np.maximum((apx * abx + apy * aby) / den, 0.0), 1.0)
    dx = apx - s * abx
    dy = apy - s * aby
    return np.sqrt(dx * dx + dy * dy), apx, apy


def point_distance(p: np.ndarray, a: np.ndarray) -> np.ndarray:
    """Distance from every point `p` (N, 2) to every point `a` (M, 2): (M, N) float64.

    The same numbers as `point_segment_distance(p, a, a)` and `np.linalg.norm(p[None] - a[:, None], axis=-1)`,
    to the bit, at a fraction of the cost.

    Examples:
        >>> point_distance(np.array([[3.0, 4.0]]), np.array([[0.0, 0.0], [3.0, 5.0]])).tolist()
        [[5.0], [1.0]]
    """
    dx = p[None, :, 0] - a[:, None, 0]
    dy = p[None, :, 1] - a[:, None, 1]
    return np.asarray(np.sqrt(dx * dx + dy * dy))


def assign(cost: np.ndarray, allowed: np.ndarray, miss_cost: float | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Minimum-cost matching where leaving a row or column unmatched costs `miss_cost`.

    Args:
        cost: (M, N) cost of pairing row i with column j.
        allowed: (M, N) bool, False where the pair is outside the gate.
        miss_cost: cost of leaving a row unmatched (scalar or (M,)); a column pays nothing extra.

    Returns:
        (rows, cols): int arrays of the matched pairs.

    Examples:
        >>> c = np.array([[1.0, 5.0], [2.0, 9.0]])
        >>> assign(c, c < 6, 3.0)  # 1 + 3 (row 1 unmatched) beats 5 + 2
        (array([0]), array([0]))
        >>> assign(c, c < 6, 9.0)
        (array([0, 1]), array([1, 0]))
    """
    m, n = cost.shape
    if m == 0 or n == 0:
        return np.zeros(0, np.intp), np.zeros(0, np.intp)
    w = n + m
    full = np.full((m + n, w), _BIG)
    full[:m, :n] = np.where(allowed, cost, _BIG)
    flat = full.reshape(-1)  # a view: the two diagonals below are written through it
    flat[n::w + 1][:m] = miss_cost  # row i left unmatched: column n + i
    flat[m * w::w + 1][:n] = 0.0  # column j left unmatched: row m + j
    full[m:, n:] = 0.0
    _, cols = linear_sum_assignment(full)  # (square: the rows come back as 0, 1, 2, ...)
    rows = (cols[:m] < n).nonzero()[0]
    cols = cols[rows]
    ok = allowed[rows, cols]
    return rows[ok], cols[ok]


def closest_approach(a0: np.ndarray, a1: np.ndarray, b0: np.ndarray, b1: np.ndarray) -> np.ndarray:
    """Closest distance of two points moving at constant velocity over the same interval.

    Point A goes from `a0` to `a1` while point B goes from `b0` to `b1` (any matching leading
    shapes, last axis 2).

    Returns:
        The smallest distance between them during the interval, in the unit of the inputs
        (shape of the inputs without the last axis).

    Examples:
        >>> closest_approach(np.array([0.0, 0.0]), np.array([10.0, 0.0]), np.array([10.0, 1.0]), np.array([0.0, 1.0]))
        array(1.)
    """
    d0 = a0 - b0
    dd = (a1 - a0) - (b1 - b0)
    den = np.maximum((dd * dd).sum(-1), 1e-12)
    s = np.clip(-(d0 * dd).sum(-1) / den, 0.0, 1.0)
    return np.asarray(np.linalg.norm(d0 + s[..., None] * dd, axis=-1))


@lru_cache(maxsize=64)
def _upper(k: int) -> np.ndarray:
    """(k, k) bool, True above the diagonal (the pairs i < j), read-only."""
    mask = np.triu(np.ones((k, k), bool), 1)
    mask.setflags(write=False)
    return mask


def untangle(p0: np.ndarray, p1: np.ndarray, cols: np.ndarray, touch: np.ndarray, allowed: np.ndarray, *,
             through: float = 0.5, clear: float = 0.8) -> np.ndarray:
    """Swap the detections of pairs of tracks whose matched paths would pass through each other.

    Discs cannot pass through one another. When two tracks matched from `p0` to `p1` would have
    moved (straight, over the frame interval) to within `through` x their touching distance of each
    other, and swapping their detections leaves them at least `clear` x that distance apart (and
    both within their gates), the swap is the physical reading: typically two discs of a pack set
    off in a line along one direction, the one behind fast, the one in front still short of its
    speed.

    Args:
        p0: (K, 2) matched tracks' last positions.
        p1: (K, 2) their matched detections' positions.
        cols: (K,) detection index of each matched track.
        touch: (K, K) touching distance (sum of radii) of each pair.
        allowed: (K, N) bool, True where track k may take detection n.
        through: share of the touching distance below which the paths pass through each other.
        clear: share of it that the swapped paths must keep.

    Returns:
        (K,) detection index of each track after the swaps.

    Examples:
        >>> p0 = np.array([[0.0, 0.0], [0.0, -30.0]]); p1 = np.array([[0.0, -90.0], [0.0, -50.0]])
        >>> untangle(p0, p1, np.array([0, 1]), np.full((2, 2), 31.0), np.ones((2, 2), bool)).tolist()
        [1, 0]
    """
    k = p0.shape[0]
    out = cols.copy()
    if k < 2:
        return out
    # x and y apart (what `closest_approach` computes for every pair, to the bit); pairs i < j only
    x0, y0 = p0[:, 0], p0[:, 1]
    mx, my = p1[:, 0] - x0, p1[:, 1] - y0
    d0x, d0y = x0[:, None] - x0[None, :], y0[:, None] - y0[None, :]
    ddx, ddy = mx[:, None] - mx[None, :], my[:, None] - my[None, :]
    den = np.maximum(ddx * ddx + ddy * ddy, 1e-12)
    s = np.minimum(np.maximum(-(d0x * ddx + d0y * ddy) / den, 0.0), 1.0)
    ex, ey = d0x + s * ddx, d0y + s * ddy
    bad = (np.sqrt(ex * ex + ey * ey) < through * touch) & _upper(k)
    if not bad.any():
        return out
    done = np.zeros(k, bool)
    for i, j in zip(*np.nonzero(bad), strict=True):  # a few pairs at a break, none otherwise
        if done[i] or done[j] or not (allowed[i, cols[j]] and allowed[j, cols[i]]):
            continue
        if closest_approach(p0[i], p1[j], p0[j], p1[i]) >= clear * touch[i, j]:
            out[i], out[j] = cols[j], cols[i]
            done[i] = done[j] = True
    return out
