"""Which discs left play during a shot, and how: the vanished tracks read off the shot's history.

Each disc that is no longer seen at the end of the shot is followed on from its last motion
(`_losses.classify_loss`); one that vanished under a hand is still there unless it was flying fast
enough to leave the board (it would have come out again), and nothing flies before the striker set
off; one resting near a cushion that vanished as the striker ran into it (seen at most taking its
first step), pushing it towards the cushion, went off over that cushion. A loss is dropped when the
disc was in fact picked up again by another track (it bounced, or went on after a missed frame). A
track seen only twice counts when it moved fast, taking over a disc another track had just lost
within its reach (nothing appears in flight out of nowhere), or ran on to a pocket's brink. A track
drawn back from the stroke as it was played, seen just then or seen coming up to the striker before
it, is the cue or the finger, not a disc.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tracker._track_assign import point_segment_distance
from tracker._track_motion import fold_at_cushions
from tracker._track_types import TrackerConfig
from tracker.events._contacts import SIDE_OF_WALL
from tracker.events._history import ShotHistory
from tracker.events._losses import Loss, classify_loss, entry_time
from tracker.events._shot_context import ShotContext, ShotTuning
from tracker.events._shot_record import game_loss
from tracker.events._start import StrikerRun
from tracker.specs import CORNERS, STILL_STEP_MM, BoardSpec, DiscKind

__all__ = ["find_losses"]


@dataclass(frozen=True, slots=True)
class _Births:
    """Every track's first sighting in the shot's history: when (t_s (M,) s), where (xy_mm (M, 2)
    mm), and how often it was seen in all (n_obs (M,))."""

    t_s: np.ndarray
    xy_mm: np.ndarray
    n_obs: np.ndarray

    @classmethod
    def of(cls, hist: ShotHistory) -> _Births:
        first = np.maximum(hist.first_seen(), 0)
        return cls(hist.t_s[first], hist.xy_mm[np.arange(len(first)), first],
                   np.isfinite(hist.xy_mm[..., 0]).sum(axis=1))


def find_losses(hist: ShotHistory, ctx: ShotContext, kinds: np.ndarray, radius: np.ndarray, candidates: np.ndarray,
            t_end_s: float, tune: ShotTuning, *, run: StrikerRun | None = None) -> list[tuple[int, Loss]]:
    """Rows that vanished during the shot (not under a hand) and where they went; `run`: the
    striker's first run (None: not known)."""
    out = []
    dt = ctx.frame_dt_s
    births = _Births.of(hist)
    for row in np.flatnonzero(candidates):  # the few discs that vanished, once per shot
        cols, t, p = hist.observations(int(row))
        # a passing false detection is not a disc; two in consecutive frames (or one missed between)
        # are a disc picked up again after a mix-up in a crowd when they are far apart (issue 4, seed
        # 1009 at 30 fps) or run on to a pocket's brink (issue #7, korona seed 1007 at 60 fps: a light
        # man sliding along the N rail into the NW pocket)
        pair = len(cols) == 2 and t[1] - t[0] <= 2.5 * dt + 1e-6
        pair_speed = float(np.hypot(*(p[1] - p[0]))) / float(t[1] - t[0]) if pair else 0.0
        if len(cols) < tune.min_loss_obs and not (pair and (
                (0.5 * tune.min_off_speed_mm_s <= pair_speed <= _FASTEST_MM_S
                 and _handed_on(hist, int(row), cols, p))
                or _onto_brink(p, ctx, tune))):
            continue
        if _cue(t, p, run, dt, pair=pair):
            continue  # the cue (or the flicking finger) drawn back from the stroke (issue #7, korona seed 1007)
        if pair and _in_wake(hist, cols, p, kinds == DiscKind.STRIKER, ctx.equipment.striker_diameter_mm / 2):
            continue  # where the striker just was, twice: the trail it left (issue #7, korona seed 1026)
        few = len(cols) <= _FLICKER_MAX_OBS
        # seen only on base circles' centres, a few times or now and then: the printed circles read as a
        # disc (carrom seed 2008 at 120 fps: once on each of the two by the SE corner, a frame apart, a
        # "white" off over the E cushion; seed 1008: a base circle read as the queen under an arm's
        # shadow and again as the striker blurred over it, over a second or more)
        sparse = few or len(cols) < _SPARSE_SHARE * float(cols[-1] - cols[0] + 1)
        if (few and _back_and_forth(p)) or (sparse and bool(ctx.board.on_base_circle(p).all())):
            continue  # a print read as a disc now here, now there, as the striker went by (issue 4, seeds 1008, 2008)
        if sparse and _over_holes(p, ctx.board):
            continue  # only ever seen over a pocket's hole, now and then: the hole's edge (korona seed 1033, 30 fps)
        v = None
        if len(cols) >= 2 and (t[-1] - t[-2] <= 2.5 * dt + 1e-6 or _straight_flight(t, p, dt, tune)):
            v = (p[-1] - p[-2]) / (t[-1] - t[-2])
            if float(np.hypot(*v)) < tune.min_loss_speed_mm_s:
                v = None
        if (v is not None and float(t[-1]) < ctx.t_trigger_s - _set_off_slack(dt)
                and _before_set_off(float(t[-1]), run, dt)):
            # in flight before the striker set off and before motion was noticed, then gone: a hand, not a
            # disc (carrom seed 1044 at 120 fps; both, as a striker's run found late in the shot is the
            # wrong one: carrom seed 1010 at 60 fps, the break's six pockets dated before it)
            continue
        if int(hist.ids[row]) in ctx.hidden and (v is None or float(np.hypot(*v)) < tune.min_off_speed_mm_s
                                                 or _before_set_off(float(t[-1]), run, dt)):
            # under a hand: still there (one flying into a cushion or a pocket is not; nor does a
            # disc fly before the striker set off: a knuckle was taken for it, issue #7, korona
            # seed 1004 at 60 fps)
            continue
        steady = None if v is None else _steady_velocity(t, p, v, dt)
        loss = _classify(p[-1], v, float(t[-1]), float(radius[row]), ctx, tune, steady=steady)
        if loss is not None and loss.pocket is not None and v is None and len(cols) >= 4:
            loss = _dated_before_gap(loss, t, p, ctx, dt, tune)
        if loss is not None and loss.pocket is not None and v is not None and _set_off(p):
            loss = _dated_from_rest(loss, p[-1], 2.0 * v, float(t[-1]), float(radius[row]), ctx, tune)
        if loss is None and (v is None or _from_rest(p)):
            # (hit where it stood: its first step, seen, may have taken it anywhere round there)
            loss = _knocked_off(hist, int(row), t, p, p[-1] if v is None else p[-2], float(radius[row]), ctx,
                                hitters=kinds == DiscKind.STRIKER)
        # (a disc last seen on the brink of a pocket went in; one followed on further is less sure)
        brink = float(_past_brink(p[-1], ctx, tune).min()) <= 0.0
        if loss is not None and _continued(hist, int(row), t[-1], p[-1], v, births, kinds, dt, tune,
                                           lim_mm=ctx.board.half_mm - float(radius[row]), weak=not brink):
            loss = None  # the disc bounced and was picked up again as a new track
        if (loss is not None and loss.side is not None and v is not None
                and _bounced(hist, int(row), t[-1], p[-1], v, float(radius[row]), ctx, dt)):
            loss = None  # something is seen where it would be had it bounced: it did, under another track
        if (loss is not None and loss.side is not None and v is not None
                and _disc_in_the_way(hist, int(row), t[-1], p[-1], v, loss.t_s - float(t[-1]), radius, dt)):
            loss = None  # it hit a disc on its way to the cushion: it did not fly straight over
        open_mm = ctx.board.half_mm - 3.0 * float(radius[row])
        if loss is not None and ((loss.side is not None and _taken_from_another(hist, int(row), int(cols[-1])))
                                 or _turned_back(t, p, dt, open_mm)):
            loss = None  # its last sighting was another disc's: it went on under another track
        # the game's own rule has the last word (korona: discs knocked over a rail from rest; issue #7)
        loss = game_loss(ctx.game, loss, hist, int(row), kinds, v, board=ctx.board, equipment=ctx.equipment,
                         frame_dt_s=dt)
        if loss is not None:
            out.append((int(row), loss))
    return _stayed_on(hist, ctx, kinds, out, births, t_end_s, tune)


