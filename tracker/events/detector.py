"""`EventDetector`: turns the tracker's tracks into game events.

Per frame only cheap, vectorised bookkeeping happens:
1. the frame's observed positions go into the shot buffer (`_history`);
2. tracks that just vanished under a hand (the detector's occlusion mask) are marked hidden: they
   are never lost, and come back when the hand goes;
3. between shots: discs at rest, motion that starts a shot, and discs put on the board by hand
   (`placed`);
4. during a shot: whether everything seen has been at rest for `EventConfig.rest_s`.

When the shot is over, the whole shot is read off the buffer at once (`_shot.analyse_shot`): its
start (back-dated), the striker's first contact, pocketed and off-board discs (dated when they
crossed the point of no return or left over a cushion), rest positions. Those events are handed
out together, at the shot's end; the `Pipeline` sorts what it hands out by time.
"""

from __future__ import annotations

import functools
import warnings
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from tracker.events import factory
from tracker.events._anchor import find_striker_rest, standing_place
from tracker.events._config import EventConfig, EventUpdate
from tracker.events._hand_trail import HandTrail
from tracker.events._history import FrameRow, ShotHistory, assemble
from tracker.events._shot import ShotContext, ShotOutcome, analyse_shot
from tracker.events._start import (
    distance_from_line,
    has_stood,
    is_behind,
    motion_began,
    on_placement_line,
    stood_behind,
    where_it_stood,
)
from tracker.events.types import GameEvent
from tracker.occlusion import hidden_on_rings
from tracker.specs import STILL_STEP_MM, BoardSpec, DiscKind, EquipmentSpec
from tracker.track import Tracks

__all__ = ["EventConfig", "EventDetector", "EventUpdate", "OcclusionTest"]

OcclusionTest = Callable[[np.ndarray], np.ndarray]



_STAND_S = 0.05  # a disc seen within a few mm of one place over this long stood there
# a coin whose first move starts a shot has been followed at least this long: not a knuckle taken
# for a coin seconds ago and taken up again where the hand is now (seed 2008)
_COIN_SEEN_S = 0.5
_FRESH_S = 0.2  # the striker seen standing this long ago at most still stands there
_SPAN_S = 1.0 / 30.0  # motion between shots is judged over a frame at 30 fps too (see `_span_speed`)
# a shot is put back at most this far before its motion was noticed, to when the striker set off
_BACK_S = 1.0
# a striker not seen for this long, with no hand over a placement line, is off the board, s; the
# placement lines are looked at every this many mm
_STRIKER_AWAY_S = 3.0
_LINE_STEP_MM = 20.0
_LINE_NOISE_MM = 10.0  # a striker standing on its placement line is seen this far off it at most
_STOOD_OBS = 3  # a disc the tracker has not confirmed stood before a shot if seen this often ...
_PASSED_S = 0.25  # ... or this shortly before the shot started
_FLEETING_OBS = 8  # a track seen fewer times than this before a shot, never standing, stood nowhere
# a plain int: comparing an array with an IntEnum member converts the member on every call
_STRIKER = int(DiscKind.STRIKER)
_HAND_CLEAR_MM = (8.0, 25.0)  # beyond a placed disc's rim, a hand has let go of it
_PLACED_HAND_S = 1.0  # a disc put down was under a hand this shortly before it was first seen, s
# a disc whose sightings stayed within a box this wide (mm) over this long (s), and whose first and
# last thirds of them lie within `rest_disp_mm` of each other, is going nowhere: a fit flickering
# between two places (a disc over a pocket's hole), not a disc rolling on
_JITTER_BOX_MM = 8.0
_JITTER_S = 0.3


