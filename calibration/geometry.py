"""Pure, vectorised plane geometry: `(N, 2) -> (N, 2)` functions with no state.

Image points are pixels (col, row); board points are millimetres with the origin at the
board centre. A homography `H` maps homogeneous image points to board points.
"""

from __future__ import annotations

import numpy as np

from tracker._validate import check_shape

__all__ = ["apply_homography", "invert_homography", "order_corners", "MIN_W"]

# Points whose homogeneous w falls below this are at (or behind) the horizon of the mapping.
MIN_W = 1e-9


def apply_homography(H: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """Map (N, 2) points through the 3x3 homography `H`.

    Points that map to the line at infinity (|w| < MIN_W) come back as NaN rather than
    as huge numbers, so callers can see and drop them.

    Examples:
        >>> H = np.array([[2.0, 0, 1], [0, 2, 0], [0, 0, 1]])
        >>> apply_homography(H, np.array([[1.0, 1.0]]))
        array([[3., 2.]])
        >>> apply_homography(np.array([[1.0, 0, 0], [0, 1, 0], [1, 0, 0]]), np.array([[0.0, 5.0]]))
        array([[nan, nan]])
    """
    check_shape(H, (3, 3), "H")
    pts = np.asarray(xy, dtype=np.float64)
    check_shape(pts, (None, 2), "xy")
    hom = pts @ H[:, :2].T + H[:, 2]
    w = hom[:, 2:3]
    ok = np.abs(w) >= MIN_W
    safe_w = np.where(ok, w, 1.0)
    return np.where(ok, hom[:, :2] / safe_w, np.nan)


def invert_homography(H: np.ndarray) -> np.ndarray:
    """Inverse of a homography, normalised so that its [2, 2] entry is 1 where possible."""
    check_shape(H, (3, 3), "H")
    inv = np.linalg.inv(H)
    return inv / inv[2, 2] if abs(inv[2, 2]) > MIN_W else inv


def order_corners(xy: np.ndarray) -> np.ndarray:
    """Order four image points NW, NE, SE, SW: NW nearest the image's top-left, then clockwise.

    Args:
        xy: (4, 2) image pixels in any order.

    Returns:
        (4, 2) float64, the same points reordered.

    Examples:
        >>> order_corners(np.array([[10, 10], [0, 10], [0, 0], [10, 0]]))
        array([[ 0.,  0.],
               [10.,  0.],
               [10., 10.],
               [ 0., 10.]])
    """
    pts = np.asarray(xy, dtype=np.float64)
    check_shape(pts, (4, 2), "xy")
    centre = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    cw = pts[np.argsort(ang)]  # image y points down, so increasing angle is clockwise on screen
    start = int(np.argmin(cw.sum(axis=1)))
    return np.roll(cw, -start, axis=0)
