"""Discs too blurred by their own motion for an outline: the striker just flicked, a coin after a
hard hit.

At a few metres per second a disc smears into a soft blob along its path in one exposure: no
edge rises sharply enough for the radial outline fit, yet the blob is plainly there, far from
the surface colour, where the picture changed. Its width across the motion is still the disc's
diameter, which tells the striker from a coin; its mean colour tells the coins apart.

Used by the change-driven still path only (`tracker._detect_changed`): a blob must lie in the
change, so the printed circles and lines, which never change, are never taken for one.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["Blobs", "blur_blobs"]

_OPEN3 = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))  # (also the closing of `fill_gaps`)
_RING = 0.6  # width of the ring round a blob that must be clear of foreground, in disc radii


@dataclass(frozen=True, slots=True)
class Blobs:
    """Blurred discs found (arrays of the same length K).

    Attributes:
        uv_px: (K, 2) centroids, board-image px.
        half_width_px: (K,) half the width across the motion (a disc's radius), px.
        lab: (K, 3) mean Lab of the blob (8-bit OpenCV scale).
    """

    uv_px: np.ndarray
    half_width_px: np.ndarray
    lab: np.ndarray


def blur_blobs(
    fg: np.ndarray,
    change: np.ndarray,
    board_lab: np.ndarray,
    exclude: np.ndarray,
    edge: np.ndarray,
    *,
    radii_px: tuple[float, float],
    max_length: float = 4.0,
    min_changed: float = 0.6,
    fill_gaps: bool = False,
    max_ring_busy: float = 0.1,
) -> Blobs:
    """Foreground blobs that are blurred discs.

    A blob is kept when most of it (`min_changed`) changed, its half-width across its long axis
    (from the second moments: a disc's radius for a disc, and for a disc smeared along a line)
    lies within 25 % of one of `radii_px`, and its half-length is at most `max_length` radii.

    Args:
        fg: (H, W) uint8 0/255 far from the surface colour.
        change: (H, W) uint8 0/255 changed since the reference image.
        board_lab: (H, W, 3) uint8 Lab board image.
        exclude: (H, W) uint8 0/255 where no blob may be (discs found, hands, the frame).
        edge: (H, W) uint8 0/255 band along the surface's edge: a blob reaching into it may be
            the fingers of a hand coming in over the edge, too small to be told as one.
        radii_px: the smallest and the largest disc radius, board-image px.
        max_length: longest half-length, in radii.
        min_changed: least changed share of a blob's pixels.
        fill_gaps: close the blobs' gaps of a pixel or two first: a smeared disc whose face is
            near the surface's colour (light men on a light board; korona's are its very colour)
            stands out only by its rim and in speckles, which the opening would take apart
            (korona seed 1018 at 30 fps: a light man struck 660 mm to the NE pocket; carrom
            seed 1039 at 30 fps: a white out of the break into the NW pocket; neither seen on
            his way). A blob so joined must then stand alone: in a ring round it, at most
            `max_ring_busy` of the pixels may be in `fg` (the outline and speckles of a pale
            hand, the board's colour, close into blobs of a disc's size too, amid more of the
            same).

    Examples:
        >>> fg = np.zeros((60, 60), np.uint8)  # a disc of radius 8 px smeared 14 px to the right
        >>> fg = cv2.line(cv2.circle(fg, (20, 30), 8, 255, -1), (20, 30), (34, 30), 255, 17)
        >>> lab = np.zeros((60, 60, 3), np.uint8); ch = np.full_like(fg, 255)
        >>> b = blur_blobs(fg, ch, lab, np.zeros_like(fg), np.zeros_like(fg), radii_px=(6.0, 8.0))
        >>> b.uv_px.round().tolist(), b.half_width_px.round().tolist()
        ([[27.0, 30.0]], [9.0])
    """
    none = Blobs(np.zeros((0, 2)), np.zeros(0), np.zeros((0, 3)))
    r_lo, r_hi = radii_px
    mask = cv2.bitwise_and(fg, cv2.bitwise_not(exclude))
    # (a blob has `min_changed` of its 0.6 pi r_lo^2 pixels or more in the change: without
    # that many changed ones in all, there is none)
    if cv2.countNonZero(cv2.bitwise_and(mask, change)) < min_changed * 0.6 * np.pi * r_lo**2:
        return none
    raw = mask
    if fill_gaps:
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _OPEN3)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _OPEN3)
    n, labels = cv2.connectedComponents(mask, connectivity=8, ltype=cv2.CV_16U)
    if n <= 1:
        return none
    ys, xs = np.nonzero(labels)
    lab_of = labels[ys, xs].astype(np.intp)
    count = np.bincount(lab_of, minlength=n).astype(np.float64)
    # (areas first: most blobs are specks or whole hands, and go before their moments are taken)
    area_ok = (count >= 0.6 * np.pi * r_lo**2) & (count <= np.pi * r_hi**2 * (1.0 + 4.0 * max_length / np.pi))
    area_ok[0] = False
    if not area_ok.any():
        return none
    sel = area_ok[lab_of]
    ys, xs, lab_of = ys[sel], xs[sel], lab_of[sel]
    c = np.maximum(count, 1.0)
    fx, fy = xs.astype(np.float64), ys.astype(np.float64)
    mx, my = np.bincount(lab_of, fx, n) / c, np.bincount(lab_of, fy, n) / c
    sxx = np.bincount(lab_of, fx * fx, n) / c - mx * mx
    syy = np.bincount(lab_of, fy * fy, n) / c - my * my
    sxy = np.bincount(lab_of, fx * fy, n) / c - mx * my
    across = np.maximum(0.5 * (sxx + syy) - np.sqrt(np.maximum(0.25 * (sxx - syy) ** 2 + sxy * sxy, 0.0)), 0.0)
    width, length = _capsule(count, across)
    changed = np.bincount(lab_of, (change[ys, xs] > 0).astype(np.float64), n) / c
    ok = area_ok & (width >= 0.75 * r_lo) & (width <= 1.25 * r_hi) & (length <= max_length * width)
    ok &= changed >= min_changed
    ok &= np.bincount(lab_of, (edge[ys, xs] > 0).astype(np.float64), n) == 0
    if fill_gaps and ok.any():
        ok &= _alone(labels, ok, raw, max(2, int(round(_RING * r_lo)))) <= max_ring_busy
    k = np.nonzero(ok)[0]
    if k.size == 0:
        return none
    colour = board_lab[ys, xs].astype(np.float64)
    lab = np.stack([np.bincount(lab_of, colour[:, i], n) for i in range(3)], axis=1) / c[:, None]
    return Blobs(np.stack([mx[k], my[k]], axis=1), width[k], lab[k])


def _alone(labels: np.ndarray, keep: np.ndarray, fg: np.ndarray, ring_px: int) -> np.ndarray:
    """(n,) share of the pixels in a ring `ring_px` wide round each blob of `labels` ((H, W)
    uint16, 0: none) that `fg` ((H, W) uint8 0/255) holds, for the labels where `keep` (n,) bool
    (where two blobs' rings meet, the higher label's); 1 for the others.

    Examples:
        >>> labels = np.zeros((30, 60), np.uint16); labels[10:16, 10:16] = 1; labels[10:16, 40:46] = 2
        >>> fg = np.zeros((30, 60), np.uint8); fg[5:21, 35:51] = 255  # blob 2 amid more of its like
        >>> _alone(labels, np.array([False, True, True]), fg, 2).round(2).tolist()
        [1.0, 0.0, 1.0]
    """
    n = len(keep)
    kept = np.where(keep, np.arange(n), 0).astype(np.uint16)[labels]
    k = 2 * ring_px + 1
    near = cv2.dilate(kept, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    ys, xs = np.nonzero((near > 0) & (labels == 0))
    owner = near[ys, xs].astype(np.intp)
    busy = np.bincount(owner, (fg[ys, xs] > 0).astype(np.float64), n) / np.maximum(np.bincount(owner, minlength=n), 1)
    return np.where(keep, busy, 1.0)


def _capsule(area: np.ndarray, across: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Radius and half-length (px) of the capsules (a disc of radius r smeared along 2 L) with
    these areas (pi r^2 + 4 r L) and variances across their axis.

    Across the axis a disc's variance is r^2 / 4 and the straight part's r^2 / 3, weighed by
    their areas; a few rounds of fixed-point iteration from the disc's answer settle both.

    Examples:
        >>> r, half = _capsule(np.array([np.pi * 64.0]), np.array([16.0]))
        >>> round(float(r[0]), 3), round(float(half[0]), 3)
        (8.0, 0.0)
    """
    r = 2.0 * np.sqrt(across)
    half = np.zeros_like(r)
    for _ in range(4):
        safe = np.maximum(r, 1e-6)
        half = np.maximum(area - np.pi * safe * safe, 0.0) / (4.0 * safe)
        straight = 4.0 * safe * half / np.maximum(area, 1e-6)
        r = np.sqrt(across / (straight / 3.0 + (1.0 - straight) / 4.0))
    return r, half
