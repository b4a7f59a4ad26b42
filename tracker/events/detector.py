"""`EventDetector`: turns the tracker's tracks, frame by frame, into game events.

Per frame, a flat sequence:
1. motion facts of every track from its history (vectorised);
2. losses: discs seen inside a pocket's point of no return, and discs that vanished, decided
   from their last motion (pocket, off the board, or hidden: no event);
3. contacts: tracks whose velocity changed, explained by the earliest disc or cushion their
   straight-line path met within the frame interval;
4. the shot state machine: start when the striker leaves its place, end when everything has been
   at rest for `EventConfig.rest_s`;
5. placements: discs that appear on the board between shots (put back by hand).

Decisions about the past carry the time they happened (a pocketing is dated at the crossing
of the point of no return, interpolated), so events can be emitted a few frames late; the
`Pipeline` re-orders them before handing them out.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tracker.errors import ConfigError
from tracker.events import factory
from tracker.events._contacts import Contact, explain_kick, find_kicks
from tracker.events._losses import Loss, classify_losses, pocket_crossing_now
from tracker.events._motion import Motion, compute_motion
from tracker.events._shot import ShotSummary, side_of, summarise_shot
from tracker.events._start import estimate_start_time, straight_prefix
from tracker.events.types import GameEvent
from tracker.specs import CORNERS, BoardSpec, DiscKind, EquipmentSpec
from tracker.track import Tracks

__all__ = ["EventConfig", "EventDetector", "EventUpdate"]

OcclusionTest = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True, slots=True)
class EventConfig:
    """Event detection tuning. Lengths in mm, speeds in mm/s, times in s.

    Attributes:
        rest_s: a shot ends once every disc has been at rest this long.
        rest_disp_mm: a disc that moved less than this over `motion_window_s` is at rest.
        motion_window_s: time over which rest is judged (longer = less noise).
        start_speed_mm_s: the striker leaving its place faster than this starts a shot.
        start_disp_mm: ... and at least this far.
        assumed_strike_speed_mm_s: striker speed assumed when the shot is first seen in the discs it hit.
        kick_abs_mm_s: smallest change of velocity that is looked at as a possible contact.
        kick_rel: a change must also exceed this fraction of the speed.
        noise_mm: position noise of detections.
        contact_tol_mm: extra reach when matching paths to a contact.
        contact_slack: fraction of a frame interval by which a contact may fall outside it.
        contact_dedupe_s: the same pair touching again within this time is the same contact.
        loss_wait_frames: frames a disc must stay unseen before its loss is decided.
        loss_wait_s: ... and at least this long.
        loss_horizon_s: how far past its last observation a vanished disc's path is followed.
        pocket_reach_mm: a slow disc last seen this close to a point of no return and moving into it is pocketed.
        min_loss_speed_mm_s: a disc slower than this when it vanished was covered, not lost.
        min_off_speed_mm_s: smallest speed towards a cushion with which a disc can leave the board.
        occluded_wait_s: a disc that vanished under a hand is decided only after this long.
        placed_min_hits: observations before a new disc is announced as placed.
        init_s: discs first seen within this time of the first frame were there from the start.
    """

    rest_s: float = 0.3
    rest_disp_mm: float = 4.0
    motion_window_s: float = 0.15
    start_speed_mm_s: float = 350.0
    start_disp_mm: float = 3.0
    assumed_strike_speed_mm_s: float = 5000.0
    kick_abs_mm_s: float = 120.0
    kick_rel: float = 0.1
    noise_mm: float = 0.7
    contact_tol_mm: float = 5.0
    contact_slack: float = 0.35
    contact_dedupe_s: float = 0.06
    loss_wait_frames: int = 3
    loss_wait_s: float = 0.06
    loss_horizon_s: float = 0.05
    pocket_reach_mm: float = 25.0
    min_loss_speed_mm_s: float = 60.0
    min_off_speed_mm_s: float = 1200.0
    occluded_wait_s: float = 1.0
    placed_min_hits: int = 6
    init_s: float = 0.5

    def __post_init__(self) -> None:
        for name in ("rest_s", "rest_disp_mm", "motion_window_s", "start_speed_mm_s", "kick_abs_mm_s",
                     "noise_mm", "loss_wait_s", "loss_horizon_s", "min_off_speed_mm_s", "init_s"):
            value = getattr(self, name)
            if not 0.0 < value < 1e5:
                raise ConfigError(f"EventConfig.{name}={value} outside (0, 1e5)")
        if self.loss_wait_frames < 1 or self.placed_min_hits < 1:
            raise ConfigError("EventConfig.loss_wait_frames and placed_min_hits must be >= 1")


@dataclass(frozen=True, slots=True)
class EventUpdate:
    """What one frame produced: new events (any order) and track ids that left the board."""

    events: tuple[GameEvent, ...]
    remove: tuple[int, ...]


@dataclass
class _ShotState:
    number: int = 0
    active: bool = False
    start_xy: tuple[float, float] = (0.0, 0.0)
    contacts: list[GameEvent] = field(default_factory=list)
    losses: list[GameEvent] = field(default_factory=list)
    rest_since: float | None = None
    pending: tuple[int, float, np.ndarray | None, float] | None = None
    before: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class EventDetector:
    """Stateful event detection for one board.

    Args:
        board: board geometry.
        equipment: disc sizes.
        config: tuning.
    """

    board: BoardSpec
    equipment: EquipmentSpec
    config: EventConfig = field(default_factory=EventConfig)
    _confirm_hits: int = 3
    _shot: _ShotState = field(init=False, repr=False)
    _gone: set[int] = field(init=False, repr=False)
    _hidden: set[int] = field(init=False, repr=False)
    _known: set[int] = field(init=False, repr=False)
    _pair_t: dict[tuple[int, ...], float] = field(init=False, repr=False)
    _frames: deque[tuple[float, int]] = field(init=False, repr=False)
    _t0: float | None = field(init=False, repr=False)
    _last_rest: list[dict[str, Any]] = field(init=False, repr=False)
    _early: list[GameEvent] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Forget everything (a new board, a new video)."""
        self._shot = _ShotState()
        self._gone, self._hidden, self._known = set(), set(), set()
        self._pair_t = {}
        self._frames = deque(maxlen=256)
        self._t0 = None
        self._last_rest = []
        self._early = []

    # -- the per-frame sequence ------------------------------------------------------------------

    def update(self, tracks: Tracks, *, is_occluded: OcclusionTest | None = None) -> EventUpdate:
        """Take in one frame's tracks.

        Args:
            tracks: the tracker's output for this frame.
            is_occluded: maps (N, 2) board mm to (N,) bool, True where a hand or arm hides the board.

        Returns:
            Events decided in this frame (dated when they happened) and ids that left the board.
        """
        t = tracks.t_s
        self._frames.append((t, tracks.frame_idx))
        if self._t0 is None:
            self._t0 = t
        occluded = is_occluded or (lambda xy: np.zeros(len(xy), bool))
        # 1. motion of every track, and which tracks are discs on the board
        motion = compute_motion(tracks.hist_xy_mm, tracks.hist_t_s, window_s=self.config.motion_window_s)
        on_board = tracks.confirmed & ~np.isin(tracks.ids, list(self._gone))
        radius = self.equipment.radii_mm(tracks.kind).astype(np.float64)
        self._hidden -= set(tracks.ids[tracks.seen].tolist())
        events: list[GameEvent] = []
        # 2. losses: into a pocket, off the board (only during a shot; hands never pocket anything)
        losses = self._losses(tracks, motion, on_board, radius, occluded) if self._shot.active else []
        for loss in losses:
            events.append(self._loss_event(tracks, loss))
        gone_now = [int(tracks.ids[loss.row]) for loss in losses]
        self._gone.update(gone_now)
        on_board &= ~np.isin(tracks.ids, gone_now)
        # 3. contacts
        if self._shot.active:
            events += self._contacts(tracks, motion, on_board, radius)
        # 4. shot start and end
        events += self._shot_boundaries(tracks, motion, on_board)
        # 5. discs put on the board by hand
        events += self._placements(tracks, on_board)
        return EventUpdate(tuple(events), tuple(gone_now))

    def finish(self) -> tuple[GameEvent, ...]:
        """End of the video: close an open shot (with the positions last seen)."""
        if not self._shot.active or not self._frames:
            return ()
        t, frame = self._frames[-1]
        return (self._end_shot(t, frame, self._last_rest),)

    # -- helpers ---------------------------------------------------------------------------------

    def frame_at(self, t_s: float) -> int:
        """The first recent frame at or after `t_s` (the latest frame if none)."""
        for t, f in self._frames:
            if t >= t_s - 1e-9:
                return f
        return self._frames[-1][1]

    def _ref(self, tracks: Tracks, row: int) -> dict[str, Any]:
        return factory.disc_ref(int(tracks.ids[row]), int(tracks.kind[row]))

    def _losses(self, tracks: Tracks, motion: Motion, on_board: np.ndarray, radius: np.ndarray,
                occluded: OcclusionTest) -> list[Loss]:
        cfg, t = self.config, tracks.t_s
        out: list[Loss] = []
        # seen inside the point of no return: pocketed now, dated at the crossing
        seen = on_board & tracks.seen
        inside, pocket, t_cross = pocket_crossing_now(motion.p[:, 1], motion.t[:, 1], motion.p[:, 0], t, self.board)
        for row in np.flatnonzero(seen & inside):
            out.append(Loss(int(row), CORNERS[int(pocket[row])], None, float(t_cross[row])))
        # vanished: wait a little (a missed detection is not a loss), then decide once
        waited = (tracks.missed >= cfg.loss_wait_frames) & (t - tracks.last_t_s >= cfg.loss_wait_s)
        undecided = on_board & waited & ~np.isin(tracks.ids, list(self._hidden))
        rows = np.flatnonzero(undecided)
        if rows.size == 0:
            return out
        v = motion.v_new[rows]
        # moving, and seen moving in consecutive frames (one stray detection does not make a path)
        recent = motion.t[rows, 0] - motion.t[rows, 1] <= 3.5 * self._frame_dt() + 1e-6
        fast = (np.hypot(*v.T) >= cfg.min_loss_speed_mm_s) & recent
        covered = occluded(tracks.xy_mm[rows]) & (t - tracks.last_t_s[rows] < cfg.occluded_wait_s)
        decide = rows[fast & ~covered]
        found = classify_losses(decide, tracks.xy_mm[decide], motion.v_new[decide], tracks.last_t_s[decide], t,
                                radius[decide], self.board, horizon_s=cfg.loss_horizon_s,
                                reach_mm=cfg.pocket_reach_mm, min_off_speed_mm_s=cfg.min_off_speed_mm_s)
        lost_rows = {loss.row for loss in found}
        self._hidden.update(int(tracks.ids[r]) for r in rows[~fast | ~covered] if int(r) not in lost_rows)
        return out + found

    def _loss_event(self, tracks: Tracks, loss: Loss) -> GameEvent:
        t = min(max(loss.t_s, self._frames[0][0]), tracks.t_s)
        ref, shot = self._ref(tracks, loss.row), self._shot.number
        if loss.pocket is not None:
            ev = factory.pocketed(t, self.frame_at(t), shot=shot, disc=ref, pocket=loss.pocket)
        else:
            ev = factory.off_board(t, self.frame_at(t), shot=shot, disc=ref, side=loss.side)
        self._shot.losses.append(ev)
        return ev

    def _contacts(self, tracks: Tracks, motion: Motion, on_board: np.ndarray, radius: np.ndarray) -> list[GameEvent]:
        cfg = self.config
        seen = tracks.seen & on_board
        kicked_rows = find_kicks(motion, seen, abs_mm_s=cfg.kick_abs_mm_s, rel=cfg.kick_rel, noise_mm=cfg.noise_mm)
        kicked = np.zeros(len(tracks), bool)
        kicked[kicked_rows] = True
        out: list[GameEvent] = []
        for j in kicked_rows:  # only the few discs whose motion changed in this frame
            c = explain_kick(int(j), motion, tracks.seen, kicked, on_board, radius, self.board.half_mm,
                             tol_mm=cfg.contact_tol_mm, slack=cfg.contact_slack)
            if c is None:
                c = self._hidden_striker_hit(tracks, motion, int(j))
            if c is None:
                continue
            ev = self._contact_event(tracks, motion, c.a, c.b, c.side, c.t_s)
            if ev is not None:
                out.append(ev)
        self._shot.contacts.extend(out)
        return out

    def _hidden_striker_hit(self, tracks: Tracks, motion: Motion, j: int) -> Contact | None:
        """A disc at rest hit by nothing visible before the striker's first contact: the unseen striker hit it."""
        if any(ev.payload["a"].get("kind") == "striker" for ev in self._shot.contacts):
            return None
        striker = np.flatnonzero(tracks.confirmed & (tracks.kind == DiscKind.STRIKER))
        if striker.size == 0 or tracks.seen[striker[0]] or tracks.kind[j] == DiscKind.STRIKER:
            return None
        if np.hypot(*motion.v_old[j]) > self.config.start_speed_mm_s:
            return None
        speed = max(float(np.hypot(*motion.v_new[j])), 1.0)
        t_dep = float(motion.t[j, 0]) - float(np.hypot(*(motion.p[j, 0] - motion.p[j, 1]))) / speed
        return Contact(int(striker[0]), j, None, max(t_dep, float(motion.t[j, 1])))

    def _contact_event(self, tracks: Tracks, motion: Motion, a: int, b: int, side: str | None,
                       t_s: float) -> GameEvent | None:
        ids = (int(tracks.ids[a]),) if b < 0 else tuple(sorted((int(tracks.ids[a]), int(tracks.ids[b]))))
        key = ids + ((side,) if side else ())  # type: ignore[operator]
        last = self._pair_t.get(key)
        if last is not None and abs(t_s - last) < self.config.contact_dedupe_s:
            return None
        self._pair_t[key] = t_s
        t_s = max(t_s, self._frames[0][0])
        shot = self._shot.number
        if b < 0:
            assert side is not None
            return factory.contact_cushion(t_s, self.frame_at(t_s), shot=shot, a=self._ref(tracks, a), side=side)
        # `a` is the striker when it takes part, else the disc that was moving faster before the contact
        sa, sb = (np.hypot(*motion.v_old[r]) for r in (a, b))
        striker_b = tracks.kind[b] == DiscKind.STRIKER and tracks.kind[a] != DiscKind.STRIKER
        if striker_b or (tracks.kind[a] != DiscKind.STRIKER and sb > sa):
            a, b = b, a
        return factory.contact_discs(t_s, self.frame_at(t_s), shot=shot, a=self._ref(tracks, a), b=self._ref(tracks, b))

    def _rest_list(self, tracks: Tracks, on_board: np.ndarray) -> list[dict[str, Any]]:
        rows = np.flatnonzero(on_board)
        return [{**self._ref(tracks, int(r)), "x_mm": round(float(tracks.xy_mm[r, 0]), 1),
                 "y_mm": round(float(tracks.xy_mm[r, 1]), 1)} for r in rows[np.argsort(tracks.ids[rows])]]

    def _shot_boundaries(self, tracks: Tracks, motion: Motion, on_board: np.ndarray) -> list[GameEvent]:
        cfg, sh, t = self.config, self._shot, tracks.t_s
        if not sh.active:
            if not self._begin_shot(tracks, motion, on_board):
                self._last_rest = self._rest_list(tracks, on_board)
                return []
        out = self._dated_start(tracks) if sh.pending is not None else []
        out, self._early = self._early + out, []
        moving = on_board & tracks.seen & (motion.disp_window > cfg.rest_disp_mm)
        if moving.any() or sh.pending is not None:
            sh.rest_since = None
            return out
        sh.rest_since = t if sh.rest_since is None else sh.rest_since
        self._last_rest = self._rest_list(tracks, on_board)
        if t - sh.rest_since < cfg.rest_s - 1e-6:
            return out
        return out + [self._end_shot(t, tracks.frame_idx, self._last_rest)]

    def _begin_shot(self, tracks: Tracks, motion: Motion, on_board: np.ndarray) -> bool:
        """Start a shot if the striker just left its place; its start time is dated a few frames later."""
        cfg, sh = self.config, self._shot
        striker = on_board & tracks.seen & (tracks.kind == DiscKind.STRIKER)
        speed = np.hypot(*motion.v_new.T)
        disp = np.hypot(*(motion.p[:, 0] - motion.p[:, 1]).T)
        gap = np.nan_to_num(motion.t[:, 1] - motion.t[:, 2], nan=np.inf)
        n_obs = np.isfinite(tracks.hist_xy_mm[:, :, 0]).sum(axis=1)
        new = n_obs <= self._confirm_hits + 1  # first seen already moving (lost in the blur at the start)
        still_before = np.hypot(*motion.v_old.T) < cfg.start_speed_mm_s
        # still before, or not seen just before (it comes out from under the flicking hand)
        was_still = still_before | (gap > cfg.motion_window_s) | new
        frame_dt = self._frame_dt()
        consecutive = motion.t[:, 0] - motion.t[:, 1] <= 3.5 * frame_dt + 1e-6
        fast = (speed > cfg.start_speed_mm_s) & (disp > cfg.start_disp_mm) & consecutive
        go = np.flatnonzero(striker & fast & was_still)
        standing = still_before & ~new & (motion.t[:, 0] - motion.t[:, 1] <= 1.5 * frame_dt + 1e-6)
        if go.size == 0:
            # the striker is still hidden or blurred away, but discs standing still were hit
            hit = np.flatnonzero(on_board & tracks.seen & (tracks.kind != DiscKind.STRIKER) & fast & standing)
            return bool(hit.size) and self._begin_from_hit(tracks, motion, hit, speed)
        row = int(go[0])
        t0, t1 = float(motion.t[row, 0]), float(motion.t[row, 1])
        seen_standing = bool(standing[row])
        if seen_standing:
            rest, t_first, earliest = motion.p[row, 1].copy(), t0, t1
        else:
            t_first = t1 if np.isfinite(t1) and t0 - t1 <= 1.5 * frame_dt + 1e-6 else t0
            rest, earliest = None, t_first - 0.5
        sh.number += 1
        sh.active, sh.contacts, sh.losses, sh.rest_since = True, [], [], None
        sh.pending = (int(tracks.ids[row]), t_first, rest, earliest)
        first_xy = rest if rest is not None else motion.p[row, 1] if t_first == t1 else motion.p[row, 0]
        sh.start_xy = (float(first_xy[0]), float(first_xy[1]))
        sh.before = self._last_rest
        return True

    def _begin_from_hit(self, tracks: Tracks, motion: Motion, rows: np.ndarray, speed: np.ndarray) -> bool:
        """Start a shot from the first disc that was hit while the striker was unseen.

        The start is dated back from the moment that disc left its place by the time an average
        strike (`EventConfig.assumed_strike_speed_mm_s`) takes from the placement line to it.
        """
        cfg, sh = self.config, self._shot
        moved = np.hypot(*(motion.p[rows, 0] - motion.p[rows, 1]).T)
        t_dep = motion.t[rows, 0] - moved / np.maximum(speed[rows], 1.0)
        k = int(np.argmin(t_dep))
        row = int(rows[k])
        v = motion.v_new[row]
        side = side_of((float(-v[0]), float(-v[1])))  # the striker came from where the disc did not go
        axis = 1 if side in ("N", "S") else 0
        line = self._placement_line_mm() * (1.0 if side in ("S", "E") else -1.0)
        reach = self.equipment.striker_diameter_mm / 2 + self.equipment.radius_mm(DiscKind(int(tracks.kind[row])))
        travel = max(abs(line - float(motion.p[row, 1, axis])) - reach, 0.0) / cfg.assumed_strike_speed_mm_s
        t_start = max(float(t_dep[k]) - travel, self._frames[0][0])
        sh.number += 1
        sh.active, sh.contacts, sh.losses, sh.rest_since, sh.pending = True, [], [], None, None
        start = [0.0, 0.0]
        start[axis] = line
        sh.start_xy = (start[0], start[1])
        sh.before = self._last_rest
        striker = np.flatnonzero(tracks.confirmed & (tracks.kind == DiscKind.STRIKER))
        ref = self._ref(tracks, int(striker[0])) if striker.size else None
        self._early.append(factory.shot_start(t_start, self.frame_at(t_start), shot=sh.number, striker=ref))
        return True

    def _dated_start(self, tracks: Tracks) -> list[GameEvent]:
        """Emit the pending shot_start once enough of the striker's run has been seen."""
        sh = self._shot
        assert sh.pending is not None
        track_id, t_first, rest, earliest = sh.pending
        row = tracks.index_of(track_id)
        times = tracks.hist_t_s
        obs = np.flatnonzero((times >= t_first - 1e-9) & np.isfinite(tracks.hist_xy_mm[row, :, 0])) if row >= 0 else []
        enough = len(obs) >= 4 or tracks.t_s - t_first >= 0.07 or row < 0 or not tracks.seen[row]
        if not enough:
            return []
        sh.pending = None
        run_ok = len(obs) >= 2 and straight_prefix(times[obs], tracks.hist_xy_mm[row, obs]) >= 3
        still_going = row >= 0 and tracks.seen[row] and float(np.hypot(*tracks.vel_mm_s[row])) > self.config.start_speed_mm_s
        if len(obs) < 2 or not (run_ok or still_going or sh.contacts or sh.losses):
            # a jump of the striker track (a false detection, a hand) rather than a shot
            sh.number -= 1
            sh.active = False
            return []
        if len(obs) >= 2:
            t0, side = estimate_start_time(times[obs], tracks.hist_xy_mm[row, obs], rest_xy_mm=rest,
                                           line_mm=self._placement_line_mm(), extent_mm=self._placement_extent_mm(),
                                           earliest_s=max(earliest, self._frames[0][0]))
            if side is not None:
                sh.start_xy = _point_on_side(side, self._placement_line_mm())
        else:
            t0 = t_first
        ref = self._ref(tracks, row) if row >= 0 else None
        return [factory.shot_start(t0, self.frame_at(t0), shot=sh.number, striker=ref)]

    def _frame_dt(self) -> float:
        if len(self._frames) < 2:
            return 0.0
        times = np.asarray([f[0] for f in list(self._frames)[-4:]])
        return float(np.min(np.diff(times)))

    def _placement_extent_mm(self) -> float:
        """Half the length of a placement line, mm."""
        b = self.board
        return (b.base_line_length_mm if b.base_line_length_mm > 0 else b.rail_zone_length_mm) / 2

    def _placement_line_mm(self) -> float:
        """Distance (mm) from the board centre of the line on which the striker is set for a shot."""
        b = self.board
        if b.base_line_length_mm > 0:
            return b.half_mm - b.base_line_outer_from_edge_mm - b.base_line_gap_mm / 2
        return b.half_mm - b.rail_zone_depth_mm / 2

    def _end_shot(self, t: float, frame: int, rest: list[dict[str, Any]]) -> GameEvent:
        sh = self._shot
        summary: ShotSummary = summarise_shot(sh.contacts, sh.start_xy, self.board)
        sh.active = False
        return factory.shot_end(t, frame, shot=sh.number, first_contact=summary.first_contact, rest=rest,
                                extra=summary.extra())

    def _placements(self, tracks: Tracks, on_board: np.ndarray) -> list[GameEvent]:
        cfg, t = self.config, tracks.t_s
        assert self._t0 is not None
        fresh = on_board & tracks.seen & ~np.isin(tracks.ids, list(self._known))
        if t - self._t0 <= cfg.init_s:
            self._known.update(tracks.ids[fresh].tolist())
            return []
        striker = tracks.kind == DiscKind.STRIKER
        if self._shot.active or striker.any():
            # a disc first seen during a shot was lost and found again, not placed; the striker's
            # placement is part of every shot, not an event
            self._known.update(tracks.ids[fresh & (striker | self._shot.active)].tolist())
            fresh &= ~striker
        if self._shot.active:
            return []
        hits_enough = fresh & (tracks.kind_share > 0) & (np.isfinite(tracks.hist_xy_mm[:, -cfg.placed_min_hits:, 0]).sum(axis=1) >= cfg.placed_min_hits)
        out = []
        for row in np.flatnonzero(hits_enough):  # only discs that just arrived
            self._known.add(int(tracks.ids[row]))
            t_first = float(tracks.hist_t_s[-cfg.placed_min_hits])
            out.append(factory.placed(t_first, self.frame_at(t_first), disc=self._ref(tracks, int(row)),
                                      xy_mm=tracks.xy_mm[row]))
        return out


def _point_on_side(side: str, line_mm: float) -> tuple[float, float]:
    """The middle of the placement line of `side` (board mm)."""
    return {"N": (0.0, -line_mm), "E": (line_mm, 0.0), "S": (0.0, line_mm), "W": (-line_mm, 0.0)}[side]
