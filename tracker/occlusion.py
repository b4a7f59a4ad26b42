"""Occlusion mask: large regions over the playing surface that are neither surface nor disc
(hands, arms, a cue, a head), in the rectified board image.

A pixel is foreground when its colour is far from the surface colour. Detected discs are
removed (dilated disc stamps), thin printed lines by an opening, and only regions larger than
a few striker areas remain, so printed circles and stray discs never count as occlusion.
Hands and arms are told apart as regions reaching in over the surface's edge (`reaching_in`),
far from the surface colour or, for a hand of the board's own colour, different from the bare
board under it (`HandFinder`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

__all__ = [
    "HandFinder", "ellipse_offsets", "fill_pinholes", "hidden_on_rings", "occlusion_mask", "reaching_in", "stamp_discs",
]

# (12, 2) unit vectors round a circle, 30 degrees apart
_RING = np.stack([np.cos(np.arange(12) * np.pi / 6), np.sin(np.arange(12) * np.pi / 6)], axis=1)


def hidden_on_rings(xy_mm: np.ndarray, radii_mm: np.ndarray,
                    is_occluded: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """(N, R * 12) bool: which of the ring points (12, 30 degrees apart) round each centre `xy_mm` (N, 2) board mm, at
    its radii `radii_mm` (N, R) mm (ring by ring), `is_occluded` ((K, 2) board mm -> (K,) bool) hides."""
    pts = xy_mm[:, None, None, :] + radii_mm[:, :, None, None] * _RING[None, None]
    return np.asarray(is_occluded(pts.reshape(-1, 2)), bool).reshape(len(xy_mm), -1)


@functools.lru_cache(maxsize=32)
def ellipse_offsets(k: int, stride: int) -> np.ndarray:
    """Flat offsets of the pixels of a k x k elliptic structuring element from its centre, in a
    row-major image `stride` pixels wide (an image padded by k // 2 all round needs no edge
    checks: `stamp_discs`, `tracker._detect_vote`'s peaks)."""
    rows, cols = np.nonzero(cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return np.asarray((rows - k // 2) * stride + (cols - k // 2))


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
    ij = np.rint(np.asarray(uv, dtype=np.float64).reshape(-1, 2)).astype(np.int64)
    ij = ij[(ij[:, 0] >= 0) & (ij[:, 0] < w) & (ij[:, 1] >= 0) & (ij[:, 1] < h)]
    k = 2 * int(np.ceil(radius_px)) + 1
    # (stamped into the image with a margin of the element's reach all round, cut off after:
    # no footprint pixel needs checking against the edge)
    m = k // 2
    stride = w + 2 * m
    padded = np.zeros((h + 2 * m, stride), np.uint8)
    at = (ij[:, 1] + m) * stride + (ij[:, 0] + m)
    padded.ravel()[at[:, None] + ellipse_offsets(k, stride)[None]] = 255
    return padded[m : m + h, m : m + w].copy()


def occlusion_mask(
    far: np.ndarray,
    discs: np.ndarray,
    surface: np.ndarray,
    *,
    open_px: int,
    min_area_px: int,
    sure: Callable[[], np.ndarray] | None = None,
    min_sure: float = 0.0,
) -> np.ndarray:
    """Boolean occlusion mask.

    Args:
        far: (H, W) uint8, 255 where the colour is far from the surface (and from the reference).
        discs: (H, W) uint8 disc stamps to ignore.
        surface: (H, W) uint8, 255 on the playing surface (pockets excluded).
        open_px: opening kernel size, removes printed lines and small specks.
        min_area_px: smallest region kept.
        sure: gives (H, W) uint8, 255 where something surely covers the board (it differs from
            the bare board under it), or None; given, a region is kept only if at least
            `min_sure` of its pixels are set in it (asked only when some region is large enough).

    Returns:
        (H, W) bool.

    Examples:
        >>> surface = np.full((40, 40), 255, np.uint8); none = np.zeros_like(surface)
        >>> far = none.copy(); far[2:18, 2:18] = far[22:38, 22:38] = 255
        >>> sure = none.copy(); sure[5:10, 5:10] = 255
        >>> m = occlusion_mask(far, none, surface, open_px=3, min_area_px=50, sure=lambda: sure, min_sure=0.05)
        >>> bool(m[10, 10]), bool(m[30, 30])
        (True, False)
    """
    fg = cv2.bitwise_and(far, cv2.bitwise_not(discs))
    fg = cv2.bitwise_and(fg, surface)
    k = max(3, open_px | 1)
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    # 16-bit labels and areas by counting: several times faster than the 32-bit stats call
    n, labels = cv2.connectedComponents(fg, connectivity=8, ltype=cv2.CV_16U)
    regions = _Regions(labels, n)
    areas = regions.areas()
    keep = areas >= min_area_px
    if sure is not None and keep.any():
        keep &= regions.areas(sure()) >= min_sure * areas
    keep[0] = False
    return regions.where(keep)


_OPEN3 = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))
# the largest hole of a speckled hand that is filled, board-image px (at 0.4 px/mm, 60 mm^2: far
# less than a disc's face)
_PINHOLE_PX = 10
_SHRINK = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))


