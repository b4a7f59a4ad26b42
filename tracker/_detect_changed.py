"""The change-driven still path of `tracker.detect.Detector` (`DetectorConfig(reuse=True)`):
changes are found against a reference board image; the discs they touch are followed where
their motion takes them (`tracker._detect_follow`), and the still path runs again only in the
box round what those do not explain (`tracker._detect_region`); discs elsewhere are carried
over (`tracker._detect_change`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

import cv2
import numpy as np

from tracker._detect_blur import blur_blobs
from tracker._detect_change import REACH, ReuseState, detect_with_reuse, merge_found, touched_discs, unexplained
from tracker._detect_core import DetectorCore
from tracker._detect_follow import Followed, follow_discs, velocities
from tracker._detect_mosaic import split_box
from tracker._detect_region import BARE_LIGHTNESS, Box, box_of_change, box_rect, in_mask
from tracker._detect_steps import above, image_distance
from tracker._detect_types import Detection, Found
from tracker.occlusion import stamp_discs

__all__ = ["ChangeDriven"]

# the score of a disc found only as a blur (no outline: the tracker takes it as a doubtful one)
_BLUR_SCORE = 0.3
# colour distance from the surface of a smeared disc's pixels (the foreground's threshold is 28)
_BLUR_FAR = 16
# ... and from the bare board under it (`_off_bare_board`): of another hue by this much (Lab
# units, a and b), or lighter by this much; with light men of the board's colour, this far
_BLUR_HUE = 6
_BLUR_LIGHTER = 10
_BLUR_OFF_BARE = 12
# the colour distance from the bare board (lightness counted `BARE_LIGHTNESS`) of a finger reaching
# in over the surface's edge, pixel by pixel (`hand_off_bare` compares averages over a few pixels, in
# which the camera's noise is far smaller)
_FINGER_OFF_BARE = 12.0
# the band beyond the surface's edge where fingers reaching in over it show: from this many px out
# (past the change's growth round a disc against the cushion) to this many
_BEYOND_PX = (3, 6)
_OPEN2 = cv2.getStructuringElement(cv2.MORPH_RECT, (2, 2))
# the margin round a hand left out of the bare board learned afresh (its blurred edge, its shadow)
_HAND_GROW = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))
# the frames in which the places of discs lost while a hand was about are looked at again once it
# has gone (see `ChangeDriven._unhidden`)
_HIDDEN_LOOKS = 2


@dataclass(frozen=True, slots=True)
class _Hidden:
    """Discs lost while a hand was about (see `ChangeDriven._unhidden`): centres (K, 2) board
    mm, nominal radii (K,) mm, and the frames (K,) each was looked at again since the hands went."""

    xy_mm: np.ndarray
    r_mm: np.ndarray
    looks: np.ndarray

    def select(self, keep: np.ndarray) -> _Hidden:
        return _Hidden(self.xy_mm[keep], self.r_mm[keep], self.looks[keep])


_NONE_HIDDEN = _Hidden(np.zeros((0, 2)), np.zeros(0), np.zeros(0, np.int64))


class ChangeDriven(DetectorCore):
    """The change-driven still path's steps of `tracker.detect.Detector`."""

    _hidden: _Hidden = _NONE_HIDDEN
    # the discs as the hands now on the board came (None: no hands; see `_unhidden`)
    _unhanded: np.ndarray | None = None

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
            partial=lambda change, moved: self._detect_region(frame_bgr, board_bgr, change, moved),
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
        detected whole: afresh (the first frame, or the light changed), else blended in away from
        the discs and hands (see `StillPlanes.learn_bare`).

        From the first frame with the discs and hands filled in, not the other occluders: in
        uneven light whole stretches of the board are far from its mean colour, and filled in
        they were learned wrong, read as hands from then on (korona seed 1024, the hard look: the
        row of men beside a hand taken into it and lost). Learned again as the light changed,
        with the occluders left out too: filled in from the bare board as it was. Nor is a hand
        blended in: where the board had not been seen bare (under the discs it was learned with)
        it would be taken in at once, and found as a hand there long after it had gone."""
        if afresh and self._planes.bare is not None:
            covered = self._busy(found)
        else:
            discs = self._stamp(found.xy_mm)
            covered = np.zeros(self.geom.shape, np.uint8) if discs is None else discs
        if self._hands.any():
            covered = cv2.bitwise_or(covered, cv2.dilate(self._hands.view(np.uint8) * np.uint8(255), _HAND_GROW))
        self._planes.learn_bare(board_bgr, covered, alpha=1.0 if afresh else self.config.bare_alpha)

    def _forced(self) -> np.ndarray | None:
        """Change-driven still path: what is detected afresh, changed or not: discs that may
        overlap a pocket hole and were detected afresh in the last frame (a dark disc
        dropping into the dark hole hardly changes the picture; one at rest does not drop),
        discs seen only as a blur, and once more round the discs the last frame lost (one that
        did not move does not change the picture: taken for part of a withdrawing hand, a man at
        rest against the rail was lost until the next whole detection; korona seed 1003), and
        where the discs lost while a hand was about lay, once it has gone (see `_unhidden`).

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
        return self._stamp(np.concatenate([last.xy_mm[again], lost, self._looking_again()[0]]))

    def _looking_again(self) -> tuple[np.ndarray, np.ndarray]:
        """The centres (K, 2) board mm and nominal radii (K,) mm of the discs lost under a hand
        looked at again this frame, once it has gone (see `_unhidden`)."""
        unhidden = self._hidden.select(self._hidden.looks > 0)
        return unhidden.xy_mm, unhidden.r_mm

    def _detect_region(
        self, frame_bgr: np.ndarray, board_bgr: np.ndarray, change: np.ndarray, moved: np.ndarray
    ) -> tuple[Found, np.ndarray | None]:
        """Change-driven still path: the discs the change touches are followed first
        (`_follow`); discs centred on the rest of the change, grown (and on the discs it
        touches), are detected again, the others carried over. Also returns a mask round the
        discs detected before there and not found again within reach (looked at again next
        frame: a disc lost as it came to rest). `moved` ((H, W) uint8) is the part of `change`
        where the picture itself changed: only there is a disc looked for as a blur of its
        motion (a disc at rest by a pocket, looked at again there every frame, is none: carrom
        seed 1046 at 60 fps, a white the still path missed beside the NW pocket, taken for a blur
        now here, now there, started two shots early)."""
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
            # (the places of discs lost under a hand are looked at again all the same)
            unhidden = self._stamp(self._looking_again()[0])
            if unhidden is not None:
                change = cv2.bitwise_or(change, unhidden)
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
        found = self._with_blurred(found, board_bgr, cv2.bitwise_and(change, moved), box)
        occlusion = self._occlusion(self._planes.fg, found.xy_mm, found.nominal, self._hands, still=True)
        found = replace(found, occlusion=occlusion)
        lost = last.xy_mm[redo][unexplained(last.xy_mm[redo], found.xy_mm, REACH * geom.man_r)]
        self._last = found
        self._hidden = self._unhidden(last, redo, found.xy_mm)
        self._lost_mm = lost
        return found, self._stamp(lost)

    def _unhidden(self, last: Found, redo: np.ndarray, found_mm: np.ndarray) -> _Hidden:
        """The discs lost while a hand was on the board, to be looked at again once the hands have
        gone (see `_forced`); `last`: the discs before this frame, `redo` (N,) bool: those looked
        for again in it, `found_mm` (M, 2): the discs found.

        A row of men the hand comes to rest against is taken into its region and lost; looked at
        again the frame after, the hand still there, it was lost for good: nothing changes there
        once the hand has gone (korona seed 1024 at 30 fps: two men of the S row beside the hand
        that set the striker, unseen until the next whole detection). Nor were they taken for lost
        (`REACH`), their neighbours in the row still found. So with a hand about, a disc that lay
        there before the hand came and is not found again where it was is kept (not a knuckle or
        a fingertip taken for a disc since); dropped once a disc is found there, or after
        `_HIDDEN_LOOKS` frames without hands."""
        hands = bool(self._hands.any())
        if not hands:
            self._unhanded = None
        elif self._unhanded is None:
            # the discs as the hand came, seen in the frame before too (a knuckle is taken for a
            # disc as the hand comes in, before the hand is told)
            self._unhanded = last.xy_mm[~unexplained(last.xy_mm, self._before_mm, 0.5 * self.geom.man_r)]
        new = np.zeros(len(redo), bool)
        if self._unhanded is not None:
            new = redo & ~unexplained(last.xy_mm, self._unhanded, 0.5 * self.geom.man_r)
        hidden = _Hidden(
            np.concatenate([self._hidden.xy_mm, last.xy_mm[new]]),
            np.concatenate([self._hidden.r_mm, last.nominal[new]]),
            np.concatenate([self._hidden.looks, np.zeros(int(new.sum()), np.int64)]),
        )
        hidden = hidden.select(unexplained(hidden.xy_mm, found_mm, 0.5 * self.geom.man_r))
        if not hands:
            hidden = replace(hidden, looks=hidden.looks + 1)
        return hidden.select(hidden.looks <= _HIDDEN_LOOKS)

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

    @functools.cached_property
    def _beyond(self) -> np.ndarray:
        """(H, W) uint8 0/255 board image: the band just beyond the playing surface's edge
        (`_BEYOND_PX`), where a hand reaching in over the edge shows and a disc against the
        cushion does not."""
        near, far = (cv2.getStructuringElement(cv2.MORPH_RECT, (2 * k + 1, 2 * k + 1)) for k in _BEYOND_PX)
        surface = self.geom.surface
        return np.asarray(cv2.bitwise_and(cv2.dilate(surface, far), cv2.bitwise_not(cv2.dilate(surface, near))))

    def _reached_over(self, board_bgr: np.ndarray, box: Box, rim: np.ndarray) -> np.ndarray:
        """(h, w) uint8 0/255 of `box`: the surface's rim band there (`rim`, from
        `BoardGeometry.surface_rim`) where something close by beyond the edge is not the bare
        board: fingers reaching in over the edge, too small to be told as a hand (the whole band
        until the bare board is learned).

        A disc sliding along the cushion lies in the band too, with the bare cushion beyond it
        (korona seed 1004 at 60 fps: light men knocked along the N rail into the NE pocket, their
        blur never looked at, the pockets missed)."""
        if self._planes.bare is None:
            return rim
        beyond = self._beyond[box]
        ys, xs = np.nonzero(beyond)
        if len(ys) == 0:
            return np.zeros_like(rim)
        now = cv2.cvtColor(board_bgr[box][ys, xs][None], cv2.COLOR_BGR2LAB)
        off = above(image_distance(now, self._planes.bare_lab[box][ys, xs][None], lightness=BARE_LIGHTNESS),
                    _FINGER_OFF_BARE)[0]
        if not off.any():
            return np.zeros_like(rim)
        hand = np.zeros_like(rim)
        hand[ys, xs] = off
        hand = cv2.morphologyEx(hand, cv2.MORPH_OPEN, _OPEN2)  # (a speck of noise is no finger)
        k = 2 * (self.geom.surface_rim_px + _BEYOND_PX[1]) + 1
        reach = cv2.dilate(hand, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
        return np.asarray(cv2.bitwise_and(rim, reach))

    def _off_bare_board(self, box: Box) -> np.ndarray:
        """(h, w) uint8 0/255 of `box`: where the picture is not the bare board, as a smear shows:
        of another hue, or lighter. Not where it is only darker, of the same hue: a shadow (carrom
        seed 1035 at 120 fps, the hard look: a hand's shadows read as strikers flying, a shot begun
        half a second before the break). Nor the grain and the light's hot spots, which stand out
        from the surface's one colour as a smear does, and which the blob's closed gaps would join
        up. With light men of the board's own colour (korona's), darker too: they look darker than
        the board in some light, and of its hue."""
        lab, bare = self._planes.lab[box], self._planes.bare_lab[box]
        if self.equipment.light_like_surface:
            return above(image_distance(lab, bare, lightness=1.0), _BLUR_OFF_BARE)
        hue = above(image_distance(lab, bare, lightness=0.0), _BLUR_HUE)
        lighter = above(cv2.subtract(lab[..., 0], bare[..., 0]), _BLUR_LIGHTER)
        return np.asarray(cv2.bitwise_or(hue, lighter))

    def _with_blurred(self, found: Found, board_bgr: np.ndarray, change: np.ndarray, box: Box) -> Found:
        """`found` and the discs in the change (inside `box`) too blurred by their motion for an
        outline (see `tracker._detect_blur`), away from the discs found, the hands, `_no_blur`
        and fingers reaching in over the surface's edge (`_reached_over`)."""
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
        # (a smear is fainter than the disc: its colour is mixed with the surface's; light men of
        # the board's own colour are hardly far from it, but off the bare board under them)
        camo = self.equipment.light_like_surface and self._planes.bare is not None
        far = self._off_bare_board(box) if camo else above(self._planes.far[box], _BLUR_FAR)
        if not cv2.countNonZero(cv2.bitwise_and(far, change[box])):
            return found  # (nothing far enough from the surface where the picture moved: no blob)
        if self._planes.bare is not None and not camo:
            far = cv2.bitwise_and(far, self._off_bare_board(box))
        rim = geom.surface_rim[box]
        edge = self._reached_over(board_bgr, box, rim) if cv2.countNonZero(cv2.bitwise_and(far, rim)) else rim
        blobs = blur_blobs(far, change[box], self._planes.lab[box], exclude, edge, radii_px=radii,
                           fill_gaps=True)
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
