"""Occlusion mask: large regions over the playing surface that are neither surface nor disc
(hands, arms, a cue, a head), in the rectified board image.

A pixel is foreground when its colour is far from the surface colour. Detected discs are
removed (dilated disc stamps), thin printed lines by an opening, and only regions larger than
a few striker areas remain, so printed circles and stray discs never count as occlusion.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

__all__ = ["occlusion_mask", "stamp_discs"]


@functools.lru_cache(maxsize=32)
def _footprint(k: int) -> tuple[np.ndarray, np.ndarray]:
    """(rows, cols) offsets of the pixels of a k x k elliptic structuring element from its centre."""
    rows, cols = np.nonzero(cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return rows - k // 2, cols - k // 2


def stamp_discs(shape: tuple[int, int], uv: np.ndarray, radius_px: float) -> np.ndarray:
    """(H, W) uint8 mask, 255 within `radius_px` of any point of `uv` (N, 2) board-image px that
    lies inside the image.

    The pixels of every disc are indexed at once (points x footprint offsets; no per-disc
    loop): the same mask as dilating an image of the points with an elliptic element, at a
    fraction of the cost for a few dozen discs.

    Examples:
        >>> m = stamp_discs((9, 9), np.array([[4.0, 4.0], [20.0, 4.0]]), 2.0)
        >>> int(m.sum() // 255), bool(m[4, 6]), bool(m[4, 7])
        (17, True, False)
    """
    h, w = shape
    img = np.zeros((h, w), np.uint8)
    ij = np.rint(np.asarray(uv, dtype=np.float64).reshape(-1, 2)).astype(np.int64)
    ij = ij[(ij[:, 0] >= 0) & (ij[:, 0] < w) & (ij[:, 1] >= 0) & (ij[:, 1] < h)]
    dr, dc = _footprint(2 * int(np.ceil(radius_px)) + 1)
    rows, cols = ij[:, 1, None] + dr[None], ij[:, 0, None] + dc[None]
    ok = (rows >= 0) & (rows < h) & (cols >= 0) & (cols < w)
    img[rows[ok], cols[ok]] = 255
    return img


def occlusion_mask(
    far: np.ndarray,
    discs: np.ndarray,
    surface: np.ndarray,
    *,
    open_px: int,
    min_area_px: int,
) -> np.ndarray:
    """Boolean occlusion mask.

    Args:
        far: (H, W) uint8, 255 where the colour is far from the surface (and from the reference).
        discs: (H, W) uint8 disc stamps to ignore.
        surface: (H, W) uint8, 255 on the playing surface (pockets excluded).
        open_px: opening kernel size, removes printed lines and small specks.
        min_area_px: smallest region kept.

    Returns:
        (H, W) bool.
    """
    fg = cv2.bitwise_and(far, cv2.bitwise_not(discs))
    fg = cv2.bitwise_and(fg, surface)
    k = max(3, open_px | 1)
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(fg, connectivity=8)
    keep = stats[:, cv2.CC_STAT_AREA] >= min_area_px
    keep[0] = False
    return np.asarray(keep[labels])