def reaching_in(
    far: np.ndarray,
    surface: np.ndarray,
    rim: np.ndarray,
    *,
    rim_px: int,
    min_area_px: int,
    min_contact_px: float,
    min_half_width_px: float = 0.0,
    rim_at: np.ndarray | None = None,
) -> np.ndarray:
    """Hands and arms reaching in over the edge of the playing surface, discs they touch included.

    A region far from the surface colour that crosses the surface's boundary along a stretch
    wider than a few discs side by side is an arm or a hand, not discs: discs are round and lie
    inside the playing area, an arm comes in from beyond it. The whole region counts (fingers,
    knuckles, and a disc held or touched: hidden, not gone), however disc-like its parts.

    Args:
        far: (H, W) uint8 0/255, far from the surface colour.
        surface: (H, W) uint8 0/255, the playing surface (pockets excluded).
        rim: (H, W) uint8 0/255, the surface's band along its boundary, `rim_px` wide.
        rim_px: width of that band, px.
        min_area_px: smallest region, px.
        min_contact_px: shortest stretch of the boundary crossed, px (its rim pixels over the
            rim's width).
        min_half_width_px: the least half-width of a region at its widest, px: a palm or an
            arm is wider than any disc (a row of discs resting against the cushion, korona's
            set-up of §19, with the striker against them, is as wide as one disc).
        rim_at: `np.flatnonzero(rim)`, if known (`rim` is the same from frame to frame).

    Returns:
        (H, W) bool.

    Examples:
        >>> surface = np.zeros((40, 40), np.uint8); surface[2:38, 2:38] = 255
        >>> inner = cv2.erode(surface, np.ones((5, 5), np.uint8))
        >>> rim = cv2.bitwise_and(surface, cv2.bitwise_not(inner))
        >>> far = np.zeros_like(surface); far[0:20, 15:25] = 255; far[25:31, 25:31] = 255
        >>> m = reaching_in(far, surface, rim, rim_px=2, min_area_px=50, min_contact_px=5)
        >>> bool(m[10, 20]), bool(m[28, 28])
        (True, False)
    """
    fg = cv2.bitwise_and(far, surface)
    # printed lines (a pixel or two wide in the board image) and specks go; an arm crossing a
    # line stays one region
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, _OPEN3)
    # a disc resting against a fingertip touches it at a point: shrunk by a pixel or two, it comes
    # apart from the hand (fingers stay joined to the palm); the band along the boundary is kept
    # whole, where the arm's crossing is measured
    core = cv2.bitwise_or(cv2.erode(fg, _SHRINK), cv2.bitwise_and(fg, rim))
    n, labels = cv2.connectedComponents(core, connectivity=8, ltype=cv2.CV_16U)  # (areas below: faster)
    if n <= 1:
        return np.zeros(fg.shape, bool)
    # (most frames have no hand: the crossing, counted on the narrow band, rules most regions out)
    on_rim = labels[rim > 0] if rim_at is None else labels.ravel()[rim_at]
    contact = np.bincount(on_rim, minlength=n) / max(rim_px, 1)
    keep = contact >= min_contact_px
    keep[0] = False
    if not keep.any():
        return np.zeros(fg.shape, bool)
    regions = _Regions(labels, n)
    keep &= regions.areas() >= min_area_px
    if min_half_width_px > 0 and keep.any():
        # a region this wide somewhere (as wide at its widest part): a palm or an arm is wider
        # than any disc
        wide = cv2.distanceTransform(fg, cv2.DIST_L2, 3) >= min_half_width_px
        keep &= regions.areas(wide.view(np.uint8)) > 0
    if not keep.any():
        return np.zeros(fg.shape, bool)
    return np.asarray(cv2.bitwise_and(cv2.dilate(regions.mask(keep), _SHRINK), fg) > 0)


