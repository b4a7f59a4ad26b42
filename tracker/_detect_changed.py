"""The change-driven still path of `tracker.detect.Detector` (`DetectorConfig(reuse=True)`):
changes are found against a reference board image; the discs they touch are followed where
their motion takes them (`tracker._detect_follow`), and the still path runs again only in the
box round what those do not explain (`tracker._detect_region`); discs elsewhere are carried
over (`tracker._detect_change`).
"""

from __future__ import annotations

import functools
from dataclasses import replace

import cv2
import numpy as np

from tracker._detect_blur import blur_blobs
from tracker._detect_change import REACH, ReuseState, detect_with_reuse, merge_found, touched_discs, unexplained
from tracker._detect_core import DetectorCore
from tracker._detect_follow import Followed, follow_discs, velocities
from tracker._detect_mosaic import split_box
from tracker._detect_region import Box, box_of_change, box_rect, in_mask
from tracker._detect_steps import above
from tracker._detect_types import Detection, Found
from tracker.occlusion import stamp_discs

__all__ = ["ChangeDriven"]

# the score of a disc found only as a blur (no outline: the tracker takes it as a doubtful one)
_BLUR_SCORE = 0.3
# colour distance from the surface of a smeared disc's pixels (the foreground's threshold is 28)
_BLUR_FAR = 16


