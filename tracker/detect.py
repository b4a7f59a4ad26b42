"""Per-frame detection of every disc on a calibrated board.

`Detector(calib).detect(frame)` runs a flat sequence:
    1. rectify: one precomputed remap from the original frame to a top-down board image at a
       fixed scale (disc radii are constants there);
    2. candidates: fixed-radius circle voting on colour edges, one accumulator per disc size;
    3. refine: radial edge search in the ORIGINAL frame and a per-disc circle fit (all discs at
       once) -> centres to a fraction of a millimetre, radius, face colour;
    4. classify: striker by size, men and queen by face colour;
    5. clean up: non-maximum suppression, printed-circle rejection, pocket flags;
    6. occlusion: large non-surface, non-disc regions (hands, arms, cue).
Everything is vectorised over pixels and discs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from calibration.appearance import Appearance
from calibration.model import BoardCalibration, Failed
from calibration.rectify import BoardMaps, build_board_maps
from tracker._detect_board import BoardGeometry, build_geometry, edge_contrast, surface_lab_from
from tracker._detect_refine import refine_discs
from tracker._detect_vote import edge_field, vote_centres
from tracker.detections import FrameDetections
from tracker.occlusion import occlusion_mask, stamp_discs
from tracker.specs import DiscKind, EquipmentSpec, default_equipment, load_board, load_equipment

__all__ = ["Detection", "Detector", "DetectorConfig"]


@dataclass(frozen=True, slots=True)
class DetectorConfig:
    """Tuning of `Detector`.

    Attributes:
        px_per_mm: scale of the rectified board image (candidates only; centres are refined
            in the original frame).
        margin_mm: band kept around the playing surface.
        edge_min_mag: minimum colour gradient for an edge pixel to vote (Lab units per px).
        min_vote_frac: a candidate needs this fraction of a full outline's votes.
        min_support: fraction of rays that must find the outline.
        min_score: detections below this score are dropped.
        min_rise: minimum colour step at a disc outline (Lab units).
        occlusion_far: colour distance from the surface above which a pixel is foreground.
        occlusion_min_area_mm2: smallest occluding region.
        moved_offset_mm: board_moved samples this far either side of the surface edges.
    """

    px_per_mm: float = 0.4
    margin_mm: float = 25.0
    edge_min_mag: float = 8.0
    min_vote_frac: float = 0.4
    min_support: float = 0.5
    min_score: float = 0.3
    min_rise: float = 8.0
    occlusion_far: float = 28.0
    occlusion_min_area_mm2: float = 2500.0
    moved_offset_mm: float = 4.0
    max_candidates: int = 48


@dataclass(frozen=True, slots=True)
class Detection:
    """What one frame shows.

    Attributes:
        discs: detections; `xy_img` in ORIGINAL image px, `xy_board` in board mm.
        occlusion: (H, W) bool mask in the rectified board image (True = hidden by a hand, arm,
            cue or head).
        occluded_fraction: occluded share of the playing surface, 0..1.
        px_per_mm: scale of `occlusion`.
        centre_px: (2,) board centre in `occlusion` pixels.
    """

    discs: FrameDetections
    occlusion: np.ndarray
    occluded_fraction: float
    px_per_mm: float
    centre_px: np.ndarray = field(repr=False)

    def is_occluded(self, xy_mm: np.ndarray) -> np.ndarray:
        """(N, 2) board mm -> (N,) bool, True where the point is inside the occlusion mask."""
        uv = np.rint(np.asarray(xy_mm, dtype=np.float64).reshape(-1, 2) * self.px_per_mm + self.centre_px)
        h, w = self.occlusion.shape
        ij = uv.astype(np.int64)
        ok = (ij[:, 0] >= 0) & (ij[:, 0] < w) & (ij[:, 1] >= 0) & (ij[:, 1] < h)
        out = np.zeros(len(ij), bool)
        out[ok] = self.occlusion[ij[ok, 1], ij[ok, 0]]
        return out


def _colour_distance(lab: np.ndarray, ref_lab: np.ndarray) -> np.ndarray:
    """(H, W) uint8 weighted L1 Lab distance from `ref_lab` (lightness weighted 0.5, saturating)."""
    ref = tuple(float(v) for v in np.clip(np.rint(np.asarray(ref_lab)), 0, 255)) + (0.0,)
    diff = cv2.absdiff(lab, ref)  # type: ignore[call-overload]
    return np.asarray(cv2.transform(diff, _L1_WEIGHTS))


_L1_WEIGHTS = np.array([[0.5, 1.0, 1.0]], np.float32)


def _lab_dist(lab: np.ndarray, ref_lab: np.ndarray) -> np.ndarray:
    """(N,) Lab distances of (N, 3) colours from `ref_lab`, lightness weighted 0.5."""
    return np.asarray(np.linalg.norm((np.asarray(lab) - ref_lab) * np.array([0.5, 1.0, 1.0]), axis=1))


def _resolve_equipment(calib: BoardCalibration, equipment: str | EquipmentSpec | None) -> EquipmentSpec:
    if isinstance(equipment, EquipmentSpec):
        return equipment
    name = equipment or calib.equipment
    return load_equipment(name) if name else default_equipment(calib.game)


def _suppress_overlaps(xy: np.ndarray, radius: np.ndarray, score: np.ndarray) -> np.ndarray:
    """Keep mask: drop a disc when a better-scored one overlaps it by more than a third of a radius."""
    d = np.linalg.norm(xy[:, None, :] - xy[None, :, :], axis=2)
    overlap = d < 0.7 * (radius[:, None] + radius[None, :])
    better = (score[None, :] > score[:, None]) | (
        (score[None, :] == score[:, None]) & (np.arange(len(xy))[None, :] < np.arange(len(xy))[:, None])
    )
    return np.asarray(~np.any(overlap & better, axis=1))


class Detector:
    """Finds every disc in frames of one calibrated camera view.

    Args:
        calib: the board calibration.
        equipment: disc set name or spec; default: the calibration's, else the game's default.
        config: tuning.
    """

    def __init__(
        self,
        calib: BoardCalibration,
        *,
        equipment: str | EquipmentSpec | None = None,
        config: DetectorConfig = DetectorConfig(),
    ) -> None:
        self.calib = calib
        self.config = config
        self.equipment = _resolve_equipment(calib, equipment)
        self.board = load_board(calib.game)
        self.maps: BoardMaps = build_board_maps(calib, px_per_mm=config.px_per_mm, margin_mm=config.margin_mm)
        self.geom: BoardGeometry = build_geometry(self.board, self.maps, self.equipment, calib)
        self.appearance: Appearance | None = calib.appearance
        self._edge_ref: np.ndarray | None = None
        self._debug: dict[str, Any] | None = None  # set to {} to keep intermediate arrays

    # -- per frame -------------------------------------------------------------------------
    def detect(
        self, frame_bgr: np.ndarray, *, t_s: float | None = None, frame_idx: int | None = None
    ) -> Detection:
        """Detect discs and occlusion in one frame.

        Args:
            frame_bgr: (H, W, 3) uint8 ORIGINAL frame of the calibrated size.
            t_s: capture time, seconds (copied into the detections).
            frame_idx: frame number (copied into the detections).

        Raises:
            ValueError: wrong frame shape, dtype or size.
        """
        self._check_frame(frame_bgr)
        cfg, geom, eq = self.config, self.geom, self.equipment
        # 1. rectify
        board_lab = cv2.cvtColor(self.maps.rectify(frame_bgr), cv2.COLOR_BGR2LAB)
        app = self._appearance(board_lab)
        far = _colour_distance(board_lab, app.surface_lab)
        # 2. candidates, one accumulator per disc size, strongest first, at most max_candidates
        ys, xs, unit = edge_field(
            far, board_lab[..., 0].astype(np.float32), min_mag=cfg.edge_min_mag, weight=geom.vote_weight
        )
        radii_mm = np.asarray(geom.radii_mm)
        uv, which, _ = vote_centres(
            geom.shape,
            ys,
            xs,
            unit,
            tuple(radii_mm * cfg.px_per_mm),
            min_frac=cfg.min_vote_frac,
            max_peaks=cfg.max_candidates,
            valid=geom.centre_valid,
        )
        xy0, r0 = self.maps.to_mm(uv), radii_mm[which]
        # 3. refine in the original frame
        hole0 = np.where(r0 == geom.striker_r, eq.striker_hole_diameter_mm, eq.man_hole_diameter_mm) / 2
        ref = refine_discs(
            frame_bgr,
            self.maps,
            xy0,
            r0,
            min_rise=cfg.min_rise,
            min_support=cfg.min_support,
            hole_mm=hole0,
            board_lab=board_lab,
        )
        # 4. classify: striker by size, coins by colour
        is_striker = np.abs(ref.radius_mm - geom.striker_r) < np.abs(ref.radius_mm - geom.man_r)
        if eq.striker_diameter_mm == eq.man_diameter_mm:
            is_striker = np.zeros(len(ref.radius_mm), bool)
        kind = np.where(
            is_striker, np.int8(DiscKind.STRIKER), app.classify_coins(ref.face_lab, queen=eq.queens > 0)
        ).astype(np.int8)
        nominal = np.where(is_striker, geom.striker_r, geom.man_r)
        size_ok = np.abs(ref.radius_mm - nominal) < 0.2 * nominal
        score = ref.support * np.clip(ref.contrast / 20.0, 0.3, 1.0) * size_ok
        # 5. clean up
        keep = (ref.support >= cfg.min_support) & (score >= cfg.min_score) & geom.inside(ref.xy_mm)
        # an outline all round (two parallel printed lines one diameter apart only give two arcs)
        # (touching discs of one colour hide a few octants; a pocket behind a dark disc too)
        keep &= ref.coverage >= np.where(geom.near_pocket(ref.xy_mm), 5, 6)
        keep &= ~geom.is_pocket_hole(ref.xy_mm, ref.radius_mm)
        # the face and outer band both the surface colour: two printed lines one diameter apart
        # face the surface colour and no rim all round: two printed lines one diameter apart
        plain = (_lab_dist(ref.face_lab, app.surface_lab) < 18.0) & (ref.rim < 0.85)
        keep &= ~plain
        keep &= ~geom.is_printed_circle(
            ref.xy_mm, np.where(keep, kind, -1), board_lab, ref.face_lab, ref.shade, ref.radius_mm
        )
        idx = np.nonzero(keep)[0]
        if self._debug is not None:
            self._debug.update(
                xy0=xy0, ref=ref, score=score, kind=kind, keep=keep, plain=plain, size_ok=size_ok
            )
        idx = idx[_suppress_overlaps(ref.xy_mm[idx], nominal[idx], score[idx])]
        xy_mm = ref.xy_mm[idx]
        xy_img = self.maps.board_mm_to_original(xy_mm).astype(np.float32)
        scale_px = geom.local_px_per_mm(xy_mm)
        dets = FrameDetections(
            xy_img=xy_img.reshape(-1, 2),
            radius_px=(ref.radius_mm[idx] * scale_px).astype(np.float32),
            kind=kind[idx],
            score=score[idx].astype(np.float32),
            xy_board=xy_mm.astype(np.float32).reshape(-1, 2),
            flags=geom.flags(xy_mm),
            t_s=t_s,
            frame_idx=frame_idx,
        )
        # 6. occlusion
        occ = self._occlusion(far, xy_mm, nominal[idx])
        frac = float(np.count_nonzero(occ)) / max(1, geom.surface_half_px)
        return Detection(dets, occ, frac, 0.5 * cfg.px_per_mm, (self.maps.centre_px - 0.5) * 0.5)

    def _check_frame(self, frame_bgr: np.ndarray) -> None:
        if (
            not isinstance(frame_bgr, np.ndarray)
            or frame_bgr.ndim != 3
            or frame_bgr.shape[2] != 3
            or frame_bgr.dtype != np.uint8
        ):
            raise ValueError(
                f"frame_bgr: expected an (H, W, 3) uint8 image, got {getattr(frame_bgr, 'shape', None)}"
            )
        w, h = self.calib.image_size
        if frame_bgr.shape[:2] != (h, w):
            raise ValueError(
                f"frame_bgr: calibrated for {w}x{h}, got {frame_bgr.shape[1]}x{frame_bgr.shape[0]}"
            )

    def _appearance(self, board_lab: np.ndarray) -> Appearance:
        if self.appearance is None:
            colour, spread = surface_lab_from(board_lab, self.geom.surface)
            self.appearance = Appearance(colour, spread)
        return self.appearance

    def _occlusion(self, far: np.ndarray, xy_mm: np.ndarray, r_mm: np.ndarray) -> np.ndarray:
        """Occlusion mask, computed at half the board-image scale and returned at half scale."""
        cfg, geom = self.config, self.geom
        small = cv2.resize(far, geom.markings_half.shape[::-1], interpolation=cv2.INTER_AREA)
        fg: np.ndarray = (small > cfg.occlusion_far).astype(np.uint8) * 255
        fg = cv2.bitwise_and(fg, cv2.bitwise_not(geom.markings_half))
        scale = 0.5 * cfg.px_per_mm
        stamp_r = (float(r_mm.max()) if len(r_mm) else geom.striker_r) * 1.25 * scale
        discs = stamp_discs(fg.shape, (self.maps.to_px(xy_mm) - 0.5) * 0.5, stamp_r)
        return occlusion_mask(
            fg,
            discs,
            geom.surface_half,
            open_px=int(round(8 * scale)),
            min_area_px=int(cfg.occlusion_min_area_mm2 * scale**2),
        )

    # -- camera bumped -----------------------------------------------------------------------
    def board_moved(self, frame_bgr: np.ndarray) -> bool:
        """Cheap check (a few hundred pixel samples) that the board edges are still where the
        calibration put them. The first call stores the reference contrast and returns False."""
        self._check_frame(frame_bgr)
        contrast = edge_contrast(frame_bgr, self.geom)
        if self._edge_ref is None:
            self._edge_ref = contrast
            return False
        ref = self._edge_ref
        usable = ref > 12.0
        if usable.sum() < 16:
            return False
        held = contrast[usable] > 0.5 * ref[usable]
        return bool(held.mean() < 0.55)

    def recalibrate(self, calib: BoardCalibration) -> None:
        """Switch to a new calibration of the same camera (after `board_moved`); discs keep their
        board-mm positions, so trackers continue."""
        self.__init__(calib, equipment=self.equipment, config=self.config)  # type: ignore[misc]

    def refind(self, frame_bgr: np.ndarray) -> bool:
        """Find the board again in `frame_bgr` (same game, lens and colour models) and switch to
        it. Returns False, keeping the old calibration, when the board is not found."""
        from calibration.board import find_board

        found = find_board(frame_bgr, game=self.calib.game, lens=self.calib.lens)
        if isinstance(found, Failed):
            return False
        keep = {"appearance": self.calib.appearance or found.appearance, "equipment": self.calib.equipment}
        self.recalibrate(found.with_(**keep))
        return True
