"""The video path of `tracker.detect.Detector` (`DetectorConfig(background=True)`): discs as
foreground blobs against the learned background of the board, and its change-driven variant
(`reuse=True` as well); see `tracker.detect`.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tracker._detect_bg import foreground, update_background
from tracker._detect_change import departed, detect_with_reuse, merge_found, settle, touched_discs
from tracker._detect_core import DetectorCore
from tracker._detect_steps import on_foreground
from tracker._detect_types import Detection, Found
from tracker._detect_video import blob_candidates

__all__ = ["VideoPath"]


class VideoPath(DetectorCore):
    """The video path's steps of `tracker.detect.Detector`."""

    def _detect_video_reuse(
        self, frame_bgr: np.ndarray, board_bgr: np.ndarray, t_s: float | None, frame_idx: int | None
    ) -> Detection:
        """Change-driven video path: foreground candidates only where the picture changed."""
        assert self._reuse is not None
        return detect_with_reuse(
            self._reuse,
            board_bgr,
            self.config,
            full=lambda: self._detect_video(frame_bgr, board_bgr),
            restart=lambda: self._restart(frame_bgr, board_bgr),
            partial=lambda change, _: (self._detect_video(frame_bgr, board_bgr, change), self._stamp(self._unsettled)),
            forced=self._near_pockets,
            package=lambda found: self._package(found, t_s, frame_idx),
            t_s=t_s,
            frame_idx=frame_idx,
        )

    def _near_pockets(self) -> np.ndarray | None:
        """Mask round the discs that may overlap a pocket hole: detected afresh every frame."""
        return self._stamp(self._last.xy_mm[self.geom.near_pocket(self._last.xy_mm)])

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
            rows=np.arange(len(r0)) >= len(blobs.r_mm),
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
