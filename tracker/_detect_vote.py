"""Disc candidates in the rectified board image by fixed-radius circle voting.

Every strong colour edge votes for the two points one disc radius away along its gradient
(a disc may be lighter or darker than what surrounds it). Because the board image has a
fixed scale, each disc size needs one accumulator; touching discs keep separate peaks since
each outline votes for its own centre. Straight printed lines spread their votes thinly.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from tracker.occlusion import ellipse_offsets

__all__ = ["edge_field", "vote_centres"]


def edge_field(
    far: np.ndarray, light: np.ndarray, *, min_mag: float, weight: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Strong edges of two scalar images, the stronger of the two at each pixel.

    Args:
        far: (H, W) float32 colour distance from the surface (dark and coloured discs).
        light: (H, W) float32 lightness (light discs whose colour is close to the surface still
            have a darker rim and a shadow).
        min_mag: minimum gradient magnitude (units per pixel).
        weight: optional (H, W) float32 0/1 mask; edges where it is 0 (printed lines) are ignored.

    Returns:
        (ys, xs, unit (K, 2) float32 gradient directions (dx, dy)) of edge pixels.
    """
    gx = cv2.Sobel(far, cv2.CV_32F, 1, 0, ksize=3, scale=0.125)
    gy = cv2.Sobel(far, cv2.CV_32F, 0, 1, ksize=3, scale=0.125)
    lx = cv2.Sobel(light, cv2.CV_32F, 1, 0, ksize=3, scale=0.125)
    ly = cv2.Sobel(light, cv2.CV_32F, 0, 1, ksize=3, scale=0.125)
    m1, m2 = cv2.magnitude(gx, gy), cv2.magnitude(lx, ly)
    mag = np.maximum(m1, m2)
    if weight is not None:
        mag *= weight
    ys, xs = np.nonzero(mag > min_mag)
    m = mag[ys, xs]
    sel = m2[ys, xs] > m1[ys, xs]  # (the lightness's edge, the stronger here)
    ux = np.where(sel, lx[ys, xs], gx[ys, xs]) / m
    uy = np.where(sel, ly[ys, xs], gy[ys, xs]) / m
    return ys, xs, np.stack([ux, uy], axis=1)


def _accumulate(shape: tuple[int, int], pts: np.ndarray, unit: np.ndarray, radius_px: float) -> np.ndarray:
    h, w = shape
    cand = np.rint(np.concatenate([pts + radius_px * unit, pts - radius_px * unit]))
    # votes counted by a 2-D histogram of the rounded (row, col) pairs, one bin a pixel (the
    # votes beyond the image fall outside its ranges)
    rows, cols = cand[:, 1:].astype(np.float32), cand[:, :1].astype(np.float32)
    acc = cv2.calcHist([rows, cols], [0, 1], None, [h, w], [0, h, 0, w])
    return np.asarray(cv2.boxFilter(acc, -1, (5, 5), normalize=False))  # votes land within ~2 px of the centre


@functools.lru_cache(maxsize=8)
def _middle(k: int) -> np.ndarray:
    """The 3 x 3 middle of the k x k elliptic structuring element (uint8)."""
    c = k // 2
    return np.ascontiguousarray(cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))[c - 1 : c + 2, c - 1 : c + 2])


def _peaks(acc: np.ndarray, k: int, min_frac: float) -> tuple[np.ndarray, np.ndarray]:
    """(rows, cols) of the pixels of `acc` (H, W) float32 of at least `min_frac` that are the
    largest (ties included) of their k x k elliptic neighbourhood, in row-major order: what
    comparing `acc` with its dilation by that element gives.

    Only the few pixels that are the largest of the middle 3 x 3 of the element are compared
    with their whole neighbourhood (in `acc` padded with -inf: as dilating, the pixels beyond
    the image's edge do not count).

    Examples:
        >>> acc = np.zeros((9, 9), np.float32); acc[2, 2], acc[3, 4], acc[7, 8] = 3, 2, 1
        >>> [v.tolist() for v in _peaks(acc, 5, 0.5)]
        [[2, 7], [2, 8]]
    """
    py, px = np.nonzero((acc >= cv2.dilate(acc, _middle(k))) & (acc >= min_frac))
    c = k // 2
    padded = cv2.copyMakeBorder(acc, c, c, c, c, cv2.BORDER_CONSTANT, value=-np.inf)
    stride = padded.shape[1]
    at = (py + c) * stride + (px + c)
    around = padded.ravel()[at[:, None] + ellipse_offsets(k, stride)[None, :]]
    top = acc[py, px] >= around.max(axis=1, initial=-np.inf)
    return py[top], px[top]


def vote_centres(
    shape: tuple[int, int],
    ys: np.ndarray,
    xs: np.ndarray,
    unit: np.ndarray,
    radii_px: tuple[float, ...],
    *,
    min_frac: float,
    max_peaks: int,
    valid: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Accumulate votes for circle centres of each radius and return the strongest peaks.

    Each accumulator is normalised by the votes of a complete outline (edges ~2 px thick) and
    searched for local maxima on its own (a striker-sized plateau must not hide men).

    Args:
        shape: (H, W) of the board image.
        ys, xs, unit: edge pixels and gradient directions from `edge_field`.
        radii_px: circle radii in board-image pixels.
        min_frac: minimum share of a complete outline's votes.
        max_peaks: keep at most this many peaks per radius (strongest first).
        valid: optional (H, W) bool, where centres may lie.

    Returns:
        (peaks (P, 2) float32 (x, y) board-image px, index of the radius (P,), vote share (P,)).
    """
    pts = np.stack([xs, ys], axis=1).astype(np.float32)
    out_uv, out_which, out_v = [], [], []
    valid_f = np.ones(shape, np.float32) if valid is None else valid.astype(np.float32)
    for i, r in enumerate(radii_px):
        # (a complete outline, edges ~2 px thick, gives 2 pi r 2 votes; none outside `valid`; the
        # scale rounded to float32, as the votes are)
        acc = cv2.multiply(_accumulate(shape, pts, unit, r), valid_f, scale=float(np.float32(1.0 / (4 * np.pi * r))))
        # a peak is the largest within one radius (discs of one size are a diameter apart at
        # least): a cluster of small peaks on clutter (a printed star, grain) is one candidate,
        # and does not crowd a faint disc out of the strongest few
        # (a flat-topped peak yields a candidate at each of its top pixels: refined from their
        # slightly different starts, the best fit is kept, see `tracker._detect_refine`)
        py, px = _peaks(acc, 2 * max(1, int(round(r))) + 1, min_frac)
        v = acc[py, px]
        if len(v) > max_peaks:
            top = np.argpartition(-v, max_peaks)[:max_peaks]
            py, px, v = py[top], px[top], v[top]
        out_uv.append(np.stack([px, py], axis=1).astype(np.float32))
        out_which.append(np.full(len(v), i, np.intp))
        out_v.append(v)
    return np.concatenate(out_uv), np.concatenate(out_which), np.concatenate(out_v)
