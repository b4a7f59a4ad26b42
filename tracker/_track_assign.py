"""Gated one-to-one assignment of detections to tracks (Hungarian, with a cost for "no match").

Why not greedy: at a collision two discs are close together and a greedy nearest-first pass hands
the nearer detection to whichever track is processed first, swapping identities; the global
optimum of `scipy.optimize.linear_sum_assignment` does not depend on order.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linear_sum_assignment

__all__ = ["assign", "closest_approach", "point_segment_distance", "untangle"]

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
    ab = (b - a)[:, None, :]
    ap = p[None, :, :] - a[:, None, :]
    den = np.maximum((ab * ab).sum(-1), 1e-12)
    s = np.clip((ap * ab).sum(-1) / den, 0.0, 1.0)
    return np.asarray(np.linalg.norm(ap - s[..., None] * ab, axis=-1))


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
    miss = np.broadcast_to(np.asarray(miss_cost, np.float64), (m,))
    full = np.full((m + n, n + m), _BIG)
    full[:m, :n] = np.where(allowed, cost, _BIG)
    full[np.arange(m), n + np.arange(m)] = miss  # row i left unmatched
    full[m + np.arange(n), np.arange(n)] = 0.0   # column j left unmatched
    full[m:, n:] = 0.0
    rows, cols = linear_sum_assignment(full)
    keep = (rows < m) & (cols < n)
    rows, cols = rows[keep], cols[keep]
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
    near = closest_approach(p0[:, None], p1[:, None], p0[None, :], p1[None, :])
    bad = np.triu(near < through * touch, 1)
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
