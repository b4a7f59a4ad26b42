"""Change-driven detection on video (`DetectorConfig(reuse=True)`).

Real footage is mostly still: between shots everything rests, during a shot a few discs move.
The detector keeps a reference board image (the rectified frame as it was when the current
detections were made, per pixel) and re-detects only where the picture changed since:

- change: the difference from the reference above a noise-adaptive threshold, opened (isolated
  noisy pixels) and grown by a few pixels;
- discs whose footprint lies outside the change are carried over as they are; candidates are
  looked for only in foreground blobs touching the change and at the touched discs;
- the reference is updated only where something changed (the region re-detected), so a disc
  drifting a fraction of a pixel per frame still builds up a difference and is re-detected;
- a large changed share of the board or a jump of the median difference (auto-exposure,
  lighting, a bump) and every `reuse_full_every` frames: a full re-detect.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from calibration.rectify import BoardMaps
from tracker._detect_board import probe_discs
from tracker._detect_steps import channel_sum, median_u8, suppress_overlaps
from tracker._detect_types import Detection, DetectorConfig, Found

__all__ = [
    "FACE_PROBES",
    "REACH",
    "Change",
    "ReuseState",
    "change_mask",
    "departed",
    "detect_with_reuse",
    "is_global_change",
    "merge_found",
    "settle",
    "touched_discs",
    "unexplained",
    "with_occluders",
]

# a 2x2 opening: isolated noisy pixels go, the thin crescent of a disc that crept one board-image
# pixel stays (a 3x3 opening would wait for a 3 px crescent, 7.5 mm at 0.4 px/mm)
_OPEN_KERNEL = cv2.getStructuringElement(cv2.MORPH_RECT, (2, 2))
_NOISE_FACTOR = 3.5
# footprint probes (units of the disc radius): centre, face rings, rim and shadow just outside
_RING = np.stack([np.cos(np.arange(8) * np.pi / 4), np.sin(np.arange(8) * np.pi / 4)], 1)
_FOOTPRINT = np.concatenate([np.zeros((1, 2)), 0.5 * _RING, 0.9 * _RING, 1.15 * _RING])
# a disc lost sight of is looked for again for this many frames ...
_GHOST_FRAMES = 30
# ... unless a disc was found within this many man radii (it moved there: 1.1 m/s at 30 fps)
REACH = 2.5
# around a hand, what is detected afresh every frame (a striker's diameter and more)
_HAND_MARGIN_MM = 50.0
FACE_PROBES = np.concatenate([np.zeros((1, 2)), 0.35 * _RING])
_WHOLE = np.concatenate([FACE_PROBES, 0.65 * _RING, 0.9 * _RING])


@dataclass(slots=True)
class ReuseState:
    """Mutable per-detector state of change-driven detection.

    Attributes:
        ref: (H, W, 3) uint8 reference board image (rectified frame as last detected, per pixel).
        detection: the last packaged result (handed out again when nothing changed).
        since_full: frames since the last full detection.
        noise: typical median difference from the reference of a still scene (weighted BGR
            units); None until measured after a full detection.
    """

    ref: np.ndarray
    detection: Detection | None = None
    since_full: int = 0
    noise: float | None = None


@dataclass(frozen=True, slots=True)
class Change:
    """One frame's change from the reference.

    Attributes:
        mask: (H, W) uint8 0/255 changed pixels (opened and grown), board image.
        level: median difference from the reference (weighted BGR units).
        share: changed share of the board image, 0..1.
    """

    mask: np.ndarray
    level: float
    share: float


def change_mask(board_bgr: np.ndarray, ref: np.ndarray, *, min_diff: float, grow_px: int) -> Change:
    """Where `board_bgr` differs from the reference.

    The threshold follows this frame's noise (a few times the median difference: most of the
    board is unchanged), at least `min_diff`.

    Args:
        board_bgr: (H, W, 3) uint8 rectified frame.
        ref: (H, W, 3) uint8 reference board image.
        min_diff: lowest threshold (weighted BGR units).
        grow_px: the changed pixels are grown by this many board-image px.

    Examples:
        >>> ref = np.full((40, 40, 3), 120, np.uint8)
        >>> frame = ref.copy(); frame[10:20, 10:20] = 30
        >>> c = change_mask(frame, ref, min_diff=12.0, grow_px=1)
        >>> bool(c.mask[15, 15]), bool(c.mask[30, 30]), round(c.share, 3)
        (True, False, 0.09)
    """
    diff = channel_sum(cv2.absdiff(board_bgr, ref), 0.5, 0.5)  # (half the sum of the differences)
    level = median_u8(diff[::4, ::4])
    thresh = max(min_diff, _NOISE_FACTOR * max(level, 1.0))
    _, mask = cv2.threshold(diff, thresh, 255, cv2.THRESH_BINARY)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _OPEN_KERNEL)
    n = cv2.countNonZero(mask)
    if n and grow_px > 0:
        k = 2 * grow_px + 1
        mask = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
        n = cv2.countNonZero(mask)
    return Change(np.asarray(mask), level, n / mask.size)


def with_occluders(change: Change, occlusion: np.ndarray, *, grow_px: int) -> Change:
    """`change` with the last frame's occluders (hands, arms) and `grow_px` around them added:
    what lies near a hand is detected afresh every frame (a knuckle taken for a disc once must
    not be carried over while the hand rests, to move off with it later).

    Args:
        change: this frame's change.
        occlusion: (h, w) bool occlusion mask of the last detection (any scale).
        grow_px: margin in board-image px.
    """
    if not occlusion.any():
        return change
    occ = cv2.resize(occlusion.astype(np.uint8) * 255, change.mask.shape[::-1], interpolation=cv2.INTER_NEAREST)
    k = 2 * grow_px + 1
    occ = cv2.dilate(occ, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    return Change(np.asarray(cv2.bitwise_or(change.mask, occ)), change.level, change.share)


def is_global_change(change: Change, noise: float | None, *, max_share: float) -> bool:
    """True when the whole picture changed (a large share, or the median difference far above
    the still scene's `noise`: exposure or lighting moved every pixel a little).

    Examples:
        >>> c = Change(np.zeros((2, 2), np.uint8), level=9.0, share=0.01)
        >>> is_global_change(c, 2.0, max_share=0.3), is_global_change(c, 4.0, max_share=0.3)
        (True, False)
    """
    if change.share > max_share:
        return True
    return noise is not None and change.level > 2.0 * noise + 3.0


def touched_discs(mask: np.ndarray, xy_mm: np.ndarray, r_mm: np.ndarray, maps: BoardMaps) -> np.ndarray:
    """(N,) bool: discs (centres (N, 2) board mm, radii (N,) mm) whose footprint (face, rim and
    the shadow just outside) meets the changed pixels of `mask` (H, W) board image."""
    if len(xy_mm) == 0:
        return np.zeros(0, bool)
    return np.asarray((probe_discs(mask, _FOOTPRINT, xy_mm, r_mm, maps) > 0).any(axis=1))


def departed(
    mask: np.ndarray, diff: np.ndarray, thresh: float, xy_mm: np.ndarray, r_mm: np.ndarray, maps: BoardMaps
) -> np.ndarray:
    """(N,) bool: discs that plainly left their place, so need not be looked for there again.

    Their face changed since they were detected (a disc at rest keeps its face: a neighbour's
    change never reaches a third of a radius from its centre) and the whole footprint now
    looks like the background (difference from it under half the foreground threshold
    everywhere). Where the background was only filled in (never seen bare) it misses the
    printed markings, so a bare spot there rarely passes: the disc is looked for instead. (A
    disc that moved a little is not taken for gone: a faint one may make no blob of its own.)

    Args:
        mask: (H, W) uint8 changed pixels (see `change_mask`).
        diff: (H, W) uint8 difference from the background; thresh: its foreground threshold.
        xy_mm: (N, 2) disc centres, board mm; r_mm: (N,) radii, mm.
        maps: board maps.
    """
    if len(xy_mm) == 0:
        return np.zeros(0, bool)
    face_changed = (probe_discs(mask, FACE_PROBES, xy_mm, r_mm, maps) > 0).any(axis=1)
    bare = (probe_discs(diff, _WHOLE, xy_mm, r_mm, maps) < 0.5 * thresh).all(axis=1)
    return np.asarray(face_changed & bare)


def unexplained(xy_mm: np.ndarray, found_xy_mm: np.ndarray, dist_mm: float) -> np.ndarray:
    """(M,) bool: points (M, 2) board mm with no found disc (N, 2) within `dist_mm`.

    Examples:
        >>> unexplained(np.array([[0.0, 0.0], [50.0, 0.0]]), np.array([[1.0, 1.0]]), 5.0).tolist()
        [False, True]
    """
    if len(found_xy_mm) == 0:
        return np.ones(len(xy_mm), bool)
    if len(xy_mm) == 0:
        return np.zeros(0, bool)
    d = np.linalg.norm(np.asarray(xy_mm)[:, None, :] - np.asarray(found_xy_mm)[None], axis=2).min(axis=1)
    return np.asarray(d > dist_mm)


def settle(
    found_xy_mm: np.ndarray,
    blob_xy_mm: np.ndarray,
    carried: tuple[np.ndarray, np.ndarray, np.ndarray],
    *,
    man_r: float,
) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """What a change-driven frame leaves to the next.

    Candidates that came to nothing (a disc missed as it came to rest, say) are looked at again
    next frame: their place is not taken into the reference. Carried discs not found again are
    carried again ("ghosts") for up to `_GHOST_FRAMES` frames, as the full video path keeps
    looking where a disc was, unless a disc was found within reach (it moved there).

    Args:
        found_xy_mm: (N, 2) discs found this frame, board mm.
        blob_xy_mm: (B, 2) foreground candidates tried (hands excluded), board mm.
        carried: (C, 2) centres, (C,) radii (mm) and (C,) ages (frames lost) of the discs carried.
        man_r: a man's radius, mm.

    Returns:
        ((U, 2) board mm of the unsettled candidates, (centres, radii, ages) of the ghosts).

    Examples:
        >>> xy, r, age = np.array([[0.0, 0.0], [200.0, 0.0]]), np.full(2, 15.0), np.zeros(2, int)
        >>> unsettled, ghosts = settle(np.array([[10.0, 0.0]]), np.zeros((0, 2)), (xy, r, age), man_r=15.0)
        >>> unsettled.tolist(), ghosts[0].tolist(), ghosts[2].tolist()
        ([[0.0, 0.0], [200.0, 0.0]], [[200.0, 0.0]], [1])
    """
    xy_c, r_c, age = carried
    tried = np.concatenate([blob_xy_mm, xy_c])
    unsettled = tried[unexplained(tried, found_xy_mm, 0.5 * man_r)]
    lost = unexplained(xy_c, found_xy_mm, REACH * man_r) & (age + 1 < _GHOST_FRAMES)
    return unsettled, (xy_c[lost], r_c[lost], age[lost] + 1)


def merge_found(kept: Found, new: Found, occlusion: np.ndarray) -> Found:
    """Carried-over discs and the re-detected ones in one `Found` with this frame's occlusion;
    where two overlap (a re-detected disc found again beside the change) the better score wins."""

    def cat(name: str) -> np.ndarray:
        return np.concatenate([getattr(kept, name), getattr(new, name)])

    def blurred(f: Found) -> np.ndarray:
        return np.zeros(len(f.xy_mm), bool) if f.blurred is None else f.blurred

    merged = Found(
        cat("xy_mm").reshape(-1, 2),
        cat("radius_mm"),
        cat("nominal"),
        cat("kind").astype(np.int8),
        cat("score"),
        occlusion,
        cat("strict").astype(bool),
        None if kept.blurred is None and new.blurred is None else np.concatenate([blurred(kept), blurred(new)]),
    )
    if len(kept.xy_mm) == 0 or len(new.xy_mm) == 0:
        return merged
    return merged.select(suppress_overlaps(merged.xy_mm, merged.nominal, merged.score))


def detect_with_reuse(
    state: ReuseState,
    board_bgr: np.ndarray,
    config: DetectorConfig,
    *,
    full: Callable[[], Found],
    restart: Callable[[], Found],
    partial: Callable[[np.ndarray, np.ndarray], tuple[Found, np.ndarray | None]],
    forced: Callable[[], np.ndarray | None],
    package: Callable[[Found], Detection],
    t_s: float | None,
    frame_idx: int | None,
    hands: bool = True,
) -> Detection:
    """One frame of change-driven detection.

    Args:
        state: updated in place (reference image, last result, counters).
        board_bgr: (H, W, 3) uint8 rectified frame.
        config: the detector's tuning (`reuse_*` fields).
        full: detects the whole frame (the periodic safety net).
        restart: detects the whole frame from scratch and learns the board's background
            again (after a global change the old background no longer matches).
        partial: detects the changed region given as an (H, W) uint8 0/255 mask, carrying the
            other discs over; also returns an (H, W) uint8 mask (or None) round candidates
            that came to nothing (looked at again next frame). Its second argument is the part
            of that mask where the picture itself changed (not only looked at again round the
            occluders and the `forced` places).
        forced: an (H, W) uint8 mask (or None) always detected afresh, changed or not.
        package: turns accepted discs into this frame's `Detection`.
        t_s: capture time, s; frame_idx: frame number (for a carried-over result).
        hands: what lies near the last frame's occluders is detected afresh too, changed or
            not (`with_occluders`).
    """
    change = change_mask(board_bgr, state.ref, min_diff=config.reuse_min_diff, grow_px=config.reuse_grow_px)
    grow = int(np.ceil(_HAND_MARGIN_MM * config.px_per_mm))
    state.since_full += 1
    overall = is_global_change(change, state.noise, max_share=config.reuse_max_changed)
    if overall or state.since_full >= config.reuse_full_every:
        found = restart() if overall else full()
        state.ref, state.since_full, state.noise = board_bgr.copy(), 0, None
    else:
        # the still scene's noise level follows slowly (a few frames of a hand do not move it)
        state.noise = change.level if state.noise is None else 0.9 * state.noise + 0.1 * change.level
        last = state.detection
        moved = change.mask
        if last is not None and hands:
            change = with_occluders(change, last.occlusion, grow_px=grow)
        always = forced()
        if always is not None:
            change = Change(np.asarray(cv2.bitwise_or(change.mask, always)), change.level, change.share)
        if not change.mask.any() and last is not None:
            return replace(last, discs=replace(last.discs, t_s=t_s, frame_idx=frame_idx))
        found, unsettled = partial(change.mask, moved)
        # the reference moves on only where the picture was looked at again and settled
        settled = change.mask if unsettled is None else cv2.bitwise_and(change.mask, cv2.bitwise_not(unsettled))
        cv2.copyTo(board_bgr, settled, state.ref)
    state.detection = package(found)
    return state.detection
