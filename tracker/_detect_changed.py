"""The change-driven still path of `tracker.detect.Detector` (`DetectorConfig(reuse=True)`):
changes are found against a reference board image, and the still path runs again only in the
box round them (`tracker._detect_region`); discs elsewhere are carried over
(`tracker._detect_change`).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tracker._detect_change import REACH, ReuseState, detect_with_reuse, merge_found, unexplained
from tracker._detect_core import DetectorCore
from tracker._detect_region import box_of_change, in_mask, near_occluder
from tracker._detect_types import Detection, Found

__all__ = ["ChangeDriven"]


class ChangeDriven(DetectorCore):
    """The change-driven still path's steps of `tracker.detect.Detector`."""

    def _detect_changed(self, frame_bgr: np.ndarray, t_s: float | None, frame_idx: int | None) -> Detection:
        """Change-driven still path: the still path only in the box round what changed.

        (A nearest-neighbour board image would halve the cost of rectifying, but its noise hides
        the small changes of slow discs filmed at 120 fps.)"""
        board_bgr = self.maps.rectify(frame_bgr)

        def whole() -> Found:
            self._redone = None  # everything
            self._last = self._detect_still(frame_bgr, board_bgr)
            return self._last

        if self._reuse is None:
            detection = self._package(whole(), t_s, frame_idx)
            self._reuse = ReuseState(board_bgr.copy(), detection)
            return detection
        return detect_with_reuse(
            self._reuse,
            board_bgr,
            self.config,
            full=whole,
            restart=whole,
            partial=lambda change: self._detect_region(frame_bgr, board_bgr, change),
            forced=self._forced,
            package=lambda found: self._package(found, t_s, frame_idx),
            t_s=t_s,
            frame_idx=frame_idx,
            hands=False,
        )

    def _forced(self) -> np.ndarray | None:
        """Change-driven still path: what is detected afresh, changed or not: discs that may
        overlap a pocket hole and were detected afresh in the last frame (a dark disc
        dropping into the dark hole hardly changes the picture; one at rest does not drop),
        and discs against an occluder (a knuckle taken for a disc once must not be carried
        over while the hand rests)."""
        last = self._last
        again = self.geom.near_pocket(last.xy_mm)
        if self._redone is not None:
            again &= in_mask(last.xy_mm, self._redone, self.maps)
        if last.occlusion.any():
            again |= near_occluder(last.occlusion, last.xy_mm, last.nominal, self.maps)
        self._redone = self._nothing_redone  # unless `_detect_region` runs
        return self._stamp(last.xy_mm[again])

    def _detect_region(
        self, frame_bgr: np.ndarray, board_bgr: np.ndarray, change: np.ndarray
    ) -> tuple[Found, np.ndarray | None]:
        """Change-driven still path: discs centred on the grown change (and on the discs it
        touches) are detected again, the others carried over. Also returns a mask round the
        discs detected before there and not found again within reach (looked at again next
        frame: a disc lost as it came to rest)."""
        last, geom = self._last, self.geom
        scale = self.config.px_per_mm
        grow, pad = geom.man_r * scale, (geom.striker_r + 4.0) * scale
        boxes = box_of_change(change, last.xy_mm, last.nominal, self.maps, grow_px=grow, pad_px=pad)
        if boxes is None:
            return last, None
        mask, _ = boxes
        self._redone = mask
        new = self._detect_still(frame_bgr, board_bgr, boxes)
        new = new.select(in_mask(new.xy_mm, mask, self.maps))
        redo = in_mask(last.xy_mm, mask, self.maps)
        found = merge_found(last.select(~redo), new, self._no_occlusion)
        found = replace(found, occlusion=self._occlusion(self._planes.fg, found.xy_mm, found.nominal, self._hands))
        lost = last.xy_mm[redo][unexplained(last.xy_mm[redo], found.xy_mm, REACH * geom.man_r)]
        self._last = found
        return found, self._stamp(lost)
