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
       - change-driven (`reuse`, what the Pipeline uses): the still path (with `background`,
         the video path) only where the picture changed since the discs there were detected
         (the box round the change, `tracker._detect_region`); the other discs are carried
         over (`tracker._detect_change`); on the still path the discs the change touches are
         first followed where their motion takes them (`tracker._detect_follow`), and only
         the change they do not explain is searched;
    3. refine: radial edge search in the ORIGINAL frame and a per-disc circle fit (all discs at
       once) -> centres to a fraction of a millimetre, radius, face colour;
    4. classify: striker by size, men and queen by face colour;
    5. clean up: non-maximum suppression, printed-circle rejection (base circles like their
       siblings; the centre circle when a queen-sized face is in the circles' ink or as flat as
       a print), pocket holes and nets, pocket flags (video path: printed-circle rejection only
       where the background was filled in; elsewhere a disc must differ from the background);
    6. occlusion: large non-surface, non-disc regions (hands, arms, cue).
Everything is vectorised over pixels and discs. The paths live in `tracker._detect_core`
(shared state, the still path and steps 3-6), `tracker._detect_video_path` and
`tracker._detect_changed`.
"""

from __future__ import annotations

import numpy as np

from calibration.model import BoardCalibration, Failed
from tracker._detect_bg import learn_background
from tracker._detect_board import edge_contrast
from tracker._detect_change import ReuseState
from tracker._detect_changed import ChangeDriven
from tracker._detect_types import Detection, DetectorConfig
from tracker._detect_video_path import VideoPath

__all__ = ["Detection", "Detector", "DetectorConfig"]


class Detector(VideoPath, ChangeDriven):
    """Finds every disc in frames of one calibrated camera view.

    Args:
        calib: the board calibration.
        equipment: disc set name or spec; default: the calibration's, else the game's default.
        config: tuning.
    """

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
        if cfg.reuse and not cfg.background:
            return self._detect_changed(frame_bgr, t_s, frame_idx)
        board_bgr = self.maps.rectify(frame_bgr)  # 1. rectify
        if cfg.background and self._pending is not None:
            self._bg = learn_background(*self._pending)
            self._pending = None
        if self._reuse is not None and self._bg is not None:
            return self._detect_video_reuse(frame_bgr, board_bgr, t_s, frame_idx)
        if self._bg is None:
            found = self._detect_still(frame_bgr, board_bgr)
            self._last = found
            if cfg.background:
                self._pending = (board_bgr, self._busy(found))
        else:
            found = self._detect_video(frame_bgr, board_bgr)
        detection = self._package(found, t_s, frame_idx)
        if cfg.reuse and self._reuse is None:
            self._reuse = ReuseState(board_bgr.copy(), detection)
        return detection

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