def fill_pinholes(mask: np.ndarray, max_px: int = _PINHOLE_PX) -> np.ndarray:
    """(H, W) uint8 0/255 `mask` with its holes of fewer than `max_px` pixels filled (4-connected
    regions of unset pixels enclosed by set ones; a gap between two regions, open to the rest of
    the image, is not bridged, as a closing would).

    Examples:
        >>> m = np.zeros((9, 9), np.uint8); m[1:8, 1:8] = 255; m[3, 3] = m[5, 4:6] = 0
        >>> int((fill_pinholes(m) > 0).sum()), int((fill_pinholes(m, max_px=2) > 0).sum())
        (49, 47)
    """
    n, labels = cv2.connectedComponents(cv2.bitwise_not(mask), connectivity=4, ltype=cv2.CV_16U)
    regions = _Regions(labels, n)
    small = regions.areas() < max_px
    small[0] = False  # (label 0: the set pixels)
    if not small.any():
        return mask
    return np.asarray(cv2.bitwise_or(mask, regions.mask(small)))


class HandFinder:
    """Hands and arms reaching in (`reaching_in`) from two signs, frame after frame: a colour far
    from the surface's, or one that differs from the bare board under it (a hand of the board's
    own colour: a pale hand on a pale board).

    The second is asked when the first finds no hand and the difference crosses the edge along
    an arm's width (most frames have no hand at all), and when the first finds one, for a pale
    hand beyond a sleeve that stands out; what it adds to a hand found is taken only if it is as
    wide as a palm somewhere: a striker's blur running out of the fingers differs from the bare
    board too, and is no wider than the striker. Once a hand is found that way, the next frame
    asks it first, and keeps what it finds while a hand is there (the same hand, though a sleeve
    that stands out may follow it in; carrom seed 3003: the sleeve alone was taken for the hand,
    the pale hand beyond it left out).

    Args:
        surface, rim: (H, W) uint8 0/255, the playing surface and the band along its boundary.
        **reach: the thresholds of `reaching_in` (`rim_px`, `min_area_px`, `min_contact_px`,
            `min_half_width_px`).
    """

    def __init__(self, surface: np.ndarray, rim: np.ndarray, **reach: Any) -> None:
        self.surface, self.rim, self.reach = surface, rim, reach
        self.rim_at = np.flatnonzero(rim)
        self.pale = False  # the last hand was found against the bare board only

    def find(
        self, far: np.ndarray, off_bare: np.ndarray | None, box: tuple[slice, slice] | None = None
    ) -> np.ndarray:
        """(H, W) bool hands and arms, from `far` and `off_bare` ((H, W) uint8 0/255: far from
        the surface colour; different from the bare board, None while it is not known); with
        `box` (rows, cols), those two are that part of the board image only, and so is the
        result (the hands lie wholly inside it)."""
        part = self._part(box)
        if off_bare is None:
            return self._find(far, part)
        if self.pale:
            # (the same hand, kept whole though what follows it in stands out; with none found from
            # both signs, none is found from either alone: its regions are parts of theirs)
            hands = self._against_bare(far, off_bare, part)
            self.pale = bool(hands.any())
            return hands
        hands = self._find(far, part)
        if hands.any():
            return self._pale_beyond(hands, far, off_bare, part)
        crossing = cv2.countNonZero(cv2.bitwise_and(off_bare, part[1]))
        if crossing < self.reach["min_contact_px"] * self.reach["rim_px"]:
            return hands
        hands = self._against_bare(far, off_bare, part)
        # a pale one if most of it is not far from the surface colour (one that stands out, missed
        # in a frame, is not taken for a pale one)
        mask = hands.view(np.uint8)
        area = cv2.countNonZero(mask)
        self.pale = area > 0 and cv2.countNonZero(cv2.bitwise_and(far, far, mask=mask)) < 0.5 * area
        return hands

    def _pale_beyond(self, hands: np.ndarray, far: np.ndarray, off_bare: np.ndarray,
                     part: tuple[np.ndarray, np.ndarray, np.ndarray | None]) -> np.ndarray:
        """`hands` found standing out, with a pale hand beyond them: a sleeve stands out, the hand
        coming out of it may not (carrom seed 1016 at 60 fps: a pale palm over a black, its
        fingers read as discs, the hand's way read as a shot). Taken when what the bare board adds
        is as wide as a palm somewhere: a striker's blur running out of the fingers is no wider
        than the striker."""
        both = self._against_bare(far, off_bare, part)
        added = (both & ~hands).view(np.uint8)
        if cv2.countNonZero(added) < self.reach["min_area_px"]:
            return hands
        width = cv2.distanceTransform(added, cv2.DIST_L2, 3)
        if float(width.max()) < self.reach["min_half_width_px"]:
            return hands
        self.pale = True
        return both

    def _part(self, box: tuple[slice, slice] | None) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """(surface, rim, the rim's flat indices or None) inside `box` (None: the whole board)."""
        if box is None:
            return self.surface, self.rim, self.rim_at
        return self.surface[box], self.rim[box], None

    def _against_bare(
        self, far: np.ndarray, off_bare: np.ndarray, part: tuple[np.ndarray, np.ndarray, np.ndarray | None]
    ) -> np.ndarray:
        """Hands from both signs, in the `part` of the board `_part` gives.

        (Skin that nearly matches the board leaves the difference speckled: its pinholes are
        filled first, or the hand falls apart into specks, none of them an arm's width; carrom
        seed 3003. Filled, not closed: closing would bridge the gap to a disc beside the hand.)"""
        return self._find(cv2.bitwise_or(far, fill_pinholes(off_bare)), part)

    def _find(self, far: np.ndarray, part: tuple[np.ndarray, np.ndarray, np.ndarray | None]) -> np.ndarray:
        surface, rim, rim_at = part
        return reaching_in(far, surface, rim, rim_at=rim_at, **self.reach)


