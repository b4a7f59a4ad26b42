"""Per-frame detection of every disc on a calibrated board.

`Detector(calib).detect(frame)` runs a flat sequence:
    1. rectify: one precomputed remap from the original frame to a top-down board image at a
       fixed scale (disc radii are constants there);
    2. candidates:
       - still path (the first frame, or every frame with `background=False`): fixed-radius
         circle voting on all colour edges, one accumulator per disc size;
       - video path (later frames): the board's background (printed markings, texture,
         lighting) is learned from the first frame with its discs and hands filled in, and
         kept current by a running average; a foreground blob of one disc's size is one
         candidate, larger blobs are split by circle voting inside their boxes only;
       - change-driven (`reuse`): the video path only where the picture
         changed since the discs there were detected; the other discs are carried over
         (`tracker._detect_change`);
    3. refine: radial edge search in the ORIGINAL frame and a per-disc circle fit (all discs at
       once) -> centres to a fraction of a millimetre, radius, face colour;
    4. classify: striker by size, men and queen by face colour;
    5. clean up: non-maximum suppression, printed-circle rejection (base circles like their
       siblings; the centre circle when a queen-sized face is in the circles' ink or as flat as
       a print), pocket holes and nets, pocket flags (video path: printed-circle rejection only
       where the background was filled in; elsewhere a disc must differ from the background);
    6. occlusion: large non-surface, non-disc regions (hands, arms, cue).
Everything is vectorised over pixels and discs.
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

import cv2
import numpy as np

from calibration.appearance import Appearance
from calibration.model import BoardCalibration, Failed
from calibration.rectify import BoardMaps, build_board_maps
from tracker._detect_bg import BackgroundModel, foreground, learn_background, update_background
from tracker._detect_board import (
    BoardGeometry,
    build_geometry,
    edge_contrast,
    near_marking,
    surface_lab_from,
)
from tracker._detect_change import (
    ReuseState,
    departed,
    detect_with_reuse,
    merge_found,
    settle,
    touched_discs,
)
from tracker._detect_printed import face_relief
from tracker._detect_refine import RefineResult, refine_discs
from tracker._detect_steps import (
    busy_mask,
    colour_distance,
    lab_dist,
    occlusion_from_foreground,
    on_foreground,
    package_found,
    resolve_equipment,
    suppress_overlaps,
)
from tracker._detect_types import Detection, DetectorConfig, Found
from tracker._detect_video import blob_candidates
from tracker._detect_vote import edge_field, vote_centres
from tracker.occlusion import stamp_discs
from tracker.specs import DiscKind, EquipmentSpec, load_board

__all__ = ["Detection", "Detector", "DetectorConfig"]


_DEFAULT_CONFIG = DetectorConfig()
# overlap-suppression rank of a fit found only with faint edges, relative to its score
_FAINT_RANK = 0.8


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
        config: DetectorConfig = _DEFAULT_CONFIG,
    ) -> None:
        self.calib = calib
        self.config = config
        self.equipment = resolve_equipment(calib, equipment)
        self.board = load_board(calib.game)
        self.maps: BoardMaps = build_board_maps(calib, px_per_mm=config.px_per_mm, margin_mm=config.margin_mm)
        self.geom: BoardGeometry = build_geometry(self.board, self.maps, self.equipment, calib)
        self.appearance: Appearance | None = calib.appearance
        self._edge_ref: np.ndarray | None = None
        self._bg: BackgroundModel | None = None
        self._pending: tuple[np.ndarray, np.ndarray] | None = None
        self._frames_since_update = 0
        self._no_occlusion = np.zeros(self.geom.markings_half.shape, bool)
        self._no_occlusion.setflags(write=False)
        z = np.zeros(0)
        self._last = Found(np.zeros((0, 2)), z, z, z.astype(np.int8), z, self._no_occlusion, z.astype(bool))
        self._reuse: ReuseState | None = None
        self._unsettled = np.zeros((0, 2))
        self._ghosts = (np.zeros((0, 2)), np.zeros(0), np.zeros(0, np.int64))
        self._lab_of: np.ndarray | None = None
        self._lab_img: np.ndarray = np.zeros(0, np.uint8)
        self._occluder_px = int(config.occlusion_min_area_mm2 * config.px_per_mm**2)
        self._debug: dict[str, Any] | None = None  # set to {} to keep intermediate arrays

    # -- per frame -------------------------------------------------------------------------
    def detect(self, frame_bgr: np.ndarray, *, t_s: float | None = None, frame_idx: int | None = None) -> Detection:
        """Detect discs and occlusion in one frame.

        The first frame (and every frame when `config.background` and `config.reuse` are off)
        goes through the still-image path; from the second frame on, discs are found as
        foreground against the learned background of the board (the video path), with
        `config.reuse` only where the picture changed since they were last detected.

        Args:
            frame_bgr: (H, W, 3) uint8 ORIGINAL frame of the calibrated size.
            t_s: capture time, seconds (copied into the detections).
            frame_idx: frame number (copied into the detections).

        Raises:
            ValueError: wrong frame shape, dtype or size.
        """
        self._check_frame(frame_bgr)
        cfg = self.config
        board_bgr = self.maps.rectify(frame_bgr)  # 1. rectify
        video = cfg.background or cfg.reuse
        if video and self._pending is not None:
            self._bg = learn_background(*self._pending)
            self._pending = None
        if self._bg is None:
            found = self._detect_still(frame_bgr, board_bgr)
            self._last = found
            if video:
                self._pending = (board_bgr, self._busy(found))
        elif self._reuse is not None:
            return detect_with_reuse(
                self._reuse,
                board_bgr,
                cfg,
                full=lambda: self._detect_video(frame_bgr, board_bgr),
                restart=lambda: self._restart(frame_bgr, board_bgr),
                partial=lambda change: (self._detect_video(frame_bgr, board_bgr, change), self._stamp(self._unsettled)),
                forced=lambda: self._stamp(self._last.xy_mm[self.geom.near_pocket(self._last.xy_mm)]),
                package=lambda found: self._package(found, t_s, frame_idx),
                t_s=t_s,
                frame_idx=frame_idx,
            )
        else:
            found = self._detect_video(frame_bgr, board_bgr)
        detection = self._package(found, t_s, frame_idx)
        if cfg.reuse and self._reuse is None:
            self._reuse = ReuseState(board_bgr.copy(), detection)
        return detection

    def _detect_still(self, frame_bgr: np.ndarray, board_bgr: np.ndarray) -> Found:
        """Still-image path: candidates from circle votes on all colour edges."""
        cfg, geom = self.config, self.geom
        board_lab = cv2.cvtColor(board_bgr, cv2.COLOR_BGR2LAB)
        app = self._appearance(board_lab)
        far = colour_distance(board_lab, app.surface_lab)
        # 2. candidates, one accumulator per disc size, strongest first, at most max_candidates
        ys, xs, unit = edge_field(
            far, board_lab[..., 0].astype(np.float32), min_mag=cfg.edge_min_mag, weight=geom.vote_weight
        )
        xy0, r0 = self._vote(ys, xs, unit, geom.centre_valid)
        fg = (far > cfg.occlusion_far).astype(np.uint8) * 255
        return self._finish(frame_bgr, board_bgr, board_lab, app, xy0, r0, np.ones(len(r0), bool), fg, video=False)

    def _detect_video(self, frame_bgr: np.ndarray, board_bgr: np.ndarray, change: np.ndarray | None = None) -> Found:
        """Video path: candidates from foreground blobs against the learned background; given a
        `change` mask ((H, W) uint8 board image, see `tracker._detect_change`), only blobs and
        last frame's discs touching it are looked at, the other discs are carried over."""
        cfg, geom, bg, last = self.config, self.geom, self._bg, self._last
        assert bg is not None and self.appearance is not None
        # 2. candidates: one per disc-sized blob, circle votes inside larger blobs
        diff, fg, thresh = foreground(board_bgr, bg, min_diff=cfg.bg_min_diff)
        blobs = blob_candidates(
            fg,
            diff,
            board_bgr,
            self.maps,
            np.asarray(geom.radii_mm),
            geom.centre_valid,
            min_mag=cfg.edge_min_mag,
            min_vote_frac=cfg.min_vote_frac,
            max_peaks=cfg.max_candidates,
            large_px=self._occluder_px,
            region=change,
            known_mm=last.xy_mm,
            known_r_mm=last.nominal,
        )
        redo = np.ones(len(last.xy_mm), bool)
        if change is not None:
            redo = touched_discs(change, last.xy_mm, last.nominal, self.maps)
        # last frame's discs no blob explains now (a disc close to the surface colour at rest
        # may be too faint a blob): looked for again with the still path's checks
        # (change-driven: with the discs lost in the last few frames, see `settle`)
        carried = redo & self._carried(blobs.xy_mm)
        xy_c, r_c, age = last.xy_mm[carried], last.nominal[carried], np.zeros(int(carried.sum()), np.int64)
        if change is not None:
            xy_c, r_c, age = (np.concatenate([a, b]) for a, b in zip((xy_c, r_c, age), self._ghosts, strict=True))
            # ... unless they plainly left (a disc struck away): no need to look
            here = ~departed(change, diff, thresh, xy_c, r_c, self.maps)
            xy_c, r_c, age = xy_c[here], r_c[here], age[here]
        xy0 = np.concatenate([blobs.xy_mm, xy_c])
        r0 = np.concatenate([blobs.r_mm, r_c])
        # still-path checks only where the background was filled in (never seen bare) and on
        # large blobs (hands)
        uv = np.clip(np.rint(self.maps.to_px(xy0)).astype(np.intp), 0, geom.shape[0] - 1)
        unknown = (bg.known[uv[:, 1], uv[:, 0]] == 0) | np.concatenate([blobs.in_large, np.ones(len(xy_c), bool)])
        found = self._finish(
            frame_bgr,
            board_bgr,
            None,
            self.appearance,
            xy0,
            r0,
            unknown,
            fg if blobs.has_large and change is None else None,
            video=True,
        )
        found = on_foreground(found, diff, thresh, self.maps)
        if change is not None:
            # candidates that came to nothing are looked at again next frame, lost discs for a few
            self._unsettled, self._ghosts = settle(
                found.xy_mm, blobs.xy_mm[~blobs.in_large], (xy_c, r_c, age), man_r=geom.man_r
            )
            found = merge_found(last.select(~redo), found, self._no_occlusion)
            if blobs.has_large:
                found = replace(found, occlusion=self._occlusion(fg, found.xy_mm, found.nominal))
        else:
            self._ghosts = (xy_c[:0], r_c[:0], age[:0])
        self._last = found
        # keep the background current (not every frame: it changes slowly)
        if self._frames_since_update >= cfg.bg_update_every - 1:
            near = int(np.ceil(geom.striker_r * 2 * cfg.px_per_mm))
            update_background(bg, board_bgr, fg, self._busy(found), alpha=cfg.bg_alpha, near_px=near)
            self._frames_since_update = 0
        else:
            self._frames_since_update += 1
        return found

    def _stamp(self, xy_mm: np.ndarray) -> np.ndarray | None:
        """(H, W) uint8 board-image mask round points (N, 2) board mm (None if there are none).

        The change-driven path detects afresh round candidates that came to nothing and round
        discs that may overlap a pocket hole (a dark disc dropping into the dark hole hardly
        changes the picture), changed or not."""
        if len(xy_mm) == 0:
            return None
        r_px = 1.3 * self.geom.striker_r * self.config.px_per_mm
        return stamp_discs(self.geom.shape, self.maps.to_px(xy_mm), r_px)

    def _restart(self, frame_bgr: np.ndarray, board_bgr: np.ndarray) -> Found:
        """Still path on this frame, and the background learned again from it on the next."""
        found = self._detect_still(frame_bgr, board_bgr)
        self._last = found
        self._pending = (board_bgr, self._busy(found))
        return found

    def _carried(self, xy_mm: np.ndarray) -> np.ndarray:
        """(M,) bool over the last frame's discs: no candidate within half a man's radius."""
        last_xy = self._last.xy_mm
        if len(last_xy) == 0 or len(xy_mm) == 0:
            return np.ones(len(last_xy), bool)
        d = np.linalg.norm(last_xy[:, None, :] - xy_mm[None], axis=2).min(axis=1)
        return np.asarray(d > 0.5 * self.geom.man_r)

    def _vote(
        self, ys: np.ndarray, xs: np.ndarray, unit: np.ndarray, valid: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Candidate centres (N, 2) board mm and nominal radii (N,) mm from edge votes."""
        cfg, geom = self.config, self.geom
        radii_mm = np.asarray(geom.radii_mm)
        uv, which, _ = vote_centres(
            geom.shape,
            ys,
            xs,
            unit,
            tuple(radii_mm * cfg.px_per_mm),
            min_frac=cfg.min_vote_frac,
            max_peaks=cfg.max_candidates,
            valid=valid,
        )
        return self.maps.to_mm(uv), radii_mm[which]

    def _finish(
        self,
        frame_bgr: np.ndarray,
        board_bgr: np.ndarray,
        board_lab: np.ndarray | None,
        app: Appearance,
        xy0: np.ndarray,
        r0: np.ndarray,
        check_printed: np.ndarray,
        fg: np.ndarray | None,
        *,
        video: bool,
    ) -> Found:
        """Steps 3-6 shared by both paths: refine, classify, clean up, occlusion.

        `board_lab` (Lab board image): given, every candidate gets a screening round in it;
        None, it is computed here only if needed. `check_printed` (N,) marks the candidates
        held to the still path's checks (all of them unless `video`); `fg` None: no occluder.
        """
        cfg, geom, eq = self.config, self.geom, self.equipment
        # video path: candidates are foreground blobs (checked again in `_on_foreground`), so a
        # weaker outline is enough
        # 3. refine in the original frame
        hole0 = np.where(r0 == geom.striker_r, eq.striker_hole_diameter_mm, eq.man_hole_diameter_mm) / 2
        ref = self._refine(frame_bgr, board_bgr, board_lab, xy0, r0, hole0, check_printed, video=video)
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
        # (a candidate where the background was only filled in may be a printed mark: strict)
        lax = video & ~ref.tag
        min_support = np.where(lax, cfg.video_min_support, cfg.min_support)
        keep = (ref.support >= min_support) & (score >= cfg.min_score) & geom.inside(ref.xy_mm, nominal)
        # an outline all round (two parallel printed lines one diameter apart only give two arcs)
        # (touching discs of one colour hide a few octants; a pocket behind a dark disc too)
        keep &= ref.coverage >= np.where(geom.near_pocket(ref.xy_mm), 5, 6) - lax
        keep &= ~geom.is_pocket_hole(ref.xy_mm, ref.radius_mm)
        keep &= ~geom.is_pocket_net(ref.xy_mm, ref.radius_mm, ref.face_lab[:, 0], float(app.surface_lab[0]))
        # face the surface colour and no rim all round: two printed lines one diameter apart
        plain = (lab_dist(ref.face_lab, app.surface_lab) < 18.0) & (ref.rim < 0.85)
        keep &= ~plain | lax
        # found only with faint edges: a light man's thin rim all round (issue #3)
        faint = ref.clear < min_support
        keep &= ~faint | ((ref.support >= cfg.faint_min_support) & (ref.rim >= cfg.faint_min_rim))
        # overlapping fits of one disc: a fit resting on faint edges ranks below a clear one (a
        # striker-sized circle round a light man catches its neighbours' faint edges)
        rank = score * np.where(faint, _FAINT_RANK, 1.0)
        if np.any(ref.tag & keep):
            if board_lab is None:
                board_lab = self._lab(board_bgr)
            # face relief only where a print could be mistaken for a disc (a few candidates)
            relief = np.full(len(keep), np.inf)
            on_mark = np.nonzero(ref.tag & keep & near_marking(geom, ref.xy_mm))[0]
            relief[on_mark] = face_relief(frame_bgr, self.maps, ref.xy_mm[on_mark])
            # another queen must survive the overlap suppression to count (issue #3)
            kept = np.nonzero(keep)[0]
            rival = np.zeros(len(keep), bool)
            rival[kept[suppress_overlaps(ref.xy_mm[kept], nominal[kept], rank[kept])]] = True
            printed = geom.is_printed_circle(
                ref.xy_mm,
                np.where(keep, kind, -1),
                board_lab,
                ref.face_lab,
                ref.shade,
                ref.radius_mm,
                relief,
                rival=rival,
            )
            keep &= ~(printed & ref.tag)
        idx = np.nonzero(keep)[0]
        if self._debug is not None:
            self._debug.update(xy0=xy0, ref=ref, score=score, kind=kind, keep=keep, plain=plain, size_ok=size_ok)
        idx = idx[suppress_overlaps(ref.xy_mm[idx], nominal[idx], rank[idx])]
        xy_mm = ref.xy_mm[idx]
        # 6. occlusion
        occ = self._occlusion(fg, xy_mm, nominal[idx]) if fg is not None else self._no_occlusion
        return Found(xy_mm, ref.radius_mm[idx], nominal[idx], kind[idx], score[idx], occ, ref.tag[idx])

    def _refine(
        self,
        frame_bgr: np.ndarray,
        board_bgr: np.ndarray,
        board_lab: np.ndarray | None,
        xy0: np.ndarray,
        r0: np.ndarray,
        hole0: np.ndarray,
        strict: np.ndarray,
        *,
        video: bool,
    ) -> RefineResult:
        """Refine all candidates; on the video path only the `strict` ones get the screening
        round (in the Lab board image), the foreground blobs go straight to the fine round."""
        cfg = self.config

        def run(sel: np.ndarray, lab: np.ndarray | None) -> RefineResult:
            return refine_discs(
                frame_bgr,
                self.maps,
                xy0[sel],
                r0[sel],
                min_rise=cfg.min_rise,
                min_support=cfg.min_support,
                hole_mm=hole0[sel],
                board_lab=lab,
                tag=strict[sel],
                screen=lab is not None,
            )

        if not video:
            return run(np.ones(len(r0), bool), board_lab)
        quick = run(~strict, None)
        if not strict.any():
            return quick
        lab = board_lab if board_lab is not None else self._lab(board_bgr)
        careful = run(strict, lab)
        return RefineResult(
            *(np.concatenate([getattr(quick, f.name), getattr(careful, f.name)]) for f in fields(RefineResult))
        )

    def _package(self, found: Found, t_s: float | None, frame_idx: int | None) -> Detection:
        return package_found(found, self.geom, self.maps, self.config.px_per_mm, t_s, frame_idx)

    def _busy(self, found: Found) -> np.ndarray:
        """(H, W) uint8 board-image mask under detected discs (with a margin) and occluders."""
        return busy_mask(found, self.geom, self.maps, self.config.px_per_mm)

    def _check_frame(self, frame_bgr: np.ndarray) -> None:
        if (
            not isinstance(frame_bgr, np.ndarray)
            or frame_bgr.ndim != 3
            or frame_bgr.shape[2] != 3
            or frame_bgr.dtype != np.uint8
        ):
            raise ValueError(f"frame_bgr: expected an (H, W, 3) uint8 image, got {getattr(frame_bgr, 'shape', None)}")
        w, h = self.calib.image_size
        if frame_bgr.shape[:2] != (h, w):
            raise ValueError(f"frame_bgr: calibrated for {w}x{h}, got {frame_bgr.shape[1]}x{frame_bgr.shape[0]}")

    def _lab(self, board_bgr: np.ndarray) -> np.ndarray:
        """Lab board image of this (video path) frame, converted at most once per frame."""
        if self._lab_of is not board_bgr:
            self._lab_of, self._lab_img = board_bgr, np.asarray(cv2.cvtColor(board_bgr, cv2.COLOR_BGR2LAB))
        return self._lab_img

    def _appearance(self, board_lab: np.ndarray) -> Appearance:
        if self.appearance is None:
            colour, spread = surface_lab_from(board_lab, self.geom.surface)
            self.appearance = Appearance(colour, spread)
        return self.appearance

    def _occlusion(self, fg: np.ndarray, xy_mm: np.ndarray, r_mm: np.ndarray) -> np.ndarray:
        """Occlusion mask from a (H, W) uint8 0/255 foreground, at half the board-image scale."""
        cfg = self.config
        return occlusion_from_foreground(
            fg, xy_mm, r_mm, self.geom, self.maps, px_per_mm=cfg.px_per_mm, min_area_mm2=cfg.occlusion_min_area_mm2
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
