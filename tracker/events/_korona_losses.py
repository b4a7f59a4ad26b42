"""Korona losses the generic rule (tracker/events/_losses.py) leaves open.

Korona discs start against the rails (korona §19) and are small; two things happen there that the
generic rule, which follows a vanished disc on from its last observed motion, cannot see:

- A disc lying against a rail, hit hard, goes over it (or, at a pocket's mouth, into the pocket)
  between two frames: it is never seen moving. It is lost if something ran into it just then and
  no track takes it up where it could have gone on to (a light disc in a row against a rail is
  easily lost from sight where it lies, untouched).
- A disc or the striker seen moving once, just after it was hit, and never again: its velocity from
  that one step (from rest) is far too low, so its path ends short of the cushion it went over.
  It is followed on at an assumed stroke speed instead; it went over a cushion only if it met it
  about square on, at that speed.

`korona_loss` is the `_shot` game hook: called for each disc that vanished during a shot (not under
a hand) when the generic rule found no loss.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tracker.events._history import ShotHistory
from tracker.events._losses import Loss, classify_loss
from tracker.specs import CORNERS, BoardSpec, DiscKind, EquipmentSpec

__all__ = ["korona_loss"]

_RAIL_MM = 4.0  # a disc at rest this close to touching a rail lies against it
_STILL_S = 0.1  # a disc that stays put over this long is at rest
_REST_STEP_MM = 4.0  # observations closer than this were taken at rest (noise is ~1 mm)
_FAST_MM_S = 5000.0  # fastest a disc moves just after a hit (korona strokes reach ~4 m/s)
# typical speeds just after a hit, for a disc (False) or striker (True) seen moving once only, mm/s
_ASSUMED_MM_S = {False: 2200.0, True: 3000.0}
_FOLLOW_S = 0.3  # how far such a disc is followed on, s
_GAP_FRAMES = 8.0  # a disc is followed over at most this many frames unseen
_TAKEN_UP_FRAMES = 4.0  # a track taking a lost disc up appears within this many frames
_ALONG_MM_S = 800.0  # a neighbour this fast along the rail was driven along it, end on ...
_ALONG_COS = 0.9  # ... going within 25 degrees of the rail's line
_HIT_GAIN = 1.4  # a disc's speed over the striker's normal speed after a hit (masses 4 g and 12 g)
_AT_END_S = 0.3  # a track seen this close to the shot's end is still on the board
_POCKET_NEAR_MM = 60.0  # a disc last seen this close to a pocket's centre may have gone in
# something moving came this close (beyond touching a striker) to a disc at rest about when it was
# lost, within these many frames before and after its last observation
_NEAR_MM = 15.0
_DISTURB_BEFORE, _DISTURB_AFTER = 4.0, 3.0
_MIN_SEEN = 3  # observations of a track that is a disc, not stray detections
_LIVED_S = 0.3  # ... and how long a track lost from sight was followed, to be a disc that may turn up again
_MOUTH_MM = 40.0  # a disc at rest this close to a pocket's edge lies in its mouth
# the generic rule's tuning (tracker.events._shot.ShotTuning), for a velocity over a gap
_HORIZON_FRAMES = 4.5
_POCKET_REACH_MM = 16.0
_OFF_SPEED_MM_S = 2000.0
# the slowest disc or striker that knocks a disc at rest over the rail (at most `_HIT_GAIN` times its
# speed, which must reach `_OFF_SPEED_MM_S`)
_KNOCK_MM_S = _OFF_SPEED_MM_S / _HIT_GAIN


def korona_loss(loss: Loss | None, hist: ShotHistory, row: int, kinds: np.ndarray, v_mm_s: np.ndarray | None,
                *, board: BoardSpec, equipment: EquipmentSpec, frame_dt_s: float) -> Loss | None:
    """Pocket, off the board or None for a disc that vanished during a korona shot.

    Args:
        loss: the generic rule's answer; it stands for a disc last seen moving, except for a
            striker seen again later in the shot (there is one striker: it stayed on the board).
            For a disc last seen at rest the korona reading below replaces it.
        hist: the shot's observations (board mm).
        row: the vanished disc's row in `hist`.
        kinds: (M,) `DiscKind` values of the rows.
        v_mm_s: (2,) its last observed velocity, mm/s (None: not seen in two frames running, or slow).
        board, equipment: the korona board and disc set.
        frame_dt_s: frame interval, s.

    Returns:
        The loss (dated when it happened, s), or None: not lost (hidden, or taken up by another track).
    """
    cols, t, p = hist.observations(row)
    at_rest = len(cols) >= 3 and _is_still(t, p, len(t) - 1)
    r = equipment.radius_mm(DiscKind(int(kinds[row])))
    # a disc at rest on a pocket's brink stays there unless something runs into it: its outline, half
    # over the hole, is easily lost from sight where it lies (seed 1008 at 120 fps: a black on the
    # SE brink unseen for a second, called pocketed)
    reach = r + equipment.radius_mm(DiscKind.STRIKER) + _NEAR_MM
    resting = at_rest and not _around(hist, row, int(cols[-1]), reach, frame_dt_s).moved()
    if loss is not None and ((loss.pocket is not None and not resting) or not at_rest
                             or kinds[row] == DiscKind.STRIKER):
        return None if kinds[row] == DiscKind.STRIKER and _striker_seen_after(hist, row, kinds, loss.t_s) else loss
    # the generic answer for a disc lost from rest is read again here: korona rows of discs against
    # a rail go on under other tracks, along the rail, or off it
    if len(cols) < 3 or _taken_up(hist, row, kinds, frame_dt_s) or _newcomer(hist, row, kinds, board, frame_dt_s):
        return None
    if at_rest:
        return _lost_from_rest(hist, row, kinds, int(cols[-1]), r, board, equipment, frame_dt_s)
    step = p[-1] - p[-2]
    gap_s = float(t[-1] - t[-2])
    v_step = step / max(gap_s, 1e-6)
    if gap_s > _GAP_FRAMES * frame_dt_s:
        return None  # the last observation stands alone (a stray detection on the track)
    if _is_still(t, p, len(t) - 2) and gap_s <= 2.5 * frame_dt_s:
        # seen moving once, just after it was hit: the step from rest says little about its speed
        striker = bool(kinds[row] == DiscKind.STRIKER)
        speed = max(_ASSUMED_MM_S[striker], float(np.hypot(*v_step)))
        if not striker and _seen_ahead(hist, row, kinds, int(cols[-1]), v_step, speed, r, frame_dt_s):
            return None
        # (over a cushion only when it meets it about square on: at that speed one it meets aslant
        # bounces off, and a pale man on a pale board is lost from sight on its way back)
        out = classify_loss(p[-1], v_step / max(float(np.hypot(*v_step)), 1e-9) * speed, float(t[-1]), r,
                            board, horizon_s=_FOLLOW_S, pocket_reach_mm=0.0, min_off_speed_mm_s=_OFF_SPEED_MM_S)
        # (the striker seen again later, under another track, stayed on the board: seed 1042 at 30 fps)
        return None if out is not None and striker and _striker_seen_after(hist, row, kinds, out.t_s) else out
    if v_mm_s is None:  # seen moving, but not in two frames running: the last step's velocity
        return classify_loss(p[-1], v_step, float(t[-1]), r, board, horizon_s=_HORIZON_FRAMES * frame_dt_s,
                             pocket_reach_mm=_POCKET_REACH_MM, min_off_speed_mm_s=_OFF_SPEED_MM_S)
    return None  # seen moving over several frames: the generic rule's answer stands


def _seen_ahead(hist: ShotHistory, row: int, kinds: np.ndarray, k0: int, v_mm_s: np.ndarray, speed_mm_s: float,
                radius_mm: float, frame_dt_s: float) -> bool:
    """Whether a disc is seen on the way of the disc of `row` (last seen in column `k0`, heading
    along `v_mm_s` (2,), at most at `speed_mm_s`) within a few frames, where no disc lay before:
    it went on, under another track (seed 1001 at 60 fps: a man knocked along the N rail by the
    striker, taken up a few frames on by the track of its neighbour in the row)."""
    t0, p0 = float(hist.t_s[k0]), hist.xy_mm[row, k0]
    after = np.flatnonzero((hist.t_s > t0 + 1e-9) & (hist.t_s <= t0 + _TAKEN_UP_FRAMES * frame_dt_s + 1e-9))
    before = (hist.t_s > t0 - 2.5 * frame_dt_s) & (hist.t_s <= t0 + 1e-9)
    others = kinds != DiscKind.STRIKER
    others[row] = False
    q = hist.xy_mm[others][:, after]  # (M, A, 2), NaN where unseen
    u = v_mm_s / max(float(np.hypot(*v_mm_s)), 1e-9)
    rel = q - p0
    along = rel @ u
    across = np.abs(rel[..., 0] * u[1] - rel[..., 1] * u[0])
    reach = speed_mm_s * (hist.t_s[after] - t0) + radius_mm
    ahead = (along > 0.0) & (along <= reach) & (across <= radius_mm)  # (NaN: not ahead)
    if not ahead.any():
        return False
    was = np.delete(hist.xy_mm[:, before], row, axis=0).reshape(-1, 2)
    was = was[np.isfinite(was[:, 0])]
    spots = q[ahead]
    if len(was) == 0:
        return True
    gap = np.hypot(*(spots[:, None, :] - was[None, :, :]).transpose(2, 0, 1)).min(axis=1)
    return bool((gap > radius_mm).any())


def _is_still(t_s: np.ndarray, p_mm: np.ndarray, k: int) -> bool:
    """Whether a track stood still up to its observation `k`: its observations (times `t_s`, s;
    centres `p_mm`, board mm) over the `_STILL_S` before, at least two more, stay put."""
    near = (t_s >= t_s[k] - _STILL_S - 1e-9) & (np.arange(len(t_s)) <= k)
    near[max(k - 2, 0) : k + 1] = True
    return k >= 2 and bool(np.all(np.hypot(*(p_mm[near] - p_mm[k]).T) < _REST_STEP_MM))


def _lost_from_rest(hist: ShotHistory, row: int, kinds: np.ndarray, k0: int, radius_mm: float, board: BoardSpec,
                    equipment: EquipmentSpec, frame_dt_s: float) -> Loss | None:
    """A disc last seen at rest (column `k0`) and not taken up: along the rail with its neighbour,
    over the rail it lay against, or struck by the striker away from the rails."""
    if kinds[row] == DiscKind.STRIKER:
        return None  # a striker lost from rest was struck by the cue: lost from sight, not from play
    p0, t0 = hist.xy_mm[row, k0], float(hist.t_s[k0])
    along = _pushed_along(hist, row, k0, radius_mm, board, frame_dt_s)
    if along is not None:  # went along the rail with its neighbour, maybe into a pocket
        return classify_loss(p0, along, t0, radius_mm, board, horizon_s=_FOLLOW_S, pocket_reach_mm=0.0,
                             min_off_speed_mm_s=np.inf)
    reach = radius_mm + equipment.radius_mm(DiscKind.STRIKER) + _NEAR_MM
    around, out = _around(hist, row, k0, reach, frame_dt_s), None
    if around.moved() and around.came_at(p0):
        # over the rail only when hit hard: a row pushed slowly along the rail loses a light disc
        # from sight, not from the board (seed 1003 at 30 fps; it slid 9 mm a frame)
        out = _from_rest(p0, t0, radius_mm, board, frame_dt_s, over_rail=around.hit_hard())
    return out if out is not None else _struck(hist, kinds, k0, p0, radius_mm, equipment, board, frame_dt_s)


@dataclass(frozen=True, slots=True)
class _Around:
    """The other tracks that came within reach of a disc about when it was last seen: their centres
    (M, W, 2) board mm, NaN where unseen, over the window's times `t_s` (W,) s (`_around`)."""

    xy: np.ndarray
    t_s: np.ndarray

    def moved(self) -> bool:
        """Whether one of them moved then: a disc at rest goes nowhere unless something runs into
        it (a light disc in a row against a rail is easily lost from sight where it lies)."""
        if len(self.xy) == 0:
            return False
        spread = np.nanmax(self.xy, axis=1) - np.nanmin(self.xy, axis=1)
        return bool((np.hypot(spread[:, 0], spread[:, 1]) > _REST_STEP_MM).any())

    def came_at(self, p_mm: np.ndarray) -> bool:
        """Whether one of them came closer to `p_mm` (2,) board mm than where it was first seen:
        what only moves away from a disc does not knock it anywhere (korona seed 1024 at 30 fps:
        a striker struck away from a man beside it against the rail, the man taken off the board)."""
        d = np.hypot(self.xy[..., 0] - p_mm[0], self.xy[..., 1] - p_mm[1])  # (M, W), NaN unseen
        if len(d) == 0:
            return False
        first = d[np.arange(len(d)), np.isfinite(d).argmax(axis=1)]  # (each was seen, see `_around`)
        return bool((np.nanmin(d, axis=1) < first - _REST_STEP_MM).any())

    def hit_hard(self) -> bool:
        """Whether one of them moved at `_KNOCK_MM_S` or faster then, between two of its observations
        one or two frames apart: it ran into the disc hard enough to knock it over a rail."""
        xy, t = self.xy, self.t_s
        fast = np.zeros(len(xy), bool)
        for lag in (1, 2):  # (a fast disc blurs out of a frame now and then)
            if len(t) > lag:
                step = np.hypot(*(xy[:, lag:] - xy[:, :-lag]).transpose(2, 0, 1)) / (t[lag:] - t[:-lag])
                fast |= (step >= _KNOCK_MM_S).any(axis=1)  # (NaN, unseen at one end: not fast)
        return bool(fast.any())


