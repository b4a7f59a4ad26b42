"""The shared core of `tracker.detect.Detector`: state, the still-image path and the steps
every path ends with (refine, classify, clean up, occlusion, packaging); see `tracker.detect`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import fields
from typing import Any

import cv2
import numpy as np

from calibration.appearance import Appearance
from calibration.model import BoardCalibration
from calibration.rectify import BoardMaps, build_board_maps
from tracker._detect_bg import BackgroundModel
from tracker._detect_board import BoardGeometry, build_geometry, near_marking, surface_lab_from
from tracker._detect_change import ReuseState, merge_found, unexplained
from tracker._detect_mosaic import Mosaic
from tracker._detect_printed import face_relief
from tracker._detect_refine import RefineResult, refine_discs
from tracker._detect_region import Box, StillPlanes, bounding, box_rect, in_mask, near_mask
from tracker._detect_rows import along_rail, clear_of, next_in_row
from tracker._detect_steps import (
    above,
    busy_mask,
    lab_dist,
    occlusion_from_foreground,
    package_found,
    resolve_equipment,
    suppress_overlaps,
)
from tracker._detect_types import Detection, DetectorConfig, Found
from tracker._detect_vote import edge_field, vote_centres
from tracker._validate import check_bgr_image
from tracker.occlusion import HandFinder, stamp_discs
from tracker.specs import DiscKind, EquipmentSpec, load_board

__all__ = ["DetectorCore"]


_DEFAULT_CONFIG = DetectorConfig()
# overlap-suppression rank of a fit found only with faint edges, relative to its score
_FAINT_RANK = 0.8
_BELOW = 0.99  # a rank just below another's
# a face nearer the surface's colour than this (Lab) is the surface's colour
_PLAIN_LAB = 18.0
# ... and such a coin's outline crosses the print on at most this share of it (a line under it)
_CAMO_MAX_ON_PRINT = 0.3
# neighbours in a row touch or nearly (centres this many man radii apart)
_ROW_GAP = (1.7, 2.5)
# ... and a man flanked by two touches both (a fit between two men a gap apart is none)
_FLANK_GAP = (1.8, 2.25)
# ... and their fitted radii are within this share of a man's
_ROW_SIZE = 0.3
# a man whose edge is this close to a rail lies against it (a row's next man is looked for beside him)
_ROW_AT_RAIL_MM = 5.0
_ROW_STARTS_MM = (-2.0, 0.0, 2.0)  # ... from these offsets along the rail
# the fitted radius less this times the outline's second harmonic is a blurred disc's radius
_UNBLUR = 1.5
# a disc's face differs from ray to ray by at most this (`RefineResult.asymmetry`, Lab units:
# discs measured up to 14.3 on the synthetic suite and 12.5 on the real photos; circles round the
# centre's printed arms, printed text and pocket nets 24-71)
_MAX_ASYMMETRY = 20.0
# ... when not drawn out by motion more than this (mm, the outline's second harmonic)
_ASYM_MAX_STRETCH_MM = 1.5
# ... nor with a hole wider than this share of its radius
_ASYM_MAX_HOLE = 0.35
# a neighbour in a pack: centres this many man radii apart at most (touching or nearly)
_PACK_REACH = 2.3
# hands are looked for this far round what changed and the hands seen last (a disc they come to
# touch is taken into them), mm
_HAND_PAD_MM = 40.0


class DetectorCore:
    """State and shared steps of `tracker.detect.Detector` (see there for the arguments)."""

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
        self._planes = StillPlanes.empty(self.geom.shape)
        self._no_hands = np.zeros(self.geom.shape, bool)
        self._hands = self._no_hands  # the still path's last `_reaching_in`
        # change-driven still path: where discs were detected afresh in the last frame (None:
        # everywhere)
        self._redone: np.ndarray | None = None
        self._lost_mm = np.zeros((0, 2))  # the discs the last frame lost (see `_detect_region`)
        self._nothing_redone = np.zeros(self.geom.shape, np.uint8)
        self._before_mm = np.zeros((0, 2))  # the discs of the frame before the last (their motion)
        self._occluder_px = int(config.occlusion_min_area_mm2 * config.px_per_mm**2)
        self._debug: dict[str, Any] | None = None  # set to {} to keep intermediate arrays

    def _detect_still(
        self,
        frame_bgr: np.ndarray,
        board_bgr: np.ndarray,
        boxes: tuple[np.ndarray, Box] | None = None,
        parts: list[Box] | None = None,
    ) -> Found:
        """Still-image path: candidates from circle votes on all colour edges; with `boxes`
        (redo mask, box; see `box_of_change`), only inside the box, centres on the mask (no
        occlusion: the caller merges and computes it), and with `parts` of the box (see
        `split_box`), only in those."""
        cfg, geom, planes = self.config, self.geom, self._planes
        outer = boxes[1] if boxes is not None else (slice(None), slice(None))
        parts = [outer] if parts is None else parts
        app = self._update_planes(board_bgr, parts)
        # 2. candidates, one accumulator per disc size, strongest first, at most max_candidates
        if boxes is not None and len(parts) > 1:
            xy0, r0 = self._vote_in_parts(boxes[0], parts)
        else:
            ys, xs, unit = edge_field(
                planes.far[outer],
                planes.lab[outer][..., 0].astype(np.float32),
                min_mag=cfg.edge_min_mag,
                weight=geom.vote_weight[outer],
            )
            valid = geom.centre_valid[outer]
            if boxes is not None:
                valid = valid & (boxes[0][outer] > 0)
            xy0, r0 = self._vote(ys, xs, unit, valid, origin=(outer[1].start or 0, outer[0].start or 0))
        rows = None
        again_xy, again_r = self._looking_again()
        if boxes is not None and len(again_xy):
            # the places of discs lost under a hand, looked at again as they lay (see `_unhidden`):
            # candidates, and men of a row there (their rims hidden by the cushion and neighbours)
            inside = in_mask(again_xy, boxes[0], self.maps)
            xy0, r0 = np.concatenate([xy0, again_xy[inside]]), np.concatenate([r0, again_r[inside]])
            rows = ~unexplained(xy0, again_xy, 0.5 * geom.man_r)
        fg = planes.fg if boxes is None else None
        # a hand or arm reaching in: its knuckles and fingertips look like discs, so a disc on it
        # must show a clear outline nearly all round (a hand comes in over the edge: while there
        # is none, only a change that reaches the edge can bring one)
        if boxes is None or self._hands.any() or _meet(geom.surface_rim[outer], boxes[0][outer]):
            self._hands = self._reaching_in(planes, whole=boxes is None)
        # (over the whole board a man may be held to his size; the change-driven boxes hold discs
        # in motion, blurred out of round, and the hands that move them)
        found = self._finish(
            frame_bgr,
            board_bgr,
            planes.lab,
            app,
            xy0,
            r0,
            np.ones(len(r0), bool),
            fg,
            video=False,
            hands=self._hands,
            hold=boxes is None,
            rows=rows,
        )
        if boxes is None and self.board.rows_at_rails and self.config.complete_rows:
            found = self._complete_rows(frame_bgr, app, found)
        return found

    def _complete_rows(self, frame_bgr: np.ndarray, app: Appearance, found: Found) -> Found:
        """`found` over the whole board and the men of the rows against the rails it missed (see
        `tracker._detect_rows`): beside each man found against a rail, the next man of his row is
        looked for where he would touch him, a fit held to a man's size from there; one with an
        outline on `row_next_support` of the rays in 5 octants, that stayed put, is a man of the
        row, and looks for the next. (Not in the change-driven boxes: there, men in a row come and
        go under hands and in the wake of discs, and a row's next man found now and then was taken
        for motion; measured on the korona suite.)"""
        geom, cfg = self.geom, self.config
        is_man = found.nominal == geom.man_r
        men, men_kind = found.xy_mm[is_man], found.kind[is_man]
        taken_xy, taken_r = found.xy_mm, found.nominal
        new: list[Found] = []
        for _ in range(self.equipment.men_per_colour):  # (a row is at most one player's set)
            xy0, beside = next_in_row(men, geom.man_r, geom.half_mm, taken_xy, taken_r, at_rail_mm=_ROW_AT_RAIL_MM)
            look = ~geom.near_pocket(xy0)
            if self._hands.any():
                look &= ~in_mask(xy0, self._hands, self.maps)
            xy0, beside = xy0[look], beside[look]
            if len(xy0) == 0:
                break
            # (from the place and a little either side of it along the rail: the neighbour's own
            # centre is a millimetre or two out, and a fit held to a man's size hardly moves)
            starts = along_rail(xy0, _ROW_STARTS_MM)
            r0 = np.full(len(starts), geom.man_r)
            fits = refine_discs(frame_bgr, self.maps, starts, r0, min_rise=cfg.min_rise, min_support=cfg.min_support,
                                hole_mm=self._hole_radius(r0), screen=False, hold=np.ones(len(r0), bool))
            best = fits.support.reshape(len(xy0), -1).argmax(axis=1) + np.arange(len(xy0)) * len(_ROW_STARTS_MM)
            ref = fits.select(best)
            kind, nominal = self._classify(app, ref.radius_mm, ref.face_lab)
            # (a man of the kind of the one he is beside: a row is one player's set, and beyond a
            # dark row's end the cushion's edge and the grain read as a light man)
            ok = (nominal == geom.man_r) & (kind == men_kind[beside])
            ok &= np.abs(ref.radius_mm - nominal) < _ROW_SIZE * nominal
            ok &= (ref.support >= cfg.row_next_support) & (ref.coverage >= 5)
            ok &= np.hypot(*(ref.xy_mm - xy0).T) <= 0.5 * geom.man_r
            ok &= clear_of(ref.xy_mm, geom.man_r, taken_xy, taken_r)  # (not drawn onto a neighbour)
            # (a light man of the board's colour shows his rim: beyond a row's end, the last man's
            # rim, the cushion's edge and the grain read as one more of the board's colour)
            ok &= (kind != DiscKind.WHITE) | (ref.rim >= cfg.camo_min_rim)
            if not ok.any():
                break
            k = int(ok.sum())
            new.append(Found(ref.xy_mm[ok], ref.radius_mm[ok], nominal[ok], kind[ok], ref.score()[ok], found.occlusion,
                             np.ones(k, bool)))
            men, men_kind = ref.xy_mm[ok], kind[ok]
            taken_xy, taken_r = np.concatenate([taken_xy, men]), np.concatenate([taken_r, nominal[ok]])
        for more in new:
            found = merge_found(found, more, found.occlusion)
        return found

    def _update_planes(self, board_bgr: np.ndarray, parts: list[Box]) -> Appearance:
        """Bring the still path's planes up to date in `parts` of the board image (the Lab image
        first: the surface's colour is learned from it once) -> the appearance."""
        planes = self._planes
        for part in parts:
            planes.update_lab(board_bgr, part)
        app = self._appearance(planes.lab)
        for part in parts:
            planes.update_far(app.surface_lab, self.config.occlusion_far, part)
        return app

    def _reaching_in(self, planes: StillPlanes, *, whole: bool) -> np.ndarray:
        """(H, W) bool board image: hands and arms reaching in over the surface's edge, from the
        colour distance from the surface (a hand stands out from it more than the board's own
        shading does) and, once learned, from the bare board under it (see `HandFinder`).

        Unless `whole`, only round what changed since the last look and the hands found then:
        a hand that stays lies there, one that comes in changes the picture, and the regions
        elsewhere were no hands and have not changed. A hand found reaching that part's edge
        may go on beyond it (a row of men against the cushion it touches): looked for on the
        whole board then."""
        cfg = self.config
        if cfg.hand_min_contact_mm <= 0:
            return self._no_hands
        changed = planes.take_changed()
        box: Box = (slice(None), slice(None))
        if not whole:
            if changed is None:
                return self._hands
            x, y, w, h = cv2.boundingRect(self._hands.view(np.uint8))
            if w:
                changed = bounding(changed, (x, y, x + w, y + h))
            pad = int(np.ceil(_HAND_PAD_MM * cfg.px_per_mm))
            x0, y0, x1, y1 = changed
            box = (slice(max(y0 - pad, 0), y1 + pad), slice(max(x0 - pad, 0), x1 + pad))
        far = above(planes.far[box], cfg.hand_far)
        off = None if planes.bare is None else above(planes.off_bare[box], cfg.hand_off_bare)
        if whole:
            return self._hand_finder.find(far, off)
        finder = self._hand_finder
        pale = finder.pale
        part = finder.find(far, off, box)
        if _reaches_edge(part, box, self.geom.shape):
            finder.pale = pale
            return self._reaching_in(planes, whole=True)
        hands = np.zeros(self.geom.shape, bool)
        hands[box] = part
        return hands

    @functools.cached_property
    def _hand_finder(self) -> HandFinder:
        cfg, geom = self.config, self.geom
        return HandFinder(
            geom.surface,
            geom.surface_rim,
            rim_px=geom.surface_rim_px,
            min_area_px=int(cfg.hand_min_area_mm2 * cfg.px_per_mm**2),
            min_contact_px=cfg.hand_min_contact_mm * cfg.px_per_mm,
            min_half_width_px=cfg.hand_min_half_width_mm * cfg.px_per_mm,
        )

    def _looking_again(self) -> tuple[np.ndarray, np.ndarray]:
        """The centres (K, 2) board mm and nominal radii (K,) mm of discs looked for again this
        frame where they lay, found or not (none here; see `ChangeDriven`)."""
        return np.zeros((0, 2)), np.zeros(0)

    def _stamp(self, xy_mm: np.ndarray) -> np.ndarray | None:
        """(H, W) uint8 board-image mask round points (N, 2) board mm (None if there are none).

        The change-driven path detects afresh round candidates that came to nothing and round
        discs that may overlap a pocket hole (a dark disc dropping into the dark hole hardly
        changes the picture), changed or not."""
        if len(xy_mm) == 0:
            return None
        r_px = 1.3 * self.geom.striker_r * self.config.px_per_mm
        return stamp_discs(self.geom.shape, self.maps.to_px(xy_mm), r_px)

    def _vote_in_parts(self, redo: np.ndarray, parts: list[Box]) -> tuple[np.ndarray, np.ndarray]:
        """`_vote` in the `parts` of the board image packed into one image (see `Mosaic`),
        centres on the redo mask (`redo` (H, W) uint8)."""
        geom, planes, scale = self.geom, self._planes, self.config.px_per_mm
        # (no edge of one part votes for a centre in the next, nor makes a neighbour in a pack)
        gap = int(np.ceil(max(max(geom.radii_mm) * scale + 3.0, _PACK_REACH * geom.man_r * scale))) + 1
        mosaic = Mosaic.of(parts, geom.shape, gap)
        inner = mosaic.inner()
        ys, xs, unit = edge_field(
            mosaic.stack(planes.far),
            mosaic.stack(planes.lab[..., 0]).astype(np.float32),
            min_mag=self.config.edge_min_mag,
            weight=mosaic.stack(geom.vote_weight) * inner,
        )
        valid = mosaic.stack(geom.centre_valid) & (mosaic.stack(redo) > 0) & inner
        return self._vote(ys, xs, unit, valid, place=mosaic.to_board)

    def _vote(
        self,
        ys: np.ndarray,
        xs: np.ndarray,
        unit: np.ndarray,
        valid: np.ndarray,
        *,
        origin: tuple[int, int] = (0, 0),
        place: Callable[[np.ndarray], np.ndarray] | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Candidate centres (N, 2) board mm and nominal radii (N,) mm from edge votes in a part
        of the board image the shape of `valid`, its corner at `origin` (x, y) px (or its px
        mapped to the board image's by `place`).

        The `max_candidates` strongest peaks of each size with `min_vote_frac` of an outline's
        votes; and weaker man-sized peaks (`pack_min_vote_frac`) in a pack, next to at least
        `pack_min_neighbours` of those (a light man hemmed in by its neighbours shares most of
        its outline with them and gets few votes of its own, fewer than wood grain on a hard
        frame)."""
        cfg, geom = self.config, self.geom
        radii_mm = np.asarray(geom.radii_mm)
        uv, which, v = vote_centres(
            valid.shape,
            ys,
            xs,
            unit,
            tuple(radii_mm * cfg.px_per_mm),
            min_frac=min(cfg.min_vote_frac, cfg.pack_min_vote_frac),
            max_peaks=cfg.max_candidates * 3,
            valid=valid,
        )
        order = np.lexsort((-v, which))
        first = np.searchsorted(which[order], which[order])
        rank = np.empty(len(v), np.intp)
        rank[order] = np.arange(len(v)) - first
        strong = (v >= cfg.min_vote_frac) & (rank < cfg.max_candidates)
        weak = ~strong & (radii_mm[which] == geom.man_r)
        if weak.any() and strong.any():
            d = np.linalg.norm(uv[weak, None, :] - uv[None, strong, :], axis=2)
            reach = _PACK_REACH * geom.man_r * cfg.px_per_mm
            weak[weak] = (d <= reach).sum(axis=1) >= cfg.pack_min_neighbours
        else:
            weak[:] = False
        keep = strong | weak
        uv = uv[keep] + np.asarray(origin, np.float32) if place is None else place(uv[keep])
        return self.maps.to_mm(uv), radii_mm[which[keep]]

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
        hands: np.ndarray | None = None,
        hold: bool = False,
        rows: np.ndarray | None = None,
    ) -> Found:
        """Steps 3-6 shared by both paths: refine, classify, clean up, occlusion.

        `board_lab` (Lab board image): given, every candidate gets a screening round in it;
        None, it is computed here only if needed. `check_printed` (N,) marks the candidates
        held to the still path's checks (all of them unless `video`); `fg` None: no occluder;
        `hold`: a fit may hold a man to his size (see `_holdable`); `rows` (N,) bool: the
        candidates that may be men in a row against a cushion (see `_in_row`; None: all of them
        if `hold`, none otherwise).
        """
        cfg, geom = self.config, self.geom
        # video path: candidates are foreground blobs (checked again in `_on_foreground`), so a
        # weaker outline is enough
        # 3. refine in the original frame
        hole0 = self._hole_radius(r0)
        held = self._holdable(xy0, r0, hands) if hold else None
        # (in play, a man in a row is looked for only where one was: beside the striker or a hand
        # the cushion's edge and a neighbour's rim make a row's end)
        if rows is None:
            rows = np.full(len(r0), hold)
        rows = rows & (r0 < geom.striker_r) & self.board.rows_at_rails
        ref = self._refine(
            frame_bgr, board_bgr, board_lab, xy0, r0, hole0, check_printed, video=video, hold=held, rows=rows
        )
        # 4. classify: striker by size, coins by colour
        # (an outline a finger touches is out of round too, and the striker the fingers hold by
        # the base line is no blurred coin: no correction within a disc's reach of a hand)
        stretch = ref.stretch
        if hands is not None and hands.any() and len(stretch):
            stretch = np.where(self._near_hands(ref.xy_mm, hands), 0.0, stretch)
        kind, nominal = self._classify(app, ref.radius_mm, ref.face_lab, stretch)
        size_ok = np.abs(ref.radius_mm - nominal) < 0.2 * nominal
        # (a man in a row against the cushion: the cushion's edge draws his outline out a little)
        row_men = ~unexplained(ref.xy_mm, xy0[rows], 0.5 * geom.man_r) & (nominal == geom.man_r)
        row_men &= (kind != DiscKind.QUEEN) & (np.abs(ref.radius_mm - nominal) < _ROW_SIZE * nominal)
        in_row = self._in_row(ref, kind, row_men, known=not hold)
        size_ok |= in_row
        score = ref.score() * size_ok
        # 5. clean up
        # (a candidate where the background was only filled in may be a printed mark: strict)
        lax = video & ~ref.tag
        min_support = np.where(lax, cfg.video_min_support, cfg.min_support)
        # a rim all round: a light man on a light surface (low contrast, a few rays lost)
        ringed = ref.rim >= cfg.ringed_min_rim
        min_support = np.where(ringed, np.minimum(min_support, cfg.ringed_min_support), min_support)
        min_score = np.where(ringed, cfg.ringed_min_score, cfg.min_score)
        surface_coloured = lab_dist(ref.face_lab, app.surface_lab) < _PLAIN_LAB
        camouflaged = self._camouflaged(ref, (kind == DiscKind.WHITE) & size_ok)
        camouflaged |= in_row
        keep = ((ref.support >= min_support) & (score >= min_score) | camouflaged) & geom.inside(ref.xy_mm, nominal)
        # an outline all round (two parallel printed lines one diameter apart only give two arcs)
        # (touching discs of one colour hide a few octants; a pocket behind a dark disc too, and
        # the cushion behind a ringed disc in a row against it, or behind a man flanked by two of
        # his row: korona seed 1010, a light man next to the row's end lost for good; not the end
        # of a row: the grain beyond the last man reads as one more)
        ringed_row = geom.against_cushion(ref.xy_mm, nominal) & (ref.rim >= cfg.plain_max_rim)
        hemmed = geom.near_pocket(ref.xy_mm) | ringed_row | self._flanked(ref.xy_mm, in_row)
        keep &= ref.coverage >= np.where(hemmed, 5, 6) - lax
        keep &= ~geom.is_pocket_hole(ref.xy_mm, ref.radius_mm)
        keep &= ~geom.is_pocket_net(ref.xy_mm, ref.radius_mm, ref.face_lab[:, 0], float(app.surface_lab[0]))
        # face the surface colour, no rim all round and an outline on few rays: two printed lines
        # one diameter apart (a light man packed among others shows its outline on most rays)
        plain = surface_coloured & (ref.rim < cfg.plain_max_rim) & (ref.groove < cfg.groove_min)
        plain &= ref.support < cfg.plain_max_support
        keep &= ~plain | lax | camouflaged
        # found only with faint edges: a light man's thin rim all round (issue #3), or a dark disc in a
        # pocket's mouth, its outline hidden by the hole and the cushion beside it (issue #7)
        faint = ref.clear < min_support
        mouth = faint & (kind == DiscKind.BLACK) & (ref.clear >= cfg.mouth_min_clear)
        if mouth.any():  # (the few that may be: the geometry only for them)
            mouth[mouth] = geom.in_mouth(ref.xy_mm[mouth], nominal[mouth])
        keep &= ~faint | ((ref.support >= cfg.faint_min_support) & (ref.rim >= cfg.faint_min_rim)) | camouflaged | mouth
        # a face that differs from ray to ray is no disc's (a circle drawn round a print's arms,
        # a pocket's net), unless its own motion or a hand may make it so; not on the video path,
        # whose candidates are what changed from the background (no print), some fitted off their
        # centre or in a hand's shadow
        odd = (ref.asymmetry > _MAX_ASYMMETRY) & (ref.stretch < _ASYM_MAX_STRETCH_MM) & (not video)
        # (nor a disc with a wide hole, korona's striker: in motion the board seen through the
        # hole smears into the ring of face round it, more than the outline shows)
        odd &= self._hole_radius(nominal) <= _ASYM_MAX_HOLE * nominal
        if odd.any() and hands is not None and hands.any():
            odd[odd] = ~self._near_hands(ref.xy_mm[odd], hands)
        keep &= ~odd
        # where no print lies under its rays a disc shows a clear edge somewhere (a print's own
        # edges make the outline elsewhere: a gap between the base lines beside a base circle)
        strict = keep & ~lax
        if strict.any():
            free = ~geom.printed_octants(ref.xy_mm[strict], ref.radius_mm[strict])
            strict[strict] = free.any(axis=1) & ~(free & ref.clear_octants[strict]).any(axis=1)
            keep &= ~strict
        if hands is not None and hands.any():
            on_hand = in_mask(ref.xy_mm, hands, self.maps)
            need = np.full(len(on_hand), cfg.hand_min_support)
            if on_hand.any() and board_lab is not None:
                unlike = lab_dist(ref.face_lab, self._hand_lab(board_lab, hands)) >= cfg.hand_skin_dist
                # the striker set on its line with the flicking fingers at its edge, taken into the
                # hand's mask with them, is no knuckle (carrom seeds 1004 and 1040 at 60 fps: the
                # striker not seen standing before its shot, the shot dated late, its first
                # contact guessed wrong)
                set_ = (kind == DiscKind.STRIKER) & on_hand
                if set_.any():
                    set_[set_] = self.board.on_placement_line(ref.xy_mm[set_], self.equipment.striker_diameter_mm)
                unlike |= set_
                need[unlike] = cfg.hand_other_min_support
            keep &= ~on_hand | ((ref.clear >= need) & (ref.coverage >= cfg.hand_min_octants))
        # overlapping fits of one disc: a fit resting on faint edges ranks below a clear one (a
        # striker-sized circle round a light man catches its neighbours' faint edges)
        rank = score * np.where(faint, _FAINT_RANK, 1.0)
        rank = self._below_ringed_men(ref.xy_mm, kind, nominal, keep & ringed, keep, rank)
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
        occ = self._occlusion(fg, xy_mm, nominal[idx], hands, still=not video) if fg is not None else self._no_occlusion
        return Found(xy_mm, ref.radius_mm[idx], nominal[idx], kind[idx], score[idx], occ, ref.tag[idx])

    def _below_ringed_men(self, xy_mm: np.ndarray, kind: np.ndarray, nominal: np.ndarray, ringed: np.ndarray,
                          keep: np.ndarray, rank: np.ndarray) -> np.ndarray:
        """`rank` (N,) with every kept striker-sized fit without a rim all round ranked below a kept
        man's fit with his rim all round (`ringed`) whose centre lies within half a man's radius of
        its own: one disc, a light man, whose outline the dark beyond it (a black he touches, a
        pocket's hole) drew out to the striker's size (carrom seed 1028 at 60 fps: a white beside
        a black read as the striker for seconds, the real one then taken for a false detection). Not
        with a ring striker (korona's): the edge of its hole rings a man-sized circle inside it."""
        if self.equipment.striker_hole_diameter_mm > 0.0:
            return rank  # (a ring striker's hole shows a ringed man-sized circle in every ring striker)
        men = np.flatnonzero(ringed & (nominal == self.geom.man_r))
        big = np.flatnonzero(keep & ~ringed & (kind == DiscKind.STRIKER))
        if men.size == 0 or big.size == 0:
            return rank
        d = np.hypot(*(xy_mm[big, None] - xy_mm[None, men]).transpose(2, 0, 1))
        under = np.where(d < 0.5 * self.geom.man_r, rank[men][None, :], np.inf).min(axis=1)
        out = rank.copy()
        out[big] = np.minimum(rank[big], _BELOW * under)
        return out

    def _camouflaged(self, ref: RefineResult, candidate: np.ndarray) -> np.ndarray:
        """(N,) bool: white coins of a man's size (`candidate`) kept on their outline and rim
        alone. Only with a set whose light discs are the board's colour (korona's): little
        contrast and only a rim a shade darker than the face, but an outline and that rim nearly
        all round; elsewhere the surface's colour in a ring is rather print or grain. Whatever the
        face's colour: in some light such a man looks a shade darker than the board, no longer of
        its colour, and his contrast is as low (korona seed 1037 at 60 fps: a light man at rest in
        the open, his outline in all eight octants, never found, the white the striker hit first
        unknown). Not where the print draws an outline (two lines one diameter apart)."""
        cfg = self.config
        if not self.equipment.light_like_surface:
            return np.zeros(len(candidate), bool)
        out = candidate & (ref.coverage >= 6) & (ref.support >= cfg.camo_min_support) & (ref.rim >= cfg.camo_min_rim)
        rows = np.flatnonzero(out)
        if rows.size:
            out[rows] = self.geom.on_print(ref.xy_mm[rows], ref.radius_mm[rows]) <= _CAMO_MAX_ON_PRINT
        return np.asarray(out)

    def _in_row(self, ref: RefineResult, kind: np.ndarray, candidate: np.ndarray, *, known: bool) -> np.ndarray:
        """(N,) bool: men (`candidate`) set in a row against a cushion, in a game whose men start
        so (`BoardSpec.rows_at_rails`: korona), kept on an outline on `row_min_support` of the rays
        in 5 octants with a neighbour of their kind so found beside them, three or more in a row
        (one player's set): touching men hide each other's rims and faces' edges, and the cushion
        hides more (a dark man's edge against a dark cushion, a light man's rim). `known`: the
        candidates are men seen there before (in play): no neighbours needed."""
        cfg, geom = self.config, self.geom
        if not self.board.rows_at_rails:
            return np.zeros(len(candidate), bool)
        row = candidate & (ref.coverage >= 5) & (ref.support >= cfg.row_min_support)
        if row.any():
            row[row] = geom.against_cushion(ref.xy_mm[row], ref.radius_mm[row]) & ~geom.near_pocket(ref.xy_mm[row])
        if known:
            return row
        at = np.flatnonzero(row)
        if len(at) < 2:
            return np.zeros(len(candidate), bool)
        d = ref.xy_mm[None, at] - ref.xy_mm[at, None]
        gap = np.hypot(d[..., 0], d[..., 1]) / geom.man_r
        beside = (gap >= _ROW_GAP[0]) & (gap <= _ROW_GAP[1]) & (kind[at, None] == kind[None, at])
        # three in a row at least: a middle man with a neighbour on either side, or one beside a
        # middle man (a pair is the grain of the wood by the cushion as often)
        ahead = np.where(np.abs(d[..., 0]) >= np.abs(d[..., 1]), d[..., 0], d[..., 1]) > 0
        middle = (beside & ahead).any(axis=1) & (beside & ~ahead).any(axis=1)
        row[at] = middle | (beside & middle[None, :]).any(axis=1)
        return row

    def _flanked(self, xy_mm: np.ndarray, in_row: np.ndarray) -> np.ndarray:
        """(N,) bool: men of a row (`in_row`, centres `xy_mm` (N, 2) mm) with a man of the row
        touching them on either side."""
        out = np.zeros(len(in_row), bool)
        at = np.flatnonzero(in_row)
        if len(at) >= 3:
            gap = np.hypot(*(xy_mm[at, None] - xy_mm[None, at]).transpose(2, 0, 1)) / self.geom.man_r
            out[at] = ((gap >= _FLANK_GAP[0]) & (gap <= _FLANK_GAP[1])).sum(axis=1) >= 2
        return out

    def _classify(
        self, app: Appearance, radius_mm: np.ndarray, face_lab: np.ndarray, stretch_mm: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """(kind (N,) int8 `DiscKind`, nominal radius (N,) mm) of discs of fitted radii (N,) mm and
        face colours (N, 3) Lab: the striker by its size (unless the set's men are as large),
        the coins by colour.

        `stretch_mm` (N,): the outlines' second harmonic (`RefineResult.stretch`). A disc blurred
        along its motion is drawn out along it by some L at both ends (r(t) = R + L |cos t|):
        the fit's radius is then R + 2L/pi and the second harmonic 4L/(3 pi), so R is the fitted
        radius less 1.5 times it (a fast white was otherwise taken for the striker, issue 4)."""
        geom, eq = self.geom, self.equipment
        if stretch_mm is not None:
            radius_mm = radius_mm - _UNBLUR * stretch_mm
        is_striker = np.abs(radius_mm - geom.striker_r) < np.abs(radius_mm - geom.man_r)
        if eq.striker_diameter_mm == eq.man_diameter_mm:
            is_striker = np.zeros(len(radius_mm), bool)
        coins = app.classify_coins(face_lab, queen=eq.queens > 0)
        kind = np.where(is_striker, np.int8(DiscKind.STRIKER), coins).astype(np.int8)
        return kind, np.where(is_striker, geom.striker_r, geom.man_r)

    def _hole_radius(self, nominal_mm: np.ndarray) -> np.ndarray:
        """(N,) radius (mm) of the hole of discs of nominal radii (N,) mm (the striker's or a man's)."""
        eq = self.equipment
        return np.where(nominal_mm == self.geom.striker_r, eq.striker_hole_diameter_mm, eq.man_hole_diameter_mm) / 2

    def _near_hands(self, xy_mm: np.ndarray, hands: np.ndarray) -> np.ndarray:
        """(N,) bool: centres (N, 2) board mm within a striker's radius and a margin of `hands`
        ((H, W) bool board image)."""
        reach = int(np.ceil((self.geom.striker_r + 4.0) * self.config.px_per_mm))
        return near_mask(xy_mm, hands, reach, self.maps)

    def _holdable(self, xy_mm: np.ndarray, r_mm: np.ndarray, hands: np.ndarray | None) -> np.ndarray:
        """(N,) bool: the candidates (centres (N, 2) board mm, nominal radii (N,)) a fit may hold
        to their size: men only, none over a pocket or by a hand (the hole's edge is round too,
        so are fingertips, and striker-sized circles held to their size find printed arcs in the
        centre's design)."""
        out = (r_mm < self.geom.striker_r) & ~self.geom.near_pocket(xy_mm)
        if hands is not None and hands.any() and out.any():
            out[out] = ~self._near_hands(xy_mm[out], hands)
        return np.asarray(out)

    def _hand_lab(self, board_lab: np.ndarray, hands: np.ndarray) -> np.ndarray:
        """(3,) mean Lab of the hands and arms `hands` ((H, W) bool) in the Lab board image."""
        return np.asarray(cv2.mean(board_lab, mask=hands.view(np.uint8))[:3])

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
        hold: np.ndarray | None = None,
        rows: np.ndarray | None = None,
    ) -> RefineResult:
        """Refine all candidates; on the video path only the `strict` ones get the screening
        round (in the Lab board image), the foreground blobs go straight to the fine round.
        `hold` (N,) bool: the candidates the still path may hold to their size (see
        `refine_discs`); `rows` (N,) bool: the candidates that may be men in a row (see
        `_finish`)."""
        cfg = self.config
        # (men in a row against a cushion show too little of their outline in the board image)
        unscreened = np.zeros(len(r0), bool) if rows is None else rows & self.geom.against_cushion(xy0, r0)

        def run(sel: np.ndarray, lab: np.ndarray | None, hold: np.ndarray | None) -> RefineResult:
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
                hold=hold,
                unscreened=unscreened[sel],
            )

        if not video:
            return run(np.ones(len(r0), bool), board_lab, hold)
        quick = run(~strict, None, None)
        if not strict.any():
            return quick
        lab = board_lab if board_lab is not None else self._lab(board_bgr)
        careful = run(strict, lab, None)
        return RefineResult(
            *(np.concatenate([getattr(quick, f.name), getattr(careful, f.name)]) for f in fields(RefineResult))
        )

    def _package(self, found: Found, t_s: float | None, frame_idx: int | None) -> Detection:
        return package_found(found, self.geom, self.maps, self.config.px_per_mm, t_s, frame_idx)

    def _busy(self, found: Found) -> np.ndarray:
        """(H, W) uint8 board-image mask under detected discs (with a margin) and occluders."""
        return busy_mask(found, self.geom, self.maps, self.config.px_per_mm)

    def _check_frame(self, frame_bgr: np.ndarray) -> None:
        check_bgr_image(frame_bgr)
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

    def _occlusion(
        self, fg: np.ndarray, xy_mm: np.ndarray, r_mm: np.ndarray, hands: np.ndarray | None = None,
        *, still: bool = False,
    ) -> np.ndarray:
        """Occlusion mask from a (H, W) uint8 0/255 foreground, at half the board-image scale,
        with `hands` ((H, W) bool board image, see `_reaching_in`) hidden too. `still`: `fg` is
        the still path's (`StillPlanes.fg`), and once the bare board is known a region of it
        occludes only if enough of it differs from the bare board too (the light's hot spots and
        dark patches on an unevenly lit board stand as far from the surface's one colour as an
        arm does, but they are part of the bare board: carrom seed 1016 at 60 fps, the hard look,
        the striker running past one dropped for a hand's knuckle frame after frame, and a white's
        track taking it up was called pocketed as the striker)."""
        cfg, planes = self.config, self._planes

        def off_bare() -> np.ndarray:
            return above(planes.off_bare, cfg.hand_off_bare)

        occ = occlusion_from_foreground(
            fg, xy_mm, r_mm, self.geom, self.maps, px_per_mm=cfg.px_per_mm, min_area_mm2=cfg.occlusion_min_area_mm2,
            off_bare=off_bare if still and planes.bare is not None else None, min_off_bare=cfg.occlusion_min_off_bare,
        )
        if hands is None or not hands.any():
            return occ
        small = cv2.resize(hands.astype(np.uint8), occ.shape[::-1], interpolation=cv2.INTER_NEAREST)
        return np.asarray(occ | (small > 0))


def _meet(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two uint8 masks of one shape are set at a pixel in common."""
    return bool(cv2.countNonZero(cv2.bitwise_and(a, b)))


def _reaches_edge(part: np.ndarray, box: Box, shape: tuple[int, int]) -> bool:
    """Whether the mask `part` ((h, w) bool, `box` of an image of `shape`) is set on an edge of
    the box that is not the image's own."""
    x0, y0, x1, y1 = box_rect(box, shape)
    return bool(
        (y0 > 0 and part[0].any())
        or (y1 < shape[0] and part[-1].any())
        or (x0 > 0 and part[:, 0].any())
        or (x1 < shape[1] and part[:, -1].any())
    )
