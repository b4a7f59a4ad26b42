"""Where a tracked disc may be by the next frame: its predicted path folded at the cushions, and the
cone ahead of it. Board mm (origin at the board centre), mm/s."""

from __future__ import annotations

import numpy as np

__all__ = ["fold_at_cushions", "heading_cone"]

_CUSHION_KEEP = 0.6  # share of the normal speed a disc keeps at a cushion (0.5-0.75)


def fold_at_cushions(xy: np.ndarray, pred: np.ndarray, lim_by_kind: np.ndarray, kind: np.ndarray, *,
                     lim_min: float) -> tuple[np.ndarray, np.ndarray]:
    """Where a straight path from `xy` to `pred` (M, 2) first meets a cushion, and its end bounced back.

    Args:
        xy: (M, 2) start of each path, board mm.
        pred: (M, 2) its end, board mm.
        lim_by_kind: (4,) largest |x| or |y| of a disc centre of each kind (half the board less its radius), mm.
        kind: (M,) `DiscKind` values of the paths' discs.
        lim_min: `lim_by_kind.min()`.

    Returns:
        (wall (M, 2), folded end (M, 2)); both are `pred` itself when no path leaves the board.

    Examples:
        >>> wall, end = fold_at_cushions(np.array([[0.0, 0.0]]), np.array([[0.0, 120.0]]), np.full(4, 100.0),
        ...                              np.zeros(1, np.int8), lim_min=100.0)
        >>> wall.tolist(), end.tolist()
        ([[0.0, 100.0]], [[0.0, 88.0]])
    """
    if len(xy) == 0 or float(np.abs(pred).max()) <= lim_min:  # (well inside the cushions: the common case)
        return pred, pred
    lim = lim_by_kind[kind][:, None]
    over = np.abs(pred) > lim
    if not over.any():
        return pred, pred
    d = pred - xy
    side = np.sign(pred) * lim
    with np.errstate(divide="ignore", invalid="ignore"):
        frac = np.where(over & (np.abs(d) > 1e-9), (side - xy) / d, 1.0)
    s = np.clip(frac.min(axis=1), 0.0, 1.0)
    wall = xy + d * s[:, None]
    # a cushion keeps about 0.6 of the normal speed
    folded = np.where(over, side - np.sign(pred) * _CUSHION_KEEP * (np.abs(pred) - lim), pred)
    return wall, np.clip(folded, -lim, lim)


def heading_cone(xy: np.ndarray, vel: np.ndarray, z: np.ndarray, at_rest: np.ndarray) -> np.ndarray:
    """(M, N) bool: detection n (z, (N, 2) board mm) lies within about 25 degrees of moving track m's heading.

    Args:
        xy: (M, 2) tracks' last positions, board mm.
        vel: (M, 2) their velocities, mm/s.
        z: (N, 2) detections, board mm.
        at_rest: (M,) bool, tracks at rest (never anything ahead).

    Examples:
        >>> heading_cone(np.zeros((1, 2)), np.array([[100.0, 0.0]]), np.array([[50.0, 5.0], [0.0, 50.0]]),
        ...              np.zeros(1, bool)).tolist()
        [[True, False]]
    """
    # x and y apart: the same numbers as `np.linalg.norm` and `np.einsum` over the last axis give
    tx, ty = z[None, :, 0] - xy[:, None, 0], z[None, :, 1] - xy[:, None, 1]
    vx, vy = vel[:, 0:1], vel[:, 1:2]
    norm = np.sqrt(tx * tx + ty * ty) * np.sqrt(vx * vx + vy * vy)
    cos = (tx * vx + ty * vy) / np.maximum(norm, 1e-9)
    return np.asarray((cos > 0.9) & ~at_rest[:, None])