def _past_brink(p: np.ndarray, ctx: ShotContext, tune: ShotTuning) -> np.ndarray:
    """(..., P) how far points `p` (..., 2) mm lie outside each pocket's brink (within reach of its
    point of no return), mm: 0 or less on it."""
    return np.asarray(_to_pockets(p, ctx.board) - (ctx.board.pocket_no_return_mm + tune.pocket_reach_mm))


def _to_pockets(p: np.ndarray, board: BoardSpec) -> np.ndarray:
    """(..., P) distance (mm) from points `p` (..., 2) mm to each pocket's centre."""
    return np.asarray(np.linalg.norm(np.asarray(p)[..., None, :] - board.pockets_mm, axis=-1))


def _over_holes(p: np.ndarray, board: BoardSpec) -> bool:
    """Whether every point of `p` (K, 2) mm lies over a pocket's hole."""
    return bool((_to_pockets(p, board).min(axis=-1) <= board.pocket_radius_mm).all())


def _onto_brink(p: np.ndarray, ctx: ShotContext, tune: ShotTuning) -> bool:
    """Whether two sightings (2, 2) mm run on to a pocket's brink: the second on it, and nearer the
    pocket than the first."""
    d = _past_brink(p, ctx, tune)  # (2, P)
    j = int(np.argmin(d[1]))
    return bool(d[1, j] <= 0.0 and d[1, j] < d[0, j])


def _steady_velocity(t: np.ndarray, p: np.ndarray, v: np.ndarray, dt: float) -> np.ndarray | None:
    """(2,) least-squares velocity (mm/s) over a track's observations (times `t` (K,) s, centres `p`
    (K, 2) mm) of the last `_STEADY_FRAMES` frames, at least three; None if there are fewer, or if
    it differs from the last step's velocity `v` (2,) in direction or speed (a bounce or a hit
    among them)."""
    recent = t >= t[-1] - _STEADY_FRAMES * dt - 1e-9
    if recent.sum() < 3:
        return None
    fit, _ = _line_fit(t[recent], p[recent])
    s_fit, s_last = float(np.hypot(*fit)), float(np.hypot(*v))
    straight = float(fit @ v) >= _STEADY_COS * s_fit * s_last
    return np.asarray(fit) if straight and s_last / _STEADY_RATIO <= s_fit <= _STEADY_RATIO * s_last else None


