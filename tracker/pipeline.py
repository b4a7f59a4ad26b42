"""`Pipeline`: the one object that owns per-frame state (STYLE §4).

`Pipeline.process(frame, t_s)` runs a flat sequence: check the frame, detect (the detector
undistorts and rectifies internally and returns board millimetres), track, detect events, and
hand out the events whose time is safely past, in time order. Stages are injected strategies typed
by the `Protocol`s below and built from one `PipelineConfig`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import numpy as np

from tracker._detect_types import DetectorConfig
from tracker.detections import FrameDetections
from tracker.errors import ConfigError
from tracker.events.detector import EventConfig, EventDetector, EventUpdate
from tracker.events.filter import sort_events
from tracker.events.types import GameEvent
from tracker.occlusion import hidden_on_rings
from tracker.specs import BoardSpec, DiscKind, EquipmentSpec, default_equipment, load_board, load_equipment
from tracker.track import Tracker, TrackerConfig, Tracks

__all__ = [
    "DetectStage", "DetectionLike", "EventStage", "FrameResult", "Pipeline", "PipelineConfig", "TrackStage",
    "default_detector_config", "under_hand",
]


class DetectionLike(Protocol):
    """What a detector returns for one frame (`tracker.detect.Detection` satisfies it)."""

    @property
    def discs(self) -> FrameDetections: ...
    @property
    def occluded_fraction(self) -> float: ...
    def is_occluded(self, xy_mm: np.ndarray) -> np.ndarray: ...


class DetectStage(Protocol):
    def detect(self, frame_bgr: np.ndarray, *, t_s: float | None = None, frame_idx: int | None = None) -> Any: ...


class TrackStage(Protocol):
    def update(self, dets: FrameDetections, *, remove: Any = ()) -> Tracks: ...
    def reset(self) -> None: ...


class EventStage(Protocol):
    def update(
        self, tracks: Tracks, *, is_occluded: Callable[[np.ndarray], np.ndarray] | None = None
    ) -> EventUpdate: ...
    def finish(self) -> tuple[GameEvent, ...]: ...
    def reset(self) -> None: ...


@dataclass(frozen=True, slots=True)
class PipelineConfig:
    """Pipeline tuning.

    Attributes:
        detector: tuning of the default detector; None: the game's (`default_detector_config`:
            the change-driven still path).
        tracker: tracker tuning.
        events: event detection tuning.
        max_occluded_fraction: a frame in which more of the board than this is hidden is skipped
            (the board is briefly covered: nothing can be concluded from it).
        reorder_s: events are handed out once the video is this far (s) past them, so that
            decisions made a few frames late still come out in time order.
        min_score: detections below this score are ignored.
        hand_ring_frac: a detection whose surroundings (a ring of `hand_ring_radii` disc radii)
            are hidden by a hand for at least this share is ignored (1.0: never): a hand near the
            base line, or its knuckles and fingertips, look like a disc, while a disc under a hand
            is hidden, not seen.
        hand_ring_radii: radius of that ring in disc radii.
        hand_side_score: a detection of at least this score whose ring is hidden only on one side
            (the hidden points all on one half of it) is kept (above 1: never): a disc the
            fingers touch, the striker held at the base line before the stroke (the striker
            standing on its placement line is kept so whatever its score).
    """

    detector: DetectorConfig | None = None
    tracker: TrackerConfig = field(default_factory=TrackerConfig)
    events: EventConfig = field(default_factory=EventConfig)
    max_occluded_fraction: float = 0.6
    reorder_s: float = 0.4
    min_score: float = 0.0
    hand_ring_frac: float = 0.33
    hand_ring_radii: float = 2.2
    hand_side_score: float = 0.7

    def __post_init__(self) -> None:
        if not 0.0 < self.max_occluded_fraction <= 1.0:
            raise ConfigError(f"PipelineConfig.max_occluded_fraction={self.max_occluded_fraction} outside (0, 1]")
        if not 0.0 <= self.reorder_s <= 10.0:
            raise ConfigError(f"PipelineConfig.reorder_s={self.reorder_s} outside [0, 10]")
        if not 0.0 <= self.min_score <= 1.0:
            raise ConfigError(f"PipelineConfig.min_score={self.min_score} outside [0, 1]")
        if not 0.0 < self.hand_ring_frac <= 1.0:
            raise ConfigError(f"PipelineConfig.hand_ring_frac={self.hand_ring_frac} outside (0, 1]")
        if not 1.0 <= self.hand_ring_radii <= 10.0:
            raise ConfigError(f"PipelineConfig.hand_ring_radii={self.hand_ring_radii} outside [1, 10]")
        if not self.hand_side_score >= 0.0:
            raise ConfigError(f"PipelineConfig.hand_side_score={self.hand_side_score} is negative")


@dataclass(frozen=True, slots=True)
class FrameResult:
    """The outcome of one frame.

    Attributes:
        frame_idx: frame number from 0 (every frame handed in counts, even a corrupt one).
        t_s: its time, s.
        detections: the frame's detections with `track_id` filled (-1: not tracked); empty if skipped.
        events: events handed out at this frame, in time order (dated when they happened, up to
            `PipelineConfig.reorder_s` earlier).
        board_ok: False if the frame was skipped (corrupt, board hidden).
        tracks: the tracks after this frame (None if skipped).
    """

    frame_idx: int
    t_s: float
    detections: FrameDetections
    events: tuple[GameEvent, ...]
    board_ok: bool
    tracks: Tracks | None = None


# (12, 6) the ring's halves: six points in a row from each
_HALVES = (np.arange(12)[:, None] + np.arange(6)[None, :]) % 12
# a disc standing where it stood: its last sightings (at least `_STOOD_OBS`, over `_STOOD_FRAMES`
# frames) within `_STOOD_MM` of where it is, and this frame's detection that close to it too
_STOOD_MM = 4.0
_STOOD_OBS = 3
_STOOD_FRAMES = 4


def under_hand(dets: FrameDetections, is_occluded: Callable[[np.ndarray], np.ndarray], radius_mm: np.ndarray,
               *, radii: float, frac: float, side_score: float = np.inf,
               set_striker: np.ndarray | None = None,
               stood_at: Callable[[], np.ndarray] | None = None) -> np.ndarray:
    """(N,) bool: detections whose surroundings a hand hides for at least `frac` of a ring.

    Args:
        dets: detections with `xy_board` (board mm).
        is_occluded: maps (K, 2) board mm to (K,) bool.
        radius_mm: (4,) disc radius by kind, mm.
        radii: ring radius in disc radii.
        frac: share of the 12 ring points that must be hidden.
        side_score: detections of at least this score hidden only on one side are not (a hand
            beside a disc, not round it).
        set_striker: (N,) bool detections that are the striker set on its line (see
            `BoardSpec.on_placement_line`): hidden only on one side, they are not, whatever their
            score (the flicking fingers at its edge cut into its outline: carrom seed 1040 at 60 fps).
        stood_at: gives (K, 2) board mm where discs stood lately (asked only when a detection is
            hidden): detections of at least `side_score` within `_STOOD_MM` of one are that disc
            beside the hand, however it rings them (carrom seed 1044 at 120 fps: a black beside
            the hand resting after the stroke dropped, its track took a pocket's rim and the black
            was called pocketed). Not a faint one: the hand coming over a korona row of light men,
            one kept at its edge was followed on through a sighting of the hand (korona seed 1005).
    """
    if len(dets) == 0 or dets.xy_board is None or frac >= 1.0:
        return np.zeros(len(dets), bool)
    r = radius_mm[np.minimum(np.maximum(dets.kind.astype(np.int64), 0), 3)] * radii
    hidden = hidden_on_rings(dets.xy_board.astype(np.float64), r[:, None], is_occluded)
    covered: np.ndarray = hidden.sum(axis=1) / hidden.shape[1] >= frac - 1e-9  # (the share: what `mean` gives)
    # one side only: half the ring's points in a row clear
    side = np.any(~np.any(hidden[:, _HALVES], axis=2), axis=1)
    clear = dets.score >= side_score
    sure = clear | set_striker if set_striker is not None else clear
    out = covered & ~(side & sure)
    spots = stood_at() if stood_at is not None and out.any() else np.zeros((0, 2))
    if len(spots):
        gap = np.hypot(*(dets.xy_board[out][:, None, :] - spots[None, :, :]).transpose(2, 0, 1))
        out[out] = (gap.min(axis=1) > _STOOD_MM) | ~clear[out]
    return np.asarray(out)


def _standing(tracks: Tracks | None, board: BoardSpec) -> np.ndarray:
    """(K, 2) board mm: where the confirmed tracks seen in the frame of `tracks` (None: none yet)
    stand, their last sightings (at least `_STOOD_OBS` of the last `_STOOD_FRAMES` frames) all within
    `_STOOD_MM` of it; none over a pocket's hole (its edge, read as a disc, stands there too)."""
    if tracks is None:
        return np.zeros((0, 2))
    rows = np.flatnonzero(tracks.seen & tracks.confirmed)
    if rows.size == 0 or tracks.hist_xy_mm.shape[1] < _STOOD_FRAMES:
        return np.zeros((0, 2))
    xy = tracks.xy_mm[rows]
    off = np.hypot(*(tracks.hist_xy_mm[rows, -_STOOD_FRAMES:] - xy[:, None, :]).transpose(2, 0, 1))  # NaN: unseen
    seen = np.isfinite(off)
    still = (seen.sum(axis=1) >= _STOOD_OBS) & (np.where(seen, off, 0.0) <= _STOOD_MM).all(axis=1)
    hole = np.hypot(*(xy[:, None, :] - board.pockets_mm[None, :, :]).transpose(2, 0, 1)).min(axis=1)
    return np.asarray(xy[still & (hole > board.pocket_radius_mm)])