class ChangeDriven(DetectorCore):
    """The change-driven still path's steps of `tracker.detect.Detector`."""

    # (x0, y0, x1, y1) px of the board image where discs were followed this frame and the still
    # path's planes are not yet brought up to date (see `_refresh`)
    _stale: tuple[int, int, int, int] | None = None

    @functools.cached_property
    def _no_blur(self) -> np.ndarray:
        """(H, W) uint8 0/255 board image where no blurred disc is looked for, whatever the
        frame: off the playing surface, and on the printed filled circles (base circles, centre;
        a disc passing by changes them)."""
        geom = self.geom
        off = cv2.bitwise_not(geom.surface)
        if len(geom.marking_xy_mm) == 0:
            return np.asarray(off)
        r_px = (geom.marking_r_mm + 3.0) * self.config.px_per_mm
        return np.asarray(cv2.bitwise_or(off, stamp_discs(geom.shape, self.maps.to_px(geom.marking_xy_mm), r_px)))

    def _detect_changed(self, frame_bgr: np.ndarray, t_s: float | None, frame_idx: int | None) -> Detection:
        """Change-driven still path: the still path only in the box round what changed.

        (A nearest-neighbour board image would halve the cost of rectifying, but its noise hides
        the small changes of slow discs filmed at 120 fps.)"""
        board_bgr = self.maps.rectify(frame_bgr)

        def whole(afresh: bool = False) -> Found:
            self._redone = None  # everything
            self._last = found = self._detect_still(frame_bgr, board_bgr)
            self._learn_bare(board_bgr, found, afresh=afresh)
            return found

        if self._reuse is None:
            detection = self._package(whole(afresh=True), t_s, frame_idx)
            self._reuse = ReuseState(board_bgr.copy(), detection)
            return detection
        before = self._last.xy_mm  # (the discs' motion: see `_follow`)
        detection = detect_with_reuse(
            self._reuse,
            board_bgr,
            self.config,
            full=whole,
            restart=lambda: whole(afresh=True),
            partial=lambda change: self._detect_region(frame_bgr, board_bgr, change),
            forced=self._forced,
            package=lambda found: self._package(found, t_s, frame_idx),
            t_s=t_s,
            frame_idx=frame_idx,
            hands=False,
        )
        self._before_mm = before
        return detection

    def _learn_bare(self, board_bgr: np.ndarray, found: Found, *, afresh: bool) -> None:
        """Learn the bare board (hands the board's colour stand out from it) from a frame
        detected whole: afresh (the first frame, or the light changed) with the discs and
        occluders filled in, else blended in away from the discs (see `StillPlanes.learn_bare`)."""
        if afresh:
            self._planes.learn_bare(board_bgr, self._busy(found), alpha=1.0)
            return
        discs = self._stamp(found.xy_mm)
        if discs is None:
            discs = np.zeros(self.geom.shape, np.uint8)
        self._planes.learn_bare(board_bgr, discs, alpha=self.config.bare_alpha)

    def _forced(self) -> np.ndarray | None:
        """Change-driven still path: what is detected afresh, changed or not: discs that may
        overlap a pocket hole and were detected afresh in the last frame (a dark disc
        dropping into the dark hole hardly changes the picture; one at rest does not drop),
        discs seen only as a blur, and once more round the discs the last frame lost (one that
        did not move does not change the picture: taken for part of a withdrawing hand, a man at
        rest against the rail was lost until the next whole detection; korona seed 1003).

        Not the discs beside a hand: a row of men the hand comes to rest against is taken into
        its region and fails the test of a disc on a hand; detected afresh frame after frame,
        the row was lost for good, nothing changing there once the hand had gone (korona seed
        12345). A knuckle once taken for a disc is carried over while the hand rests, as any
        unchanged part of the picture is."""
        last = self._last
        again = self.geom.near_pocket(last.xy_mm)
        # a disc seen only as a blur was moving: it is never carried over
        if last.blurred is not None:
            again |= last.blurred
        if self._redone is not None:
            again &= in_mask(last.xy_mm, self._redone, self.maps)
        self._redone = self._nothing_redone  # unless `_detect_region` runs
        lost, self._lost_mm = self._lost_mm, np.zeros((0, 2))
        return self._stamp(np.concatenate([last.xy_mm[again], lost]))

    def _detect_region(
        self, frame_bgr: np.ndarray, board_bgr: np.ndarray, change: np.ndarray
    ) -> tuple[Found, np.ndarray | None]:
        """Change-driven still path: the discs the change touches are followed first
        (`_follow`); discs centred on the rest of the change, grown (and on the discs it
        touches), are detected again, the others carried over. Also returns a mask round the
        discs detected before there and not found again within reach (looked at again next
        frame: a disc lost as it came to rest)."""
        geom, scale = self.geom, self.config.px_per_mm
        before = self._last
        touched = touched_discs(change, before.xy_mm, before.nominal, self.maps)
        followed = self._follow(frame_bgr, board_bgr, touched)
        done = None
        if followed is not None:
            # the followed discs were detected afresh
            done = stamp_discs(geom.shape, self.maps.to_px(followed.xy_mm), 1.15 * geom.striker_r * scale)
            self._redone = done
            change = cv2.bitwise_and(change, cv2.bitwise_not(self._unexplained(before, followed, touched)))
            if not change.any():
                # all of the change was discs rolling on: no occluder came or went
                self._refresh(board_bgr)
                return self._last, None
        last = self._last
        grow, pad = geom.man_r * scale, (geom.striker_r + 4.0) * scale
        boxes = box_of_change(change, last.xy_mm, last.nominal, self.maps, grow_px=grow, pad_px=pad)
        if boxes is None:
            self._refresh(board_bgr)
            return last, None
        mask, box = boxes
        parts = split_box(mask, box, pad)
        self._refresh(board_bgr, parts)
        self._redone = mask if done is None else cv2.bitwise_or(mask, done)
        new = self._detect_still(frame_bgr, board_bgr, boxes, parts)
        new = new.select(in_mask(new.xy_mm, mask, self.maps))
        redo = in_mask(last.xy_mm, mask, self.maps)
        found = merge_found(last.select(~redo), new, self._no_occlusion)
        found = self._with_blurred(found, change, box)
        found = replace(found, occlusion=self._occlusion(self._planes.fg, found.xy_mm, found.nominal, self._hands))
        lost = last.xy_mm[redo][unexplained(last.xy_mm[redo], found.xy_mm, REACH * geom.man_r)]
        self._last = found
        self._lost_mm = lost
        return found, self._stamp(lost)

    def _unexplained(self, before: Found, followed: Followed, touched: np.ndarray) -> np.ndarray:
        """(H, W) uint8: what the followed discs' motion explains of the change, but for the change
        over the other discs it touches (`touched` (N,) bool over `before`'s discs: a disc that
        leaves its place beside neighbours that only jiggle must still be looked for again; korona
        seed 1006: a light man struck off the rail was kept there for seven frames, its change
        taken for its neighbours')."""
        others = touched.copy()
        others[followed.idx] = False
        if not others.any():
            return followed.explained
        r_px = self.geom.man_r * self.config.px_per_mm
        own = stamp_discs(self.geom.shape, self.maps.to_px(before.xy_mm[others]), r_px)
        return np.asarray(cv2.bitwise_and(followed.explained, cv2.bitwise_not(own)))

    def _follow(self, frame_bgr: np.ndarray, board_bgr: np.ndarray, touched: np.ndarray) -> Followed | None:
        """Follow the discs the change touches (`touched` (N,) bool over `_last`'s discs; see
        `tracker._detect_follow`) from the motion between the last two frames; with some
        followed, `_last` has them moved and the still path's planes are brought up to date
        where they were and are. None: none followed."""
        last, geom, cfg, app = self._last, self.geom, self.config, self.appearance
        if not cfg.reuse_follow or len(last.xy_mm) == 0 or self._reuse is None or app is None:
            return None
        try_ = touched & last.strict
        if last.blurred is not None:
            try_ &= ~last.blurred
        # (none next to a hand: a knuckle taken for a disc would move off with it)
        if self._hands.any():
            try_ &= ~self._near_hands(last.xy_mm, self._hands)
        if not try_.any():
            return None
        followed = follow_discs(
            frame_bgr,
            board_bgr,
            self._reuse.ref,
            self.maps,
            geom,
            last,
            try_,
            velocities(last.xy_mm, self._before_mm, REACH * geom.man_r),
            hole_mm=self._hole_radius(last.nominal),
            min_rise=cfg.min_rise,
            grow_px=cfg.reuse_grow_px,
            classify=lambda radius, face, stretch: self._classify(app, radius, face, stretch)[0],
        )
        if len(followed.idx) == 0:
            return None
        self._last = followed.apply(last)
        x, y, w, h = cv2.boundingRect(followed.explained)
        self._stale = (x, y, x + w, y + h)
        return followed

    def _refresh(self, board_bgr: np.ndarray, parts: list[Box] | None = None) -> None:
        """Bring the still path's planes up to date where the followed discs were and are
        (`_stale`), unless the still path is about to, in one of its `parts`."""
        stale, self._stale = self._stale, None
        if stale is None or self.appearance is None:
            return
        x0, y0, x1, y1 = stale
        for part in parts or []:
            bx0, by0, bx1, by1 = box_rect(part, self.geom.shape)
            if bx0 <= x0 and by0 <= y0 and x1 <= bx1 and y1 <= by1:
                return
        self._update_planes(board_bgr, [(slice(y0, y1), slice(x0, x1))])

    def _with_blurred(self, found: Found, change: np.ndarray, box: Box) -> Found:
        """`found` and the discs in the change (inside `box`) too blurred by their motion for an
        outline (see `tracker._detect_blur`), away from the discs found, the hands and
        `_no_blur`."""
        geom, scale = self.geom, self.config.px_per_mm
        exclude = self._no_blur[box].copy()
        origin = np.array([box[1].start or 0, box[0].start or 0], np.float64)
        if len(found.xy_mm):
            shape = exclude.shape[:2]
            stamps = stamp_discs(shape, self.maps.to_px(found.xy_mm) - origin, 1.2 * geom.striker_r * scale)
            exclude = cv2.bitwise_or(exclude, stamps)
        if self._hands.any():
            exclude[self._hands[box]] = 255
        radii = (geom.man_r * scale, max(geom.man_r, geom.striker_r) * scale)
        # (a smear is fainter than the disc: its colour is mixed with the surface's)
        far = above(self._planes.far[box], _BLUR_FAR)
        blobs = blur_blobs(far, change[box], self._planes.lab[box], exclude, geom.surface_rim[box], radii_px=radii)
        if len(blobs.uv_px) == 0:
            return found
        app = self._appearance(self._planes.lab)
        kind, nominal = self._classify(app, blobs.half_width_px / scale, blobs.lab)
        k = len(kind)
        xy = self.maps.to_mm(blobs.uv_px + origin)
        blurred = Found(
            xy, nominal, nominal, kind, np.full(k, _BLUR_SCORE), found.occlusion, np.zeros(k, bool), np.ones(k, bool)
        )
        return merge_found(found, blurred, found.occlusion)
