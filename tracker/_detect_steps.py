"""Stateless steps of `tracker.detect.Detector`: colour distances, overlap suppression, the
video path's foreground check, the busy and occlusion masks, and packaging the result."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from calibration.model import BoardCalibration
from calibration.rectify import BoardMaps
from tracker._detect_board import BoardGeometry
from tracker._detect_types import Detection, Found
from tracker.detections import FrameDetections
from tracker.occlusion import occlusion_mask, stamp_discs
from tracker.specs import EquipmentSpec, default_equipment, load_equipment

__all__ = [
    "above",
    "busy_mask",
    "channel_sum",
    "colour_distance",
    "image_distance",
    "lab_dist",
    "median_u8",
    "occlusion_from_foreground",
    "on_foreground",
    "package_found",
    "resolve_equipment",
    "suppress_overlaps",
]

_GATE_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
# foreground probes (units of the disc radius): the face (centre and two rings), then the rim
_RING = np.stack([np.cos(np.arange(8) * np.pi / 4), np.sin(np.arange(8) * np.pi / 4)], 1)
_FACE_PROBE = np.concatenate([np.zeros((1, 2)), 0.35 * _RING, 0.65 * _RING, 0.9 * _RING])


def above(image: np.ndarray, thresh: float) -> np.ndarray:
    """(H, W) uint8 0/255: where the (H, W) uint8 `image` exceeds `thresh` (any real number;
    `(image > thresh) * 255` in one OpenCV pass).

    Examples:
        >>> above(np.array([[10, 36, 37]], np.uint8), 36.5).tolist()
        [[0, 0, 255]]
    """
    return np.asarray(cv2.threshold(image, thresh, 255, cv2.THRESH_BINARY)[1])


def median_u8(values: np.ndarray) -> float:
    """The median of a non-empty uint8 array (`np.median`: the mean of the two middle values of an even
    count), from its histogram rather than by sorting.

    Examples:
        >>> median_u8(np.array([[3, 200], [7, 9]], np.uint8)), median_u8(np.array([5, 1, 9], np.uint8))
        (8.0, 5.0)
    """
    below = np.cumsum(np.bincount(values.ravel(), minlength=256))  # values <= v, for v in 0..255
    n = int(below[-1])
    lo, hi = np.searchsorted(below, [(n - 1) // 2, n // 2], side="right")
    return (int(lo) + int(hi)) / 2


def colour_distance(lab: np.ndarray, ref_lab: np.ndarray) -> np.ndarray:
    """(H, W) uint8 weighted L1 Lab distance from `ref_lab` (lightness weighted 0.5, saturating)."""
    ref = tuple(float(v) for v in np.clip(np.rint(np.asarray(ref_lab)), 0, 255)) + (0.0,)
    return image_distance(lab, ref)  # type: ignore[arg-type]


def image_distance(lab: np.ndarray, ref_lab: np.ndarray, *, lightness: float = 0.5) -> np.ndarray:
    """(H, W) uint8 weighted L1 distance of Lab image `lab` from Lab image `ref_lab` (or one
    colour, as a 4-tuple), pixel by pixel, lightness weighted `lightness`."""
    return channel_sum(cv2.absdiff(lab, ref_lab), lightness, 1.0)


def channel_sum(image: np.ndarray, first: float, rest: float) -> np.ndarray:
    """(H, W) uint8 `first` times the first channel of a 3-channel uint8 `image` plus `rest`
    times each of the other two, saturating (the sum rounded in two steps, so it may be one
    less or more than rounded once; `cv2.transform` gives the same several times slower).

    Examples:
        >>> px = np.array([[[10, 20, 30], [100, 40, 20], [255, 200, 100]]], np.uint8)
        >>> channel_sum(px, 0.5, 1.0).tolist(), channel_sum(px, 0.5, 0.5).tolist()
        ([[55, 110, 255]], [[30, 80, 255]])
    """
    c0, c1, c2 = cv2.split(image)
    return np.asarray(cv2.addWeighted(c0, first, cv2.addWeighted(c1, rest, c2, rest, 0.0), 1.0, 0.0))


def lab_dist(lab: np.ndarray, ref_lab: np.ndarray) -> np.ndarray:
    """(N,) Lab distances of (N, 3) colours from `ref_lab`, lightness weighted 0.5."""
    return np.asarray(np.linalg.norm((np.asarray(lab) - ref_lab) * np.array([0.5, 1.0, 1.0]), axis=1))


def resolve_equipment(calib: BoardCalibration, equipment: str | EquipmentSpec | None) -> EquipmentSpec:
    """The disc set: `equipment` if given, else the calibration's, else the game's default."""
    if isinstance(equipment, EquipmentSpec):
        return equipment
    name = equipment or calib.equipment
    return load_equipment(name) if name else default_equipment(calib.game)


def suppress_overlaps(xy: np.ndarray, radius: np.ndarray, score: np.ndarray) -> np.ndarray:
    """Keep mask: drop a disc when a better-scored one overlaps it by more than a third of a radius."""
    d = np.linalg.norm(xy[:, None, :] - xy[None, :, :], axis=2)
    overlap = d < 0.7 * (radius[:, None] + radius[None, :])
    better = (score[None, :] > score[:, None]) | (
        (score[None, :] == score[:, None]) & (np.arange(len(xy))[None, :] < np.arange(len(xy))[:, None])
    )
    return np.asarray(~np.any(overlap & better, axis=1))


def on_foreground(found: Found, diff: np.ndarray, thresh: float, maps: BoardMaps) -> Found:
    """Drop discs that are mostly background (a printed circle, a stale patch): the median
    difference from the background over the face and rim must come near the foreground
    threshold (a light disc on a light board may differ only a little, but all over; a
    printed circle next to a disc differs only on the side the disc touches), or most of
    the rim must differ (a disc of nearly the surface colour still has its dark rim).

    Args:
        found: the frame's accepted discs.
        diff: (H, W) difference from the background, board image.
        thresh: the foreground threshold of `diff`.
        maps: board maps (board mm -> board-image px).
    """
    if len(found.xy_mm) == 0:
        return found
    pts = found.xy_mm[:, None, :] + _FACE_PROBE[None] * found.nominal[:, None, None]
    uv = np.rint(maps.to_px(pts.reshape(-1, 2))).astype(np.intp)
    uv = np.clip(uv, 0, diff.shape[0] - 1)
    probes = diff[uv[:, 1], uv[:, 0]].reshape(len(found.xy_mm), -1)
    level = np.median(probes, axis=1)
    # the rim: 6 of its 8 probes (a neighbour touches at most 3)
    rim = np.sort(probes[:, -8:], axis=1)[:, 2]
    keep = (level >= 0.8 * thresh) | (rim >= thresh) | found.strict
    return found.select(keep)


def busy_mask(found: Found, geom: BoardGeometry, maps: BoardMaps, px_per_mm: float) -> np.ndarray:
    """(H, W) uint8 board-image mask under detected discs (with a margin) and occluders."""
    r = (float(found.nominal.max()) if len(found.nominal) else geom.striker_r) * 1.3
    busy = stamp_discs(geom.shape, maps.to_px(found.xy_mm), r * px_per_mm)
    occ = cv2.resize(found.occlusion.astype(np.uint8) * 255, geom.shape[::-1], interpolation=cv2.INTER_NEAREST)
    occ = cv2.dilate(occ, _GATE_KERNEL, iterations=2)
    return np.asarray(cv2.bitwise_or(busy, occ))


def occlusion_from_foreground(
    fg: np.ndarray,
    xy_mm: np.ndarray,
    r_mm: np.ndarray,
    geom: BoardGeometry,
    maps: BoardMaps,
    *,
    px_per_mm: float,
    min_area_mm2: float,
    off_bare: Callable[[], np.ndarray] | None = None,
    min_off_bare: float = 0.0,
) -> np.ndarray:
    """Occlusion mask from a (H, W) uint8 0/255 foreground, at half the board-image scale; with
    `off_bare` (giving (H, W) uint8 0/255, where the picture differs from the bare board; asked
    only when a region is large enough), only the regions at least `min_off_bare` of whose
    pixels are set in it too."""
    half = geom.markings_half.shape[::-1]
    small = cv2.resize(fg, half, interpolation=cv2.INTER_AREA)
    fg_half = above(small, 127)
    fg_half = cv2.bitwise_and(fg_half, cv2.bitwise_not(geom.markings_half))
    scale = 0.5 * px_per_mm
    stamp_r = (float(r_mm.max()) if len(r_mm) else geom.striker_r) * 1.25 * scale
    discs = stamp_discs(fg_half.shape, (maps.to_px(xy_mm) - 0.5) * 0.5, stamp_r)
    return occlusion_mask(
        fg_half,
        discs,
        geom.surface_half,
        open_px=int(round(8 * scale)),
        min_area_px=int(min_area_mm2 * scale**2),
        sure=None if off_bare is None else lambda: above(
            cv2.resize(off_bare(), half, interpolation=cv2.INTER_AREA), 127
        ),
        min_sure=min_off_bare,
    )


def package_found(
    found: Found,
    geom: BoardGeometry,
    maps: BoardMaps,
    px_per_mm: float,
    t_s: float | None,
    frame_idx: int | None,
) -> Detection:
    """The public `Detection` of one frame: image positions and radii in ORIGINAL px."""
    xy_mm = found.xy_mm.reshape(-1, 2)
    n = len(xy_mm)
    # centres and one-mm steps along x and y, mapped in one lookup: the local image scale
    px = maps.board_mm_to_original(np.concatenate([xy_mm, xy_mm + [1.0, 0.0], xy_mm + [0.0, 1.0]]))
    xy_img, step_x, step_y = px[:n], px[n : 2 * n], px[2 * n :]
    scale = 0.5 * (np.linalg.norm(step_x - xy_img, axis=1) + np.linalg.norm(step_y - xy_img, axis=1))
    flags = geom.flags(xy_mm)
    if found.blurred is not None:
        flags |= found.blurred.astype(np.uint8) * np.uint8(FrameDetections.FLAG_BLURRED)
    dets = FrameDetections(
        xy_img=xy_img.astype(np.float32).reshape(-1, 2),
        radius_px=(found.radius_mm * scale).astype(np.float32),
        kind=found.kind,
        score=found.score.astype(np.float32),
        xy_board=xy_mm.astype(np.float32).reshape(-1, 2),
        flags=flags,
        t_s=t_s,
        frame_idx=frame_idx,
    )
    frac = float(np.count_nonzero(found.occlusion)) / max(1, geom.surface_half_px)
    return Detection(dets, found.occlusion, frac, 0.5 * px_per_mm, (maps.centre_px - 0.5) * 0.5)