def _around(hist: ShotHistory, row: int, k0: int, reach_mm: float, frame_dt_s: float) -> _Around:
    """The other tracks that came within `reach_mm` of the disc of `row` about when it was last seen
    (column `k0`, from `_DISTURB_BEFORE` frames before to `_DISTURB_AFTER` after)."""
    t0, p0 = float(hist.t_s[k0]), hist.xy_mm[row, k0]
    lo, hi = t0 - _DISTURB_BEFORE * frame_dt_s - 1e-9, t0 + _DISTURB_AFTER * frame_dt_s + 1e-9
    cols = (hist.t_s > lo) & (hist.t_s <= hi)
    xy = hist.xy_mm[:, cols]  # (a copy)
    xy[row] = np.nan
    near = (np.hypot(xy[..., 0] - p0[0], xy[..., 1] - p0[1]) <= reach_mm).any(axis=1)  # (NaN: not near)
    return _Around(xy[near], hist.t_s[cols])


def _from_rest(p_mm: np.ndarray, t_last_s: float, radius_mm: float, board: BoardSpec,
               frame_dt_s: float, *, over_rail: bool) -> Loss | None:
    """A disc last seen at rest: lost over the rail it lay against (unless not `over_rail`) or into
    the pocket at whose mouth it lay, between its last frame and the next; None if it lay against
    no rail."""
    gap = board.half_mm - radius_mm - np.abs(p_mm)
    if float(gap.min()) > _RAIL_MM:
        return None
    t = round(t_last_s + frame_dt_s / 2.0, 4)
    d = np.hypot(*(board.pockets_mm - p_mm).T)
    j = int(np.argmin(d))
    if d[j] - board.pocket_radius_mm - radius_mm <= _MOUTH_MM:
        return Loss(CORNERS[j], None, t)
    if not over_rail:
        return None
    axis = int(np.argmin(gap))
    side = ("E", "W")[int(p_mm[0] < 0)] if axis == 0 else ("S", "N")[int(p_mm[1] < 0)]
    return Loss(None, side, t)


