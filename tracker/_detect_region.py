"""Change-driven still detection: the box of the board image that is detected again.

Where the picture changed since the discs there were detected (`tracker._detect_change`), the
still path runs again, on one box only:

- the redo mask is the change grown by a disc's radius (a disc whose outline changed) and the
  whole footprint of every disc the change touches (a disc half in the change is detected
  again whole); discs centred on it are detected afresh, the others are carried over;
- the box bounds the redo mask with a striker's radius and a few pixels all round, so every
  disc centred on the mask has its whole outline inside the part whose edges vote.

The still path's per-pixel planes (Lab image, colour distance from the surface, foreground)
are kept for the whole board and brought up to date inside the box only.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.rectify import BoardMaps
from tracker._detect_bg import BackgroundModel, learn_background, update_background
from tracker._detect_board import clip_px
from tracker._detect_change import touched_discs
from tracker._detect_steps import above, colour_distance, image_distance
from tracker.occlusion import ellipse_offsets, stamp_discs

__all__ = ["BARE_LIGHTNESS", "Box", "StillPlanes", "bounding", "box_of_change", "box_rect", "in_mask", "near_mask"]

# the bare board's difference counts lightness a quarter: a shadow darkens the board under it but
# hardly changes its hue, a hand of the board's colour differs from it in hue
BARE_LIGHTNESS = 0.25
# `StillPlanes.off_bare` compares the two images each averaged over this square, px: a pale hand
# differs from the board under it by less than the camera's noise does pixel by pixel, but
# evenly, and the noise averages out. Lightness counts a tenth there: the averages tell a hand by
# half the difference asked pixel by pixel, which a shadow's darkening counted a quarter reaches
_BARE_SMOOTH = 3
_SMOOTH_LIGHTNESS = 0.1

Box = tuple[slice, slice]  # (rows, cols) of the board image


def box_of_change(
    change: np.ndarray, xy_mm: np.ndarray, r_mm: np.ndarray, maps: BoardMaps, *, grow_px: float, pad_px: float
) -> tuple[np.ndarray, Box] | None:
    """(redo mask, box) of the board image to detect again, None if nothing changed.

    Args:
        change: (H, W) uint8 changed pixels (0/255), board image.
        xy_mm: (N, 2) centres of the discs detected so far, board mm; r_mm: (N,) radii, mm.
        maps: board maps.
        grow_px: the changed pixels are grown by this much (a disc whose outline changed has
            its centre this far inside), board-image px.
        pad_px: margin of the box round the redo mask, board-image px.

    Returns:
        redo: (H, W) uint8 0/255, where disc centres are detected afresh: the grown change and
            the footprints of the discs the change touches; box: (rows, cols) bounding the
            redo mask with `pad_px` all round (where edges vote).

    Examples:
        >>> from types import SimpleNamespace
        >>> maps = SimpleNamespace(px_per_mm=1.0, centre_px=np.array([49.5, 49.5]))
        >>> maps.to_px = lambda xy: np.asarray(xy) * 1.0 + maps.centre_px
        >>> change = np.zeros((100, 100), np.uint8); change[10:20, 30:35] = 255
        >>> redo, box = box_of_change(change, np.zeros((0, 2)), np.zeros(0), maps, grow_px=2, pad_px=5)
        >>> bool(redo[9, 29]), bool(redo[5, 30]), (box[0].start, box[0].stop, box[1].start, box[1].stop)
        (True, False, (3, 27, 23, 42))
    """
    x, y, w, h = cv2.boundingRect(change)
    if w == 0 or h == 0:
        return None
    g = int(np.ceil(grow_px))
    x0, y0, x1, y1 = x - g, y - g, x + w + g, y + h + g
    hit = touched_discs(change, xy_mm, r_mm, maps)
    uv, r = maps.to_px(xy_mm[hit]), 1.15 * float(np.max(np.asarray(r_mm)[hit], initial=0.0)) * maps.px_per_mm
    if len(uv):
        x0, y0 = min(x0, int(np.floor((uv[:, 0] - r).min()))), min(y0, int(np.floor((uv[:, 1] - r).min())))
        x1, y1 = max(x1, int(np.ceil((uv[:, 0] + r).max())) + 1), max(y1, int(np.ceil((uv[:, 1] + r).max())) + 1)
    rows, cols = change.shape
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(cols, x1), min(rows, y1)
    # grown and stamped inside the bounding box only (a fraction of the board image)
    k = 2 * g + 1
    redo = np.zeros_like(change)
    part = cv2.dilate(change[y0:y1, x0:x1], cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    if len(uv):
        part = cv2.bitwise_or(part, stamp_discs(part.shape, uv - (x0, y0), r))
    redo[y0:y1, x0:x1] = part
    p = int(np.ceil(pad_px))
    box = (slice(max(0, y0 - p), min(rows, y1 + p)), slice(max(0, x0 - p), min(cols, x1 + p)))
    return redo, box


def box_rect(box: Box, shape: tuple[int, int]) -> tuple[int, int, int, int]:
    """The rectangle (x0, y0, x1, y1) px that `box` cuts out of an image of `shape` (H, W).

    Examples:
        >>> box_rect((slice(None), slice(5, 8)), (10, 20))
        (5, 0, 8, 10)
    """
    (y0, y1, _), (x0, x1, _) = (part.indices(n) for part, n in zip(box, shape, strict=True))
    return x0, y0, x1, y1


def bounding(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """The rectangle (x0, y0, x1, y1) bounding rectangles `a` and `b`.

    Examples:
        >>> bounding((0, 5, 10, 8), (3, 1, 4, 20))
        (0, 1, 10, 20)
    """
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


def in_mask(xy_mm: np.ndarray, mask: np.ndarray, maps: BoardMaps) -> np.ndarray:
    """(N,) bool: centres (N, 2) board mm on a set pixel of `mask` (H, W) board image."""
    uv = np.rint(maps.to_px(np.asarray(xy_mm).reshape(-1, 2))).astype(np.intp)
    u, v = clip_px(uv, mask.shape).T
    return np.asarray(mask[v, u] > 0)


def near_mask(xy_mm: np.ndarray, mask: np.ndarray, reach_px: int, maps: BoardMaps) -> np.ndarray:
    """(N,) bool: centres (N, 2) board mm within `reach_px` of a set pixel of `mask` (H, W)
    board image: `in_mask` of the mask dilated by a (2 reach + 1)-square elliptic element, the
    mask looked at round the centres alone."""
    k, r = 2 * reach_px + 1, reach_px
    padded = cv2.copyMakeBorder(mask.view(np.uint8), r, r, r, r, cv2.BORDER_CONSTANT, value=0)
    uv = clip_px(np.rint(maps.to_px(np.asarray(xy_mm).reshape(-1, 2))).astype(np.intp), mask.shape)
    at = (uv[:, 1] + r) * padded.shape[1] + (uv[:, 0] + r)
    return np.asarray(padded.ravel()[at[:, None] + ellipse_offsets(k, padded.shape[1])[None, :]].any(axis=1))


@dataclass(slots=True)
class StillPlanes:
    """The still path's per-pixel planes of the whole board image, updated box by box.

    Attributes:
        lab: (H, W, 3) uint8 Lab board image.
        far: (H, W) uint8 colour distance from the surface (see `colour_distance`).
        fg: (H, W) uint8 0/255, `far` above the occlusion threshold.
        bare: the board as it looks with nothing on it (`learn_bare`), None until learned.
        bare_lab: (H, W, 3) uint8 Lab of `bare` (zeros until learned).
        off_bare: (H, W) uint8 colour distance from `bare_lab`, both averaged over a few
            pixels (`_BARE_SMOOTH`), lightness weighted `_SMOOTH_LIGHTNESS` (zeros until
            learned): a hand the board's own colour stands out from the board under it.
        changed: (x0, y0, x1, y1) px bounding what `far` and `off_bare` changed since
            `take_changed` last asked (None: nothing).
    """

    lab: np.ndarray
    far: np.ndarray
    fg: np.ndarray
    bare: BackgroundModel | None
    bare_lab: np.ndarray
    off_bare: np.ndarray
    changed: tuple[int, int, int, int] | None = None
    # `bare_lab` averaged as `off_bare` compares it
    _bare_smooth: np.ndarray | None = None

    @classmethod
    def empty(cls, shape: tuple[int, int]) -> StillPlanes:
        h, w = shape

        def plane() -> np.ndarray:
            return np.zeros((h, w), np.uint8)

        return cls(np.zeros((h, w, 3), np.uint8), plane(), plane(), None, np.zeros((h, w, 3), np.uint8), plane())

    def update_lab(self, board_bgr: np.ndarray, box: Box) -> None:
        """Lab of the rectified frame inside `box`."""
        self.lab[box] = cv2.cvtColor(board_bgr[box], cv2.COLOR_BGR2LAB)

    def update_far(self, surface_lab: np.ndarray, occlusion_far: float, box: Box) -> None:
        """Colour distance and foreground inside `box` (after `update_lab`)."""
        far = colour_distance(self.lab[box], surface_lab)
        self.far[box] = far
        self.fg[box] = above(far, occlusion_far)
        if self.bare is not None:
            self._update_off_bare(box)
        self._mark(box_rect(box, self.far.shape))

    def _update_off_bare(self, box: Box) -> None:
        """`off_bare` inside `box` (the Lab image averaged over the box grown by the square's
        half, so that the average at the box's edge is the whole image's)."""
        if self._bare_smooth is None:
            return
        h, w = self.far.shape
        x0, y0, x1, y1 = box_rect(box, (h, w))
        half = _BARE_SMOOTH // 2
        gx0, gy0, gx1, gy1 = max(x0 - half, 0), max(y0 - half, 0), min(x1 + half, w), min(y1 + half, h)
        k = (_BARE_SMOOTH, _BARE_SMOOTH)
        smooth = cv2.blur(self.lab[gy0:gy1, gx0:gx1], k)[y0 - gy0 : y1 - gy0, x0 - gx0 : x1 - gx0]
        bare = self._bare_smooth[y0:y1, x0:x1]
        self.off_bare[y0:y1, x0:x1] = image_distance(smooth, bare, lightness=_SMOOTH_LIGHTNESS)

    def take_changed(self) -> tuple[int, int, int, int] | None:
        """(x0, y0, x1, y1) px bounding what `far` and `off_bare` changed since the last call
        (None: nothing), and start again."""
        changed, self.changed = self.changed, None
        return changed

    def _mark(self, rect: tuple[int, int, int, int]) -> None:
        self.changed = rect if self.changed is None else bounding(self.changed, rect)

    def learn_bare(self, board_bgr: np.ndarray, discs: np.ndarray, *, alpha: float) -> None:
        """Learn the bare board from a rectified frame (`alpha` 1: afresh, under `discs` the
        bare board as it was where it was known, brought to the new light, else filled in; else
        blended in at rate `alpha` away from them: light drifts, and a hand the board's colour
        that rested there when it was learned fades out of it).

        Args:
            board_bgr: (H, W, 3) uint8 rectified frame.
            discs: (H, W) uint8, 255 under the discs detected in it, the hands (and the other
                occluders, when learned afresh again).
            alpha: blending rate.
        """
        if self.bare is None or alpha >= 1.0:
            before, self.bare = self.bare, learn_background(board_bgr, discs)
            if before is not None:
                _keep_under(self.bare, before, board_bgr, discs)
        else:
            nothing = np.zeros(discs.shape, np.uint8)
            update_background(self.bare, board_bgr, nothing, discs, alpha=alpha, near_px=0)
        self.bare_lab = np.asarray(cv2.cvtColor(self.bare.image, cv2.COLOR_BGR2LAB))
        self._bare_smooth = np.asarray(cv2.blur(self.bare_lab, (_BARE_SMOOTH, _BARE_SMOOTH)))
        self._update_off_bare((slice(None), slice(None)))
        self._mark((0, 0, self.far.shape[1], self.far.shape[0]))


def _keep_under(bare: BackgroundModel, before: BackgroundModel, board_bgr: np.ndarray, covered: np.ndarray) -> None:
    """Under what `covered` ((H, W) uint8) a bare board learned afresh from `board_bgr`, the bare
    board as it was (`before`, where it was known), brought to the new light by the ratio of the
    two where the board is seen bare now: filled in from round a hand, the bare board took the
    hand's colour, and the hand was found there long after it had gone (korona seed 1024 at 30 fps,
    the bare board learned again as the light changed with a hand on the board)."""
    under = (covered > 0) & (before.known > 0)
    if not under.any():
        return
    seen = (covered == 0) & (before.known > 0)
    if not seen.any():
        return
    gain = board_bgr[seen].mean(axis=0) / np.maximum(before.mean[seen].mean(axis=0), 1.0)
    bare.mean[under] = before.mean[under] * gain.astype(np.float32)
    bare.image = cv2.convertScaleAbs(bare.mean)
    bare.known[under] = 255
