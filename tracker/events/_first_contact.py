"""The striker's first contact in a shot, from its straight run and the discs that moved.

Cast against where every disc stood (`_contacts.cast_line`), along the run's direction fitted to the
observations taken before any disc left its place; near ties in a pack are settled by which disc
left its place first. When the striker was not seen on its way in, the contact is guessed from
where it was first seen and which disc moved first.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tracker._track_assign import point_segment_distance
from tracker.events._contacts import FirstContact, cast_line, hit_distances, reflect
from tracker.events._history import ShotHistory
from tracker.events._shot_context import ShotContext, ShotTuning
from tracker.events._start import StrikerRun, fit_direction, follow_line, start_on_line
from tracker.specs import DiscKind

__all__ = ["break_tie", "direction_before_contact", "find_first_contact", "guess_first_contact",
           "hit_before_seen", "seen_before_contact"]


def direction_before_contact(hist: ShotHistory, row: int, run: StrikerRun, anchor: np.ndarray, eligible: np.ndarray,
                              k_trig: int, ctx: ShotContext, tune: ShotTuning) -> StrikerRun:
    """The run with its direction fitted only to observations taken before any disc left its place.

    The straight run often includes an observation or two taken just after the first contact (the
    striker barely deflects off a coin), which pulls the fitted line off the way in by a few
    degrees: in a pack, enough to pick the neighbour of the disc hit (issue 4). A run not seen at
    rest is refitted when two observations far enough apart came before (its origin followed back
    to the placement line again): at 30 fps the break's run is the striker standing, one sighting
    on its way in and two past the pack (carrom seed 1045: 1.7 degrees off, the neighbour hit).
    """
    rows = np.flatnonzero(eligible)
    after = hist.xy_mm[rows, k_trig:]
    off = np.hypot(*(after - anchor[rows, None, :]).transpose(2, 0, 1)) > tune.moved_mm  # NaN: False
    # a disc never seen again left its place just after it was last seen (carrom seed 1027 at 30
    # fps: a white knocked off the board from rest between two frames)
    last = hist.last_seen(since=k_trig)[rows] - k_trig
    gone = (last >= 0) & (last < off.shape[1] - 1)
    off[gone, last[gone] + 1] = True
    cols = np.flatnonzero(off.any(axis=0))
    t_off = float(hist.t_s[k_trig + cols[0]]) if cols.size else np.inf
    _, t, p = hist.observations(row, since=k_trig)
    before = (t >= run.first_t_s - 1e-9) & (t < t_off - 1e-9)
    if not before.any() or int(before.sum()) >= run.moving_obs:
        return run
    if run.seen_at_rest:
        return replace(run, direction=fit_direction(np.vstack([run.origin_mm[None], p[before]]), run.direction))
    way = p[before]
    if len(way) < 2 or float(np.hypot(*(way[-1] - way[0]))) < _REFIT_SPAN_MM:
        return run
    u = fit_direction(way, run.direction)
    origin = start_on_line(way, u, ctx.placement_line_mm, ctx.placement_extent_mm)
    if origin is None:
        return run
    # ... and its speed measured on the way in, not slowed by the pack (which dated the start early:
    # carrom seed 1037 at 60 fps, 54 ms)
    tw = t[before]
    along = (way - origin) @ u
    speed = max(run.speed_mm_s, float(along[-1] - along[0]) / max(float(tw[-1] - tw[0]), 1e-9))
    return replace(run, direction=u, origin_mm=origin, speed_mm_s=speed,
                   t_start_s=float(tw[0]) - float(along[0]) / speed)


def find_first_contact(hist: ShotHistory, ctx: ShotContext, run: StrikerRun | None, striker: int, anchor: np.ndarray,
                   radius: np.ndarray, eligible: np.ndarray, striker_lost: bool, tune: ShotTuning) -> FirstContact:
    if run is None:
        return FirstContact(-1, (), None, ())
    r_s = ctx.equipment.striker_diameter_mm / 2
    reach = radius + r_s
    xy = np.nan_to_num(anchor, nan=1e6)
    if striker_lost or _went_on_unseen(hist, striker, run):
        limit = np.inf
    elif np.isfinite(run.deviate_mm):
        # the contact came between the last observation on the line and the first off it
        limit = run.straight_mm + run.speed_mm_s * (run.deviate_t_s - run.straight_t_s) + tune.graze_mm
    else:
        limit = run.straight_mm + r_s
    origin, u, speed, t0 = run.origin_mm, run.direction, run.speed_mm_s, run.t_start_s
    cushions: list[str] = []
    t_cush: list[float] = []
    travelled = 0.0
    for _ in range(3 + _PASSED_MAX):  # the first segment and up to two bounces (and discs passed by)
        if len(cushions) == 3:
            break
        cast = cast_line(origin, u, limit, xy, reach, eligible, ctx.board, r_s, graze_mm=tune.graze_mm)
        t_hit = t0 + (travelled + cast.s_mm) / speed
        if cast.what == "disc":
            disc = break_tie(hist, origin, u, xy, reach, eligible, cast.disc, anchor, tune)
            if not cushions and _stood_still(hist, disc, striker, anchor, radius, run, cast.s_mm, tune):
                # passed by, not touched: it was moved later by something else (carrom seed 1022 at
                # 60 fps: a white 0.1 mm clear of the striker's way, the line through it cast as a graze)
                eligible = eligible.copy()
                eligible[disc] = False
                continue
            return FirstContact(disc, tuple(cushions), t_hit, tuple(t_cush))
        if cast.what != "cushion" or cast.side is None:
            return FirstContact(-1, tuple(cushions), None, tuple(t_cush), cast.what == "pocket")
        cushions.append(cast.side)
        t_cush.append(t_hit)
        travelled += cast.s_mm
        origin = origin + u * cast.s_mm
        u, limit = _after_bounce(hist, striker, origin, reflect(u, cast.side), t_hit, tune)
    return FirstContact(-1, tuple(cushions), None, tuple(t_cush))


# a striker going past at least this fast moves any disc it touches, even in a graze, by several mm
_GRAZE_SPEED_MM_S = 1000.0
_GONE_ON_MM_S = 1000.0  # a striker last seen going this fast did not stop there
_PASSED_MAX = 2  # discs along the line found standing still after the striker went by, at most
_STILL_AFTER_S = (0.05, 0.25)  # the window after the striker went past in which a disc touched is off its place
_TOUCHING_GAP_MM = 3.0  # discs this close are touching: a hit may pass through one that stays put
_REFIT_SPAN_MM = 30.0  # the least span of observations a run not seen at rest is refitted to
_BACK_FRAMES = 3.0  # a disc seen in flight from the first look left its place at most this many sightings before


def _went_on_unseen(hist: ShotHistory, row: int, run: StrikerRun) -> bool:
    """Whether the striker's track (`row`) ended on its line while it still went fast: its last
    sighting the last one on the line, or one behind that (a misread taken for it as it went on;
    carrom seed 1008 at 120 fps: the track ended on a false detection 40 mm off its way, its first
    contact, a cushion, called none). It went on, unseen, to whatever its line meets first."""
    _, t, p = hist.observations(row)
    if len(t) < 3:
        return False
    on_line = t <= run.straight_t_s + 1e-9
    if int(on_line.sum()) < 2 or int((~on_line).sum()) > 1:
        return False
    if not on_line[-1] and float((p[-1] - run.origin_mm) @ run.direction) >= run.straight_mm:
        return False  # off the line ahead: a contact
    q, tq = p[on_line][-2:], t[on_line][-2:]
    return float(np.hypot(*(q[1] - q[0]))) > _GONE_ON_MM_S * float(tq[1] - tq[0])


def _stood_still(hist: ShotHistory, row: int, striker: int, anchor: np.ndarray, radius: np.ndarray,
                 run: StrikerRun, s_mm: float, tune: ShotTuning) -> bool:
    """Whether the disc at `row`, on its own, stood still after the striker went past it.

    The striker went past when first seen `s_mm` or further along its `run` from its origin, after
    it set off (before, a hand carried it about: carrom seed 1033 at 30 fps, seen in the placing
    hand beyond the white it was later to hit, the white taken for passed by); if it went past
    fast, a disc it touched left its place at once, unless another disc touching it took the blow
    (a pack). A striker never seen that far (stopped by what it hit) says nothing.
    """
    _, ts, ps = hist.observations(striker)
    since = max(int(np.searchsorted(ts, run.t_start_s, side="right")) - 1, 0)  # (with its last sighting at rest)
    ts, ps = ts[since:], ps[since:]
    past = np.flatnonzero((ps - run.origin_mm) @ run.direction >= s_mm)
    k = int(past[0]) if past.size else 0
    if k == 0 or float(np.hypot(*(ps[k] - ps[k - 1]))) < _GRAZE_SPEED_MM_S * float(ts[k] - ts[k - 1]):
        return False
    _, t, p = hist.observations(row)
    w = (t > ts[k] + _STILL_AFTER_S[0]) & (t <= ts[k] + _STILL_AFTER_S[1])
    if int(w.sum()) < 3:
        return False
    d = np.hypot(*(p[w] - anchor[row]).T)
    if float(np.median(d)) > tune.stir_mm or float(d.max()) > tune.moved_mm:
        return False
    gap = np.hypot(*(anchor - anchor[row]).T) - radius - radius[row]  # NaN (no anchor): False below
    gap[[row, striker]] = np.inf
    return not bool((gap <= _TOUCHING_GAP_MM).any())


def break_tie(hist: ShotHistory, origin: np.ndarray, u: np.ndarray, xy: np.ndarray, reach: np.ndarray,
               eligible: np.ndarray, best: int, anchor: np.ndarray, tune: ShotTuning) -> int:
    """Of the discs the line reaches within `tie_mm` of the first, the one the striker really hit first.

    In a pack two discs are often nearly equidistant along the striker's line, closer than the
    line's direction is known. The disc hit first is the first to leave its place (seen at 60-120
    fps); of discs that left in the same frame, the first along the line.
    """
    s_hit = hit_distances(origin, u, xy, reach, eligible, graze_mm=tune.graze_mm)
    near = np.flatnonzero(s_hit <= s_hit[best] + tune.tie_mm)
    if near.size < 2:
        return best
    disp = hist.xy_mm[near] - anchor[near, None, :]
    stirred = np.hypot(disp[..., 0], disp[..., 1]) > tune.stir_mm  # NaN (not seen): False
    seen = stirred.any(axis=1)
    if not seen.any():
        return best
    col = np.where(seen, np.argmax(stirred, axis=1), stirred.shape[1])
    first = near[col == col.min()]
    # discs that left in the same frame: the line decides (in a tight pack the disc hit first is
    # squeezed between the striker and its neighbours, and its first motion says little)
    return best if best in first else int(first[np.argmin(s_hit[first])])


def _after_bounce(hist: ShotHistory, row: int, wall_xy: np.ndarray, u_mirror: np.ndarray, t_hit: float,
                  tune: ShotTuning) -> tuple[np.ndarray, float]:
    """Direction after a cushion (re-measured from the observations if possible) and how far it went straight."""
    cols, t, p = hist.observations(row)
    later = t > t_hit + 1e-6
    p = p[later]
    p = p[np.hypot(*(p - wall_xy).T) > tune.move_mm] if len(p) else p
    if len(p) == 0:
        return u_mirror, np.inf
    u, n = follow_line(wall_xy, p, tol_mm=tune.line_tol_mm)
    if float(u @ u_mirror) < 0.7:  # not the bounce we think (hit something first): keep the mirror
        return u_mirror, float((p[0] - wall_xy) @ u_mirror)
    along = (p - wall_xy) @ u
    return u, float(along[n] if n < len(p) else along[n - 1]) + 40.0


def seen_before_contact(run: StrikerRun, anchor: np.ndarray, reach: np.ndarray, kinds: np.ndarray,
                         ctx: ShotContext) -> bool:
    """Whether the run's first observation in motion came before the striker touched anything.

    A run seen at rest is trusted. Otherwise it is followed back to the placement line; if that
    line back passes through a disc, or does not start on a placement line, the observations were
    taken after the first contact and say nothing about the way in.
    """
    if run.seen_at_rest:
        return True
    o = run.origin_mm
    along_line = min(abs(float(o[0])), abs(float(o[1])))
    if along_line > ctx.placement_extent_mm + 25.0:
        return False
    r_s = ctx.equipment.striker_diameter_mm / 2
    xy = np.nan_to_num(anchor, nan=1e6)
    # (a disc standing where the striker stood is the striker itself, its track's kind misread: carrom
    # seed 1037 at 60 fps, a "white" under the striker's place taken for a disc it passed through)
    rest = np.isfinite(anchor[:, 0]) & (kinds != DiscKind.STRIKER) & (np.hypot(*(xy - o).T) > r_s)
    cast = cast_line(o, run.direction, max(run.first_mm - 5.0, 0.0), xy, reach, rest, ctx.board, r_s, graze_mm=-2.0)
    return cast.what == "none"


def hit_before_seen(hist: ShotHistory, run: StrikerRun, anchor: np.ndarray, reach: np.ndarray, eligible: np.ndarray,
                    k_trig: int, frame_dt_s: float, tune: ShotTuning) -> bool:
    """Whether a disc beside the run's way in (followed back from where the striker was first seen
    moving) left its place before that first sighting, or as it was taken beside it: the striker,
    hidden by the hand until then, had already hit it, and the run seen is its way on (carrom seed
    1023 at 120 fps: first seen touching a white, at 1.5 m/s after a 3.7 m/s strike, the shot dated
    from its line back 46 ms early)."""
    if run.seen_at_rest:
        return False
    rows = np.flatnonzero(eligible)
    if rows.size == 0:
        return False
    way = point_segment_distance(anchor[rows], run.origin_mm[None], run.first_xy_mm[None])[0]
    rows = rows[way <= reach[rows] + tune.moved_mm]
    # (one touching it where it was first seen was hit then, if it left within a frame or so)
    touching = np.hypot(*(anchor[rows] - run.first_xy_mm).T) <= reach[rows] + tune.moved_mm
    limit = run.first_t_s + np.where(touching, 1.5, -0.5) * frame_dt_s
    return any(_departure(hist, int(r), anchor[r], k_trig, tune) < lim for r, lim in zip(rows, limit, strict=True))


def guess_first_contact(hist: ShotHistory, run: StrikerRun | None, anchor: np.ndarray, reach: np.ndarray,
                         eligible: np.ndarray, k_trig: int, ctx: ShotContext,
                         tune: ShotTuning) -> tuple[FirstContact, float]:
    """First contact and start time when the striker was not seen on its way in.

    The disc hit first is the one that moved whose rest position is nearest to touching the
    striker where it was first seen (it slows down hard on a hit and is seen close by); the
    contact is when the first disc left its place, and the start is dated back from there by a
    fast strike from the placement line its run comes from (else the nearest).
    """
    rows = np.flatnonzero(eligible)
    deps = np.array([_departure(hist, int(r), anchor[r], k_trig, tune) for r in rows])
    t_contact = float(deps.min()) if deps.size and np.isfinite(deps.min()) else ctx.t_trigger_s
    disc = -1
    if run is not None and rows.size:
        gap = np.abs(np.hypot(*(anchor[rows] - run.first_xy_mm).T) - reach[rows])
        disc = int(rows[np.argmin(gap)])
        t_contact = min(t_contact, run.first_t_s)
    elif rows.size:
        disc = int(rows[np.argmin(deps)])
    where = anchor[disc] if disc >= 0 else (run.first_xy_mm if run is not None else np.zeros(2))
    # across from the placement line its run comes from (the line nearest the disc may be another side's)
    axis = int(np.argmax(np.abs(run.origin_mm if run is not None else where)))
    travel = max(ctx.placement_line_mm - abs(float(where[axis])) - float(reach[disc] if disc >= 0 else 0.0), 0.0)
    t_start = t_contact - travel / tune.fast_speed_mm_s
    return FirstContact(disc, (), t_contact if disc >= 0 else None, ()), t_start


def _departure(hist: ShotHistory, row: int, anchor: np.ndarray, k_trig: int, tune: ShotTuning) -> float:
    """When a disc at rest started moving (s), from its first observations away from its anchor."""
    cols, t, p = hist.observations(row, since=max(k_trig - 2, 0))
    away = np.hypot(*(p - anchor).T) > tune.moved_mm
    if not away.any():
        return np.inf
    j = int(np.argmax(away))
    if j + 1 < len(t) and away[j + 1]:
        speed = float(np.hypot(*(p[j + 1] - p[j]))) / max(float(t[j + 1] - t[j]), 1e-6)
        if j == 0 and speed < tune.min_loss_speed_mm_s:
            # standing off its anchor from the first look: it was not set moving here (carrom seed
            # 1016 at 60 fps: a hand's false "disc" by the N cushion, dated 94 s before the shot)
            return np.inf
        back = float(np.hypot(*(p[j] - anchor))) / max(speed, 1.0)
        return float(max(t[j] - back, t[j - 1] if j > 0 else float(t[0]) - _BACK_FRAMES * float(t[1] - t[0])))
    return float(t[j])