def _newcomer(hist: ShotHistory, row: int, kinds: np.ndarray, board: BoardSpec, frame_dt_s: float) -> bool:
    """Whether more discs turn up later in the shot than went missing: tracks first seen after the
    disc of `row` was lost that are still there at the end, against the other discs of its class
    lost from sight in the shot (away from the pockets) that could be them. A disc that bounced back
    unseen off the rail it was driven into is picked up again later, often many frames on."""
    seen = np.isfinite(hist.xy_mm[..., 0])
    n_seen = seen.sum(axis=1)
    k_first, k_last = np.argmax(seen, axis=1), seen.shape[1] - 1 - np.argmax(seen[:, ::-1], axis=1)
    striker = kinds == DiscKind.STRIKER
    same = (striker == striker[row]) & (n_seen >= _MIN_SEEN)
    t0, t_end = float(hist.t_s[k_last[row]]), float(hist.t_s[-1])
    at_end = hist.t_s[k_last] >= t_end - _AT_END_S
    last_xy = hist.xy_mm[np.arange(len(kinds)), k_last]
    d_pocket = np.min(np.hypot(*(board.pockets_mm[None, :, :] - last_xy[:, None, :]).transpose(2, 0, 1)), axis=1)
    # (one that turns up and runs into a pocket turned up too: korona seed 1033 at 30 fps, a black driven
    # into the S rail bounced back unseen, picked up mid-board on its way into the NW pocket)
    new = same & (hist.t_s[k_first] > t0 + 1e-9) & (at_end | (d_pocket <= _POCKET_NEAR_MM))
    if not new.any():
        return False
    # every other disc lost from sight (under a hand, too) may be the one turning up; a track first
    # seen after t0 and lost again is a link in the same chain, not another disc
    born_before = hist.t_s[k_first] <= t0 + 1e-9
    # (followed for a while: a few sightings of a hand's knuckles coming and going are no disc)
    lived = hist.t_s[k_last] - hist.t_s[k_first] >= _LIVED_S
    lost = same & born_before & lived & ~at_end & (d_pocket > _POCKET_NEAR_MM)
    lost[row] = False
    return bool(new.sum() > lost.sum())


