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

from tracker._track_assign import assign, point_distance, point_segment_distance, segment_and_point_distance, untangle
from tracker._track_motion import fold_at_cushions, heading_cone
from tracker._track_state import (
    N_KINDS,
    Motion,
    TrackArrays,
    misread_coins,
    misread_men,
    misread_strikers,
    striker_doubles,
    striker_followed,
    struck_strikers,
    vote_kinds,
)
from tracker._track_types import TrackerConfig, Tracks
from tracker.detections import FrameDetections
from tracker.errors import ConfigError
from tracker.specs import STILL_STEP_MM, DiscKind

__all__ = ["Tracker", "TrackerConfig", "Tracks"]

# a blurred detection (its size a guess) takes up a dormant track of the other size only this soon (s)
_BLUR_REVIVE_S = 0.25
_RECENT_KEEP = 0.7  # weight a track's recent kind votes keep per observation (about the last five count)
# a plain int: comparing an array with an IntEnum member converts the member on every call
_STRIKER = int(DiscKind.STRIKER)
_MOVING_MM_S = 300.0  # a striker this fast is moving (not a disc at rest seen with noise)
_STRUCK_JUMP_MM = 120.0  # a striker struck from rest is seen this far from where it stood, at most
_STRUCK_SCORE = 0.7  # ... read as a coin as sure as this at least (see `struck_strikers`)
# a path this far inside a pocket's point of no return went in (see `_sunk`)
_WELL_INSIDE_MM = 4.0
_REBOUND_MM_S = 1500.0  # a disc this fast, heading into a cushion, may be seen far off its prediction after it
# a striker-sized detection this many man radii from where a man stands is that man, misread
_MISREAD_MAN_REACH = 0.3


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
        hole_radius_mm: the pockets' radius, mm: a striker lost over a hole is looked for only there.
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
    hole_radius_mm: float = 22.25
    half_mm: float | None = None
    _state: TrackArrays = field(init=False, repr=False)
    _hist_t: np.ndarray = field(init=False, repr=False)
    _head: int = field(init=False, repr=False)
    _next_id: int = field(init=False, repr=False)
    _t_prev: float | None = field(init=False, repr=False)
    _frame: int = field(init=False, repr=False)
    _order: np.ndarray = field(init=False, repr=False)
    _lim: np.ndarray = field(init=False, repr=False)
    _lim_min: float = field(init=False, repr=False)

    def __post_init__(self) -> None:
        radius = np.asarray(self.radius_mm, dtype=np.float64)
        if radius.shape != (N_KINDS,) or not np.all(radius > 0):
            raise ConfigError(f"radius_mm: expected 4 positive radii (one per DiscKind), got {self.radius_mm!r}")
        self.radius_mm = radius
        k = self.config.history
        # row h: the ring's columns oldest first when column h is the newest
        self._order = (np.arange(1, k + 1)[None, :] + np.arange(k)[:, None]) % k
        # how far from the centre a centre of each kind can go (inf: board size unknown)
        self._lim = (self.half_mm if self.half_mm is not None else np.inf) - radius
        self._lim_min = float(self._lim.min())
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
        # a disc found only as the blur of its motion: its kind is a guess (a fast white's smear is as
        # wide as the striker), so it neither pays for nor votes on a kind; a blur as wide as the
        # striker is a misread too, and starts no track. A coin's blur in no track's reach starts a
        # tentative one (korona seed 1045 at 30 fps: a light man knocked out of the N row along the
        # rail into the NW pocket, seen only as a blur on his way, was never followed), unless it
        # is the streak a disc seen now left behind it (see `_spawn`)
        blurred = np.zeros(len(dets), bool) if dets.flags is None else (dets.flags & FrameDetections.FLAG_BLURRED) != 0
        misread = blurred & (dets.kind == _STRIKER)
        # ... so is a striker seen far from the striker followed until now (there is one striker), and
        # a coin where the moving striker followed until now is going, with no disc of its own there
        r_s, sure = float(self.radius_mm[_STRIKER]), self.config.kind_confidence
        # ... and a striker where a man stands (his size misread): his track may take it up again;
        # and a coin seen a short jump from where the striker stood until a frame ago, gone from there
        # (the striker struck, misread in motion; see `struck_strikers`)
        men = misread_men(st, z, dets.kind, t, reach_mm=_MISREAD_MAN_REACH * float(self.radius_mm[:_STRIKER].min()),
                          radius_mm=r_s, confidence=sure, still_mm_s=_MOVING_MM_S)
        on_men = None if men is None else men[1]
        reach = r_s + float(self.radius_mm[:_STRIKER].max())
        for m in (
            misread_strikers(st, z, dets.kind, t, radius_mm=r_s, confidence=sure),
            misread_coins(st, z, dets.kind, t, radius_mm=r_s, reach_mm=reach,
                          confidence=sure, min_speed_mm_s=_MOVING_MM_S),
            None if men is None else men[0],
            struck_strikers(st, z, dets.kind, ~blurred & (dets.score >= _STRUCK_SCORE), radius_mm=r_s,
                            reach_mm=reach, jump_mm=_STRUCK_JUMP_MM, confidence=sure, still_mm_s=_MOVING_MM_S),
        ):
            if m is not None:
                misread |= m
        either = blurred | misread
        guessed = either if either.any() else None
        # 1. continuation of recently seen tracks (segment from last position to the prediction)
        men_dets = None if men is None else men[0]
        rows, cols = self._continue(st, z, dets.kind, t, dets.score, guessed, men_dets)
        track_of_det[cols] = rows
        # 2. jumps (a disc just hit, a fast striker) and returns (from under a hand)
        rows2, cols2 = self._jump(st, z, dets.kind, t, track_of_det, dets.score, guessed, on_men)
        track_of_det[cols2] = rows2
        # 2b. a fast disc seen again after a bounce off a cushion, far from its straight prediction
        rows3, cols3 = self._rebound(st, z, dets.kind, t, track_of_det, guessed)
        track_of_det[cols3] = rows3
        if blurred.any():
            track_of_det = self._drop_streaks(st, z, track_of_det, blurred)
        # 3. update matched tracks, age the others, start tentative tracks, roll the history
        st = self._observe(st, z, dets, t, track_of_det, guessed, men)
        st, track_of_det = self._spawn(st, z, dets, t, track_of_det, misread, blurred)
        det_ids = np.where(track_of_det >= 0, st.ids[np.maximum(track_of_det, 0)] if len(st) else -1, -1)
        st = self._prune(st)
        self._state, self._t_prev = st, t
        return self._snapshot(st, det_ids.astype(np.int32), t)

    # -- association -----------------------------------------------------------------------------

    def _kind_terms(
        self, kind: np.ndarray, share: np.ndarray, det_kind: np.ndarray, guessed: np.ndarray | None, *,
        by_size: bool = False, blur_ok: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The cost of a kind disagreement between tracks and detections, in two parts.

        Coin colours are misread now and then; the striker is told apart by its size, reliably.

        Args:
            kind: (M,) the tracks' `DiscKind` values by vote.
            share: (M,) the share of the votes behind them.
            det_kind: (N,) the detections' `DiscKind` values.
            guessed: (N,) bool detections whose kind is a guess (blurred, or a second striker: no
                cost, never infinite), or None.
            by_size: every track keeps to its size (striker or coin), however unsure its votes
                (default: only the confident ones).
            blur_ok: (M,) bool tracks a guessed detection may still take up across sizes (default all).

        Returns:
            (M, N) `kind_penalty` where a confident track's coin colour disagrees (else 0), and (M, N)
            bool where the cost is infinite (a track held to its size and a detection of the other).
        """
        confident = (share >= self.config.kind_confidence)[:, None]
        mismatch = kind[:, None] != det_kind[None, :]
        striker_vs_coin = (kind == _STRIKER)[:, None] != (det_kind == _STRIKER)[None, :]
        held = confident | by_size
        if guessed is not None:
            confident = confident & ~guessed[None, :]
            held = held & ~(guessed[None, :] if blur_ok is None else guessed[None, :] & blur_ok[:, None])
        return np.where(mismatch & confident, self.config.kind_penalty, 0.0), striker_vs_coin & held

    def _continue(
        self, st: TrackArrays, z: np.ndarray, det_kind: np.ndarray, t: float, det_score: np.ndarray,
        guessed: np.ndarray | None, on_man: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """One global assignment of live tracks to detections (min total distance to the predictions);
        `on_man` (N,) bool: the detections that are a man standing there, his size misread (see
        `misread_men`), never the striker's.

        One pass, not nearest-first: when a moving disc stops next to one that starts, the sum of
        distances keeps both identities where a greedy or two-stage match swaps them.
        """
        cfg = self.config
        live = (st.missed <= cfg.coast_frames).nonzero()[0]
        if live.size == 0 or z.shape[0] == 0:
            return np.zeros(0, np.intp), np.zeros(0, np.intp)
        sub = st.motion(None if live.size == len(st) else live)  # (all live: no copies)
        dt = t - sub.last_t
        speed = np.hypot(sub.vel[:, 0], sub.vel[:, 1])
        rest_speed = cfg.rest_speed_mm_s
        at_rest = speed < rest_speed
        # set in motion during the last interval: it moved for only part of it, so its velocity is
        # an underestimate and it may be anywhere further along its heading (a pack broken at 30 fps)
        started = ~at_rest & (sub.prev_speed < rest_speed)
        pred = sub.xy + sub.vel * dt[:, None]
        reach_end = pred  # (x 1.0 where none started: the same numbers)
        if started.any():
            reach_end = sub.xy + sub.vel * (dt * np.where(started, cfg.start_stretch, 1.0))[:, None]
        # the predicted path bounces off the cushions (a fast disc unseen for a frame or two)
        wall, folded = self._fold(sub.xy, reach_end, sub.kind)
        # (no cushion on the way: the bounced part is the end point itself)
        beyond = point_distance(z, folded) if wall is folded else point_segment_distance(z, wall, folded)
        seg, dist = segment_and_point_distance(z, sub.xy, wall)
        seg = np.minimum(seg, beyond)
        # a disc at rest may be hit and fly off at any speed; a moving one keeps (or loses) its
        # speed at a bounce, unless something faster hits it; its speed is the larger of its last two
        # steps' (one sighting drawn out behind the disc cuts a step short: carrom seed 1008 at 120 fps)
        fast = np.maximum(speed, sub.prev_speed)
        speed_bound = np.where(at_rest | started, cfg.max_speed_mm_s, np.maximum(1.5 * fast, cfg.hit_speed_mm_s))
        hit = self._hit_bound(sub.xy, speed, dt, float(speed_bound.min()))
        if hit is not None:
            speed_bound = np.maximum(speed_bound, hit)
        reach = cfg.base_gate_mm + speed_bound * dt
        gate = np.minimum(reach, cfg.max_jump_mm * (1 + sub.missed))  # the cap is per frame
        penalty, forbidden = self._kind_terms(sub.kind, sub.share, det_kind, guessed)
        # (no colour cost where the track's last few sightings agree with it: after a mix-up in a
        # crowd the track follows a disc of the other colour, and its detections are that disc's;
        # carrom seed 1033 at 30 fps: a black followed by a track voted white gave its detection,
        # past the N cushion, to the white flying off the board there)
        recent = st.recent[live].argmax(axis=1)
        penalty = np.where(recent[:, None] == det_kind[None, :], 0.0, penalty)
        allowed = (dist <= gate[:, None]) & ~forbidden
        sunk = self._sunk(sub.xy, pred)  # went into a pocket: never continued by another disc's detection
        if sunk.any():
            allowed &= ~sunk[:, None] | self._grazed(sunk & (sub.missed == 0), seg, z)
        # a coin colour that disagrees with a confident track costs distance (colours are misread now and
        # then), the more the longer the track went unseen (a black lost at a 30 fps break was continued by
        # a white disc that reappeared nearby four frames later, issue 4)
        cost = seg + np.where(allowed, penalty * (1.0 + np.maximum(sub.missed, 0))[:, None], 0.0)
        # a disc at rest does not take the place where another was lost at rest: that one is back (a
        # row of men, one unseen for a frame: he took the detection of one lost further along, and
        # untangling the crossing paths shifted every identity between one place along the row,
        # korona seed 1001). Not where one was seen last frame: a pack broken, its discs fly into
        # each other's places (carrom seed 1006 at 30 fps)
        lost = (st.missed > cfg.coast_frames) & (np.hypot(st.vel[:, 0], st.vel[:, 1]) < rest_speed)
        if at_rest.any() and lost.any():
            back = np.asarray((point_distance(z, st.xy[lost]) <= cfg.base_gate_mm).any(axis=0))
            # (not at its own place: a dormant double of it may rest there too)
            taken = at_rest[:, None] & (dist > cfg.base_gate_mm) & back[None, :]
            cost = cost + np.where(taken, cfg.rest_taken_mm, 0.0)
        if not sub.confirmed.all():  # (adding 0.0 changes nothing: skipped when every track is confirmed)
            cost = cost + np.where(sub.confirmed, 0.0, cfg.base_gate_mm)[:, None]
        # a track not seen for a few frames is less sure of where it is than one seen just now (a disc
        # coasting into a pocket must not take the detection of a disc followed all along beside it)
        if sub.missed.any():
            cost = cost + (cfg.coast_cost_mm * np.maximum(sub.missed, 0))[:, None]
        # a blur (a detection whose kind is a guess) behind the middle of a moving disc's predicted
        # step is the streak it left, not the disc: it costs the distance it lies behind (carrom seed
        # 1008 at 120 fps: a blur behind where the striker was last seen was taken for it, and its own
        # sighting ahead started another track; seed 1007 at 60 fps: the streak a third of the way).
        # Not on a step that bounces off a cushion: the disc comes back the way it went; unless the
        # step is faster than the disc could have kept (a jump of its sightings, no path to come back
        # along: korona seed 1005 at 120 fps, a black at rest took a hand's shadow, came back to its
        # place, and its 7 m/s "bounce" off the cushion behind it took the shadow again).
        if guessed is not None:
            straight = ~at_rest & ~started
            if wall is not folded:
                kept = speed <= np.maximum(1.5 * sub.prev_speed, cfg.hit_speed_mm_s)
                straight &= (wall == folded).all(axis=1) | ~kept
            moving, blurs = straight.nonzero()[0], guessed.nonzero()[0]
            if moving.size:
                unit = sub.vel[moving] / speed[moving, None]
                # (a step that runs into another disc may end short of its middle, where it hit: then
                # behind where it was last seen; carrom seed 3007 at 60 fps, the striker breaking the pack)
                origin = np.where(self._blocked(sub, moving, pred)[:, None], sub.xy[moving],
                                  0.5 * (sub.xy[moving] + pred[moving]))
                ahead = ((z[blurs][None, :, :] - origin[:, None, :]) * unit[:, None, :]).sum(axis=2)
                cost[np.ix_(moving, blurs)] += np.maximum(-ahead, 0.0)
        kind, share = sub.kind, sub.share
        # the striker (one, told apart by its size, flies fastest) takes a detection anywhere in its
        # gate; so does a striker track seen only once before (standing, in the frame before it was
        # struck) if no confirmed striker is being followed (else it is a false detection)
        striker = (kind == _STRIKER) & (share >= cfg.kind_confidence)
        if (striker & sub.confirmed).any():
            striker &= sub.confirmed
        elif striker.any():
            striker &= sub.confirmed | self._sure(sub.votes, sub.hits)
        s_rows = striker.nonzero()[0]
        if s_rows.size and on_man is not None:
            # ... but not a man's misread away from where it is (its gate is wide and leaving it
            # unmatched costs the most: it took a white misread by the SW pocket from the white's
            # own track, 390 mm off; carrom seed 1033 at 30 fps)
            men = on_man.nonzero()[0]
            allowed[np.ix_(s_rows, men)] &= dist[np.ix_(s_rows, men)] <= cfg.base_gate_mm
        if s_rows.size:
            # ... if it is sure: a hand or a false detection is now and then taken for a striker (issue 4)
            unsure = (det_score < cfg.striker_revive_score)[None, :] & (cost[s_rows] > cfg.miss_cost_mm)
            unsure &= allowed[s_rows]  # (only an allowed pair can be disallowed)
            if unsure.any():
                # ... except straight ahead of a moving striker: its blur streak at 30 fps scores low
                unsure &= ~heading_cone(sub.xy[s_rows], sub.vel[s_rows], z, at_rest[s_rows])
                allowed[s_rows] &= ~unsure
        if s_rows.size and guessed is not None:
            cost = self._streaks_behind(cost, allowed, sub, s_rows[(at_rest | started)[s_rows]], z, det_kind, guessed)
        # (one cost of leaving any striker track unmatched, the largest: with each its own, the track
        # unseen longest, whose gate is widest, took the striker's detection from the one seen just now,
        # and two tracks on one striker took it in turn; seed 1003 at 30 fps, issue 4)
        s_miss = float(np.maximum(gate[s_rows], cfg.miss_cost_mm).max()) if s_rows.size else cfg.miss_cost_mm
        r, c = assign(cost, allowed, np.where(striker, s_miss, cfg.miss_cost_mm))
        # discs do not pass through each other: swap the detections of pairs whose paths would
        r_mm = self.radius_mm[kind[r]]
        p0, p1 = sub.xy.take(r, axis=0), z.take(c, axis=0)
        c = untangle(p0, p1, c, r_mm[:, None] + r_mm[None, :], allowed.take(r, axis=0))
        return live[r], c

    def _streaks_behind(self, cost: np.ndarray, allowed: np.ndarray, sub: Motion, rows: np.ndarray, z: np.ndarray,
                        det_kind: np.ndarray, guessed: np.ndarray) -> np.ndarray:
        """`cost` with the guessed detections on the way from where the striker stood (`rows` of
        `sub`: striker tracks at rest or just set off) to a sharp striker-sized detection it may
        take (`allowed`) costing more than that one's distance (by `base_gate_mm`): the streak it
        drew as it left, not the striker (carrom seed 1033 at 30 fps: the striker's blur 10 mm off
        its place taken for it, the striker itself 40 mm on starting a new track, and the shot's
        way read from the streak)."""
        blurs, sharp = guessed.nonzero()[0], (~guessed & (det_kind == _STRIKER)).nonzero()[0]
        if rows.size == 0 or blurs.size == 0 or sharp.size == 0:
            return cost
        # every track's way to every sharp one: (rows * sharp) segments
        a = np.repeat(sub.xy[rows], sharp.size, axis=0)
        b = np.tile(z[sharp], (rows.size, 1))
        on_way = point_segment_distance(z[blurs], a, b) < float(self.radius_mm.min())
        # (only to a sighting the track may take: one too doubtful to be the striker there leaves the
        # blur the striker's; carrom seed 1034 at 60 fps, the break)
        on_way &= allowed[np.ix_(rows, sharp)].reshape(-1, 1)
        beyond = np.hypot(*(b - a).T) + self.config.base_gate_mm
        floor = np.where(on_way, beyond[:, None], 0.0).reshape(rows.size, sharp.size, blurs.size)
        out = cost.copy()
        out[np.ix_(rows, blurs)] = np.maximum(out[np.ix_(rows, blurs)], floor.max(axis=1))
        return out

    def _blocked(self, sub: Motion, rows: np.ndarray, pred: np.ndarray) -> np.ndarray:
        """(K,) bool: tracks `rows` of `sub` whose step from their last sighting to `pred` (M, 2) passes
        within touching distance of another track's last sighting (it may have hit that disc)."""
        if len(sub.xy) < 2:
            return np.zeros(len(rows), bool)
        d = point_segment_distance(sub.xy, sub.xy[rows], pred[rows])  # (K, M)
        d[np.arange(len(rows)), rows] = np.inf
        touch = self.radius_mm[sub.kind[rows]][:, None] + self.radius_mm[sub.kind][None, :]
        return np.asarray((d <= touch).any(axis=1))

    def _fold(self, xy: np.ndarray, pred: np.ndarray, kind: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`fold_at_cushions` for tracks of `kind` (both `pred` without `half_mm`: board size unknown)."""
        if self.half_mm is None or len(xy) == 0:
            return pred, pred
        return fold_at_cushions(xy, pred, self._lim, kind, lim_min=self._lim_min)

    def _sure(self, votes: np.ndarray, hits: np.ndarray) -> np.ndarray:
        """(M,) bool: tracks (by their (M, 4) kind `votes` over `hits` sightings) seen surely, not only
        doubtfully: the mean score behind their kind is high (two doubtful sightings of a man under
        the fingers of a hand, read as a striker, are not one sure one; carrom seed 1045 at 30 fps:
        that track took the real striker's detection half a board away and started the shot early)."""
        return np.asarray(votes.max(axis=1) >= (self.config.striker_revive_score + 0.05) * np.maximum(hits, 1))

    def _hit_bound(self, xy: np.ndarray, speed: np.ndarray, dt: np.ndarray, floor: float) -> np.ndarray | None:
        """(M,) speed (mm/s) each track may reach by being hit by a faster disc close enough to reach it.

        Only hits that would raise a bound above `floor` (mm/s) are looked for (0 where there are none;
        None if there are none at all): the discs at rest, nearly all of them, hit nothing.
        """
        hitters = (1.2 * speed > floor).nonzero()[0]
        if len(xy) < 2 or hitters.size == 0:
            return None
        gap = point_distance(xy[hitters], xy)  # (M, K)
        # j reaches i within the interval if it is no farther than its travel plus two radii (and slack)
        reaches = gap <= (speed * dt)[hitters][None, :] + 2.0 * float(self.radius_mm.max()) + 10.0
        reaches[hitters, np.arange(hitters.size)] = False  # (a disc does not hit itself)
        return np.asarray(np.where(reaches, 1.2 * speed[hitters][None, :], 0.0).max(axis=1))

    def _jump(self, st: TrackArrays, z: np.ndarray, det_kind: np.ndarray, t: float,
              track_of_det: np.ndarray, det_score: np.ndarray,
              guessed: np.ndarray | None, on_men: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Dormant tracks taken up again: a disc out from under a hand near where it went, the striker anywhere;
        `on_men` (M,) bool: the men a misread detection lies on (see `misread_men`), taken up by it however
        long they were hidden."""
        cfg = self.config
        dormant = st.missed > cfg.coast_frames
        free_d = (track_of_det < 0).nonzero()[0]
        if free_d.size == 0 or not dormant.any():
            return np.zeros(0, np.intp), np.zeros(0, np.intp)
        dormant[track_of_det[track_of_det >= 0]] = False
        free_t = dormant.nonzero()[0]
        if free_t.size == 0:
            return np.zeros(0, np.intp), np.zeros(0, np.intp)
        confirmed = st.confirmed[free_t]
        if not confirmed.any():  # (only a confirmed track comes back)
            return np.zeros(0, np.intp), np.zeros(0, np.intp)
        xy, kind, share = st.xy[free_t], st.kind[free_t], st.share[free_t]
        dist = point_distance(z[free_d], xy)
        is_striker = (kind == _STRIKER) & (share >= cfg.kind_confidence) & confirmed
        if self.sinks_mm is not None and is_striker.any():
            # ... except one lost over a pocket's hole: it went in, or lies there (carrom seed 1008 at
            # 120 fps: the striker pocketed, and a hand's knuckle 1.2 s later, far off, taken for it)
            is_striker &= point_distance(self.sinks_mm, xy).min(axis=1) > self.hole_radius_mm
        # anywhere only for a sure detection: a hand or its shadow is now and then taken for a striker
        sure = (det_kind[free_d] == _STRIKER) & (det_score[free_d] >= cfg.striker_revive_score)
        # one striker: it may reappear anywhere, unless a striker is being followed now (then this track
        # is a double left behind, and a detection far off is a false one: seeds 1001, 1007 and 1008,
        # a dormant striker track taken up at a pocket that then "sank" the striker, issue 4)
        followed = striker_followed(st, track_of_det, coast_frames=cfg.coast_frames, confidence=cfg.kind_confidence)
        striker_pair = is_striker[:, None] & sure[None, :] & ~followed
        gate = np.where(striker_pair, np.inf, cfg.revive_gate_mm)
        guessed_d = None if guessed is None else guessed[free_d]
        # a striker-sized detection never takes up a coin's track, nor the reverse, however unsure the
        # track's kind (korona seed 2008 at 120 fps: a black's track, dormant for 4 s, taken up by a
        # striker-sized blur by the hand putting the striker down, then followed onto the striker; a
        # black by its votes, its stroke never started a shot); only a blur (its size a guess) may
        # take up a disc lost in flight a moment ago
        lately = t - st.last_t[free_t] <= _BLUR_REVIVE_S
        if on_men is not None:
            lately |= on_men[free_t]
        penalty, forbidden = self._kind_terms(kind, share, det_kind[free_d], guessed_d, by_size=True, blur_ok=lately)
        agree = ~forbidden & (penalty == 0.0)
        cost = dist + np.where(confirmed, 0.0, 50.0)[:, None]
        # a disc last seen running into a pocket is gone: a disc resting by that pocket is another one.
        # Running through the point of no return at all: had it skimmed the mouth it would have been seen
        # again while its track coasted (carrom seed 1007 at 60 fps: a white into the SE pocket 13 mm off
        # its centre, its track taken up 0.4 s later by a false detection by the pocket, the pocket
        # never called)
        vel = st.vel[free_t]
        running = np.hypot(vel[:, 0], vel[:, 1]) >= cfg.rest_speed_mm_s
        sunk = self._sunk(xy, xy + vel * np.minimum(t - st.last_t[free_t], 0.2)[:, None],
                          radius_mm=np.where(running, self.sink_radius_mm, self.sink_radius_mm - _WELL_INSIDE_MM))
        ok = (dist <= gate) & agree & (confirmed & ~sunk)[:, None]
        if not ok.any():
            return np.zeros(0, np.intp), np.zeros(0, np.intp)
        r, c = assign(cost, ok, np.full(free_t.size, 1e6))
        return free_t[r], free_d[c]

    def _rebound(self, st: TrackArrays, z: np.ndarray, det_kind: np.ndarray, t: float,
                 track_of_det: np.ndarray, guessed: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
        """Fast discs that went unmatched, heading into a cushion, paired with the sightings nobody
        took within their reach (each the other's nearest).

        A disc bouncing off a cushion between two frames is seen far from its straight prediction,
        and its velocity, measured across the bounce, points the wrong way: the step costs more
        than leaving the track unmatched, and every sighting after starts a track of its own
        (carrom seed 1033 at 30 fps: a white at 4.4 m/s off the E cushion, in three new tracks
        one after another, the last gone over the N cushion before it counted as a disc, and no
        "off the board")."""
        cfg = self.config
        empty = np.zeros(0, np.intp), np.zeros(0, np.intp)
        free_d = (track_of_det < 0).nonzero()[0]
        if free_d.size == 0 or len(st) == 0:
            return empty
        speed = np.hypot(st.vel[:, 0], st.vel[:, 1])
        fast = np.maximum(speed, st.prev_speed)
        cand = st.confirmed & (st.missed == 0) & (fast >= _REBOUND_MM_S)
        cand[track_of_det[track_of_det >= 0]] = False
        rows = cand.nonzero()[0]
        if rows.size == 0:
            return empty
        dt = t - st.last_t[rows]
        # ... on a path: seen in each of the last three frames, that fast over the two steps between
        # (a track whose sightings jumped out and back has no path to bounce along)
        k = st.hist.shape[1]
        last3 = st.hist[rows][:, [(self._head - j) % k for j in (1, 2, 3)]]  # (R, 3, 2), newest first
        steps = np.hypot(*np.diff(last3, axis=1).transpose(2, 0, 1)).sum(axis=1)  # (NaN: not seen)
        on_path = steps >= _REBOUND_MM_S * 2.0 * dt
        rows, dt = rows[on_path], dt[on_path]
        if rows.size == 0:
            return empty
        unit = st.vel[rows] / np.maximum(speed[rows], 1e-9)[:, None]
        reach = cfg.base_gate_mm + 1.5 * fast[rows] * dt
        wall, folded = self._fold(st.xy[rows], st.xy[rows] + unit * reach[:, None], st.kind[rows])
        bounces = np.any(wall != folded, axis=1) if wall is not folded else np.zeros(rows.size, bool)
        bounces &= ~self._sunk(st.xy[rows], wall)
        rows, reach = rows[bounces], reach[bounces]
        if rows.size == 0:
            return empty
        dist = point_distance(z[free_d], st.xy[rows])  # (R, F)
        _, forbidden = self._kind_terms(st.kind[rows], st.share[rows], det_kind[free_d],
                                        None if guessed is None else guessed[free_d], by_size=True)
        ok = (dist <= reach[:, None]) & ~forbidden
        # (not a disc seen again where it lay at rest)
        resting = speed < cfg.rest_speed_mm_s
        if resting.any():
            again = np.asarray((point_distance(z[free_d], st.xy[resting]) <= cfg.base_gate_mm).any(axis=0))
            ok &= ~again[None, :]
        if not ok.any():
            return empty
        cost = np.where(ok, dist, np.inf)
        best_d, best_t = cost.argmin(axis=1), cost.argmin(axis=0)
        r = np.flatnonzero(np.isfinite(cost.min(axis=1)))
        r = r[best_t[best_d[r]] == r]
        return rows[r], free_d[best_d[r]]

    def _sunk(self, xy: np.ndarray, pred: np.ndarray, radius_mm: np.ndarray | None = None) -> np.ndarray:
        """(M,) bool: tracks whose path from `xy` to `pred` runs well inside a point of no return (or
        within `radius_mm` (M,) of a pocket's centre)."""
        out = np.zeros(len(xy), bool)
        if self.sinks_mm is None or len(xy) == 0:
            return out
        r = np.full(len(xy), self.sink_radius_mm - _WELL_INSIDE_MM) if radius_mm is None else radius_mm
        # only a path that reaches that close to a pocket in both x and y can (|x| is largest at an
        # end of a segment; 1 mm spare for rounding): most paths are nowhere near a pocket
        reach = float(np.abs(self.sinks_mm).min()) - float(r.max()) - 1.0
        ends = np.maximum(np.abs(xy), np.abs(pred))
        rows = (np.minimum(ends[:, 0], ends[:, 1]) >= reach).nonzero()[0]
        if rows.size:
            d = point_segment_distance(self.sinks_mm, xy[rows], pred[rows])
            out[rows] = d.min(axis=1) <= r[rows]
        return out

    def _grazed(self, sunk: np.ndarray, seg: np.ndarray, z: np.ndarray) -> np.ndarray:
        """(M, N) bool: detections that continue a track predicted into a pocket (`sunk` (M,), seen
        in the last frame): on its predicted step (`seg` (M, N) distances, mm) and short of every
        point of no return. Such a disc skimmed the pocket's mouth and rolled on (carrom seed 1002
        at 120 fps: a white bounced off the corner was taken for another disc, and its track stayed
        at the mouth, listed at rest there after the shot)."""
        assert self.sinks_mm is not None
        short = np.asarray(np.all(point_distance(z, self.sinks_mm) > self.sink_radius_mm, axis=0))
        return np.asarray(sunk[:, None] & (seg <= self.config.base_gate_mm) & short[None, :])

    # -- state update ----------------------------------------------------------------------------

    def _observe(self, st: TrackArrays, z: np.ndarray, dets: FrameDetections, t: float,
                 track_of_det: np.ndarray, guessed: np.ndarray | None,
                 men: tuple[np.ndarray, np.ndarray] | None = None) -> TrackArrays:
        """Take the matched detections into their tracks; `men`: the detections that are a man
        standing there, his size misread, and those men (see `misread_men`).

        A man taken up by his misread stays where he stands: fitted at the striker's size, the
        centre is drawn a few mm off (to one side of his rim), and the step would set him moving
        and end his standing there, so that he no longer held his misreads (carrom seed 1033 at 30
        fps: a white by the SW pocket, then taken for the striker)."""
        # (the working state is private: written in place; snapshots and selections are copies)
        cfg = self.config
        matched = track_of_det >= 0
        cols = matched.nonzero()[0]
        rows = track_of_det[cols]
        if men is not None and cols.size:
            stays = men[0][cols] & men[1][rows]
            if stays.any():
                z = z.copy()
                z[cols[stays]] = st.xy[rows[stays]]
        seen = np.zeros(len(st), bool)
        seen[rows] = True
        # (`take` along axis 0: the rows of a 2-D array, without fancy indexing's overhead)
        z_rows, xy_rows, vel_rows = z.take(cols, axis=0), st.xy.take(rows, axis=0), st.vel.take(rows, axis=0)
        st.prev_speed[rows] = np.hypot(vel_rows[:, 0], vel_rows[:, 1])
        dt = np.maximum(t - st.last_t[rows], 1e-6)
        step_v = (z_rows - xy_rows) / dt[:, None]
        continuing = st.missed[rows] <= cfg.coast_frames  # (one taken up again starts from rest)
        if continuing.all():
            st.vel[rows] = step_v
        else:
            st.vel[rows] = np.where(continuing[:, None], step_v, 0.0)
            st.since[rows] = np.where(continuing, st.since[rows], t)
        st.xy[rows] = z_rows
        # (each track takes one detection at most: the rows are distinct, a plain indexed add is np.add.at)
        voting = None if guessed is None else ~guessed[cols]
        v_cols, v_rows = (cols, rows) if voting is None else (cols[voting], rows[voting])
        # how long its own kind's sightings have found it standing (a guess found where it stood adds nothing)
        stayed = np.hypot(z_rows[:, 0] - xy_rows[:, 0], z_rows[:, 1] - xy_rows[:, 1]) <= STILL_STEP_MM
        st.stood[rows] = np.where(stayed, st.stood[rows] + (dt if voting is None else np.where(voting, dt, 0.0)), 0.0)
        st.voted_t[v_rows] = t
        det_kind = dets.kind[v_cols].astype(np.intp)  # (no kind votes from a guess)
        weight = dets.score[v_cols].astype(np.float64) + 0.05
        st.votes[v_rows, det_kind] += weight
        st.recent[v_rows] *= _RECENT_KEEP
        st.recent[v_rows, det_kind] += weight
        st.hits += seen
        st.hist[:, self._head] = np.where(seen[:, None], st.xy, np.nan)
        st.last_t[rows] = t
        if v_rows.size:
            st.refresh_kinds()
        st.missed += 1
        st.missed[rows] = 0
        st.confirmed |= st.hits >= cfg.confirm_hits
        return st

    def _drop_streaks(self, st: TrackArrays, z: np.ndarray, track_of_det: np.ndarray,
                      blurred: np.ndarray) -> np.ndarray:
        """`track_of_det` without the blurred detections taken up by a track at rest well away from
        it that lie on the step another track has just taken to a sharp detection: the streak or
        after-image that disc left behind it, not the one at rest set off (korona seed 1043 at 60
        fps: a white standing in the S row took the striker's after-image 66 mm off, as the striker
        ran into the row, and was followed to a pocket it never went into)."""
        taken = np.flatnonzero((track_of_det >= 0) & blurred)
        rows = track_of_det[taken]
        cfg = self.config
        still = np.hypot(st.vel[rows, 0], st.vel[rows, 1]) < cfg.rest_speed_mm_s
        away = np.hypot(*(z[taken] - st.xy[rows]).T) > cfg.base_gate_mm
        taken, rows = taken[still & away], rows[still & away]
        sharp = np.flatnonzero((track_of_det >= 0) & ~blurred)
        if taken.size == 0 or sharp.size == 0:
            return track_of_det
        movers = track_of_det[sharp]
        r_min = float(self.radius_mm.min())
        # (M_sharp, N_taken): each blur against every other track's step from its last sighting to now
        gap = point_segment_distance(z[taken], st.xy[movers], z[sharp])
        gap[movers[:, None] == rows[None, :]] = np.inf
        streak = (gap < r_min).any(axis=0)
        if not streak.any():
            return track_of_det
        out = track_of_det.copy()
        out[taken[streak]] = -1
        return out

    def _spawn(self, st: TrackArrays, z: np.ndarray, dets: FrameDetections, t: float, track_of_det: np.ndarray,
               misread: np.ndarray | None, blurred: np.ndarray) -> tuple[TrackArrays, np.ndarray]:
        """Tentative tracks for the detections no track took, but the `misread` ones ((N,) bool or None)
        and those `blurred` ((N,) bool) on a disc's last step."""
        free = ((track_of_det < 0) if misread is None else (track_of_det < 0) & ~misread).nonzero()[0]
        live = st.missed == 0
        if free.size and live.any():
            # a second detection of a disc that is already tracked (blur, double ring) is not a new disc
            r_min = self.radius_mm.min()
            keep = (point_distance(st.xy[live], z[free]) >= r_min).all(axis=1)
            # ... nor is a blur on the step a disc seen now has just taken: the streak it left behind
            # (korona seed 1033 at 30 fps: the striker's streak, read as a white's, followed to the S
            # rail and called off over it)
            streak = blurred[free]
            if streak.any():
                prev = st.hist[live, (self._head - 1) % self.config.history]
                prev = np.where(np.isfinite(prev), prev, st.xy[live])
                keep[streak] &= (point_segment_distance(z[free[streak]], prev, st.xy[live]) >= r_min).all(axis=0)
            free = free[keep]
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
            hist=hist, kind=kind, share=share, recent=votes.copy(), prev_speed=np.zeros(n), since=np.full(n, t),
            stood=np.zeros(n), voted_t=np.full(n, t),
        )
        self._next_id += n
        out = track_of_det.copy()
        out[free] = len(st) + np.arange(n)
        return st.append(born), out

    def _prune(self, st: TrackArrays) -> TrackArrays:
        cfg = self.config
        keep = st.confirmed | (st.missed < cfg.drop_tentative_after)
        if not keep.all():  # (the rest only ever keeps more)
            # a track seen twice in a row and moving is a disc in flight: at 30 fps a fast one is missed
            # every third frame or so (blur), and dropping its track would start a new one each time
            moving = np.hypot(st.vel[:, 0], st.vel[:, 1]) >= cfg.rest_speed_mm_s
            keep |= (st.hits >= 2) & moving & (st.missed <= cfg.coast_frames)
            # the striker seen standing once, then struck (blurred out for a frame or two at 30 fps)
            striker = st.kind == _STRIKER
            if striker.any():
                keep |= striker & self._sure(st.votes, st.hits) & (st.missed <= cfg.coast_frames)
        # one striker: a striker track not seen where a striker track was seen is a double of it
        keep &= ~striker_doubles(st, float(self.radius_mm[_STRIKER]), confidence=cfg.kind_confidence)
        if len(st) <= cfg.max_dormant:  # (never more dormant tracks than tracks)
            return st if keep.all() else st.select(keep)
        dormant = np.flatnonzero(keep & (st.missed > cfg.coast_frames))
        if dormant.size > cfg.max_dormant:
            oldest = dormant[np.argsort(st.last_t[dormant])[: dormant.size - cfg.max_dormant]]
            keep[oldest] = False
        return st if keep.all() else st.select(keep)

    def _snapshot(self, st: TrackArrays, det_ids: np.ndarray, t: float) -> Tracks:
        self._hist_t[self._head] = t
        order = self._order[self._head]  # ring -> oldest first (`take`: the same copy as hist[:, order], faster)
        return Tracks(
            ids=st.ids.copy(), kind=st.kind.copy(), kind_share=st.share.copy(),
            recent_kind=np.argmax(st.recent, axis=1).astype(np.int8), xy_mm=st.xy.copy(),
            vel_mm_s=st.vel.copy(), seen=st.missed == 0, missed=st.missed.copy(), last_t_s=st.last_t.copy(),
            confirmed=st.confirmed.copy(), seen_since_s=st.since.copy(), hist_xy_mm=st.hist.take(order, axis=1),
            hist_t_s=self._hist_t[order], det_track_id=det_ids, t_s=t, frame_idx=self._frame,
        )
