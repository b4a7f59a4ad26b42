"""Change-driven detection: known discs followed where they are expected, before any search.

Most of a shot's frames show discs already detected, rolling a few millimetres further. Each
disc the change touches is fitted again at the place its last two detections predict (constant
velocity), two full-resolution rounds of `refit_discs`. It is taken as followed when:

- the fit settled on an outline all round (support, clear edges, octants) of its own size, not
  drawn out by motion blur, and the second round hardly moved it;
- its face is still the same: the same kind, and the same colour as the reference board image
  showed where the disc was last detected (a disc struck away leaves the board's own colour
  behind, so a fit on a printed circle there is no disc);
- it keeps a disc's spacing from every other disc;
- it is nowhere a disc is hard to tell from the board: near a pocket hole, a printed filled
  circle (a man's size) or a hand.

What the followed discs explain (their old and new footprints, shadows included) is taken out
of the change; only the rest goes to the still path (`tracker._detect_region`), often nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.rectify import BoardMaps
from tracker._detect_board import BoardGeometry, near_marking, probe_discs
from tracker._detect_change import FACE_PROBES
from tracker._detect_refine import refit_discs
from tracker._detect_types import Found
from tracker.occlusion import stamp_discs

__all__ = ["Followed", "follow_discs", "velocities"]

# what a followed fit must show (the still path accepts from 0.5 support, 6 octants, 20 % size)
_MIN_SUPPORT = 0.5
_MIN_CLEAR = 0.4
_MIN_OCTANTS = 6
_MAX_SIZE_ERR = 0.2  # share of the nominal radius
_MAX_MOVED_MM = 1.0  # the second round's step
_MAX_STRETCH_MM = 2.0
_MAX_FACE_DIFF = 12.0  # Lab units, face now against the reference where the disc was
_MIN_SPACING = 1.6  # man radii between centres (touching discs: 2)
# beyond the disc's radius (and the change's own growth), what its move changes: its shadow (mm)
_MARGIN_MM = 12.0


@dataclass(frozen=True, slots=True)
class Followed:
    """The discs followed in one frame.

    Attributes:
        idx: (K,) rows of the last frame's discs that were followed.
        xy_mm: (K, 2) their new centres, board mm; radius_mm: (K,) fitted radii; score: (K,).
        explained: (H, W) uint8 0/255 board image, the change their moves account for.
    """

    idx: np.ndarray
    xy_mm: np.ndarray
    radius_mm: np.ndarray
    score: np.ndarray
    explained: np.ndarray

    def apply(self, last: Found) -> Found:
        """`last` with the followed discs moved (the others, and the occlusion, unchanged)."""
        xy, radius, score = last.xy_mm.copy(), last.radius_mm.copy(), last.score.copy()
        xy[self.idx], radius[self.idx], score[self.idx] = self.xy_mm, self.radius_mm, self.score
        return Found(xy, radius, last.nominal, last.kind, score, last.occlusion, last.strict, last.blurred)


def velocities(xy_mm: np.ndarray, before_mm: np.ndarray, reach_mm: float) -> np.ndarray:
    """(N, 2) mm per frame: each disc's step from the nearest disc of the frame before, if one
    lies within `reach_mm` (else at rest).

    Examples:
        >>> velocities(np.array([[10.0, 0.0], [100.0, 0.0]]), np.array([[7.0, 0.0]]), 20.0).tolist()
        [[3.0, 0.0], [0.0, 0.0]]
    """
    v = np.zeros((len(xy_mm), 2))
    if len(xy_mm) == 0 or len(before_mm) == 0:
        return v
    d = np.linalg.norm(xy_mm[:, None, :] - before_mm[None], axis=2)
    j = d.argmin(axis=1)
    near = d[np.arange(len(j)), j] < reach_mm
    v[near] = xy_mm[near] - before_mm[j[near]]
    return v


def _face_lab(board_bgr: np.ndarray, maps: BoardMaps, xy_mm: np.ndarray, r_mm: np.ndarray) -> np.ndarray:
    """(N, 3) mean Lab of the board image at a disc's centre and a ring inside its face."""
    bgr = probe_discs(board_bgr, FACE_PROBES, xy_mm, r_mm, maps)
    return np.asarray(cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32).mean(axis=1))