def _struck(hist: ShotHistory, kinds: np.ndarray, k0: int, p_mm: np.ndarray, radius_mm: float,
            equipment: EquipmentSpec, board: BoardSpec, frame_dt_s: float) -> Loss | None:
    """A disc at rest away from the rails, last seen in column `k0`, struck by the striker just then:
    followed on along the line of centres at the speed the hit gives it; lost if that takes it over
    a rail (as hard as a disc leaves the board; a softer hit bounces it off the rail, korona seed
    1039 at 30 fps: a man by the E rail hit towards the NE pocket went in off the rail) or into a
    pocket before it could have been seen again. None if the striker did not hit it."""
    t0 = float(hist.t_s[k0])
    reach = radius_mm + equipment.radius_mm(DiscKind.STRIKER)
    window = (hist.t_s > t0 - 3.0 * frame_dt_s) & (hist.t_s <= t0 + 2.0 * frame_dt_s + 1e-9)
    for s in np.flatnonzero(kinds == DiscKind.STRIKER):  # one striker, rarely two tracks
        cols = np.flatnonzero(window & np.isfinite(hist.xy_mm[s, :, 0]))
        for a, b in zip(cols[:-1], cols[1:], strict=True):
            dt = float(hist.t_s[b] - hist.t_s[a])
            d, f = hist.xy_mm[s, b] - hist.xy_mm[s, a], hist.xy_mm[s, a] - p_mm
            aa, bb, cc = float(d @ d), 2.0 * float(f @ d), float(f @ f) - reach**2
            disc = bb * bb - 4.0 * aa * cc
            if dt > 2.5 * frame_dt_s or aa < _REST_STEP_MM**2 or cc <= 0.0 or disc < 0.0:
                continue
            u = (-bb - np.sqrt(disc)) / (2.0 * aa)  # share of the step at which they touch
            t_hit = float(hist.t_s[a]) + u * dt
            if not 0.0 <= u <= 1.5 or not t0 - 0.5 * frame_dt_s <= t_hit <= t0 + 2.0 * frame_dt_s:
                continue
            n = (p_mm - hist.xy_mm[s, a] - u * d) / reach
            v_n = float(d @ n) / dt
            if v_n < _ALONG_MM_S:
                continue
            horizon = max(2.0 * frame_dt_s, 0.04)
            return classify_loss(p_mm, n * _HIT_GAIN * v_n, t_hit, radius_mm, board, horizon_s=horizon,
                                 pocket_reach_mm=0.0, min_off_speed_mm_s=_OFF_SPEED_MM_S)
    return None


