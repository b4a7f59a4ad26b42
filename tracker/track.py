"""Multi-object tracking of discs in board millimetres.

`Tracker.update(dets)` associates one frame's detections with the tracks in two gated
Hungarian passes:

1. Continuation: each track that was seen recently is compared with every detection by the
   distance from the detection to the segment between the track's last position and its
   constant-velocity prediction. The segment (not the predicted point) is what keeps identities
   at collisions: a disc that stops dead on impact is still on its segment, and a disc that was
   at rest has a zero-length segment, so neither is pulled towards the other's detection. The
   gate grows with the track's speed.
2. Jumps and returns: tracks left over (a disc at rest that was just hit, a fast striker that
   was not detected for a frame or two, a disc coming out from under a hand) are matched to the
   detections left over by plain distance, within a gate of the largest plausible speed times
   the time since it was last seen. Hidden tracks come back only near where they disappeared;
   the striker, of which there is one, comes back anywhere.

Kinds are decided by score-weighted voting over the track's whole life, not frame by frame;
a detection whose kind disagrees with a confident track pays a penalty. Tracks that stop being
seen are kept (dormant): whether such a disc is hidden, pocketed or off the board is the event
detector's decision, which it reports back through `update(..., remove=ids)`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from tracker._track_assign import assign, point_segment_distance, untangle
from tracker._track_state import N_KINDS, TrackArrays, vote_kinds
from tracker.detections import FrameDetections
from tracker.errors import ConfigError
from tracker.specs import DiscKind

__all__ = ["Tracker", "TrackerConfig", "Tracks"]

_CUSHION_KEEP = 0.6  # share of the normal speed a disc keeps at a cushion (0.5-0.75)
_RECENT_KEEP = 0.7  # weight a track's recent kind votes keep per observation (about the last five count)


@dataclass(frozen=True, slots=True)
class TrackerConfig:
    """Tracker tuning. Lengths in board mm, speeds in mm/s, times in s.

    Attributes:
        base_gate_mm: gate of a track at rest (detection noise plus a slow push).
        speed_gate_factor: the continuation gate grows by this fraction of the distance moved per frame.
        max_speed_mm_s: fastest plausible disc (a hard carrom flick is 5-8 m/s).
        max_jump_mm: cap on the jump gate per frame since the track was last seen.
        hit_speed_mm_s: speed a moving disc may gain by being hit (jump gate of moving discs); a
            quarter of it is the speed below which a track is at rest.
        start_stretch: a track set in motion during the last frame interval is expected anywhere
            up to this many times its measured displacement further along its heading.
        miss_cost_mm: cost of leaving a live coin track without a detection, in mm of distance (it
            takes a detection up to about this far from its prediction rather than none; the
            striker's miss cost is its whole gate).
        revive_gate_mm: a dormant (hidden) track is taken up again by a detection this close to where it was.
        striker_revive_score: a striker is taken up far from where it is expected (a dormant one: anywhere)
            only by a striker detection this sure.
        coast_frames: a moving track that is missed for up to this many frames keeps its prediction.
        coast_cost_mm: extra cost (mm of distance) per frame a track has not been seen.
        confirm_hits: observations needed before a new track counts as a disc.
        drop_tentative_after: a track not yet confirmed is dropped after this many misses in a row.
        kind_penalty: cost (mm of distance) added when a detection's kind disagrees with a confident track.
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

    def __post_init__(self) -> None:
        ranges = {
            "base_gate_mm": (self.base_gate_mm, 1.0, 200.0),
            "speed_gate_factor": (self.speed_gate_factor, 0.0, 5.0),
            "max_speed_mm_s": (self.max_speed_mm_s, 100.0, 50000.0),
            "max_jump_mm": (self.max_jump_mm, 10.0, 2000.0),
            "hit_speed_mm_s": (self.hit_speed_mm_s, 0.0, 50000.0),
            "start_stretch": (self.start_stretch, 1.0, 20.0),
            "miss_cost_mm": (self.miss_cost_mm, 1.0, 5000.0),
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


@dataclass
class Tracker:
    """Keeps disc identities from frame to frame.

    Args:
        radius_mm: (4,) disc radius per `DiscKind` in mm (from the equipment), used to merge
            duplicate detections of one disc.
        config: tuning.
        sinks_mm: (P, 2) pocket centres (board mm): a disc whose path runs into one is never
            continued by another disc's detection.
        sink_radius_mm: the pockets' no-return radius, mm.
        half_mm: half the playing surface's side, mm: predicted paths bounce off the cushions there
            (None: they run straight on).

    Examples:
        >>> tr = Tracker(np.array([15.5, 15.5, 15.5, 20.5]))
        >>> d = FrameDetections(np.zeros((1, 2), np.float32), np.ones(1, np.float32), np.zeros(1, np.int8),
        ...                     np.ones(1, np.float32), xy_board=np.array([[10.0, 5.0]], np.float32), t_s=0.0)
        >>> tr.update(d).ids.tolist()
        [1]
    """

    radius_mm: np.ndarray
    config: TrackerConfig = field(default_factory=TrackerConfig)
    sinks_mm: np.ndarray | None = None
    sink_radius_mm: float = 14.0
    half_mm: float | None = None
    _state: TrackArrays = field(init=False, repr=False)
    _hist_t: np.ndarray = field(init=False, repr=False)
    _head: int = field(init=False, repr=False)
    _next_id: int = field(init=False, repr=False)
    _t_prev: float | None = field(init=False, repr=False)
    _frame: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        radius = np.asarray(self.radius_mm, dtype=np.float64)
        if radius.shape != (N_KINDS,) or not np.all(radius > 0):
            raise ConfigError(f"radius_mm: expected 4 positive radii (one per DiscKind), got {self.radius_mm!r}")
        self.radius_mm = radius
        self.reset()

    def reset(self) -> None:
        """Forget every track; ids start again from 1."""
        self._state = TrackArrays.empty(self.config.history)
        self._hist_t = np.full(self.config.history, np.nan)
        self._head = self.config.history - 1  # ring column of the newest frame
        self._next_id = 1
        self._t_prev = None
        self._frame = -1

    def update(self, dets: FrameDetections, *, remove: Iterable[int] = ()) -> Tracks:
        """Take in one frame's detections.

        Args:
            dets: detections with `xy_board` (board mm) and `t_s` (s) filled.
            remove: track ids known to have left the board (pocketed, off the board, taken away);
                they are forgotten before this frame is associated.

        Returns:
            The tracks after this frame, including `det_track_id` for every detection.

        Raises:
            ValueError: `dets` lacks `xy_board` or `t_s`, or time went backwards.
        """
        if dets.xy_board is None or dets.t_s is None:
            raise ValueError("dets: xy_board and t_s are required for tracking")
        t = float(dets.t_s)
        if self._t_prev is not None and t <= self._t_prev:
            raise ValueError(f"dets.t_s={t} is not after the previous frame's {self._t_prev}")
        self._frame = int(dets.frame_idx) if dets.frame_idx is not None else self._frame + 1
        gone = np.fromiter(remove, dtype=np.int64)
        st = self._state
        if gone.size and len(st):
            drop = (st.ids[:, None] == gone[None, :]).any(axis=1)
            st = st.select(~drop) if drop.any() else st
        self._head = (self._head + 1) % self.config.history  # this frame's column of the history ring
        z = dets.xy_board.astype(np.float64)
        track_of_det = np.full(len(dets), -1, np.intp)
        # 1. continuation of recently seen tracks (segment from last position to the prediction)
        rows, cols = self._continue(st, z, dets.kind, t, dets.score)
        track_of_det[cols] = rows
        # 2. jumps (a disc just hit, a fast striker) and returns (from under a hand)
        rows2, cols2 = self._jump(st, z, dets.kind, t, track_of_det, dets.score)
        track_of_det[cols2] = rows2
        # 3. update matched tracks, age the others, start tentative tracks, roll the history
        st = self._observe(st, z, dets, t, track_of_det)
        st, track_of_det = self._spawn(st, z, dets, t, track_of_det)
        det_ids = np.where(track_of_det >= 0, st.ids[np.maximum(track_of_det, 0)] if len(st) else -1, -1)
        st = self._prune(st)
        self._state, self._t_prev = st, t
        return self._snapshot(st, det_ids.astype(np.int32), t)

    # -- association -----------------------------------------------------------------------------

    def _kind_cost(self, st: TrackArrays, det_kind: np.ndarray) -> np.ndarray:
        """(M, N) cost of a kind disagreement: `kind_penalty` among coins, infinite between a sure striker and a coin.

        Coin colours are misread now and then; the striker is told apart by its size, reliably.
        """
        kind, share = st.kinds()
        confident = (share >= self.config.kind_confidence)[:, None]
        mismatch = kind[:, None] != det_kind[None, :]
        striker_vs_coin = (kind[:, None] == DiscKind.STRIKER) != (det_kind[None, :] == DiscKind.STRIKER)
        cost = np.where(mismatch & confident, self.config.kind_penalty, 0.0)
        return np.where(striker_vs_coin & confident, np.inf, cost)

    def _continue(
        self, st: TrackArrays, z: np.ndarray, det_kind: np.ndarray, t: float, det_score: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """One global assignment of live tracks to detections (min total distance to the predictions).

        One pass, not nearest-first: when a moving disc stops next to one that starts, the sum of
        distances keeps both identities where a greedy or two-stage match swaps them.
        """
        cfg = self.config
        live = np.flatnonzero(st.missed <= cfg.coast_frames)
        if live.size == 0 or z.shape[0] == 0:
            return np.zeros(0, np.intp), np.zeros(0, np.intp)
        sub = st.select(live)
        dt = t - sub.last_t
        speed = np.hypot(sub.vel[:, 0], sub.vel[:, 1])
        rest_speed = cfg.hit_speed_mm_s / 4
        at_rest = speed < rest_speed
        # set in motion during the last interval: it moved for only part of it, so its velocity is
        # an underestimate and it may be anywhere further along its heading (a pack broken at 30 fps)
        started = ~at_rest & (sub.prev_speed < rest_speed)
        pred = sub.xy + sub.vel * dt[:, None]
        reach_end = sub.xy + sub.vel * (dt * np.where(started, cfg.start_stretch, 1.0))[:, None]
        # the predicted path bounces off the cushions (a fast disc unseen for a frame or two)
        wall, folded = self._fold(sub.xy, reach_end, sub.kind)
        seg = np.minimum(point_segment_distance(z, sub.xy, wall), point_segment_distance(z, wall, folded))
        dist = np.linalg.norm(z[None, :, :] - sub.xy[:, None, :], axis=-1)
        # a disc at rest may be hit and fly off at any speed; a moving one keeps (or loses) its
        # speed at a bounce, unless something faster hits it
        speed_bound = np.where(at_rest | started, cfg.max_speed_mm_s, np.maximum(1.5 * speed, cfg.hit_speed_mm_s))
        speed_bound = np.maximum(speed_bound, self._hit_bound(sub, speed, dt))
        reach = cfg.base_gate_mm + speed_bound * dt
        gate = np.minimum(reach, cfg.max_jump_mm * (1 + sub.missed))  # the cap is per frame
        sunk = self._sunk(sub.xy, pred)  # went into a pocket: never continued by another disc's detection
        kind_cost = self._kind_cost(sub, det_kind)
        allowed = (dist <= gate[:, None]) & ~sunk[:, None] & np.isfinite(kind_cost)
        # a coin colour that disagrees with a confident track costs distance (colours are misread now and then)
        cost = seg + np.where(allowed, kind_cost, 0.0) + np.where(sub.confirmed, 0.0, cfg.base_gate_mm)[:, None]
        # a track not seen for a few frames is less sure of where it is than one seen just now (a disc
        # coasting into a pocket must not take the detection of a disc followed all along beside it)
        cost = cost + (cfg.coast_cost_mm * np.maximum(sub.missed, 0))[:, None]
        kind, share = sub.kinds()
        # the striker (one, told apart by its size, flies fastest) takes a detection anywhere in its
        # gate; so does a striker track seen only once before (standing, in the frame before it was
        # struck) if no confirmed striker is being followed (else it is a false detection)
        striker = (kind == DiscKind.STRIKER) & (share >= cfg.kind_confidence)
        striker &= sub.confirmed | (~(striker & sub.confirmed).any() & self._sure(sub))
        # ... if it is sure: a hand or a false detection is now and then taken for a striker (issue 4)
        unsure = (det_score < cfg.striker_revive_score)[None, :] & (cost > cfg.miss_cost_mm)
        # ... except straight ahead of a moving striker: its blur streak at 30 fps scores low
        unsure &= ~self._ahead(sub.xy, sub.vel, z, at_rest)
        allowed &= ~(striker[:, None] & unsure)
        r, c = assign(cost, allowed, np.where(striker, np.maximum(gate, cfg.miss_cost_mm), cfg.miss_cost_mm))
        # discs do not pass through each other: swap the detections of pairs whose paths would
        r_mm = self.radius_mm[kind[r].astype(np.intp)]
        c = untangle(sub.xy[r], z[c], c, r_mm[:, None] + r_mm[None, :], allowed[r])
        return live[r], c

    @staticmethod
    def _ahead(xy: np.ndarray, vel: np.ndarray, z: np.ndarray, at_rest: np.ndarray) -> np.ndarray:
        """(M, N) bool: detection n lies within about 25 degrees of moving track m's heading."""
        to = z[None, :, :] - xy[:, None, :]
        norm = np.linalg.norm(to, axis=-1) * np.linalg.norm(vel, axis=-1)[:, None]
        cos = np.einsum("mnk,mk->mn", to, vel) / np.maximum(norm, 1e-9)
        return np.asarray((cos > 0.9) & ~at_rest[:, None])

    def _fold(self, xy: np.ndarray, pred: np.ndarray, kind: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Where a straight path from `xy` to `pred` (M, 2) first meets a cushion, and its end bounced back.

        Without `half_mm` (board size unknown) or for paths that stay on the board, both are `pred`.
        """
        if self.half_mm is None or len(xy) == 0:
            return pred, pred
        lim = (self.half_mm - self.radius_mm[kind.astype(np.intp)])[:, None]
        over = np.abs(pred) > lim
        if not over.any():
            return pred, pred
        d = pred - xy
        side = np.sign(pred) * lim
        with np.errstate(divide="ignore", invalid="ignore"):
            frac = np.where(over & (np.abs(d) > 1e-9), (side - xy) / d, 1.0)
        s = np.clip(frac.min(axis=1), 0.0, 1.0)
        wall = xy + d * s[:, None]
        # a cushion keeps about 0.6 of the normal speed
        folded = np.where(over, side - np.sign(pred) * _CUSHION_KEEP * (np.abs(pred) - lim), pred)
        return wall, np.clip(folded, -lim, lim)

    def _sure(self, sub: TrackArrays) -> np.ndarray:
        """(M,) bool: tracks backed by at least one sure detection (not only doubtful ones)."""
        return np.asarray(sub.votes.max(axis=1) >= self.config.striker_revive_score + 0.05)

    def _hit_bound(self, sub: TrackArrays, speed: np.ndarray, dt: np.ndarray) -> np.ndarray:
        """(M,) speed (mm/s) each track may reach by being hit by a faster disc close enough to reach it."""
        if len(sub) < 2:
            return np.zeros(len(sub))
        gap = np.linalg.norm(sub.xy[:, None, :] - sub.xy[None, :, :], axis=-1)
        # j reaches i within the interval if it is no farther than its travel plus two radii (and slack)
        reaches = gap <= (speed * dt)[None, :] + 2.0 * float(self.radius_mm.max()) + 10.0
        np.fill_diagonal(reaches, False)
        return np.asarray(np.where(reaches, 1.2 * speed[None, :], 0.0).max(axis=1))

    def _jump(self, st: TrackArrays, z: np.ndarray, det_kind: np.ndarray, t: float,
              track_of_det: np.ndarray, det_score: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Dormant tracks taken up again: a disc out from under a hand near where it went, the striker anywhere."""
        cfg = self.config
        free_t = np.setdiff1d(np.flatnonzero(st.missed > cfg.coast_frames), track_of_det[track_of_det >= 0])
        free_d = np.flatnonzero(track_of_det < 0)
        if free_t.size == 0 or free_d.size == 0:
            return np.zeros(0, np.intp), np.zeros(0, np.intp)
        sub = st.select(free_t)
        dist = np.linalg.norm(z[free_d][None, :, :] - sub.xy[:, None, :], axis=-1)
        kind, share = sub.kinds()
        is_striker = (kind == DiscKind.STRIKER) & (share >= cfg.kind_confidence) & sub.confirmed
        # anywhere only for a sure detection: a hand or its shadow is now and then taken for a striker
        sure = (det_kind[free_d] == DiscKind.STRIKER) & (det_score[free_d] >= cfg.striker_revive_score)
        striker_pair = is_striker[:, None] & sure[None, :]
        gate = np.where(striker_pair, np.inf, cfg.revive_gate_mm)  # one striker: it may reappear anywhere
        agree = self._kind_cost(sub, det_kind[free_d]) == 0.0
        cost = dist + np.where(sub.confirmed, 0.0, 50.0)[:, None]
        # a disc last seen running into a pocket is gone: a disc resting by that pocket is another one
        sunk = self._sunk(sub.xy, sub.xy + sub.vel * np.minimum(t - sub.last_t, 0.2)[:, None])
        ok = (dist <= gate) & agree & (sub.confirmed & ~sunk)[:, None]
        r, c = assign(cost, ok, np.full(free_t.size, 1e6))
        return free_t[r], free_d[c]

    def _sunk(self, xy: np.ndarray, pred: np.ndarray) -> np.ndarray:
        """(M,) bool: tracks whose path from `xy` to `pred` runs well inside a point of no return."""
        if self.sinks_mm is None or len(xy) == 0:
            return np.zeros(len(xy), bool)
        d = point_segment_distance(self.sinks_mm, xy, pred)
        return np.asarray(d.min(axis=1) <= self.sink_radius_mm - 4.0)

    # -- state update ----------------------------------------------------------------------------

    def _observe(self, st: TrackArrays, z: np.ndarray, dets: FrameDetections, t: float,
                 track_of_det: np.ndarray) -> TrackArrays:
        cfg = self.config
        matched = track_of_det >= 0
        rows, cols = track_of_det[matched], np.flatnonzero(matched)
        seen = np.zeros(len(st), bool)
        seen[rows] = True
        new_xy = st.xy.copy()
        new_xy[rows] = z[cols]
        vel = st.vel.copy()
        prev_speed = st.prev_speed.copy()
        prev_speed[rows] = np.hypot(st.vel[rows, 0], st.vel[rows, 1])
        dt = np.maximum(t - st.last_t[rows], 1e-6)
        continuing = st.missed[rows] <= cfg.coast_frames
        vel[rows] = np.where(continuing[:, None], (z[cols] - st.xy[rows]) / dt[:, None], 0.0)
        votes = st.votes.copy()
        np.add.at(votes, (rows, dets.kind[cols].astype(np.intp)), dets.score[cols].astype(np.float64) + 0.05)
        recent = st.recent.copy()
        recent[rows] *= _RECENT_KEEP
        np.add.at(recent, (rows, dets.kind[cols].astype(np.intp)), dets.score[cols].astype(np.float64) + 0.05)
        hits = st.hits + seen
        hist = st.hist  # private working state: written in place (snapshots are copies)
        hist[:, self._head] = np.where(seen[:, None], new_xy, np.nan)
        last_t = np.where(seen, t, st.last_t)
        kind, share = vote_kinds(votes) if rows.size else (st.kind, st.share)
        return TrackArrays(
            ids=st.ids, xy=new_xy, vel=vel, last_t=last_t, hits=hits.astype(np.int32),
            missed=np.where(seen, 0, st.missed + 1).astype(np.int32), votes=votes,
            confirmed=st.confirmed | (hits >= cfg.confirm_hits), hist=hist, kind=kind, share=share,
            recent=recent, prev_speed=prev_speed,
        )

    def _spawn(self, st: TrackArrays, z: np.ndarray, dets: FrameDetections, t: float,
               track_of_det: np.ndarray) -> tuple[TrackArrays, np.ndarray]:
        free = np.flatnonzero(track_of_det < 0)
        if free.size and len(st):
            # a second detection of a disc that is already tracked (blur, double ring) is not a new disc
            near = np.linalg.norm(z[free][:, None, :] - st.xy[None, st.missed == 0, :], axis=-1)
            r_min = self.radius_mm.min()
            free = free[(near >= r_min).all(axis=1)] if near.shape[1] else free
        n = free.size
        if n == 0:
            return st, track_of_det
        votes = np.zeros((n, N_KINDS))
        votes[np.arange(n), dets.kind[free].astype(np.intp)] = dets.score[free] + 0.05
        hist = np.full((n, self.config.history, 2), np.nan)
        hist[:, self._head] = z[free]
        kind, share = vote_kinds(votes)
        born = TrackArrays(
            ids=np.arange(self._next_id, self._next_id + n, dtype=np.int32), xy=z[free].copy(),
            vel=np.zeros((n, 2)), last_t=np.full(n, t), hits=np.ones(n, np.int32),
            missed=np.zeros(n, np.int32), votes=votes, confirmed=np.full(n, self.config.confirm_hits <= 1),
            hist=hist, kind=kind, share=share, recent=votes.copy(), prev_speed=np.zeros(n),
        )
        self._next_id += n
        out = track_of_det.copy()
        out[free] = len(st) + np.arange(n)
        return st.append(born), out

    def _prune(self, st: TrackArrays) -> TrackArrays:
        cfg = self.config
        keep = st.confirmed | (st.missed < cfg.drop_tentative_after)
        # a track seen twice in a row and moving is a disc in flight: at 30 fps a fast one is missed
        # every third frame or so (blur), and dropping its track would start a new one each time
        moving = np.hypot(st.vel[:, 0], st.vel[:, 1]) >= cfg.hit_speed_mm_s / 4
        keep |= (st.hits >= 2) & moving & (st.missed <= cfg.coast_frames)
        # the striker seen standing once, then struck (blurred out for a frame or two at 30 fps)
        keep |= (st.kind == DiscKind.STRIKER) & self._sure(st) & (st.missed <= cfg.coast_frames)
        dormant = np.flatnonzero(keep & (st.missed > cfg.coast_frames))
        if dormant.size > cfg.max_dormant:
            oldest = dormant[np.argsort(st.last_t[dormant])[: dormant.size - cfg.max_dormant]]
            keep[oldest] = False
        return st if keep.all() else st.select(keep)

    def _snapshot(self, st: TrackArrays, det_ids: np.ndarray, t: float) -> Tracks:
        self._hist_t[self._head] = t
        k = self.config.history
        order = (np.arange(1, k + 1) + self._head) % k  # ring -> oldest first
        return Tracks(
            ids=st.ids.copy(), kind=st.kind.copy(), kind_share=st.share.copy(),
            recent_kind=vote_kinds(st.recent)[0], xy_mm=st.xy.copy(),
            vel_mm_s=st.vel.copy(), seen=st.missed == 0, missed=st.missed.copy(), last_t_s=st.last_t.copy(),
            confirmed=st.confirmed.copy(), hist_xy_mm=st.hist[:, order], hist_t_s=self._hist_t[order],
            det_track_id=det_ids, t_s=t, frame_idx=self._frame,
        )
