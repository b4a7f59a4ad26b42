"""Occlusion mask: large regions over the playing surface that are neither surface nor disc
(hands, arms, a cue, a head), in the rectified board image.

A pixel is foreground when its colour is far from the surface colour. Detected discs are
removed (dilated disc stamps), thin printed lines by an opening, and only regions larger than
a few striker areas remain, so printed circles and stray discs never count as occlusion.
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["occlusion_mask", "stamp_discs"]


def stamp_discs(shape: tuple[int, int], uv: np.ndarray, radius_px: float) -> np.ndarray:
    """(H, W) uint8 mask, 255 within `radius_px` of any point of `uv` (N, 2) board-image px.

    One dilation of an impulse image (no per-disc loop).
    """
    h, w = shape
    img = np.zeros((h, w), np.uint8)
    ij = np.rint(np.asarray(uv)).astype(np.int64)
    ok = (ij[:, 0] >= 0) & (ij[:, 0] < w) & (ij[:, 1] >= 0) & (ij[:, 1] < h)
    img[ij[ok, 1], ij[ok, 0]] = 255
    k = 2 * int(np.ceil(radius_px)) + 1
    return cv2.dilate(img, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))


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