def _striker_seen_after(hist: ShotHistory, row: int, kinds: np.ndarray, t_s: float) -> bool:
    """Whether another striker track is seen a few times after `t_s`."""
    other = kinds == DiscKind.STRIKER
    other[row] = False
    later = hist.t_s > t_s + 1e-9
    return bool((np.isfinite(hist.xy_mm[other][:, later, 0]).sum(axis=1) >= _MIN_SEEN).any())


def _pushed_along(hist: ShotHistory, row: int, k0: int, radius_mm: float, board: BoardSpec,
                  frame_dt_s: float) -> np.ndarray | None:
    """(2,) velocity, mm/s, of a neighbour lying beside the disc of `row` against the same rail that
    moved fast along the rail just after the disc's last observation (column `k0`): discs in a row
    against a rail, hit end on, go along it together, the disc ahead of a neighbour pushed at least
    as fast. None if there is no such neighbour."""
    p0 = hist.xy_mm[row, k0]
    gap = board.half_mm - radius_mm - np.abs(p0)
    if float(gap.min()) > _RAIL_MM:
        return None
    axis = 1 - int(np.argmin(gap))  # along the rail
    t0 = float(hist.t_s[k0])
    before = np.flatnonzero((hist.t_s > t0 - 2.5 * frame_dt_s) & (hist.t_s <= t0 + 1e-9))
    after = np.flatnonzero((hist.t_s > t0 + 1e-9) & (hist.t_s <= t0 + 3.0 * frame_dt_s + 1e-9))
    if before.size == 0 or after.size == 0:
        return None
    near = hist.xy_mm[:, before]
    ok = np.isfinite(near[..., 0]).any(axis=1)
    was = np.full((len(hist.ids), 2), np.nan)
    was[ok] = np.nanmedian(near[ok], axis=1)  # where each track stood just before
    off = was - p0
    beside = (np.abs(off[:, axis]) >= radius_mm) & (np.hypot(*off.T) <= 2 * radius_mm + 6.0)
    beside[row] = False
    for n in np.flatnonzero(beside):  # at most two neighbours
        seen = after[np.isfinite(hist.xy_mm[n, after, 0])]
        if seen.size == 0:
            continue
        step = hist.xy_mm[n, seen[0]] - was[n]
        # (along the rail, not knocked off it aslant: korona seed 1040 at 60 fps, the striker ran a
        # dark man square into the S rail and over it, then glanced off his neighbour, who flew off
        # the rail at 35 degrees; the man was taken for pushed along the rail into the SW pocket)
        went = hist.xy_mm[n, seen[-1]] - was[n]
        if abs(float(step[axis])) > _REST_STEP_MM and abs(float(went[axis])) >= _ALONG_COS * float(np.hypot(*went)):
            # its speed: the fastest of its steps (the first one may start from rest)
            path = np.concatenate([[was[n, axis]], hist.xy_mm[n, seen, axis]])
            times = np.concatenate([[t0], hist.t_s[seen]])
            speed = float(np.max(np.abs(np.diff(path) / np.diff(times))))
            if speed < _ALONG_MM_S:
                continue  # jostled by the hit beside it, not driven along the rail
            v = np.zeros(2)
            v[axis] = speed * float(np.sign(step[axis]))
            return v
    return None