def default_detector_config(game: str) -> DetectorConfig:
    """The detector a live match of `game` uses: change-driven for both games (only what
    changed since the discs there were detected is looked at again, discs that rolled on are
    followed; several times faster on play). On korona it also gets more shots exactly right
    than the still path on every frame (36 rendered shots: 0.56 against 0.47, half the identity
    switches), though the still path finds a few more light ring discs in a single frame. Nor
    does it look for the next man of korona's rows against the rails (`DetectorConfig.
    complete_rows`): over a match a man his neighbours hide is followed from frame to frame, and
    one found past a row's end in a hard look, where there is none, became a disc that moved as
    the striker went by (korona seed 1015 at 30 fps: the striker's first contact a white, not the
    cushion; 200 shots: one first contact and one shot start more wrong, none right)."""
    return DetectorConfig(reuse=game in ("carrom", "korona"), complete_rows=False)


def _radius_table(equipment: EquipmentSpec) -> np.ndarray:
    return np.array([equipment.radius_mm(DiscKind(k)) for k in range(4)], dtype=np.float64)


class Pipeline:
    """Frames in, tracks and events out.

    Args:
        calib: a `calibration.BoardCalibration` (used to build the detector), or None when
            `detector` is given (or when only `process_detection` will be used).
        game: "carrom" or "korona".
        equipment: equipment profile name or spec; default: the game's.
        config: tuning of every stage.
        detector: a ready detector (injected strategy); default: `tracker.detect.Detector(calib)`.
        tracker: a ready tracker; default: `Tracker` from `config.tracker`.
        events: a ready event detector; default: `EventDetector` from `config.events`.

    Raises:
        ConfigError: unknown game or equipment, equipment of another game, calibration of another game.
    """

    def __init__(self, calib: Any = None, *, game: str = "carrom", equipment: str | EquipmentSpec | None = None,
                 config: PipelineConfig | None = None, detector: DetectStage | None = None,
                 tracker: TrackStage | None = None, events: EventStage | None = None) -> None:
        self.config = config or PipelineConfig()
        self.board: BoardSpec = load_board(game)
        eq = equipment if isinstance(equipment, EquipmentSpec) else (
            load_equipment(equipment) if equipment else default_equipment(self.board.game))
        if eq.game is not self.board.game:
            raise ConfigError(f"equipment {eq.name!r} is for {eq.game.value}, not {self.board.game.value}")
        calib_game = getattr(calib, "game", None)
        if calib_game is not None and str(calib_game) != self.board.game.value:
            raise ConfigError(f"calibration is for {calib_game}, the pipeline plays {self.board.game.value}")
        self.equipment = eq
        self._radius_mm = _radius_table(eq)
        if detector is None and calib is not None:
            from tracker.detect import Detector  # OpenCV-heavy: only when frames are processed

            det_cfg = self.config.detector or default_detector_config(self.board.game.value)
            detector = Detector(calib, equipment=eq, config=det_cfg)
        self.detector = detector
        self.tracker: TrackStage = tracker or Tracker(_radius_table(eq), self.config.tracker,
                                                       sinks_mm=self.board.pockets_mm,
                                                       sink_radius_mm=self.board.pocket_no_return_mm,
                                                       hole_radius_mm=self.board.pocket_radius_mm,
                                                       half_mm=self.board.half_mm)
        self.events: EventStage = events or EventDetector(self.board, eq, self.config.events)
        self._frame_idx = -1
        self._t_prev = -np.inf
        self._remove: tuple[int, ...] = ()
        self._held: list[GameEvent] = []
        self._tracks: Tracks | None = None  # the last frame's (where discs stood: see `_standing`)

    def reset(self) -> None:
        """Start again (a new video on the same board)."""
        self.tracker.reset()
        self.events.reset()
        self._frame_idx, self._t_prev, self._remove, self._held = -1, -np.inf, (), []
        self._tracks = None

    def process(self, frame_bgr: np.ndarray | None, t_s: float) -> FrameResult:
        """Run one video frame through detection, tracking and events.

        Args:
            frame_bgr: (H, W, 3) uint8 BGR image, or None for a frame that could not be decoded.
            t_s: its time stamp, s from the start of the video.
        """
        self._frame_idx += 1
        # 1. a missing, corrupt or out-of-order frame is skipped; tracks simply wait for the next one
        if self.detector is None:
            raise ConfigError("Pipeline.process needs a detector (give calib or detector)")
        if not self._is_usable(frame_bgr, t_s):
            return self._skipped(t_s)
        # 2. detect: undistort/rectify inside the detector; discs in board mm
        assert frame_bgr is not None  # _is_usable turns None away
        detection = self.detector.detect(frame_bgr, t_s=t_s, frame_idx=self._frame_idx)
        # 3-5. track, detect events, release events in time order
        return self._after_detection(detection, t_s)

    def process_detection(self, detection: DetectionLike, t_s: float) -> FrameResult:
        """Run one frame's ready-made detection (from a recording, or synthesised in tests)."""
        self._frame_idx += 1
        if not t_s > self._t_prev:
            return self._skipped(t_s)
        return self._after_detection(detection, t_s)

    def finish(self) -> tuple[GameEvent, ...]:
        """End of the video: close an open shot and hand out every event still held."""
        out = sort_events([*self._held, *self.events.finish()])
        self._held = []
        return tuple(out)

    # -- steps -----------------------------------------------------------------------------------

    def _is_usable(self, frame_bgr: np.ndarray | None, t_s: float) -> bool:
        ok = isinstance(frame_bgr, np.ndarray) and frame_bgr.ndim == 3 and frame_bgr.shape[2] == 3
        return ok and frame_bgr.dtype == np.uint8 and bool(np.isfinite(t_s)) and t_s > self._t_prev  # type: ignore[union-attr]

    def _skipped(self, t_s: float) -> FrameResult:
        return FrameResult(self._frame_idx, float(t_s), FrameDetections.empty(frame_idx=self._frame_idx), (), False)

    def _after_detection(self, detection: DetectionLike, t_s: float) -> FrameResult:
        # the board hidden (someone leaning over it): skip rather than lose every disc at once
        if detection.occluded_fraction > self.config.max_occluded_fraction:
            return self._skipped(t_s)
        self._t_prev = t_s
        dets = detection.discs
        if self.config.min_score > 0:
            dets = dets[dets.score >= self.config.min_score]
        # a "disc" in the middle of a hand is the hand (fingertips, knuckles): discs under it are hidden
        cfg = self.config
        if cfg.hand_ring_frac < 1.0 and len(dets) and detection.occluded_fraction > 0.0:
            set_striker = dets.kind == DiscKind.STRIKER
            if set_striker.any() and dets.xy_board is not None:
                set_striker[set_striker] = self.board.on_placement_line(dets.xy_board[set_striker],
                                                                        self.equipment.striker_diameter_mm)
            dets = dets[~under_hand(dets, detection.is_occluded, self._radius_mm, radii=cfg.hand_ring_radii,
                                    frac=cfg.hand_ring_frac, side_score=cfg.hand_side_score,
                                    set_striker=set_striker, stood_at=lambda: _standing(self._tracks, self.board))]
        # (only when they differ: re-validating the detections costs time every frame)
        if dets.t_s != float(t_s) or dets.frame_idx != self._frame_idx:
            dets = replace(dets, t_s=float(t_s), frame_idx=self._frame_idx)
        # 3. track (ids that left the board last frame are forgotten first)
        tracks = self._tracks = self.tracker.update(dets, remove=self._remove)
        # 4. events
        update = self.events.update(tracks, is_occluded=detection.is_occluded)
        self._remove = update.remove
        # 5. hand out what is safely in the past, in time order
        released = self._release(update.events, t_s)
        tracked = replace(dets, track_id=np.array(tracks.det_track_id, dtype=np.int32))
        return FrameResult(self._frame_idx, float(t_s), tracked, released, True, tracks)

    def _release(self, new: tuple[GameEvent, ...], t_s: float) -> tuple[GameEvent, ...]:
        if not new and not self._held:  # (most frames)
            return ()
        self._held.extend(new)
        cut = t_s - self.config.reorder_s
        out = sort_events(e for e in self._held if e.t_s <= cut)
        self._held = [e for e in self._held if e.t_s > cut]
        return tuple(out)