def _no_occlusion(xy: np.ndarray) -> np.ndarray:
    return np.zeros(len(xy), bool)


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
    _rows: deque[FrameRow] = field(init=False, repr=False)
    _dts: deque[float] = field(init=False, repr=False)
    _shot_no: int = field(init=False, repr=False)
    _in_shot: bool = field(init=False, repr=False)
    _pending: float | None = field(init=False, repr=False)
    _pending_dir: dict[int, tuple[float, float]] = field(init=False, repr=False)
    _t_trigger: float = field(init=False, repr=False)
    _rest_since: float | None = field(init=False, repr=False)
    _ctx: ShotContext | None = field(init=False, repr=False)
    _hidden: set[int] = field(init=False, repr=False)
    _known: set[int] = field(init=False, repr=False)
    _doubles: set[int] = field(init=False, repr=False)  # tracks that vanished in motion in a shot, not seen since
    _striker_left: tuple[np.ndarray, np.ndarray] = field(init=False, repr=False)  # the last shot's strikers: ids, mm
    _known_arr: np.ndarray | None = field(init=False, repr=False)
    _hands: HandTrail = field(init=False, repr=False)
    _t0: float | None = field(init=False, repr=False)
    _last: Tracks | None = field(init=False, repr=False)
    last_shot: ShotOutcome | None = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Forget everything (a new board, a new video)."""
        self._rows = deque()
        self._dts = deque(maxlen=8)
        self._shot_no, self._in_shot, self._pending = 0, False, None
        self._pending_dir = {}
        self._t_trigger, self._rest_since, self._ctx = 0.0, None, None
        self._hidden, self._known, self._known_arr = set(), set(), None
        self._doubles = set()
        self._striker_left = (np.zeros(0, np.int64), np.zeros((0, 2)))
        self._t0, self._last = None, None
        self._hands = HandTrail(self.board.half_mm)
        self.last_shot = None

    # -- the per-frame sequence ------------------------------------------------------------------

    def update(self, tracks: Tracks, *, is_occluded: OcclusionTest | None = None) -> EventUpdate:
        """Take in one frame's tracks.

        Args:
            tracks: the tracker's output for this frame.
            is_occluded: maps (N, 2) board mm to (N,) bool, True where a hand or arm hides the board.

        Returns:
            Events decided in this frame (dated when they happened) and ids that left the board.
        """
        t, occluded = tracks.t_s, is_occluded or _no_occlusion
        self._clock(t)
        # 1. buffer this frame's observations
        xy_obs = np.where(tracks.seen[:, None], tracks.xy_mm, np.nan)
        self._rows.append(FrameRow(t, tracks.frame_idx, tracks.ids, xy_obs))  # (a snapshot's ids are read-only)
        # 2. discs that just vanished under a hand are hidden, not lost
        at_rest = self._at_rest(tracks)
        self._mark_hidden(tracks, occluded, at_rest)
        if is_occluded is not None:
            self._hands.update(t, is_occluded)
        # 3./4. between shots: start and placements; in a shot: has everything come to rest?
        if self._in_shot:
            out = self._watch_shot(tracks, at_rest, occluded)
        else:
            self._trim(t - self.config.pre_s)
            out = EventUpdate(tuple(self._placements(tracks, at_rest, occluded)), ())
            self._watch_start(tracks, at_rest, occluded)
        self._last = tracks
        return out

    def finish(self) -> tuple[GameEvent, ...]:
        """End of the video: close an open shot (with the positions last seen)."""
        if not self._in_shot or self._last is None:
            return ()
        return self._end_shot(self._last).events

    # -- per-frame steps -------------------------------------------------------------------------

    def _clock(self, t: float) -> None:
        if self._t0 is None:
            self._t0 = t
        elif self._rows:
            self._dts.append(t - self._rows[-1].t_s)

    @property
    def frame_dt_s(self) -> float:
        """The frame interval (smallest of the last few), s."""
        return min(self._dts) if self._dts else 1.0 / 30.0

    def _frames(self, span_s: float, least: int) -> int:
        """Frames in `span_s` seconds at the current frame rate, at least `least`."""
        return max(int(round(span_s / self.frame_dt_s)), least)

    @property
    def _stand_span(self) -> int:
        """Frames between two sightings of a disc standing (`_STAND_S`, at least one)."""
        return self._frames(_STAND_S, 1)

    def _mark_hidden(self, tracks: Tracks, occluded: OcclusionTest, at_rest: np.ndarray) -> None:
        if self._hidden:
            self._hidden.difference_update(tracks.ids[tracks.seen].tolist())
        if self._doubles:
            # a double is a disc again once seen standing: a sighting or two of a false detection
            # where it was (a hand at the cushion) does not bring it back (carrom seed 1044 at
            # 120 fps: a hand's edge read as a white now and then, listed at rest for two shots)
            self._doubles.difference_update(tracks.ids[at_rest].tolist())
        # a disc gone just now (ahead on its path too), or a slow one gone a while ago that a hand now covers
        gone = (tracks.confirmed & (tracks.missed > 0)).nonzero()[0]
        if gone.size == 0:  # (most frames: every disc seen)
            return
        vel = tracks.vel_mm_s.take(gone, axis=0)  # (`take`: row selection without fancy indexing's overhead)
        slow = np.hypot(vel[:, 0], vel[:, 1]) < self.config.shot.min_loss_speed_mm_s
        just = gone[(tracks.missed[gone] == 1) | slow]
        if just.size == 0 or self._hidden.issuperset(tracks.ids[just].tolist()):
            return  # (nothing new to hide: a disc stays hidden until it is seen again)
        xy = tracks.xy_mm.take(just, axis=0)
        ahead = xy + tracks.vel_mm_s.take(just, axis=0) * self.frame_dt_s
        under = occluded(np.concatenate([xy, ahead]))
        hid = under[: just.size] | under[just.size:]
        self._hidden.update(tracks.ids[just[hid]].tolist())

    def _at_rest(self, tracks: Tracks) -> np.ndarray:
        """(M,) bool: tracks at rest, from the tracker's history ring."""
        hist = tracks.hist_xy_mm
        w = min(self._frames(self.config.motion_window_s, 2), hist.shape[1] - 1)
        win = hist[:, -w - 1:, :]
        diff = np.abs(win - hist[:, -1:, :])
        n_obs = np.isfinite(win[:, :, 0]).sum(axis=1)
        # the largest displacement seen, NaN (not seen) counting as none
        spread = np.fmax.reduce(diff.reshape(len(diff), diff.shape[1] * 2), axis=1, initial=0.0)
        return np.asarray(tracks.seen & (n_obs >= 2) & (spread <= self.config.rest_disp_mm))

    def _flickering(self, tracks: Tracks, rows: np.ndarray) -> np.ndarray:
        """(K,) bool: of the tracks `rows` that are not at rest, those going nowhere (`_JITTER_S`):
        carrom seed 2007 at 60 fps, a white on a pocket's lip read 5 mm apart in turn kept a shot
        open for a second, until a hand came in and its motion was taken for the white's."""
        hist = tracks.hist_xy_mm
        w = min(self._frames(_JITTER_S, 6), hist.shape[1])
        win = hist.take(rows, axis=0)[:, -w:, :]
        seen = np.isfinite(win[..., 0])
        ok = seen.sum(axis=1) >= w // 2
        if not ok.any():
            return np.asarray(ok)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # (a third with no sighting: NaN, not still)
            box = np.nanmax(win, axis=1) - np.nanmin(win, axis=1)
            third = w // 3
            net = _nanmean_rows(win[:, -third:]) - _nanmean_rows(win[:, :third])
        still = (box <= _JITTER_BOX_MM).all(axis=1) & (np.abs(net) <= self.config.rest_disp_mm).all(axis=1)
        return np.asarray(ok & still)

    def _trim(self, t_keep: float) -> None:
        rows = self._rows
        while len(rows) > 2 and rows[0].t_s < t_keep:
            rows.popleft()

    def _watch_start(self, tracks: Tracks, at_rest: np.ndarray, occluded: OcclusionTest) -> None:
        """Motion between shots: the striker (or a disc) leaving its place, confirmed by a second look."""
        cfg, t = self.config, tracks.t_s
        speed = np.hypot(tracks.vel_mm_s[:, 0], tracks.vel_mm_s[:, 1])
        # speed only from observations a frame or two apart: a track taken up again after a longer gap
        # (the striker put down by hand, a false detection taken for it) jumps, it does not move
        hist = tracks.hist_xy_mm
        in_a_row = np.isfinite(hist[:, -3:-1, 0]).any(axis=1) if hist.shape[1] >= 3 else tracks.seen
        # (for the striker above 30 fps, the speed over a 30 fps frame's span too: a gentle shot at 120
        # fps moves about as far in a frame as the noise, its speed from one frame to the next now above
        # the start's and now below it; carrom seed 1044 at 120 fps, a 0.5 m/s shot that sank a black
        # never began. Not for the men: moved by a hand as slowly, they began shots; korona, 200 shots)
        moving = (speed > cfg.start_speed_mm_s) & (speed * self.frame_dt_s > 0.5 * cfg.start_disp_mm)
        strikers = np.flatnonzero(tracks.kind == _STRIKER)
        moving[strikers] |= self._span_speed(tracks, strikers) > cfg.start_speed_mm_s
        fast = tracks.seen & in_a_row & tracks.confirmed & ~at_rest & moving
        if fast.any():  # motion under a hand is the hand (or a detection of it), not a disc struck
            rows = np.flatnonzero(fast)
            fast[rows[occluded(tracks.xy_mm[rows])]] = False
        # a striker set in motion left its placement line a moment ago; one that comes in from beyond
        # the line, or would have crossed open board unseen to get here, is a hand (issue 4)
        striker = tracks.kind == _STRIKER
        c_rows = np.flatnonzero(fast & ~striker)
        if c_rows.size and not self._striker_about(tracks, occluded):
            # no striker on the board to hit it (korona seed 1002: fingers carrying the striker in
            # over a row at the rail stir it, too few to count as a hand)
            fast[c_rows] = False
            c_rows = c_rows[:0]
        if c_rows.size and self._striker_stands_off_line(tracks):
            fast[c_rows] = False
            c_rows = c_rows[:0]
        if c_rows.size:  # ... and moving away from the striker, if it was seen standing a moment ago
            c_rows = self._away_from_striker(tracks, c_rows, fast)
        if c_rows.size:  # a coin is set moving by a hit: it stood there before (seed 1005, a fingertip, issue 4)
            still = stood_behind(tracks.hist_xy_mm[c_rows], tracks.xy_mm[c_rows], tracks.vel_mm_s[c_rows],
                                 span=self._stand_span)
            still &= tracks.t_s - tracks.seen_since_s[c_rows] >= _COIN_SEEN_S
            fast[c_rows[~still]] = False
        # a struck striker that vanishes at once (blurred at a low frame rate) confirms its own first
        # move; a coin that vanishes, or a striker taken away under a hand, does not
        vanished_moving = (tracks.missed == 1) & tracks.confirmed & (speed > cfg.start_speed_mm_s) & striker
        if self._pending_dir and vanished_moving.any():
            vanished_moving &= np.isin(tracks.ids, list(self._pending_dir))
        else:
            vanished_moving[:] = False
        # (the lead is needed only for a striker that may start a shot; most frames have none)
        s_rows = np.flatnonzero(striker & (fast | vanished_moving))
        if s_rows.size:
            far = self._line_lead_s(tracks, speed, s_rows) > cfg.striker_lead_s
            fast[s_rows[far]] = False
            vanished_moving[s_rows[far]] = False
        if vanished_moving.any():
            rows = np.flatnonzero(vanished_moving)
            ahead = tracks.xy_mm[rows] + tracks.vel_mm_s[rows] * self.frame_dt_s
            if self.frame_dt_s < cfg.vanish_confirm_dt_s:
                # at higher rates only a striker that flew over the cushion at once: its next step
                # reaches the rail (carrom seed 1010 at 60 fps, shot 4: seen four frames, then gone)
                rim = self.board.half_mm - self.equipment.striker_diameter_mm / 2
                vanished_moving[rows[np.abs(ahead).max(axis=1) < rim]] = False
            under = occluded(np.concatenate([tracks.xy_mm[rows], ahead]))
            vanished_moving[rows[under[: rows.size] | under[rows.size:]]] = False
        if self._pending is not None and t - self._pending > cfg.confirm_s:
            self._pending = None
        if self._pending is None:
            self._pending_dir = {}
        # a struck disc keeps going: a track that jumped out and straight back (a false detection
        # taken for a disc at rest for one frame) does not confirm its own first move
        if self._pending_dir:
            heading = tracks.vel_mm_s / np.maximum(speed, 1e-9)[:, None]
            before = self._pending_heading(tracks.ids)
            back = (heading * before).sum(axis=1) < 0.0  # (NaN: not moving before, any direction)
            fast &= ~back
            # ... nor does one that went back since: a track taking a hand's knuckles in turn, one
            # still and one moving, jumps out, back and out again (seed 2008, issue 4)
            back &= tracks.seen & (speed > cfg.start_speed_mm_s)
            if back.any():
                gone = set(tracks.ids[back].tolist())
                self._pending_dir = {i: h for i, h in self._pending_dir.items() if i not in gone}
        if not fast.any() and not (self._pending is not None and vanished_moving.any()):
            return
        # motion is confirmed by the same disc seen moving again: a coin that twitched (a misread
        # detection) and the striker struck a moment later are two things, not one (issue 4)
        moved_again = tracks.ids[fast][np.isin(tracks.ids[fast], list(self._pending_dir))]
        again = vanished_moving.any() or bool(moved_again.size)
        if self._pending is None or not again:
            self._pending = t
            heading = tracks.vel_mm_s / np.maximum(speed, 1e-9)[:, None]
            self._pending_dir = {int(i): (float(h[0]), float(h[1])) for i, h in zip(tracks.ids[fast], heading[fast],
                                                                                   strict=True)}
            return
        self._begin_shot(tracks, frozenset([*moved_again.tolist(), *tracks.ids[vanished_moving].tolist()]))

    def _span_speed(self, tracks: Tracks, rows: np.ndarray) -> np.ndarray:
        """(R,) the speed (mm/s) of each track of `rows` over the span of a 30 fps frame (`_SPAN_S`) up
        to now, where it moved steadily: seen in every frame of it, no step more than twice the span's
        mean step (a track jumping from a hand's sighting to the striker lying there is no gentle shot:
        korona seed 1011 at 120 fps). NaN at 30 fps and below, where it did not, or where the span's
        displacement is under half `start_disp_mm` (what one step at the lowest rate must show, see
        `_watch_start`)."""
        k = int(round(_SPAN_S / self.frame_dt_s))
        hist = tracks.hist_xy_mm
        if k < 2 or hist.shape[1] <= k or rows.size == 0:
            return np.full(rows.size, np.nan)
        span = hist[rows, -1 - k:]  # (R, k + 1, 2): the span's sightings, NaN where unseen
        steps = np.hypot(*np.diff(span, axis=1).transpose(2, 0, 1))  # (R, k)
        way = np.hypot(*(span[:, -1] - span[:, 0]).T)
        steady = (steps <= 2.0 * way[:, None] / k).all(axis=1)  # (NaN, unseen: not steady)
        way = np.where(tracks.seen[rows] & steady & (way > 0.5 * self.config.start_disp_mm), way, np.nan)
        return np.asarray(way / (k * self.frame_dt_s))

    def _away_from_striker(self, tracks: Tracks, rows: np.ndarray, fast: np.ndarray) -> np.ndarray:
        """The coins of `rows` (moving fast) the striker may have hit: all of them, unless the striker
        was seen standing still over the last moment; then only those moving away from it (a coin
        the striker hits moves off along the line of centres, away from it; the others are cleared
        in `fast`). Korona seed 1005 at 120 fps: a hand reaching in over a row of men at the rail,
        not yet seen as one, moved two of them (and then itself, taken for a third) inwards, towards
        the striker lying 240 mm off."""
        lately = tracks.t_s - tracks.last_t_s <= _FRESH_S
        standing = np.flatnonzero((tracks.kind == _STRIKER) & tracks.confirmed & lately)
        if standing.size:  # ... standing: every sighting over that time within a few mm of the last
            k = min(self._frames(_FRESH_S, 2), tracks.hist_xy_mm.shape[1])
            recent = tracks.hist_xy_mm[standing, -k:, :]
            off = np.hypot(*(recent - tracks.xy_mm[standing][:, None, :]).T).T  # (S, k), NaN: not seen
            seen = np.isfinite(off)
            still = (seen.sum(axis=1) >= 2) & (np.where(seen, off, 0.0) <= self.config.rest_disp_mm).all(axis=1)
            standing = standing[still]
        if not standing.size:
            return rows
        origin = where_it_stood(tracks.hist_xy_mm[rows], tracks.xy_mm[rows], span=self._stand_span)
        rel = origin[:, None, :] - tracks.xy_mm[standing][None, :, :]  # (R, S, 2) from the striker
        away = ((rel * tracks.vel_mm_s[rows][:, None, :]).sum(axis=2) > 0.0).any(axis=1)
        fast[rows[~away]] = False
        return np.asarray(rows[away])

    def _striker_stands_off_line(self, tracks: Tracks) -> bool:
        """Whether the striker is where the last shot left it, away from every placement line, seen
        standing there a moment ago (`_FRESH_S`). A shot is struck from a placement line: a coin set
        moving while the striker still lies where it came to rest is moved by a hand (carrom seed
        1033 at 30 fps: the hand reaching for the striker, not told from the pale board, pushed a
        black aside; its knuckle was taken for the striker moving off, the black for a coin it
        struck). The striker's own track, there since the shot: not a false detection of one."""
        ids, left = self._striker_left
        if not ids.size:
            return False
        lately = tracks.t_s - tracks.last_t_s <= _FRESH_S
        rows, k = np.nonzero((tracks.ids[:, None] == ids[None, :]) & lately[:, None])
        if not rows.size:
            return False
        hist, span = tracks.hist_xy_mm[rows], self._stand_span
        stood = has_stood(hist, span=span)
        where = where_it_stood(hist, tracks.xy_mm[rows], span=span)
        rest = left[k]
        there = stood & (np.hypot(*(where - rest).T) <= _LINE_NOISE_MM)
        on = on_placement_line(rest, self.placement_line_mm, self.placement_extent_mm, self._line_band_mm)
        return bool((there & ~on).any())

    @property
    def _line_band_mm(self) -> float:
        """How far (mm) from a placement line a striker standing on it may be seen."""
        b = self.board
        half_band = b.base_line_gap_mm / 2 if b.base_line_length_mm > 0 else b.rail_zone_depth_mm / 2
        return half_band + _LINE_NOISE_MM

    def _striker_about(self, tracks: Tracks, occluded: OcclusionTest) -> bool:
        """Whether a striker may be on the board: one seen in the last few seconds, or a hand over a
        placement line (the striker put down under it, struck from under it)."""
        striker = tracks.kind == _STRIKER
        if (striker & (tracks.t_s - tracks.last_t_s <= _STRIKER_AWAY_S)).any():
            return True
        return bool(occluded(self._line_points).any())

    @functools.cached_property
    def _line_points(self) -> np.ndarray:
        """(P, 2) points along the four placement lines, `_LINE_STEP_MM` apart, board mm."""
        line, extent = self.placement_line_mm, self.placement_extent_mm
        along = np.linspace(-extent, extent, max(int(extent // _LINE_STEP_MM), 1) + 1)
        side = np.stack([along, np.full(len(along), line)], axis=1)
        return np.concatenate([side, -side, side[:, ::-1], -side[:, ::-1]])

    def _pending_heading(self, ids: np.ndarray) -> np.ndarray:
        """(M, 2) heading of each track when motion was first seen (NaN: not moving then)."""
        keys = np.fromiter(self._pending_dir, np.int64, len(self._pending_dir))
        dirs = np.array(list(self._pending_dir.values()), np.float64).reshape(-1, 2)
        out = np.full((len(ids), 2), np.nan)
        hit = ids[:, None] == keys[None, :]
        rows, k = np.nonzero(hit)
        out[rows] = dirs[k]
        return out

    def _line_lead_s(self, tracks: Tracks, speed: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """(R,) time (s) each track of `rows` would have taken at its speed to come from a placement line."""
        band = self._line_band_mm
        hist, xy, vel = tracks.hist_xy_mm[rows], tracks.xy_mm[rows], tracks.vel_mm_s[rows]
        # standing: still over ~50 ms (a slow striker at 120 fps moves less than the noise per frame)
        span = self._stand_span
        origin = where_it_stood(hist, xy, span=span)
        # where it stood counts only if it came from there (not picked up there and put down here)
        came = is_behind(origin, xy, vel)
        origin = np.where(came[:, None], origin, xy)
        # a striker seen standing off its line, that came from there, is being moved by hand, not struck
        # (seed 1003, 30 fps: a hand's false detection 100 mm from the striker at rest mid-board, issue 4)
        d = distance_from_line(origin, vel, self.placement_line_mm, self.placement_extent_mm, band,
                               stood=has_stood(hist, span=span) & came)
        lead_s: np.ndarray = d / np.maximum(speed[rows], 1.0)
        return lead_s

    def _begin_shot(self, tracks: Tracks, trigger_ids: frozenset[int]) -> None:
        assert self._pending is not None
        hist = assemble(self._rows)
        self._in_shot, self._t_trigger, self._rest_since = True, self._striker_began(tracks, hist), None
        self._pending = None
        self._anchor_snapshot(tracks, hist, trigger_ids)

    def _striker_began(self, tracks: Tracks, hist: ShotHistory) -> float:
        """When the shot began: when motion was noticed, or earlier, when the striker already moving
        then set off. A slow striker hidden under the flicking hand is first seen far from its line,
        too far to be taken for one just struck; the shot is noticed only when a coin it hits moves
        (seed 2003, shot 4: 0.8 s late, issue 4)."""
        assert self._pending is not None
        t_noticed = self._pending
        rows = np.flatnonzero((tracks.kind == _STRIKER) & tracks.confirmed)
        if rows.size == 0:
            return t_noticed
        cfg, began = self.config, t_noticed
        for row in map(hist.row_of, tracks.ids[rows].tolist()):  # the striker: one track, two after a mix-up
            if row < 0:
                continue
            _, t_obs, xy = hist.observations(row)
            began = min(began, motion_began(t_obs, xy, t_noticed=t_noticed, min_speed_mm_s=cfg.start_speed_mm_s / 2,
                                            max_gap_s=3.5 * self.frame_dt_s))
        return max(began, t_noticed - _BACK_S)

    def _anchor_snapshot(self, tracks: Tracks, hist: ShotHistory, trigger_ids: frozenset[int]) -> None:
        """Where every disc stood before the shot (the last observation at rest), from the buffer `hist`."""
        k = int(np.searchsorted(hist.t_s, self._t_trigger - 1.5 * self.frame_dt_s))
        pre = hist.xy_mm[:, : max(k, 1)]
        seen = np.isfinite(pre[..., 0])
        last = pre.shape[1] - 1 - np.argmax(seen[:, ::-1], axis=1)
        anchors: dict[int, tuple[float, float]] = {}
        # a track the tracker has not confirmed, seen once or twice and not lately, was no disc: a
        # fingertip coming in over the edge (carrom seed 1004: four such were listed at rest after
        # the shot); one seen just before the shot may be a disc already on its way (a 30 fps break)
        t_last = hist.t_s[np.maximum(last, 0)]
        passing = ~np.isin(hist.ids, tracks.ids[tracks.confirmed]) & (seen.sum(axis=1) < _STOOD_OBS)
        passing &= t_last < self._t_trigger - _PASSED_S
        fleeting = self._fleeting(hist, pre, seen, t_last, tracks)
        self._doubles.update(hist.ids[fleeting].tolist())  # (no disc, until seen standing)
        passing |= fleeting
        rows = np.flatnonzero(seen.any(axis=1) & ~passing & ~np.isin(hist.ids, list(self._doubles)))
        for r in rows:  # once per shot
            xy = standing_place(pre[r, seen[r]], hist.t_s[: pre.shape[1]][seen[r]], self.frame_dt_s)
            anchors[int(hist.ids[r])] = (float(xy[0]), float(xy[1]))
        # discs not seen lately (under a hand) stand where they were last seen
        for i, xy, ok in zip(tracks.ids.tolist(), tracks.xy_mm, tracks.confirmed, strict=True):
            if ok and i not in anchors and i not in self._doubles and (i in self._hidden or i in self._known):
                anchors[i] = (float(xy[0]), float(xy[1]))
        dt, line = self.frame_dt_s, self.placement_line_mm
        tol = self.placement_tol_mm
        striker_rest = find_striker_rest(hist, pre, seen, last, tracks, t_trigger_s=self._t_trigger, frame_dt_s=dt,
                                         line_mm=line, tol_mm=tol, trigger_ids=trigger_ids)
        if striker_rest is None:
            # the striker is often seen standing only in the frame just before motion was noticed,
            # as the flicking hand draws back (issue 4)
            k1 = int(np.searchsorted(hist.t_s, self._t_trigger - 0.5 * self.frame_dt_s))
            pre1 = hist.xy_mm[:, : max(k1, 1)]
            seen1 = np.isfinite(pre1[..., 0])
            last1 = pre1.shape[1] - 1 - np.argmax(seen1[:, ::-1], axis=1)
            striker_rest = find_striker_rest(hist, pre1, seen1, last1, tracks, t_trigger_s=self._t_trigger,
                                             frame_dt_s=dt, line_mm=line, tol_mm=tol, trigger_ids=trigger_ids)
        for i in [i for i, k in zip(tracks.ids.tolist(), tracks.kind.tolist(), strict=True) if k == DiscKind.STRIKER]:
            anchors.pop(i, None)
        self._ctx = ShotContext(
            game=self.board.game.value, number=self._shot_no + 1, board=self.board, equipment=self.equipment,
            kind_of={}, kind_share={}, anchors=anchors, striker_rest=striker_rest, hidden=frozenset(),
            t_trigger_s=self._t_trigger, frame_dt_s=self.frame_dt_s, placement_line_mm=self.placement_line_mm,
            placement_extent_mm=self.placement_extent_mm, placement_tol_mm=tol,
            kind_before=dict(zip(tracks.ids.tolist(), tracks.kind.tolist(), strict=True)), trigger_ids=trigger_ids,
        )

    def _fleeting(self, hist: ShotHistory, pre: np.ndarray, seen: np.ndarray, t_last: np.ndarray,
                  tracks: Tracks) -> np.ndarray:
        """(M,) bool: coin tracks of `hist` seen a few times before the shot (`pre` (M, k, 2) mm,
        `seen` (M, k), last at `t_last` (M,) s), not lately, not under a hand, and never standing
        (no two sightings in a row within `STILL_STEP_MM`): no disc stood there, a hand's edge was
        read as one now and then (carrom seed 1023 at 120 fps: a white listed at rest at the cushion
        for three shots)."""
        out = np.zeros(len(hist.ids), bool)
        few = (seen.sum(axis=1) < _FLEETING_OBS) & seen.any(axis=1) & (t_last < self._t_trigger - _PASSED_S)
        few &= ~np.isin(hist.ids, [*self._hidden, *tracks.ids[tracks.kind == _STRIKER].tolist()])
        for r in np.flatnonzero(few):  # a few tracks, once per shot
            steps = np.diff(pre[r, seen[r]], axis=0)
            out[r] = not bool((np.hypot(steps[:, 0], steps[:, 1]) <= STILL_STEP_MM).any())
        return out

    def _watch_shot(self, tracks: Tracks, at_rest: np.ndarray, occluded: OcclusionTest) -> EventUpdate:
        cfg, t = self.config, tracks.t_s
        moving = tracks.seen & tracks.confirmed & ~at_rest
        if moving.any():
            moving[moving] = ~self._flickering(tracks, np.flatnonzero(moving))
        if moving.any():
            self._rest_since = None
        elif self._rest_since is None:
            self._rest_since = t
        over = self._rest_since is not None and t - self._rest_since >= cfg.rest_s - 1e-9
        if not over and t - self._t_trigger < cfg.max_shot_s:
            return EventUpdate((), ())
        out = self._end_shot(tracks, occluded)
        return EventUpdate(out.events, out.lost_ids)

    def _end_shot(self, tracks: Tracks, occluded: OcclusionTest | None = None) -> ShotOutcome:
        """The finished shot's outcome; `occluded` tells where a hand hides the board now (None: not
        known, at the end of the video)."""
        from dataclasses import replace

        assert self._ctx is not None
        # the kind of the disc each track follows at the end (after a mix-up in a crowd, not the
        # disc it started with): the one pocketed, knocked off or left at rest
        kind_of = dict(zip(tracks.ids.tolist(), tracks.recent_kind.tolist(), strict=True))
        share = dict(zip(tracks.ids.tolist(), tracks.kind_share.tolist(), strict=True))
        # hidden discs whose place the hand has left, with nothing seen there
        uncovered: frozenset[int] = frozenset()
        if occluded is not None and self._hidden:
            rows = np.flatnonzero(np.isin(tracks.ids, list(self._hidden)) & ~tracks.seen)
            left = rows[~np.asarray(occluded(tracks.xy_mm[rows]), bool)]
            uncovered = frozenset(tracks.ids[left].tolist())
        ctx = replace(
            self._ctx, kind_of=kind_of, kind_share=share, hidden=frozenset(self._hidden), frame_dt_s=self.frame_dt_s,
            uncovered=uncovered,
        )
        hist = assemble(self._rows)
        out = analyse_shot(hist, ctx, tracks.t_s, tracks.frame_idx, self.config.shot)
        self._in_shot, self._ctx = False, None
        if out.events:
            self._shot_no += 1
        self._known.update(hist.ids.tolist())
        self._known.difference_update(out.lost_ids)
        self._doubles.update(out.doubles)
        self._known.difference_update(self._doubles)  # (one seen again between shots was put there by hand)
        self._known_arr = None
        rec = out.record
        if rec is None:  # (no shot: no striker left anywhere)
            self._striker_left = (np.zeros(0, np.int64), np.zeros((0, 2)))
        else:
            left = (rec.kinds == _STRIKER) & np.isfinite(rec.after_mm[:, 0])
            self._striker_left = (rec.ids[left].astype(np.int64), rec.after_mm[left])
        self.last_shot = out
        return out

    def _placements(self, tracks: Tracks, at_rest: np.ndarray, occluded: OcclusionTest) -> list[GameEvent]:
        """Discs that appeared on the board between shots and stayed (put there by hand), announced
        once the hand has let go of them."""
        cfg, t = self.config, tracks.t_s
        assert self._t0 is not None
        fresh = tracks.confirmed & tracks.seen & ~self._is_known(tracks.ids)
        if not fresh.any():
            return []
        self._known_arr = None  # (the known ids change below)
        if t - self._t0 <= cfg.init_s:
            self._known.update(tracks.ids[fresh].tolist())
            return []
        striker = fresh & (tracks.kind == _STRIKER)
        self._known.update(tracks.ids[striker].tolist())  # the striker's placement is part of a shot
        recent = tracks.hist_xy_mm[:, -cfg.placed_min_hits:, 0]
        ready = fresh & ~striker & at_rest & (np.isfinite(recent).sum(axis=1) >= cfg.placed_min_hits)
        # one on a base circle's centre may be the print read as a disc now and then (carrom seed 1008
        # at 120 fps: under an arm's shadow, a "queen placed"): it is placed once seen there steadily
        if ready.any():
            on_print = self.board.on_base_circle(tracks.xy_mm)
            ready &= ~on_print | np.isfinite(tracks.hist_xy_mm[..., 0]).all(axis=1)
        # a hand still beside it may be what was read as a disc (a wrist across the cushion, carved out
        # of the hand's mask as a "disc": carrom seed 1006 at 30 fps); a disc put down is there once the
        # hand has left
        if ready.any():
            rows = np.flatnonzero(ready)
            ready[rows[self._by_a_hand(tracks.xy_mm[rows], tracks.kind[rows], occluded)]] = False
        rows = np.flatnonzero(ready)
        seen = np.isfinite(tracks.hist_xy_mm[rows, :, 0])
        first = np.where(seen.any(axis=1), np.argmax(seen, axis=1), tracks.hist_t_s.size - 1)
        t_first = tracks.hist_t_s[first]
        self._known.update(tracks.ids[rows].tolist())
        if rows.size and self._hands.seen:
            # a disc is put down by hand: one no hand came near is no disc put there (see `HandTrail`),
            # unless it stands where the rules put a disc back, on the centre circle or touching it
            # (the hand that puts it there reaches in over the board, and is missed more often:
            # carrom seed 1022 at 60 fps, the queen put back)
            xy, radius = tracks.xy_mm[rows], self.equipment.radii_mm(tracks.kind[rows])
            put = self._hands.last_near(xy, radius + 2.0 * self._hands.cell_mm) >= t_first - _PLACED_HAND_S
            put |= np.hypot(*xy.T) <= self.board.centre_circle_diameter_mm / 2 + 2.0 * radius
            rows, first, t_first = rows[put], first[put], t_first[put]
        out = []
        for row, k, t_row in zip(rows.tolist(), first.tolist(), t_first.tolist(), strict=True):  # just arrived
            frame = max(int(tracks.frame_idx - (tracks.hist_t_s.size - k - 1)), 0)
            ref = factory.disc_ref(int(tracks.ids[row]), int(tracks.kind[row]))
            out.append(factory.placed(float(t_row), frame, disc=ref, xy_mm=tracks.xy_mm[row]))
        return out

    def _by_a_hand(self, xy_mm: np.ndarray, kinds: np.ndarray, occluded: OcclusionTest) -> np.ndarray:
        """(K,) bool: discs at `xy_mm` (K, 2) of `kinds` (K,) with a hand's mask within reach of their rim."""
        rims = self.equipment.radii_mm(kinds)[:, None] + np.asarray(_HAND_CLEAR_MM)[None, :]
        return np.asarray(hidden_on_rings(xy_mm, rims, occluded).any(axis=1))

    def _is_known(self, ids: np.ndarray) -> np.ndarray:
        """(M,) bool: track ids in `_known` (a sorted copy of the set is kept until the set changes)."""
        if self._known_arr is None:
            self._known_arr = np.sort(np.fromiter(self._known, np.int64, len(self._known)))
        known = self._known_arr
        if known.size == 0:
            return np.zeros(len(ids), bool)
        at = np.minimum(np.searchsorted(known, ids), known.size - 1)
        return np.asarray(known[at] == ids)

    @property
    def placement_extent_mm(self) -> float:
        """Half the length of a placement line, mm (see `BoardSpec.placement_extent_mm`)."""
        return self.board.placement_extent_mm

    @property
    def placement_tol_mm(self) -> float:
        """How far (mm) from `placement_line_mm` a striker set for a shot may stand (see
        `BoardSpec.placement_tol_mm`)."""
        return self.board.placement_tol_mm(self.equipment.striker_diameter_mm)

    @property
    def placement_line_mm(self) -> float:
        """Distance (mm) from the board centre of the line on which the striker is set for a shot."""
        return self.board.placement_line_mm


def _nanmean_rows(x: np.ndarray) -> np.ndarray:
    """`np.nanmean(x, axis=1)` of a float array (the same sums and counts, the same numbers),
    without its copies and checks (every frame of a shot, on a few tracks): NaN where a row has
    no number (0 / 0, with the RuntimeWarning the caller silences)."""
    missing = np.isnan(x)
    total = np.where(missing, 0.0, x).sum(axis=1)
    count = (~missing).sum(axis=1, dtype=np.intp)
    return np.asarray(total / count)