def _taken_up(hist: ShotHistory, row: int, kinds: np.ndarray, frame_dt_s: float) -> bool:
    """Whether another track takes the disc of `row` up: one not seen just before the disc's last
    observation, seen first within a few frames after it, no farther away than the disc could have
    gone, and nearer to it than to any other disc lost then (discs lying side by side against a
    rail are hit together; each new track is one of them going on)."""
    seen = np.isfinite(hist.xy_mm[..., 0])
    last = seen.shape[1] - 1 - np.argmax(seen[:, ::-1], axis=1)
    k0 = int(last[row])
    t0, p0 = float(hist.t_s[k0]), hist.xy_mm[row, k0]
    after = (hist.t_s > t0 + 1e-9) & (hist.t_s <= t0 + _TAKEN_UP_FRAMES * frame_dt_s + 1e-9)
    before = (hist.t_s > t0 - 2.5 * frame_dt_s) & (hist.t_s <= t0 + 1e-9)
    striker = kinds == DiscKind.STRIKER
    same = striker == striker[row]
    # (seen twice at least: a stray detection takes nothing up; a disc taken up just before it drops
    # into a pocket is seen only a few times)
    cand = ~seen[:, before].any(axis=1) & seen[:, after].any(axis=1) & same & (seen.sum(axis=1) >= 2)
    cand[row] = False
    # the other discs lost about then (last seen within a frame and a half, never again), seen by
    # then (one seen first just after is rather this disc going on, seen once: seed 1033 at 30 fps,
    # a black struck off the S rail across the board, seen once 117 mm on, then taken up)
    near_t = np.abs(hist.t_s[last] - t0) <= 1.5 * frame_dt_s + 1e-9
    by_then = hist.t_s[hist.first_seen()] <= t0 + 1e-9  # (-1, never seen: not a rival anyway)
    rivals = np.flatnonzero(near_t & by_then & (last < seen.shape[1] - 1) & same & seen.any(axis=1))
    rivals = rivals[rivals != row]
    for other in np.flatnonzero(cand):  # the few tracks born or revived just then
        k = int(np.flatnonzero(after & seen[other])[0])
        q = hist.xy_mm[other, k]
        d = float(np.hypot(*(q - p0)))
        if d > 20.0 + _FAST_MM_S * float(hist.t_s[k] - t0):
            continue
        d_rivals = np.hypot(*(hist.xy_mm[rivals, last[rivals]] - q).T)
        if not (d_rivals < d).any():
            return True
    return False
