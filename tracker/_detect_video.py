"""Disc candidates of the video path: foreground blobs against the learned background.

A blob of one disc's size and roundness is one disc (its centroid is the candidate); larger
blobs (touching discs, the starting formation, a hand with discs beside it) are split by
circle voting on the edges inside their bounding boxes only. Printed markings are part of the
background, so they never make candidates.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.rectify import BoardMaps
from tracker._detect_vote import edge_field, vote_centres

__all__ = ["Blobs", "blob_candidates"]

_GATE_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))


@dataclass(frozen=True, slots=True)
class Blobs:
    """Candidates from one frame's foreground.

    Attributes:
        xy_mm: (N, 2) candidate centres, board mm.
        r_mm: (N,) nominal radius of each candidate, mm.
        has_large: a blob larger than `large_px` exists (maybe an occluder).
        in_large: (N,) bool, the candidate lies on such a blob (a hand's knuckles and fingers
            look like disc outlines there, so these candidates get the still path's checks).
    """

    xy_mm: np.ndarray
    r_mm: np.ndarray
    has_large: bool
    in_large: np.ndarray


def _single_blobs(stats: np.ndarray, radii_px: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(single (K,) bool, radius index (K,)) for the components (background row excluded)."""
    area = stats[:, cv2.CC_STAT_AREA].astype(np.float64)
    w, h = stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]
    r_est = np.sqrt(area / np.pi)
    which = np.argmin(np.abs(r_est[:, None] - radii_px[None, :]), axis=1)
    r_nom = radii_px[which]
    # round (a filled circle covers pi/4 of its box), one disc's area, box about one diameter
    round_ = (area / np.maximum(w * h, 1) > 0.62) & (np.abs(w - h) <= 0.3 * r_nom + 1)
    sized = (r_est > 0.8 * r_nom) & (r_est < 1.2 * r_nom) & (np.maximum(w, h) <= 2.4 * r_nom + 2)
    return round_ & sized, which


def _unexplained(stats: np.ndarray, maps: BoardMaps, known_mm: np.ndarray, known_r_mm: np.ndarray) -> np.ndarray:
    """(K,) bool: blobs (stats rows, background excluded) with more foreground than the known
    discs (centres (M, 2) board mm, radii (M,) mm) inside their boxes account for (over half a
    man's area more: a disc's shadow adds less)."""
    area = stats[:, cv2.CC_STAT_AREA].astype(np.float64)
    disc_area = np.pi * (np.asarray(known_r_mm, np.float64) * maps.px_per_mm) ** 2
    slack = 0.5 * np.pi * (float(np.min(known_r_mm, initial=15.0)) * maps.px_per_mm) ** 2
    if len(known_mm):
        uv = maps.to_px(known_mm)
        x0, y0 = stats[:, cv2.CC_STAT_LEFT, None], stats[:, cv2.CC_STAT_TOP, None]
        x1, y1 = x0 + stats[:, cv2.CC_STAT_WIDTH, None], y0 + stats[:, cv2.CC_STAT_HEIGHT, None]
        inside = (uv[None, :, 0] >= x0) & (uv[None, :, 0] < x1) & (uv[None, :, 1] >= y0) & (uv[None, :, 1] < y1)
        area = area - inside.astype(np.float64) @ disc_area
    return np.asarray(area > slack)