class _Regions:
    """Per-region lookups of a label image: with 256 labels or fewer (nearly always), by OpenCV's
    8-bit histogram and table lookup, several times faster than numpy's indexing."""

    def __init__(self, labels: np.ndarray, n: int) -> None:
        self.labels, self.n = labels, n
        self.small = labels.astype(np.uint8) if n <= 256 else None

    def areas(self, within: np.ndarray | None = None) -> np.ndarray:
        """(n,) pixels per region (whole numbers), only those set in `within` ((H, W) uint8) if given."""
        if self.small is None:
            labels = self.labels if within is None else self.labels[within > 0]
            return np.bincount(labels.ravel(), minlength=self.n)
        return cv2.calcHist([self.small], [0], within, [256], [0, 256]).ravel()[: self.n]

    def where(self, keep: np.ndarray) -> np.ndarray:
        """(H, W) bool: the pixels of the regions where `keep` (n,) bool is True."""
        return np.asarray(self.mask(keep) > 0)

    def mask(self, keep: np.ndarray) -> np.ndarray:
        """(H, W) uint8, 255 on the pixels of the regions where `keep` (n,) bool is True."""
        if self.small is None:
            return np.asarray(keep[self.labels].astype(np.uint8) * np.uint8(255))
        table = np.zeros(256, np.uint8)
        table[: self.n] = keep * np.uint8(255)
        return np.asarray(cv2.LUT(self.small, table))
