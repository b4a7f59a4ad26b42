"""Printed-feature checks of the detector: is a disc-sized candidate sitting exactly on a printed
circle the print itself, or a disc covering it?

A printed filled circle is flat: one ink from its centre to its outline. A disc's face is not:
its concentric grooves (or the turned ring of a plastic disc) and its rim shading make the
lightness vary with the radius, and that variation is the same on every ray, so it survives a
median over the rays while camera noise and slow lighting gradients across the disc do not.
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.rectify import BoardMaps

__all__ = ["face_relief"]

# 32 rays; radii (mm) across the face, clear of the centre dot and of the printed outline's blur
_ANGLES = np.linspace(0.0, 2.0 * np.pi, 32, endpoint=False)
_DIRS = np.stack([np.cos(_ANGLES), np.sin(_ANGLES)], 1)
_RADII_MM = np.arange(3.0, 12.01, 0.5)
_STEP = 4  # neighbours 2 mm either side of a sample: wider than a groove, narrower than the face


def face_relief(frame_bgr: np.ndarray, maps: BoardMaps, xy_mm: np.ndarray) -> np.ndarray:
    """(N,) float lightness relief (Lab L units) of the face around each centre.

    The lightness profile along 32 rays from the centre (3-12 mm) is reduced to its median over
    the rays; the relief is the largest deviation of a profile sample from the mean of its
    neighbours 2 mm either side (a ring, dark or light). A printed fill gives about 0-2, a disc
    with a ring or groove clearly more.

    Args:
        frame_bgr: (H, W, 3) uint8 ORIGINAL frame.
        maps: the detector's board maps (board mm -> original px).
        xy_mm: (N, 2) centres, board mm.
    """
    xy = np.asarray(xy_mm, np.float64).reshape(-1, 2)
    n = len(xy)
    if n == 0:
        return np.zeros(0)
    pts = xy[:, None, None, :] + _RADII_MM[None, None, :, None] * _DIRS[None, :, None, :]
    bgr = maps.sample_original(frame_bgr, pts.reshape(-1, 2)).reshape(1, -1, 3)
    light = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB)[0, :, 0].astype(np.float32)
    profile = np.median(light.reshape(n, len(_DIRS), len(_RADII_MM)), axis=1)
    mid = profile[:, _STEP:-_STEP]
    around = 0.5 * (profile[:, : -2 * _STEP] + profile[:, 2 * _STEP :])
    return np.asarray(np.abs(around - mid).max(axis=1), np.float64)
