"""The tracker's configuration and its per-frame output (`TrackerConfig`, `Tracks`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tracker.errors import ConfigError

__all__ = ["TrackerConfig", "Tracks"]


@dataclass(frozen=True, slots=True)
class TrackerConfig:
    """Tracker tuning. Lengths in board mm, speeds in mm/s, times in s.

    Attributes:
        base_gate_mm: gate of a track at rest (detection noise plus a slow push).
        speed_gate_factor: the continuation gate grows by this fraction of the distance moved per frame.
        max_speed_mm_s: fastest plausible disc (a hard carrom flick is 5-8 m/s).
        max_jump_mm: cap on the jump gate per frame since the track was last seen.
        hit_speed_mm_s: speed a moving disc may gain by being hit (jump gate of moving discs); a
            quarter of it is the speed below which a track is at rest (`rest_speed_mm_s`).
        start_stretch: a track set in motion during the last frame interval is expected anywhere
            up to this many times its measured displacement further along its heading.
        miss_cost_mm: cost of leaving a live coin track without a detection, in mm of distance (it
            takes a detection up to about this far from its prediction rather than none; the
            striker's miss cost is its whole gate).
        rest_taken_mm: extra cost (mm of distance) of a track at rest taking a detection where
            another track was lost at rest (within `base_gate_mm`): that disc is back (a row of
            men at rest with one of them unseen shifted their identities one place along it).
        revive_gate_mm: a dormant (hidden) track is taken up again by a detection this close to where it was.
        striker_revive_score: a striker is taken up far from where it is expected (a dormant one: anywhere)
            only by a striker detection this sure.
        coast_frames: a moving track that is missed for up to this many frames keeps its prediction.
        coast_cost_mm: extra cost (mm of distance) per frame a track has not been seen.
        confirm_hits: observations needed before a new track counts as a disc.
        drop_tentative_after: a track not yet confirmed is dropped after this many misses in a row.
        kind_penalty: cost (mm of distance) added when a detection's kind disagrees with a confident track,
            times one plus the frames the track has gone unseen.
        kind_confidence: vote share above which a track's kind is confident.
        history: frames of position history kept per track (ring buffer).
        max_dormant: dormant tracks kept at most (oldest dropped first).
    """

    base_gate_mm: float = 12.0
    speed_gate_factor: float = 0.6
    max_speed_mm_s: float = 9000.0
    max_jump_mm: float = 320.0
    hit_speed_mm_s: float = 1500.0
    start_stretch: float = 3.0
    miss_cost_mm: float = 110.0
    rest_taken_mm: float = 40.0
    revive_gate_mm: float = 45.0
    striker_revive_score: float = 0.6
    coast_frames: int = 4
    coast_cost_mm: float = 8.0
    confirm_hits: int = 3
    drop_tentative_after: int = 2
    kind_penalty: float = 30.0
    kind_confidence: float = 0.7
    history: int = 24
    max_dormant: int = 48

    @property
    def rest_speed_mm_s(self) -> float:
        """Below this speed a track is at rest (a quarter of `hit_speed_mm_s`)."""
        return self.hit_speed_mm_s / 4

    def __post_init__(self) -> None:
        ranges = {
            "base_gate_mm": (self.base_gate_mm, 1.0, 200.0),
            "speed_gate_factor": (self.speed_gate_factor, 0.0, 5.0),
            "max_speed_mm_s": (self.max_speed_mm_s, 100.0, 50000.0),
            "max_jump_mm": (self.max_jump_mm, 10.0, 2000.0),
            "hit_speed_mm_s": (self.hit_speed_mm_s, 0.0, 50000.0),
            "start_stretch": (self.start_stretch, 1.0, 20.0),
            "miss_cost_mm": (self.miss_cost_mm, 1.0, 5000.0),
            "rest_taken_mm": (self.rest_taken_mm, 0.0, 1000.0),
            "revive_gate_mm": (self.revive_gate_mm, 1.0, 500.0),
            "striker_revive_score": (self.striker_revive_score, 0.0, 1.0),
            "coast_frames": (self.coast_frames, 0, 100),
            "coast_cost_mm": (self.coast_cost_mm, 0.0, 1000.0),
            "confirm_hits": (self.confirm_hits, 1, 100),
            "drop_tentative_after": (self.drop_tentative_after, 1, 100),
            "kind_penalty": (self.kind_penalty, 0.0, 1000.0),
            "kind_confidence": (self.kind_confidence, 0.0, 1.0),
            "history": (self.history, 3, 1000),
            "max_dormant": (self.max_dormant, 0, 10000),
        }
        for name, (value, lo, hi) in ranges.items():
            if not lo <= value <= hi:
                raise ConfigError(f"TrackerConfig.{name}={value} outside [{lo}, {hi}]")


@dataclass(frozen=True, slots=True)
class Tracks:
    """Every track after one update (a read-only snapshot).

    Attributes:
        ids: (M,) int32 track ids (per-tracker counter from 1).
        kind: (M,) int8 `DiscKind` by vote over the track's life.
        kind_share: (M,) float64 share of the votes behind `kind`, in [0, 1].
        recent_kind: (M,) int8 `DiscKind` by the last few observations (the disc followed now: after
            an identity mix-up in a crowd it differs from `kind`).
        xy_mm: (M, 2) float64 last observed centre, board mm.
        vel_mm_s: (M, 2) float64 velocity at the last observation, mm/s.
        seen: (M,) bool observed in this frame.
        missed: (M,) int32 frames since last observed (0 when seen).
        last_t_s: (M,) float64 time of the last observation, s.
        confirmed: (M,) bool a real disc (seen in `confirm_hits` frames), not a passing false detection.
        seen_since_s: (M,) float64 time (s) since which the track has been followed without a
            break longer than coasting (its birth, or when it was last taken up again).
        hist_xy_mm: (M, K, 2) float64 observed centres in the last K frames, oldest first, NaN where not seen.
        hist_t_s: (K,) float64 times of those frames (NaN before the first).
        det_track_id: (N,) int32 track id given to each detection of this frame (-1: none).
        t_s: time of this frame, s.
        frame_idx: this frame's number.
    """

    ids: np.ndarray
    kind: np.ndarray
    kind_share: np.ndarray
    recent_kind: np.ndarray
    xy_mm: np.ndarray
    vel_mm_s: np.ndarray
    seen: np.ndarray
    missed: np.ndarray
    last_t_s: np.ndarray
    confirmed: np.ndarray
    seen_since_s: np.ndarray
    hist_xy_mm: np.ndarray
    hist_t_s: np.ndarray
    det_track_id: np.ndarray
    t_s: float
    frame_idx: int

    def __post_init__(self) -> None:
        for name in ("ids", "kind", "kind_share", "recent_kind", "xy_mm", "vel_mm_s", "seen", "missed", "last_t_s",
                     "confirmed", "hist_xy_mm", "hist_t_s", "det_track_id"):
            getattr(self, name).setflags(write=False)

    def __len__(self) -> int:
        return int(self.ids.shape[0])

    @property
    def speed_mm_s(self) -> np.ndarray:
        """(M,) float64 speeds at the last observation, mm/s."""
        return np.asarray(np.hypot(self.vel_mm_s[:, 0], self.vel_mm_s[:, 1]))

    def index_of(self, track_id: int) -> int:
        """Row of `track_id`, or -1."""
        rows = np.flatnonzero(self.ids == track_id)
        return int(rows[0]) if rows.size else -1