def blob_candidates(
    fg: np.ndarray,
    diff: np.ndarray,
    board_bgr: np.ndarray,
    maps: BoardMaps,
    radii_mm: np.ndarray,
    valid: np.ndarray,
    *,
    min_mag: float,
    min_vote_frac: float,
    max_peaks: int,
    large_px: int,
    region: np.ndarray | None = None,
    known_mm: np.ndarray | None = None,
    known_r_mm: np.ndarray | None = None,
) -> Blobs:
    """Candidates from the foreground mask.

    Args:
        fg: (H, W) uint8 0/255 foreground (board image).
        diff: (H, W) uint8 difference from the background.
        board_bgr: (H, W, 3) uint8 rectified frame.
        maps: the board-image maps.
        radii_mm: (R,) disc radii, mm.
        valid: (H, W) bool, where centres may lie.
        min_mag, min_vote_frac, max_peaks: voting parameters (see `vote_centres`).
        large_px: blob area (px) from which a blob may be an occluder.
        region: (H, W) uint8; given, only blobs with a pixel in it make candidates (the
            changed part of the board); `has_large` still looks at every blob.
        known_mm, known_r_mm: (M, 2) board mm and (M,) radii (mm) of the discs already known
            (with `region`): a blob outside the region with more foreground than the known
            discs in it account for makes candidates too (a disc missed as it came to rest is
            looked for again).
    """
    # 16-bit labels: several times faster than 32-bit here, and a board never has 65k blobs
    n, labels, stats, cents = cv2.connectedComponentsWithStats(fg, connectivity=8, ltype=cv2.CV_16U)
    large = np.concatenate([[False], stats[1:, cv2.CC_STAT_AREA] >= large_px])
    stats, cents = stats[1:], cents[1:]
    radii_px = np.asarray(radii_mm, np.float64) * maps.px_per_mm
    single, which = _single_blobs(stats, radii_px)
    if region is not None:
        hit = np.zeros(n, bool)
        hit[labels[region > 0]] = True
        if known_mm is not None and known_r_mm is not None:
            hit[1:] |= ~large[1:] & _unexplained(stats, maps, known_mm, known_r_mm)
        hit = hit[1:]
        stats, cents, single, which = stats[hit], cents[hit], single[hit], which[hit]
    small = stats[:, cv2.CC_STAT_AREA] < 0.45 * np.pi * radii_px.min() ** 2
    xy = [maps.to_mm(cents[single])]
    r = [np.asarray(radii_mm)[which[single]]]
    multi = ~single & ~small
    if multi.any():
        xy_v, r_v = _vote_in_box(
            stats[multi],
            fg,
            diff,
            board_bgr,
            maps,
            radii_mm,
            valid,
            min_mag=min_mag,
            min_vote_frac=min_vote_frac,
            max_peaks=max_peaks,
        )
        xy.append(xy_v)
        r.append(r_v)
    xy_all = np.concatenate(xy).reshape(-1, 2)
    uv = np.clip(np.rint(maps.to_px(xy_all)).astype(np.intp), 0, np.array(fg.shape[::-1]) - 1)
    in_large = large[labels[uv[:, 1], uv[:, 0]]]
    return Blobs(xy_all, np.concatenate(r), bool(large.any()), in_large)


def _vote_in_box(
    stats: np.ndarray,
    fg: np.ndarray,
    diff: np.ndarray,
    board_bgr: np.ndarray,
    maps: BoardMaps,
    radii_mm: np.ndarray,
    valid: np.ndarray,
    *,
    min_mag: float,
    min_vote_frac: float,
    max_peaks: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Circle votes on the edges in the union box of the given blobs (plus a disc's margin)."""
    pad = int(np.ceil(max(radii_mm) * maps.px_per_mm)) + 3
    hgt, wid = fg.shape
    x0 = max(0, int(stats[:, cv2.CC_STAT_LEFT].min()) - pad)
    y0 = max(0, int(stats[:, cv2.CC_STAT_TOP].min()) - pad)
    x1 = min(wid, int((stats[:, cv2.CC_STAT_LEFT] + stats[:, cv2.CC_STAT_WIDTH]).max()) + pad)
    y1 = min(hgt, int((stats[:, cv2.CC_STAT_TOP] + stats[:, cv2.CC_STAT_HEIGHT]).max()) + pad)
    box = (slice(y0, y1), slice(x0, x1))
    gate = cv2.dilate(fg[box], _GATE_KERNEL)
    light = cv2.cvtColor(board_bgr[box], cv2.COLOR_BGR2GRAY).astype(np.float32)
    ys, xs, unit = edge_field(
        diff[box].astype(np.float32), light, min_mag=min_mag, weight=(gate > 0).astype(np.float32)
    )
    uv, which, _ = vote_centres(
        (y1 - y0, x1 - x0),
        ys,
        xs,
        unit,
        tuple(np.asarray(radii_mm) * maps.px_per_mm),
        min_frac=min_vote_frac,
        max_peaks=max_peaks,
        valid=valid[box] & (gate > 0),
    )
    return maps.to_mm(uv + np.array([x0, y0], np.float32)), np.asarray(radii_mm)[which]
