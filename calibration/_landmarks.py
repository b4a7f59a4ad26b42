"""Printed base circles as landmarks, for pictures that show fewer than three surface edges.

A tight crop (the board fills the picture, its frame outside) hides most surface edges, but the
eight red base circles at the ends of the base lines stay in view. Their pattern is symmetric
about the board centre; boards differ in exactly where the circles sit (a centimetre or two
from the nominal spot), but a symmetric offset does not move the centre. So the circles give a
homography that is trusted for symmetry only: a missing edge is the mirror image, through the
board centre, of the edge opposite it.

Coordinates: the downscaled work image's pixels.
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.geometry import apply_homography
from tracker.specs import BoardSpec, base_circle_pattern

__all__ = ["circles_homography", "mirror_side"]


def _red_blobs(lab: np.ndarray, surface_lab: np.ndarray, area_px: tuple[float, float]) -> np.ndarray:
    """(K, 2) centroids of compact blobs much redder than the surface, within an area range."""
    redder = (lab[..., 1].astype(np.float32) > float(surface_lab[1]) + 12.0).astype(np.uint8) * 255
    red = cv2.morphologyEx(redder, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    _, _, stats, cents = cv2.connectedComponentsWithStats(red, connectivity=8)
    area = stats[1:, cv2.CC_STAT_AREA]
    w, h = stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT]
    compact = (area >= area_px[0]) & (area <= area_px[1]) & (np.maximum(w, h) <= 2.0 * np.minimum(w, h))
    return np.asarray(cents[1:][compact], np.float64)


def circles_homography(lab: np.ndarray, surface_lab: np.ndarray, spec: BoardSpec, box: np.ndarray) -> np.ndarray | None:
    """Homography (3, 3) board mm -> work px from the red base circles, or None (fewer than 5).

    Args:
        lab: (H, W, 3) Lab work image.
        surface_lab: (3,) surface colour.
        spec: the board (carrom: base circles; other boards have none and give None).
        box: (4,) x0, y0, x1, y1 of the surface region, which roughly spans the board.
    """
    x0, y0, x1, y1 = np.asarray(box, np.float64)
    scale = min(x1 - x0, y1 - y0) / spec.size_mm  # work px per mm, roughly
    r = spec.base_circle_diameter_mm / 2 * scale
    blobs = _red_blobs(lab, surface_lab, (0.15 * np.pi * r**2, 1.5 * np.pi * r**2))
    if len(blobs) < 5:
        return None
    centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    slot = _assign_slots(blobs, centre)
    ok = slot >= 0
    if ok.sum() < 5:
        return None
    a, b = spec.base_circle_centre_mm
    ns = np.isin(slot[ok], (0, 1, 4, 5))
    H = np.eye(3)
    for _ in range(4):  # boards place their circles differently: fit the pattern's a and b too
        fit, _ = cv2.findHomography(base_circle_pattern(a, b)[slot[ok]], blobs[ok], 0)
        if fit is None:
            return None
        H = np.asarray(fit, np.float64)
        mm = np.abs(apply_homography(np.linalg.inv(H), blobs[ok]))
        along, across = np.where(ns, mm[:, 0], mm[:, 1]), np.where(ns, mm[:, 1], mm[:, 0])
        a, b = float(along.mean()), float(across.mean())
    err = np.linalg.norm(apply_homography(H, base_circle_pattern(a, b)[slot[ok]]) - blobs[ok], axis=1)
    return None if err.max() > 8.0 * scale else H


def _assign_slots(blobs: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """(K,) slot index (see `base_circle_pattern`) of each blob, -1 when ambiguous.

    The quadrant around `centre` gives the corner; of the two circles by a corner the one
    further out along y belongs to the N or S side, the other to the E or W side.
    """
    d = blobs - centre
    skew = np.abs(d[:, 1]) - np.abs(d[:, 0])  # > 0: a N/S-side circle
    # slots by quadrant (sign x, sign y): (N/S slot, E/W slot)
    table = {(-1, -1): (0, 7), (1, -1): (1, 2), (1, 1): (4, 3), (-1, 1): (5, 6)}
    quad = np.sign(d).astype(int)
    out = np.full(len(blobs), -1)
    for key, (ns, ew) in table.items():  # four quadrants, a few blobs: not a per-frame path
        idx = np.nonzero((quad[:, 0] == key[0]) & (quad[:, 1] == key[1]))[0]
        if len(idx) == 1:
            out[idx[0]] = ns if skew[idx[0]] > 0 else ew
        elif len(idx) == 2:
            hi, lo = idx[np.argsort(-skew[idx])]
            out[hi], out[lo] = ns, ew
    return out


def mirror_side(pts: np.ndarray, board_to_img: np.ndarray, *, axis: int) -> np.ndarray:
    """Edge points (M, 2, image px) mirrored through the board centre across `axis` (0: x -> -x,
    the E/W sides; 1: y -> -y, the N/S sides), via the circles' homography."""
    mm = apply_homography(np.linalg.inv(board_to_img), pts)
    mm[:, axis] *= -1.0
    return apply_homography(board_to_img, mm)