def follow_discs(
    frame_bgr: np.ndarray,
    board_bgr: np.ndarray,
    ref_bgr: np.ndarray,
    maps: BoardMaps,
    geom: BoardGeometry,
    last: Found,
    candidates: np.ndarray,
    velocity: np.ndarray,
    *,
    hole_mm: np.ndarray,
    min_rise: float,
    grow_px: float,
    classify: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray],
) -> Followed:
    """Follow the `candidates` ((N,) bool over `last`'s discs) of the last frame's discs.

    Args:
        frame_bgr: (H0, W0, 3) original frame; board_bgr: (H, W, 3) its rectified board image.
        ref_bgr: (H, W, 3) reference board image (each pixel as when last detected).
        maps, geom: the board's maps and geometry.
        last: the last frame's discs.
        candidates: (N,) bool, the discs to try (the change touches them; none blurred).
        velocity: (N, 2) mm per frame (see `velocities`).
        hole_mm: (N,) radius of each disc's hole, mm.
        min_rise: a clear edge's colour rise (Lab units).
        grow_px: how far the change mask was grown (board-image px).
        classify: (radius (K,) mm, face Lab (K, 3), stretch (K,) mm) -> kind (K,).
    """
    hard = geom.near_pocket(last.xy_mm) | near_marking(geom, last.xy_mm, within_mm=geom.man_r)
    sel = np.nonzero(candidates & ~hard)[0]
    if len(sel) == 0:
        z = np.zeros(0)
        return Followed(sel, np.zeros((0, 2)), z, z, np.zeros(geom.shape, np.uint8))
    r = last.nominal[sel]
    fit = refit_discs(frame_bgr, maps, last.xy_mm[sel] + velocity[sel], r, min_rise=min_rise, hole_mm=hole_mm[sel])
    good = (
        (fit.support >= _MIN_SUPPORT)
        & (fit.clear >= _MIN_CLEAR)
        & (fit.coverage >= _MIN_OCTANTS)
        & (np.abs(fit.radius_mm - r) < _MAX_SIZE_ERR * r)
        & (fit.moved < _MAX_MOVED_MM)
        & (fit.stretch < _MAX_STRETCH_MM)
        & ~geom.near_pocket(fit.xy_mm)
        & ~near_marking(geom, fit.xy_mm, within_mm=geom.man_r)
    )
    good &= classify(fit.radius_mm, fit.face_lab, fit.stretch) == last.kind[sel]
    was = _face_lab(ref_bgr, maps, last.xy_mm[sel], r)
    good &= np.linalg.norm(_face_lab(board_bgr, maps, fit.xy_mm, r) - was, axis=1) < _MAX_FACE_DIFF
    # a disc's spacing from every other disc (the others where they were, these where they are)
    xy_all = last.xy_mm.copy()
    xy_all[sel] = fit.xy_mm
    d = np.linalg.norm(fit.xy_mm[:, None, :] - xy_all[None], axis=2)
    d[np.arange(len(sel)), sel] = np.inf
    good &= (d >= _MIN_SPACING * geom.man_r).all(axis=1)
    score = fit.score()
    k = np.nonzero(good)[0]
    reach_px = (float(np.max(r[k], initial=0.0)) + _MARGIN_MM) * maps.px_per_mm + grow_px
    explained = stamp_discs(geom.shape, maps.to_px(np.concatenate([last.xy_mm[sel[k]], fit.xy_mm[k]])), reach_px)
    return Followed(sel[k], fit.xy_mm[k], fit.radius_mm[k], score[k], explained)