def _line_fit(t: np.ndarray, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Least-squares straight motion through sightings (times `t` (K,) s, centres `p` (K, 2) mm, K >= 2):
    (velocity (2,) mm/s, fitted centre at the last sighting (2,) mm)."""
    tt = t - t.mean()
    vel = (tt[:, None] * (p - p.mean(axis=0))).sum(axis=0) / float((tt**2).sum())
    return vel, p.mean(axis=0) + vel * tt[-1]


def _dated_before_gap(loss: Loss, t: np.ndarray, p: np.ndarray, ctx: ShotContext, dt: float,
                      tune: ShotTuning) -> Loss:
    """A disc seen again, after a gap, only in a pocket (`loss`) went in when its steady path before the
    gap reached the point of no return, if it did within the gap (carrom seed 2008 at 120 fps: a black
    rolling down the E cushion into the SE pocket, lost four frames before it went in and seen once in
    the hole, was dated at that sighting, five frames late). A path that misses the point of no return
    but runs at it from a frame's run of it glanced off a cushion into the pocket: it went in when its
    speed took it that far (korona seed 1033 at 30 fps: a black lost 43 mm from the NW pocket at
    2.4 m/s, seen in the hole 1.3 s later, was dated then). One last seen on the pocket's brink just
    struck where it stood went in before the next frame, unseen since: dated half a frame on (korona
    seed 1033 at 30 fps: a white at rest on the NW pocket's brink, struck by the striker, seen once 3 mm
    on, then in the hole three frames later and dated there, 94 ms late)."""
    before = (t < t[-1] - 2.5 * dt) & (t >= t[-2] - _STEADY_FRAMES * dt - 1e-9)
    if not before[-2] or before.sum() < 3:
        return loss
    vel, at = _line_fit(t[before], p[before])
    k = CORNERS.index(loss.pocket)
    pocket = ctx.board.pockets_mm[k]
    t_in = entry_time(pocket - at, vel, ctx.board.pocket_no_return_mm)
    if t_in is None:
        way = float(np.hypot(*(pocket - at))) - ctx.board.pocket_no_return_mm
        speed = float(np.hypot(*vel))
        if float(np.dot(pocket - at, vel)) > 0.0 and way <= speed * _GLANCE_IN_FRAMES * dt:
            t_in = max(way, 0.0) / speed
    brink = float(_past_brink(p[-2], ctx, tune)[k]) <= 0.0
    # (struck where it stood: not one sliding slowly on, which goes in when its way gets there; korona
    # seed 1007 at 60 fps, a white along the N rail at 0.15 m/s, in three frames after it was lost)
    struck = len(p) >= 5 and bool((np.hypot(*(p[-5:-3] - p[-3]).T) <= STILL_STEP_MM).all())
    if brink and struck and (t_in is None or t[-2] + t_in >= loss.t_s):
        t_in = 0.5 * dt
    if t_in is None or t[-2] + t_in >= loss.t_s:
        return loss
    return Loss(loss.pocket, None, round(float(t[-2] + t_in), 4))


def _classify(p: np.ndarray, v: np.ndarray | None, t_last: float, radius_mm: float, ctx: ShotContext,
              tune: ShotTuning, *, steady: np.ndarray | None = None) -> Loss | None:
    """`classify_loss` with this shot's board and tuning."""
    return classify_loss(p, v, t_last, radius_mm, ctx.board, horizon_s=tune.loss_horizon_frames * ctx.frame_dt_s,
                         pocket_reach_mm=tune.pocket_reach_mm, min_off_speed_mm_s=tune.min_off_speed_mm_s,
                         v_steady_mm_s=steady)


def _dated_from_rest(loss: Loss, p: np.ndarray, v: np.ndarray, t_last: float, radius_mm: float, ctx: ShotContext,
                     tune: ShotTuning) -> Loss:
    """A disc pocketed (`loss`) that set off from standing in its last step (`_set_off`), to `p`
    (2,) at `t_last`, left its place during that step, halfway on average: it covered the step at
    twice the step's speed, `v` (2,) mm/s, and went in that much sooner, if on that path it goes
    into the same pocket (korona seed 1039 at 30 fps: a white on the NE pocket's brink struck by
    the striker was seen once on its way, 17 mm out, and dated at the step's speed 72 ms late; at
    twice it, 22 ms)."""
    faster = _classify(p, v, t_last, radius_mm, ctx, tune)
    if faster is None or faster.pocket != loss.pocket or faster.t_s >= loss.t_s:
        return loss
    return faster


def _before_set_off(t_s: float, run: StrikerRun | None, dt: float) -> bool:
    """Whether time `t_s` is clearly before the striker set off on its `run` (None: not known): by
    more than the start's own uncertainty (the striker is often first seen a few frames out, under
    the flicking hand)."""
    return run is not None and t_s < run.t_start_s - _set_off_slack(dt)


def _set_off_slack(dt: float) -> float:
    return max(_SET_OFF_SLACK_FRAMES * dt, _SET_OFF_SLACK_S)


def _set_off(p: np.ndarray) -> bool:
    """Whether a track's last step (centres `p` (K, 2) mm) set it off from standing: the two steps
    before it at most `STILL_STEP_MM` each, and it `_SET_OFF_JUMP` times as long as either (a disc
    sliding slowly at a high frame rate moves less than that in every step, and steadily).

    Examples:
        >>> _set_off(np.array([[0.0, 0.0], [0.3, 0.0], [0.1, 0.0], [17.5, 1.8]]))
        True
        >>> _set_off(np.array([[0.0, 0.0], [2.1, 0.0], [4.2, 0.0], [6.3, 0.0]]))  # 0.25 m/s at 120 fps
        False
    """
    if len(p) < 4:
        return False
    steps = np.hypot(*np.diff(p[-4:], axis=0).T)
    return bool(steps[:2].max() <= STILL_STEP_MM and steps[2] >= _SET_OFF_JUMP * max(steps[:2].max(), 1.0))


def _from_rest(p: np.ndarray) -> bool:
    """Whether a track's last step (centres `p` (K, 2) mm) was its first: it stood still before."""
    return len(p) >= 3 and float(np.hypot(*(p[-2] - p[-3]))) <= STILL_STEP_MM


def _cue(t: np.ndarray, p: np.ndarray, run: StrikerRun | None, dt: float, *, pair: bool) -> bool:
    """Whether a track's sightings (times `t` (K,) s, centres `p` (K, 2) mm) are the cue's tip or the
    flicking finger drawn back as the stroke was played: last seen moving against the stroke, and at
    the striker as it set off on its `run`. Either a `pair` of sightings seen first just then (or as
    it was drawn back after the follow-through), just behind where the striker stood (korona seed
    1007: the tip read as a light disc "pocketed"), or a track seen coming up to it before (korona
    seed 1008: the tip read as a dark disc followed the cue in and out and "left the board" over
    the player's rail). A disc lies still before the stroke, and one the striker sets moving goes
    forward."""
    if run is None or len(t) < 2 or float((p[-1] - p[-2]) @ run.direction) >= 0.0:
        return False
    slack, origin = _set_off_slack(dt), run.origin_mm
    if len(t) == 2:
        behind = float((p[0] - origin) @ run.direction) <= 0.0
        near = float(np.hypot(*(p[0] - origin))) <= _WITHDRAWN_REACH_MM
        # (drawn back after the follow-through: korona seed 1026 at 120 fps, first seen 0.15 s on)
        late = float(t[0]) - run.t_start_s
        return pair and -slack <= late <= max(slack, _CUE_BACK_S) and near and behind
    before = (t >= run.t_start_s - _CUE_APPROACH_S) & (t <= run.t_start_s + slack)
    if before.sum() < 2:
        return False
    d_a, d_b = (float(np.hypot(*(q - origin))) for q in p[before][[0, -1]])
    return d_a - d_b >= _CUE_CAME_MM and d_b <= _WITHDRAWN_REACH_MM


def _in_wake(hist: ShotHistory, cols: np.ndarray, p: np.ndarray, striker: np.ndarray, striker_r_mm: float) -> bool:
    """Whether every sighting of a track (columns `cols` (K,), centres `p` (K, 2) mm) lies on the
    step the striker (`striker` (M,) bool over the rows) had just taken, within its radius: the
    smear or the after-image it left behind it (korona seed 1026 at 120 fps: a "white" seen twice
    just behind the striker as it came off the E cushion, "off the board" there at 4.5 m/s)."""
    rows = np.flatnonzero(striker)
    if len(rows) == 0 or cols[0] == 0:
        return False
    a, b = hist.xy_mm[rows][:, cols - 1], hist.xy_mm[rows][:, cols]  # (S, K, 2) its steps then
    k = len(cols)
    # (each sighting against the step of its own frame: the diagonal; NaN where it was not seen)
    gap = point_segment_distance(p, a.reshape(-1, 2), b.reshape(-1, 2)).reshape(len(rows), k, k)
    return bool((np.diagonal(gap, axis1=1, axis2=2) <= striker_r_mm).any(axis=0).all())


# no disc moves faster (the tracker's bound): a pair of sightings further apart is two sightings of a
# hand (carrom seed 1035 at 120 fps: a pale hand setting the striker, its fingertips read as a striker
# 87 mm apart in consecutive frames, "pocketed" SE from the middle of the board)
_FASTEST_MM_S = TrackerConfig().max_speed_mm_s
_HANDOVER_FRAMES = 3  # a disc picked up again by a new track was lost at most this many frames before
_HANDOVER_MM = 40.0  # ... within its reach at the new track's speed (however it bounced), and this


def _handed_on(hist: ShotHistory, row: int, cols: np.ndarray, p: np.ndarray) -> bool:
    """Whether a track first seen in flight (columns `cols`, centres `p` (K, 2) mm) may have taken
    over a disc another track lost just before, within its reach at its speed: a disc does not
    appear in flight out of nowhere. A pair of sightings of a withdrawing hand's blurred fingertips
    has no such donor (carrom seed 1020 at 120 fps: a "white" seen twice along the S cushion at
    6.5 m/s, called pocketed SE)."""
    last = hist.last_seen()
    c0 = int(cols[0])
    donors = np.flatnonzero((last >= c0 - _HANDOVER_FRAMES) & (last < c0))
    donors = donors[donors != row]
    if len(donors) == 0:
        return False
    step = float(np.hypot(*(p[1] - p[0]))) / float(cols[1] - cols[0])  # mm per frame
    gap = np.hypot(*(hist.xy_mm[donors, last[donors]] - p[0]).T)
    return bool((gap <= _HANDOVER_MM + 1.5 * step * (c0 - last[donors])).any())


def _back_and_forth(p: np.ndarray) -> bool:
    """A few sightings (K, 2) mm that jump away and come back to where one of them was: a detection
    flickering between two places (two printed circles each read as a disc now and then), not a
    disc, which would have had to stop dead and come back the same way."""
    d = np.hypot(*(p[:, None, :] - p[None, :, :]).T)  # (K, K)
    i, j, m = np.ogrid[: len(p), : len(p), : len(p)]
    # furthest it went from sighting i before sighting j, over the sightings m in between
    away = np.where((i < m) & (m < j), d[:, None, :], 0.0).max(axis=2)
    return bool(((d <= _SAME_SPOT_MM) & (away >= _FLICKER_JUMP_MM)).any())


def _straight_flight(t: np.ndarray, p: np.ndarray, dt: float, tune: ShotTuning) -> bool:
    """The last three observations (a gap of up to 3.5 frames each) lie on one straight, fast,
    steady flight: a blurred striker seen only now and then (issue 4, the demo clip's shot 2)."""
    if len(t) < 3 or np.any(np.diff(t[-3:]) > 3.5 * dt + 1e-6):
        return False
    v1, v2 = (p[-2] - p[-3]) / (t[-2] - t[-3]), (p[-1] - p[-2]) / (t[-1] - t[-2])
    s1, s2 = float(np.hypot(*v1)), float(np.hypot(*v2))
    # (a striker flying, not a hand carrying it: faster than a disc leaves the board)
    if min(s1, s2) < 1.5 * tune.min_off_speed_mm_s or max(s1, s2) > 2.0 * min(s1, s2):
        return False
    return float(np.dot(v1, v2)) > 0.98 * s1 * s2


def _knocked_off(hist: ShotHistory, row: int, t_seen: np.ndarray, p_seen: np.ndarray, p_last: np.ndarray,
                 radius_mm: float, ctx: ShotContext, *, hitters: np.ndarray) -> Loss | None:
    """A disc resting against a cushion that vanished for good just as something ran into it went off
    (its sightings: times `t_seen` (K,) s, centres `p_seen` (K, 2) mm; `p_last`: where it stood).

    Hit hard towards the cushion, it leaves over it within a frame, never seen moving (issue 4, seed
    1027): its last observation says nothing, but the path of the disc that hit it does (it passed
    within touching distance, and the line of centres points into the cushion). One seen moving in
    its last frames, but not into the cushion, did not go over it (korona seed 1045 at 30 fps: a
    light man struck along the S rail, lost from sight on his way to the SE pocket, was called off
    the board; seed 1043 at 60 fps: one seen struck away from the N rail, 66 mm in a frame, was
    called off over it); nor did one not seen standing there twice just before
    (korona seed 1042 at 30 fps: a hand's edge by the rail, seen there twice 1.7 s apart, "knocked
    off" by the striker going by).
    """
    lim = ctx.board.half_mm - radius_mm
    near = np.abs(p_last) >= lim - _AT_CUSHION_MM
    if not near.any():
        return None
    axis = int(np.argmax(np.abs(p_last)))
    side = SIDE_OF_WALL[(0 if p_last[axis] > 0 else 1) + 2 * axis]
    dt, t_last = ctx.frame_dt_s, float(t_seen[-1])
    stood = (np.hypot(*(p_seen - p_last).T) < _MOVED_MM) & (t_seen >= t_last - _STOOD_S - 1e-6)
    if stood.sum() < 2:
        return None
    recent = t_seen >= t_last - _MOVED_FRAMES * dt - 1e-6
    step = np.diff(p_seen[recent], axis=0)
    moved, into = np.hypot(*step.T), step[:, axis] * np.sign(p_last[axis])
    if bool(((moved >= _MOVED_MM) & (into <= 0.5 * moved)).any()):
        return None
    cols = np.flatnonzero((hist.t_s >= t_last - 2.5 * dt) & (hist.t_s <= t_last + 2.5 * dt))
    reach = radius_mm + ctx.equipment.striker_diameter_mm / 2 + _KNOCK_SLACK_MM
    # only the striker's path is followed well enough through a crowd to tell what it hit
    for other in np.flatnonzero(hitters):  # once per vanished disc
        obs = hist.xy_mm[other, cols]
        obs = obs[np.isfinite(obs[:, 0])]
        if other == row or len(obs) < 2:
            continue
        a, b = obs[:-1], obs[1:]  # its path between observations (across a missed frame too)
        gap = point_segment_distance(p_last[None], a, b)[:, 0]
        # pushed into the cushion (along the line of centres), not along it
        ab = b - a
        s = np.clip(((p_last - a) * ab).sum(axis=1) / np.maximum((ab * ab).sum(axis=1), 1e-9), 0.0, 1.0)
        push = p_last - (a + s[:, None] * ab)
        into = push[:, axis] * np.sign(p_last[axis]) / np.maximum(np.hypot(push[:, 0], push[:, 1]), 1e-9)
        # (and coming up to it: not the striker setting off from beside the finger that flicked it)
        ahead = ((p_last - a) * ab).sum(axis=1) > 0.0
        if bool(((gap <= reach) & (np.hypot(*ab.T) > _KNOCK_SLACK_MM) & (into >= _INTO_COS) & ahead).any()):
            return Loss(None, side, round(t_last + dt / 2, 4))
    return None


_GLANCE_IN_FRAMES = 1.5  # a disc lost this many frames' run from a pocket's point of no return, heading for it
_AT_CUSHION_MM = 25.0  # a disc whose centre is this close to its limit is hit into the cushion at once
_INTO_COS = 0.5  # the push must point within 60 degrees of straight into the cushion
_HIT_SPEED_MM_S = 3000.0  # how fast a disc hit at rest may go off (for finding it again)
_KNOCK_SLACK_MM = 15.0  # how much farther than touching the hitting disc's path between frames may pass
# a disc that stepped this far within this many frames of its last sighting, not into the cushion
# (at most half as far into it), was moving along or away from it
_MOVED_MM, _MOVED_FRAMES = 8.0, 3.5
_STOOD_S = 0.25  # a disc knocked off from rest was seen there (within `_MOVED_MM`) twice within this long before
_FLICKER_MAX_OBS = 4  # a track seen this few times may be a flickering detection ...
_SAME_SPOT_MM = 5.0  # ... when it comes back this close to where it was seen ...
_FLICKER_JUMP_MM = 20.0  # ... after a jump this far away
_SPARSE_SHARE = 0.5  # a track seen in fewer than this share of the frames it spans is seen now and then
_SET_OFF_SLACK_FRAMES, _SET_OFF_SLACK_S = 3.0, 0.1  # the striker's set-off time is this unsure
_WITHDRAWN_REACH_MM = 60.0  # the cue's tip or the finger is seen this close to where the striker stood
# the cue's tip comes at least this much closer to the striker over this long before the stroke
_CUE_CAME_MM, _CUE_APPROACH_S = 20.0, 0.5
_CUE_BACK_S = 0.2  # ... and is seen drawn back from it at most this long after the striker set off
# a steady last motion: over this many frames, this straight, speeds within this ratio
_STEADY_FRAMES, _STEADY_COS, _STEADY_RATIO = 4.0, 0.9, 3.0
_SET_OFF_JUMP = 4.0  # a step this many times as long as the standing steps before it (or a mm) set the disc off
_ON_THE_SPOT_MM = 5.0  # a track first seen this near where a disc at rest was last seen follows that disc
_STAYED_WITHIN_S = 0.4  # a disc taken for gone over a cushion and picked up again this soon stayed on


def _stayed_on(hist: ShotHistory, ctx: ShotContext, kinds: np.ndarray, losses: list[tuple[int, Loss]],
               births: _Births, t_end_s: float, tune: ShotTuning) -> list[tuple[int, Loss]]:
    """`losses` without the discs taken for gone over a cushion that a new track followed on.

    Discs do not appear from nowhere: a track of the same kind first seen during the shot, soon after
    such a loss and within the lost disc's reach, that no disc stood for before the shot and that is
    still seen at its end, is that disc, turned aside at the cushion by another disc and lost for a
    few frames (carrom seed 1021 at 30 fps: a white of the break ran into the N cushion beside the
    queen, was turned along the cushion and seen again four frames later, 240 mm away). Only as many
    as such new tracks outnumber the discs of that kind that stood before the shot and whose tracks
    ended neither lost nor at the end (picked up by new tracks after a mix-up: carrom seed 2006 at
    30 fps, five new whites in a break, one of them 94 mm from where a white went off).
    """
    over = [k for k, (_, loss) in enumerate(losses) if loss.side is not None]
    if not over:  # (most shots)
        return losses
    anchored = np.isin(hist.ids, list(ctx.anchors))
    at_end = hist.seen_at_end(t_end_s)
    new = ~anchored & at_end & (births.n_obs >= tune.min_loss_obs) & (kinds != DiscKind.STRIKER)
    orphans = anchored & (hist.last_seen() >= 0) & ~at_end
    orphans[[row for row, _ in losses]] = False
    dropped = set()
    for k in over:  # (a loss over a cushion is rare)
        row = losses[k][0]
        if int((new & (kinds == kinds[row])).sum()) <= int((orphans & (kinds == kinds[row])).sum()):
            continue  # every new track of its kind is accounted for
        _, t, p = hist.observations(row)
        speed = tune.min_off_speed_mm_s
        if len(t) >= 2:
            speed = max(speed, float(np.hypot(*(p[-1] - p[-2]))) / max(float(t[-1] - t[-2]), 1e-6))
        gap = births.t_s - t[-1]
        # (no faster than it flew: a disc turned aside at a cushion keeps at most its speed)
        reach = np.hypot(*(births.xy_mm - p[-1]).T) <= 15.0 + speed * gap
        ok = new & (kinds == kinds[row]) & (gap > 0) & (gap <= _STAYED_WITHIN_S) & reach
        if ok.any():
            new[int(np.argmin(np.where(ok, gap, np.inf)))] = False
            dropped.add(k)
    return [loss for k, loss in enumerate(losses) if k not in dropped]


_LOST_FOR_S = 0.06  # a disc picked up again this long after it was lost may be the same disc going on
_JUMP_FACTOR = 3.0  # a sighting this many times nearer a bounced disc's path than its own track's way is the disc's
_AHEAD_COS = 0.5  # a disc picked up again within 60 degrees of its heading went on (glanced off something unseen)
_HIT_REACH_MM = 45.0  # a disc this close to another's way on may have been hit by it (two radii and some)
_TURNED_KEEP = 0.6  # share of its speed a disc turned aside keeps (a cushion keeps 0.5-0.75 of the normal speed)


def _continued(hist: ShotHistory, row: int, t_last: float, p_last: np.ndarray, v: np.ndarray | None,
               births: _Births, kinds: np.ndarray, dt: float, tune: ShotTuning, *,
               lim_mm: float, weak: bool = False) -> bool:
    """Whether a track born just after `row` vanished, close enough to be the same disc going on.

    `lim_mm`: the disc centre's largest |x| or |y| (at a cushion). `weak`: the loss was inferred from
    following the disc on (over a cushion, towards a pocket some way off), so even a track seen once
    there counts.
    """
    t_first, n_obs = births.t_s, births.n_obs
    # (a few frames, and at a high frame rate a few hundredths of a second: a disc smeared as it
    # bounces off a cushion beside a pocket is lost for as long, whatever the frame rate)
    window = max(3.5 * dt, _LOST_FOR_S)
    # (a disc hit from rest flies fast and is often seen only twice before it is lost again; one
    # taken for gone over a cushion or towards a distant pocket is often seen once, deflected,
    # before it is lost again)
    min_obs = 1 if weak else (tune.min_loss_obs if v is not None else 2)
    soon = (t_first > t_last) & (t_first <= t_last + window)
    # a disc at rest whose track ended where another took over on the spot, whatever kind that one is
    # read as (carrom seed 2007 at 60 fps: a white over a pocket's hole read in turn as the white, the
    # striker and a black; the striker's track ending there was "pocketed")
    if v is None and bool((soon & (n_obs >= tune.min_loss_obs)
                           & (np.hypot(*(births.xy_mm - p_last).T) <= _ON_THE_SPOT_MM)).any()):
        return True
    born = soon & (n_obs >= min_obs) & (kinds == kinds[row])
    if weak and kinds[row] != DiscKind.STRIKER:  # (a track seen once or twice may be gone by the
        # shot's end, its kind unknown; the striker is told apart by its size, reliably)
        born |= soon & (n_obs >= 1) & (n_obs < tune.min_loss_obs)
    if not born.any():
        return False
    # a disc last seen at rest that vanished was hit: it may have gone off at any speed
    speed = float(np.hypot(*v)) if v is not None else _HIT_SPEED_MM_S
    gap = t_first[born] - t_last
    at = births.xy_mm[born]
    step = at - p_last
    d = np.hypot(*step.T)
    near = d <= 15.0 + max(1.3 * speed, 500.0) * gap
    if v is None or not near.any():
        return bool(near.any())
    # a moving disc goes on ahead; turned aside by another disc it keeps less of its speed, and off a
    # cushion it comes back mirrored (carrom seed 1006 at 30 fps: a white flying into the NE pocket was
    # "picked up" by another white first seen 235 mm away, behind it, a tenth of a second later)
    ahead = step @ v >= _AHEAD_COS * d * speed
    bounced = np.hypot(*(at - _mirrored(p_last, v, gap, lim_mm)).T) <= 15.0 + _TURNED_KEEP * speed * gap
    if (near & (ahead | bounced)).any():
        return True
    return bool((near & _hit_on_the_way(hist, row, t_last, p_last, v, float(gap.max()), dt)).any())


def _bounced(hist: ShotHistory, row: int, t_last: float, p_last: np.ndarray, v: np.ndarray, radius_mm: float,
             ctx: ShotContext, dt: float) -> bool:
    """Whether another track is seen, within the next few frames, where `row` would be after a bounce.

    A disc taken for gone over a cushion in a crowd (a break at 30 fps) has often just bounced and
    been picked up by another track; one that left the board is not seen again there.
    """
    cols = np.flatnonzero((hist.t_s > t_last + 1e-9) & (hist.t_s <= t_last + 3.5 * dt))
    if cols.size == 0:
        return False
    lim = ctx.board.half_mm - radius_mm
    speed = float(np.hypot(*v))
    # only tracks that were not following a disc of their own just before (a new or a revived track)
    prior = np.flatnonzero((hist.t_s > t_last - 2.5 * dt) & (hist.t_s <= t_last + 1e-9))
    others = ~np.isfinite(hist.xy_mm[:, prior, 0]).any(axis=1)
    others[row] = False
    for c in cols:  # a few frames, once per lost disc
        gap = float(hist.t_s[c] - t_last)
        d = np.hypot(*(hist.xy_mm[:, c] - _mirrored(p_last, v, gap, lim)).T)
        near = np.isfinite(d) & (d <= 15.0 + 0.25 * speed * gap)
        near[row] = False
        if bool((near & others).any()):
            return True
        # ... or by a track that jumped there from far off its own way (carrom seed 1006 at 30 fps: a
        # white bounced off the N cushion was taken up, blurred, by a false striker track)
        if near.any() and bool((_own_way(hist, np.flatnonzero(near), int(c)) > _JUMP_FACTOR * (d[near] + 15.0)).any()):
            return True
    return False


def _taken_from_another(hist: ShotHistory, row: int, c: int) -> bool:
    """Whether `row`'s sighting in column `c` lies on the way of another track that missed that frame
    (seen in the frame or two either side): it was that disc's, taken up by `row` in a mix-up.

    Two discs are never closer than a disc's width. In a break at 30 fps a track of a man, mixed up
    with the striker or another man in the pack for a frame, jumps 70 mm onto it at 2 m/s, then is
    lost: it was taken for gone over a cushion (carrom seeds 1015, 1024 and 1045 at 30 fps).
    """
    lo, hi = max(c - _MIX_FRAMES, 0), min(c + _MIX_FRAMES + 1, hist.xy_mm.shape[1])
    seen = np.isfinite(hist.xy_mm[:, lo:hi, 0])
    k = c - lo
    rows = np.flatnonzero(~seen[:, k] & seen[:, :k].any(axis=1) & seen[:, k + 1:].any(axis=1))
    rows = rows[rows != row]
    if rows.size == 0:
        return False
    # the last sighting before and the first after, interpolated in time to column c
    before = lo + k - 1 - np.argmax(seen[rows, k - 1::-1], axis=1)
    after = lo + k + 1 + np.argmax(seen[rows, k + 1:], axis=1)
    t0, t1 = hist.t_s[before], hist.t_s[after]
    w = ((hist.t_s[c] - t0) / (t1 - t0))[:, None]
    way = hist.xy_mm[rows, before] * (1.0 - w) + hist.xy_mm[rows, after] * w
    return bool((np.hypot(*(way - hist.xy_mm[row, c]).T) <= _MIXED_MM).any())


def _turned_back(t: np.ndarray, p: np.ndarray, dt: float, open_mm: float) -> bool:
    """Whether the last sighting (of sightings `t` (n,) s, `p` (n, 2) mm) turns the disc back on its
    way, faster than it came, from the frame before, in the open (within `open_mm` of the centre
    along both axes: by a cushion or in a pocket's jaws a disc bounces back): a disc flying at it
    took the track over in the crowd (carrom seed 1015 at 30 fps: a white rolling off its place at
    0.5 m/s, its track taken by the striker going the other way at 2 m/s, called off the E cushion;
    seed 1024: a track taken for the striker, following a white, turned back onto another white,
    called the striker pocketed)."""
    if len(t) < 3 or float(t[-1] - t[-3]) > 2.5 * dt or float(np.abs(p[-2]).max()) > open_mm:
        return False
    before, last = p[-2] - p[-3], p[-1] - p[-2]
    n0, n1 = float(np.hypot(*before)), float(np.hypot(*last))
    return n0 > STILL_STEP_MM and n1 > n0 and float(before @ last) < -0.5 * n0 * n1


_MIX_FRAMES = 2  # a track that missed a frame, seen this many frames either side
_MIXED_MM = 12.0  # a sighting this near another disc's way is that disc's (discs stand a width apart)


def _hit_on_the_way(hist: ShotHistory, row: int, t_last: float, p_last: np.ndarray, v: np.ndarray, gap: float,
                    dt: float) -> bool:
    """Whether another disc was seen, from the frame before `row` vanished to `gap` s after, within
    touching distance (two coin radii and some) of its straight way on: something it may have hit
    and been turned aside by (in a pack broken at 30 fps, nearly always; a disc flying alone into a
    corner, never)."""
    obs, _, _ = _others_seen(hist, row, t_last - 1.5 * dt, t_last + gap + 1e-9)
    if len(obs) == 0:
        return False
    d = point_segment_distance(obs, p_last[None], (p_last + v * gap)[None])
    return bool((d <= _HIT_REACH_MM).any())


def _others_seen(hist: ShotHistory, row: int, t0_s: float, t1_s: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every sighting of the tracks other than `row` from `t0_s` to `t1_s`: centres (K, 2) mm,
    times (K,) s and the tracks' rows (K,)."""
    cols = np.flatnonzero((hist.t_s >= t0_s) & (hist.t_s <= t1_s))
    xy = hist.xy_mm[:, cols]
    seen = np.isfinite(xy[..., 0])
    seen[row] = False
    rows, k = np.nonzero(seen)
    return xy[rows, k], hist.t_s[cols][k], rows


def _disc_in_the_way(hist: ShotHistory, row: int, t_last: float, p_last: np.ndarray, v: np.ndarray, gap: float,
                     radius: np.ndarray, dt: float) -> bool:
    """Whether another disc stood in `row`'s straight way on from its last sighting, for `gap` s:
    seen ahead of it, touching its way (the two radii, of `radius` (N,) mm, apart), no later than a
    frame after it got there (carrom seed 1028 at 60 fps: a white at 4 m/s, last seen 40 mm short
    of the S cushion by the SW pocket, hit another white there and was turned into the pocket; its
    way, taken straight on, was over the cushion). Not one beside or behind it where it was last
    seen (the disc that hit it, the pack it flew out of), nor one that came by after it had gone
    (carrom seed 1006 at 30 fps: a black flying off the N cushion out of the break passed 34 mm
    from a white going the other way, 3 mm clear)."""
    obs, t_obs, rows = _others_seen(hist, row, t_last - 1e-9, t_last + gap + dt + 1e-9)
    speed = float(np.hypot(*v))
    if len(obs) == 0 or speed <= 0.0:
        return False
    reach = radius[rows] + radius[row]
    u = v / speed
    ahead = (obs - p_last) @ u
    came = t_obs <= t_last + np.maximum(ahead - reach, 0.0) / speed + dt + 1e-9
    keep = (ahead > reach) & came
    r = float(radius[row])
    d = point_segment_distance(obs[keep], (p_last + r * u)[None], (p_last + v * gap)[None])
    return bool((d <= reach[keep]).any())


def _mirrored(p: np.ndarray, v: np.ndarray, gap: float | np.ndarray, lim: float) -> np.ndarray:
    """(..., 2) where a disc at `p` (2,) moving at `v` (2,) is after `gap` (...) s, bounced back off any
    cushion it reaches (`lim`: its centre's largest |x| or |y|; see `fold_at_cushions`)."""
    q = (p + np.multiply.outer(gap, v)).reshape(-1, 2)
    _, folded = fold_at_cushions(np.broadcast_to(p, q.shape), q, np.full(4, lim), np.zeros(len(q), np.intp),
                                 lim_min=lim)
    return np.asarray(folded).reshape(*np.shape(gap), 2)


def _own_way(hist: ShotHistory, rows: np.ndarray, c: int) -> np.ndarray:
    """(K,) how far the sightings of tracks `rows` in column `c` lie from where each was heading:
    its last sighting before `c` moved on at its last step's velocity (inf if none before)."""
    seen = np.isfinite(hist.xy_mm[rows, :c, 0])
    out = np.full(len(rows), np.inf)
    for k, r in enumerate(rows):  # (the one or two tracks seen at a bounce point)
        prev = np.flatnonzero(seen[k])
        if len(prev) == 0:
            continue
        p1, t1 = hist.xy_mm[r, prev[-1]], hist.t_s[prev[-1]]
        ahead = p1
        if len(prev) >= 2:
            p0, t0 = hist.xy_mm[r, prev[-2]], hist.t_s[prev[-2]]
            ahead = p1 + (p1 - p0) * (hist.t_s[c] - t1) / max(float(t1 - t0), 1e-9)
        out[k] = float(np.hypot(*(hist.xy_mm[r, c] - ahead)))
    return out
