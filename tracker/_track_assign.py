"""Gated one-to-one assignment of detections to tracks (Hungarian, with a cost for "no match").

Why not greedy: at a collision two discs are close together and a greedy nearest-first pass hands
the nearer detection to whichever track is processed first, swapping identities; the global
optimum of `scipy.optimize.linear_sum_assignment` does not depend on order.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linear_sum_assignment

__all__ = ["assign", "point_segment_distance"]

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
