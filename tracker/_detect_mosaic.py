"""Change-driven still path: the parts of a box that are looked at, packed into one image.

During a shot the change often lies in a few places far apart (discs struck to opposite
cushions); the box bounding them all can be most of the board. Each part round one place (its
piece of the redo mask, padded as the box is) is cut out, a pixel more all round for the
gradients, and the parts are stacked one under another with empty rows between them, enough
that no edge of one part votes for a centre in another. Edges and votes then cost what the
parts hold, in one pass, and each vote peak maps back to the board image by its part.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tracker._detect_region import Box, box_rect

__all__ = ["Mosaic", "split_box"]

# the parts are packed only when they cover at most this share of the box (else the box it is)
_MAX_SHARE = 0.6


def split_box(redo: np.ndarray, box: Box, pad_px: float) -> list[Box]:
    """The parts of `box` round the separate pieces of the redo mask (`redo` (H, W) uint8 0/255
    board image), each padded by `pad_px` within the box, overlapping ones merged; `[box]` when
    there is one part or the parts cover most of the box anyway.

    Examples:
        >>> redo = np.zeros((100, 100), np.uint8); redo[10:15, 10:15] = 255; redo[80:85, 80:85] = 255
        >>> [box_rect(b, redo.shape) for b in split_box(redo, (slice(5, 90), slice(5, 90)), 3)]
        [(7, 7, 18, 18), (77, 77, 88, 88)]
    """
    x0, y0, x1, y1 = box_rect(box, redo.shape)
    # (16-bit labels: the same labels and statistics, in half the time of 32-bit ones; a box of the
    # board image holds far fewer than 65536 regions)
    n, _, stats, _ = cv2.connectedComponentsWithStats(
        np.ascontiguousarray(redo[y0:y1, x0:x1]), connectivity=8, ltype=cv2.CV_16U
    )
    if n <= 2:
        return [box]
    p = int(np.ceil(pad_px))
    w, h = x1 - x0, y1 - y0
    rects = np.stack(
        [
            np.maximum(stats[1:, 0] - p, 0),
            np.maximum(stats[1:, 1] - p, 0),
            np.minimum(stats[1:, 0] + stats[1:, 2] + p, w),
            np.minimum(stats[1:, 1] + stats[1:, 3] + p, h),
        ],
        axis=1,
    )
    rects = _merged(rects)
    area = ((rects[:, 2] - rects[:, 0]) * (rects[:, 3] - rects[:, 1])).sum()
    if len(rects) == 1 or area > _MAX_SHARE * w * h:
        return [box]
    return [(slice(y0 + r[1], y0 + r[3]), slice(x0 + r[0], x0 + r[2])) for r in rects.tolist()]


def _merged(rects: np.ndarray) -> np.ndarray:
    """Rectangles (K, 4) (x0, y0, x1, y1), those that overlap (also through others) merged into
    their bounding rectangle, until none overlap."""
    while len(rects) > 1:
        a, b = rects[:, None, :], rects[None, :, :]
        meet = (a[..., 0] < b[..., 2]) & (b[..., 0] < a[..., 2]) & (a[..., 1] < b[..., 3]) & (b[..., 1] < a[..., 3])
        # each rectangle joins the group of the first one it meets (itself included), once more
        # until nothing changes: the groups of what meets, through others too
        group = meet.argmax(axis=1)
        while True:
            nxt = group[group]
            if np.array_equal(nxt, group):
                break
            group = nxt
        if len(np.unique(group)) == len(rects):
            break
        order = np.argsort(group, kind="stable")
        starts = np.flatnonzero(np.r_[True, np.diff(group[order]) != 0])
        lo = np.minimum.reduceat(rects[order, :2], starts, axis=0)
        hi = np.maximum.reduceat(rects[order, 2:], starts, axis=0)
        rects = np.concatenate([lo, hi], axis=1)
    return rects


@dataclass(frozen=True, slots=True)
class Mosaic:
    """Parts of the board image stacked into one image (see the module doc).

    Attributes:
        shape: (H, W) of the mosaic.
        rects: (K, 4) int (x0, y0, x1, y1) board-image px of the parts, in order down the mosaic.
        top: (K,) the mosaic row of each part's first row (its column: 1).
    """

    shape: tuple[int, int]
    rects: np.ndarray
    top: np.ndarray

    @classmethod
    def of(cls, parts: list[Box], board_shape: tuple[int, int], gap_px: int) -> Mosaic:
        """The layout of `parts` of a board image of `board_shape`, each with a one-pixel apron
        and `gap_px` empty rows below it."""
        rects = np.array([box_rect(b, board_shape) for b in parts])
        heights = rects[:, 3] - rects[:, 1] + 2
        top = np.concatenate([[0], np.cumsum(heights + gap_px)[:-1]]) + 1
        width = int((rects[:, 2] - rects[:, 0]).max()) + 2
        return cls((int(top[-1] + heights[-1] - 1 + gap_px), width), rects, top)

    def stack(self, image: np.ndarray, fill: float = 0) -> np.ndarray:
        """The parts of a board-image-sized `image` (H, W[, C]) in the mosaic, each with its
        one-pixel apron (the board image's own pixels, or its edge reflected beyond it); `fill`
        elsewhere."""
        out = np.full((*self.shape, *image.shape[2:]), fill, image.dtype)
        h, w = image.shape[:2]
        for (x0, y0, x1, y1), top in zip(self.rects.tolist(), self.top.tolist(), strict=True):
            ax0, ay0, ax1, ay1 = max(x0 - 1, 0), max(y0 - 1, 0), min(x1 + 1, w), min(y1 + 1, h)
            piece = image[ay0:ay1, ax0:ax1]
            if (ax0, ay0, ax1, ay1) != (x0 - 1, y0 - 1, x1 + 1, y1 + 1):
                piece = cv2.copyMakeBorder(
                    piece, ay0 - y0 + 1, y1 + 1 - ay1, ax0 - x0 + 1, x1 + 1 - ax1, cv2.BORDER_REFLECT_101
                )
            out[top - 1 : top + y1 - y0 + 1, : x1 - x0 + 2] = piece
        return out

    def inner(self) -> np.ndarray:
        """(H, W) bool mosaic: the parts' own pixels (not their aprons, not the gaps)."""
        out = np.zeros(self.shape, bool)
        for (x0, y0, x1, y1), top in zip(self.rects.tolist(), self.top.tolist(), strict=True):
            out[top : top + y1 - y0, 1 : 1 + x1 - x0] = True
        return out

    def to_board(self, uv: np.ndarray) -> np.ndarray:
        """(N, 2) mosaic px (x, y) -> (N, 2) board-image px."""
        k = np.clip(np.searchsorted(self.top, uv[:, 1], side="right") - 1, 0, len(self.top) - 1)
        return np.asarray(uv + np.stack([self.rects[k, 0] - 1, self.rects[k, 1] - self.top[k]], axis=1))
