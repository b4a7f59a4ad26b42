"""Reading a finished shot off its history: start, first contact, losses, rest positions.

Run once when everything has come to rest. Everything hard is decided here, with the whole shot in
view, rather than frame by frame: the striker's straight run gives the start time and, cast against
where every disc stood, its first contact; each disc that is no longer seen is followed on from its
last motion into a pocket, off the board, or nowhere (hidden). Events are dated when they happened.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from tracker._track_assign import point_distance, point_segment_distance
from tracker.events import factory
from tracker.events._anchor import last_still
from tracker.events._contacts import FirstContact
from tracker.events._first_contact import (
    direction_before_contact,
    find_first_contact,
    guess_first_contact,
    hit_before_seen,
    seen_before_contact,
)
from tracker.events._history import ShotHistory, median_xy, seen_before
from tracker.events._losses import Loss
from tracker.events._shot_context import ShotContext, ShotTuning
from tracker.events._shot_losses import find_losses
from tracker.events._shot_record import CushionTouch, ShotRecord, shot_extras
from tracker.events._start import StrikerRun, jumps_off_line, line_gap, stood_at_first, striker_run
from tracker.events.types import GameEvent
from tracker.specs import DiscKind

__all__ = ["ShotContext", "ShotOutcome", "ShotTuning", "analyse_shot", "side_of"]  # context and tuning re-exported


@dataclass(frozen=True, slots=True)
class ShotOutcome:
    """The shot's events (time order not guaranteed), ids that left the board, the record, and the
    ids of tracks that vanished in motion (doubles of discs another track followed on: not on the
    board where they were last seen)."""

    events: tuple[GameEvent, ...]
    lost_ids: tuple[int, ...]
    record: ShotRecord | None
    doubles: tuple[int, ...] = ()


def side_of(xy_mm: np.ndarray | tuple[float, float]) -> str:
    """The side of the board nearest to a point (board mm).

    Examples:
        >>> side_of((10.0, 250.0)), side_of((-300.0, 20.0))
        ('S', 'W')
    """
    x, y = float(xy_mm[0]), float(xy_mm[1])
    if abs(y) >= abs(x):
        return "S" if y > 0 else "N"
    return "E" if x > 0 else "W"


def analyse_shot(hist: ShotHistory, ctx: ShotContext, t_end_s: float, frame_end: int,
                 tune: ShotTuning | None = None) -> ShotOutcome:
    """The events of one finished shot.

    Args:
        hist: observations from shortly before the shot to its end.
        ctx: anchors, kinds and the rest of the context.
        t_end_s: when everything was at rest long enough (shot_end time), s.
        frame_end: the frame of `t_end_s`.
        tune: tuning (default `ShotTuning()`).

    Returns:
        The outcome; no events at all if nothing moved (motion that was not a shot).
    """
    tune = tune or ShotTuning()
    kinds = np.array([ctx.kind_of.get(int(i), DiscKind.WHITE) for i in hist.ids], np.int8)
    share = np.array([ctx.kind_share.get(int(i), 1.0) for i in hist.ids], np.float64)
    radius = ctx.equipment.radii_mm(kinds).astype(np.float64)
    anchor = np.array([ctx.anchors.get(int(i), (np.nan, np.nan)) for i in hist.ids], np.float64).reshape(-1, 2)
    k_trig = int(np.searchsorted(hist.t_s, ctx.t_trigger_s - 0.25))
    moved = _moved(hist, anchor, k_trig, tune)
    gone = _gone(hist, ctx, t_end_s)
    hidden = np.isin(hist.ids, list(ctx.hidden))
    moved |= gone & ~hidden  # vanished during the shot, not under a hand
    striker = _striker_row(hist, kinds, share, k_trig, ctx.t_trigger_s, ctx.trigger_ids)
    run = _run(hist, ctx, striker, k_trig, tune) if striker >= 0 else None
    # discs do not appear out of nowhere: one first seen during the shot that never left the spot where
    # it appeared is a false detection (a pocket's rim taken for the striker: seeds 1007 and 1008), not
    # a disc that went into that pocket
    losses = find_losses(hist, ctx, kinds, radius, moved & gone & ~_appeared_still(hist, anchor, k_trig),
                         t_end_s, tune, run=run)
    kinds = _one_striker(hist, ctx, kinds, losses, hidden, t_end_s)
    if striker < 0 or (run is None and not moved.any() and not losses):
        # no striker at all: discs moved by a hand (placing the striker, tidying), not a shot
        return ShotOutcome((), (), None)
    lost_rows = {row for row, _ in losses}
    eligible = moved & np.isfinite(anchor[:, 0]) & (kinds != DiscKind.STRIKER)
    eligible &= seen_before(hist.t_s, hist.xy_mm, ctx.t_trigger_s)
    reach = radius + ctx.equipment.striker_diameter_mm / 2
    if run is not None and (not seen_before_contact(run, anchor, reach, kinds, ctx)
                            or hit_before_seen(hist, run, anchor, reach, eligible, k_trig, ctx.frame_dt_s, tune)):
        # first seen after its first contact (hidden by the hand, blurred, a low frame rate)
        first, t_start = guess_first_contact(hist, run, anchor, reach, eligible, k_trig, ctx, tune)
        run = None
    elif run is None:
        first, t_start = guess_first_contact(hist, None, anchor, reach, eligible, k_trig, ctx, tune)
    else:
        run = direction_before_contact(hist, striker, run, anchor, eligible, k_trig, ctx, tune)
        first = find_first_contact(hist, ctx, run, striker, anchor, radius, eligible, striker in lost_rows, tune)
        # no disc seen in its way: a disc under a hand, never seen again, may have taken the blow and
        # come out from under the hand as a new track (carrom seed 1028 at 60 fps: a black under the
        # other player's resting hand, the first contact called none; in shot 4, a cushion beyond it,
        # where a striker seen straight on past the black would have gone: carrom seed 1005 at 120
        # fps, a queen under a hand 36 mm off the way, the striker seen 210 mm past her)
        under = gone & hidden & ~moved & np.isfinite(anchor[:, 0]) & (kinds != DiscKind.STRIKER)
        if first.disc < 0 and under.any():
            hidden_first = find_first_contact(hist, ctx, run, striker, anchor, radius, eligible | under,
                                              striker in lost_rows, tune)
            if not (first.cushions or first.pocketed_first) or (
                    hidden_first.t_disc_s is not None
                    and (hidden_first.t_disc_s - run.t_start_s) * run.speed_mm_s >= run.straight_mm):
                first = hidden_first
        t_start = run.t_start_s
    t_start = float(max(t_start, hist.t_s[0], ctx.t_trigger_s - 0.5))
    # a disc does not stop unseen in the open, nor where a hand that hid it has gone: a track last
    # seen moving, neither lost nor under a hand at the end of the shot, is a double of the one
    # that picked its disc up again (after a mix-up, or out from under the hand); one seen once or
    # twice was no disc. (One seen standing there a while may be a disc the detector misses there: a
    # light man against a korona rail.)
    lost = np.zeros(len(hist.ids), bool)
    lost[list(lost_rows)] = True
    open_ = ~hidden | np.isin(hist.ids, list(ctx.uncovered))
    vanished = _not_there(hist, gone & ~lost & open_, radius, ctx.frame_dt_s, tune)
    return _build(hist, ctx, kinds, anchor, striker, run, first, losses, t_start, t_end_s, frame_end, vanished)


# -- pieces -----------------------------------------------------------------------------------------

def _one_striker(hist: ShotHistory, ctx: ShotContext, kinds: np.ndarray, losses: list[tuple[int, Loss]],
                 hidden: np.ndarray, t_end_s: float) -> np.ndarray:
    """`kinds` with a "striker" first seen in flight during the shot and lost into a pocket, while a
    striker seen before the shot is on the board at its end, read as a man whose track ended
    unexplained during the shot (there is one striker).

    A man flying into a pocket, first seen blurred as wide as the striker, is voted a striker by
    every sighting (carrom seed 1028 at 60 fps: a white into the NW pocket called the striker
    pocketed, the white's own track lost in the pack a frame before). Of such men, the one whose
    track ended nearest in time to the lost track's first sighting.
    """
    is_striker = kinds == DiscKind.STRIKER
    first = hist.first_seen()
    before = (first >= 0) & (hist.t_s[first] < ctx.t_trigger_s - 1e-9)
    lost = [row for row, loss in losses if loss.pocket is not None and is_striker[row] and not before[row]]
    if not lost:  # (nearly every shot)
        return kinds
    at_end = hist.seen_at_end(t_end_s)
    if not (is_striker & before & at_end).any():
        return kinds
    last = hist.last_seen()
    orphans = np.isin(hist.ids, list(ctx.anchors)) & ~is_striker & (last >= 0) & ~at_end & ~hidden
    orphans[[row for row, _ in losses]] = False
    out = kinds.copy()
    for row in lost:  # (one, rarely)
        cand = np.flatnonzero(orphans)
        if cand.size == 0:
            break
        pick = int(cand[np.argmin(np.abs(last[cand] - first[row]))])
        out[row], orphans[pick] = kinds[pick], False
    return out


def _moved(hist: ShotHistory, anchor: np.ndarray, k_trig: int, tune: ShotTuning) -> np.ndarray:
    """(M,) bool: discs that left their anchor during the shot (a clear jump, or a small shift at rest)."""
    after = hist.xy_mm[:, k_trig:]
    disp = np.hypot(*(after - anchor[:, None, :]).transpose(2, 0, 1))
    far = np.where(np.isfinite(disp), disp, -1.0).max(axis=1) > tune.moved_mm
    # a graze moves a disc only a little: compare the median of its last observations with the anchor
    seen = np.isfinite(after[..., 0])
    n = seen.sum(axis=1)
    end = np.full(anchor.shape, np.nan)
    for r in np.flatnonzero(n > 0):  # once per shot
        end[r] = median_xy(after[r, seen[r]][-5:])
    shift = np.hypot(*(end - anchor).T)
    return np.asarray(far | (np.nan_to_num(shift, nan=0.0) > tune.shift_mm))


def _not_there(hist: ShotHistory, rows: np.ndarray, radius: np.ndarray, dt: float, tune: ShotTuning) -> np.ndarray:
    """(M,) bool: of `rows` (M,) bool, the tracks seen fewer than `min_loss_obs` times, last seen
    moving (their last two sightings a few frames apart at most, faster than `min_loss_speed_mm_s`
    between them), last seen standing just as another disc ran into them (`_struck_away`), or not
    seen standing at their last place (within `stand_mm`) for `min_stand_s`, unless they crept there
    (`_crept`) and no other track picked them up (`_picked_up`): a disc the detector stops seeing at
    rest (a light man against a korona rail) was seen at rest there first, where a track lost as its
    disc slowed down, the disc picked up by another track (rendered carrom seed 3006 at 30 fps, the
    break: eight such doubles in the rest list), was not; `radius` (M,) mm."""
    out = np.zeros(len(hist.ids), bool)
    for row in np.flatnonzero(rows):  # the few discs that vanished, once per shot
        _, t, p = hist.observations(int(row))
        if len(t) < tune.min_loss_obs:
            out[row] = True
            continue
        step_s = float(t[-1] - t[-2])
        moving = step_s <= 2.5 * dt + 1e-6 and float(np.hypot(*(p[-1] - p[-2]))) >= tune.min_loss_speed_mm_s * step_s
        stood = _stood_s(t, p, tune.stand_mm)
        unsettled = stood < tune.min_stand_s and not (
            _crept(t, p, stood, dt, tune)
            and not _picked_up(hist, int(row), float(t[-1]), p[-1], _PICKUP_RADII * float(radius[row])))
        out[row] = moving or unsettled or _struck_away(hist, int(row), float(t[-1]), p[-1], radius, dt)
    return out


_PICKUP_RADII = 4.0  # a disc lost as it slowed down is picked up again within this many of its radii
_PICKUP_BEFORE_S = 0.5  # ... by a track not seen there for this long before
_CREEP_S = 0.3  # a disc creeping to a stop was seen slower than `min_loss_speed_mm_s` over this long


def _crept(t: np.ndarray, p: np.ndarray, stood_s: float, dt: float, tune: ShotTuning) -> bool:
    """Whether a track seen at times `t` (K,) at `p` (K, 2) mm crept to its last place: seen standing
    there (`stood_s`, s) in two frames at least, and over the `_CREEP_S` before, seen three times or
    more, never further from it than `min_loss_speed_mm_s` takes a disc in that time."""
    if stood_s < 1.5 * dt:
        return False
    late = t >= t[-1] - _CREEP_S
    return bool(late.sum() >= 3 and (np.hypot(*(p[late] - p[-1]).T) <= tune.min_loss_speed_mm_s * _CREEP_S).all())


def _picked_up(hist: ShotHistory, row: int, t_last: float, p_last: np.ndarray, reach_mm: float) -> bool:
    """Whether another track is seen within `reach_mm` of where track `row` was last seen (`p_last`
    mm, at `t_last` s) after that, not having been seen there in the moment before: the disc, lost
    as it slowed down, picked up again. A light man creeping to a stop, too faint to be seen until
    he stands (carrom seed 1046 at 60 fps: seen standing four frames, then not for a second),
    is picked up by no other track: he is still there."""
    near = np.hypot(*(hist.xy_mm - p_last).transpose(2, 0, 1)) <= reach_mm  # (M, K); NaN: False
    near[row] = False
    after = hist.t_s > t_last
    before = (hist.t_s > t_last - _PICKUP_BEFORE_S) & ~after
    return bool((near[:, after].any(axis=1) & ~near[:, before].any(axis=1)).any())


def _stood_s(t: np.ndarray, p: np.ndarray, within_mm: float) -> float:
    """How long (s) a track seen at times `t` (K,) at `p` (K, 2) mm was seen within `within_mm` of
    its last place, up to its last sighting (all of its sightings if it never was elsewhere)."""
    away = np.flatnonzero(np.hypot(*(p - p[-1]).T) > within_mm)
    return float(t[-1] - t[away[-1] + 1 if away.size else 0])


def _struck_away(hist: ShotHistory, row: int, t_last: float, p_last: np.ndarray, radius: np.ndarray,
                 dt: float) -> bool:
    """Whether another disc's path came within touching distance of `p_last` (mm), moving, within a
    frame or two of `t_last` (s), when track `row` was last seen there: it was knocked away, its
    first step unseen (a 30 fps break), and is followed on by another track."""
    cols = np.flatnonzero((hist.t_s >= t_last - 2.5 * dt) & (hist.t_s <= t_last + 2.5 * dt))
    if cols.size < 2:
        return False
    a, b = hist.xy_mm[:, cols[:-1]], hist.xy_mm[:, cols[1:]]  # (M, K-1, 2) steps of every track
    gap = point_segment_distance(p_last[None], a.reshape(-1, 2), b.reshape(-1, 2)).reshape(a.shape[:2])
    step = np.hypot(*(b - a).transpose(2, 0, 1))
    reach = (radius[row] + radius)[:, None] + _STRUCK_SLACK_MM
    hit = (np.nan_to_num(gap, nan=np.inf) <= reach) & (np.nan_to_num(step, nan=0.0) > _STRUCK_SLACK_MM)
    hit[row] = False
    return bool(hit.any())


def _appeared_still(hist: ShotHistory, anchor: np.ndarray, k_trig: int) -> np.ndarray:
    """(M,) bool: tracks not on the board before the shot, first seen during it, that never moved.

    Never moved: every observation within `_WANDER_MM` of the first. A disc knocked out of the way is
    seen moving (or was there before); a mark on the board taken for a disc is not.
    """
    xy = hist.xy_mm
    seen = np.isfinite(xy[..., 0])
    new = ~np.isfinite(anchor[:, 0]) & ~seen[:, :k_trig].any(axis=1) & seen.any(axis=1)
    out = np.zeros(len(xy), bool)
    for r in np.flatnonzero(new):  # the few tracks born during the shot, once per shot
        p = xy[r, seen[r]]
        out[r] = float(np.hypot(*(p - p[0]).T).max()) <= _WANDER_MM
    return out


_WANDER_MM = 10.0  # the centre of a false detection (a pocket's rim) wanders this far (seen: 6 mm)
_STRUCK_SLACK_MM = 5.0  # a disc this much more than touching another, or stepping this little, did not hit it


def _gone(hist: ShotHistory, ctx: ShotContext, t_end_s: float) -> np.ndarray:
    """(M,) bool: tracks seen during the shot but not at its end."""
    last = hist.last_seen()
    t_last = hist.t_s[np.maximum(last, 0)]
    return np.asarray((last >= 0) & ~hist.seen_at_end(t_end_s) & (t_last >= ctx.t_trigger_s - 0.25))


def _striker_row(hist: ShotHistory, kinds: np.ndarray, share: np.ndarray, k_trig: int, t_trigger_s: float,
                 trigger_ids: frozenset[int] = frozenset()) -> int:
    """The striker's track: of the sure striker-kind tracks, the one seen last before the shot started.

    The striker lost for a few frames at speed is sometimes picked up by a new track; the track
    that was struck is the one that tells where and when the shot started. A striker-kind track
    whose motion started the shot (in `trigger_ids`) is preferred: a hand's false detections taken
    for the striker are seen as late (seed 1002 at 120 fps, issue 4). Without a sure one, the
    striker-kind track most seen during the shot.
    """
    rows = np.flatnonzero(kinds == DiscKind.STRIKER)
    if rows.size == 0:
        return -1
    if trigger_ids:
        started = np.isin(hist.ids[rows], list(trigger_ids)) & (share[rows] >= 0.6)
        rows = rows[started] if started.any() else rows
    n_obs = np.isfinite(hist.xy_mm[rows, k_trig:, 0]).sum(axis=1)
    sure = share[rows] >= 0.6
    k_start = int(np.searchsorted(hist.t_s, t_trigger_s + 1e-6, side="right"))
    seen_by = np.isfinite(hist.xy_mm[rows, :k_start, 0])
    last = np.where(seen_by.any(axis=1), seen_by.shape[1] - np.argmax(seen_by[:, ::-1], axis=1), 0)
    if (sure & (last > 0)).any():
        return int(rows[np.argmax(np.where(sure, last, -1) + 0.001 * n_obs / max(n_obs.max(), 1))])
    return int(rows[np.argmax(n_obs * sure + 0.001 * n_obs)])


def _run(hist: ShotHistory, ctx: ShotContext, row: int, k_trig: int, tune: ShotTuning) -> StrikerRun | None:
    cols, t, p = hist.observations(row, since=k_trig)
    # observations before a gap (the striker seen elsewhere before it was picked up and placed), or
    # before a jump out of standing off the placement lines (a hand's false detection taken for the
    # striker before the striker itself), are not the run
    gaps = np.union1d(np.flatnonzero(np.diff(t) > 3.5 * ctx.frame_dt_s),
                      jumps_off_line(t, p, line_mm=ctx.placement_line_mm, off_mm=ctx.equipment.striker_diameter_mm))
    early = gaps[t[gaps + 1] <= ctx.t_trigger_s + 1e-6] if gaps.size else gaps
    if early.size:
        t, p = t[early[-1] + 1:], p[early[-1] + 1:]
    rest = _stood_on_line(t, p, ctx, tune) if ctx.striker_rest is None else np.asarray(ctx.striker_rest, np.float64)
    if rest is None:
        rest = stood_at_first(t, p, line_mm=ctx.placement_line_mm, tol_mm=ctx.placement_tol_mm)
    else:
        # nor are the sightings before it was last seen standing there: the hand carried it there
        # (carrom seed 1033 at 30 fps: seen in the placing hand, then on a man beside its place,
        # its run taken from those two, the shot dated 0.45 s early)
        there = np.flatnonzero((np.hypot(*(p - rest).T) <= tune.move_mm) & (t <= ctx.t_trigger_s + 1e-9))
        if there.size:
            t, p = t[there[-1]:], p[there[-1]:]
    return striker_run(t, p, rest_xy=rest, line_mm=ctx.placement_line_mm,
                       assumed_speed_mm_s=tune.assumed_speed_mm_s, tol_mm=tune.line_tol_mm, move_mm=tune.move_mm,
                       extent_mm=ctx.placement_extent_mm)


def _stood_on_line(t: np.ndarray, p: np.ndarray, ctx: ShotContext, tune: ShotTuning) -> np.ndarray | None:
    """Where the run's own observations (times `t` (n,) s, centres `p` (n, 2) mm) show the striker
    standing on a placement line before it left, when it was not seen there before motion was
    noticed: it came out from under the hand a few frames before the flick (carrom seed 1044 at 120
    fps: seen standing for three frames, then sliding off slowly, its shot dated from its first
    sighting under the fingers, 26 ms early)."""
    before = t <= ctx.t_trigger_s + 1e-9
    xy, t_still = last_still(t[before], p[before], np.ones(int(before.sum()), bool), ctx.frame_dt_s, settled=True)
    if not np.isfinite(t_still) or float(line_gap(xy, ctx.placement_line_mm)) > ctx.placement_tol_mm:
        return None
    later = t > t_still
    return xy if bool((np.hypot(*(p[later] - xy).T) > tune.move_mm).any()) else None


def _rest_position(hist: ShotHistory, row: int) -> tuple[float, float] | None:
    cols, _, p = hist.observations(row)
    if len(cols) == 0:
        return None
    xy = median_xy(p[-5:])
    return float(xy[0]), float(xy[1])


def _build(hist: ShotHistory, ctx: ShotContext, kinds: np.ndarray, anchor: np.ndarray, striker: int,
           run: StrikerRun | None, first: FirstContact, losses: list[tuple[int, Loss]], t_start: float,
           t_end: float, frame_end: int, vanished: np.ndarray) -> ShotOutcome:
    n = ctx.number
    ref = [factory.disc_ref(int(i), int(k)) for i, k in zip(hist.ids, kinds, strict=True)]
    first_ref = None
    if first.disc >= 0:  # the disc hit first is the one that stood there before the shot
        i = int(hist.ids[first.disc])
        first_ref = factory.disc_ref(i, int(ctx.kind_before.get(i, kinds[first.disc])))
    events: list[GameEvent] = []
    striker_ref = ref[striker] if striker >= 0 else None
    t_start = min(t_start, t_end)
    events.append(factory.shot_start(t_start, hist.frame_at(t_start), shot=n, striker=striker_ref))
    if striker_ref is not None:
        for side, t in zip(first.cushions, first.t_cushions_s, strict=True):
            t = min(max(t, t_start), t_end)
            events.append(factory.contact_cushion(t, hist.frame_at(t), shot=n, a=striker_ref, side=side))
        if first_ref is not None and first.t_disc_s is not None:
            t = min(max(first.t_disc_s, t_start), t_end)
            events.append(factory.contact_discs(t, hist.frame_at(t), shot=n, a=striker_ref, b=first_ref))
    fate = ["board"] * len(hist.ids)
    for row, loss in losses:
        t = min(max(loss.t_s, t_start), t_end)
        if loss.pocket is not None:
            fate[row] = "pocketed"
            events.append(factory.pocketed(t, hist.frame_at(t), shot=n, disc=ref[row], pocket=loss.pocket))
        else:
            fate[row] = "off_board"
            events.append(factory.off_board(t, hist.frame_at(t), shot=n, disc=ref[row], side=loss.side))
    rest, after = _rest(hist, ctx, kinds, anchor, fate, ref, vanished)
    first_disc = first_ref["kind"] if first_ref is not None else None
    first_contact = "cushion" if first.cushions else first_disc
    side = side_of(run.origin_mm) if run is not None else "S"
    record = ShotRecord(
        game=ctx.game, shot=n, board=ctx.board, equipment=ctx.equipment, t_start_s=t_start, t_end_s=t_end,
        side=side, ids=hist.ids.copy(), kinds=kinds.copy(), t_s=hist.t_s.copy(), xy_mm=hist.xy_mm.copy(),
        before_mm=anchor.copy(), after_mm=after, fate=tuple(fate),
        striker_id=int(hist.ids[striker]) if striker >= 0 else None, first_contact=first_contact,
        first_disc_id=int(hist.ids[first.disc]) if first.disc >= 0 else None,
        first_cushion=first.cushions[0] if first.cushions else None,
        cushion_before_contact=bool(first.cushions),
        cushions=tuple(
            CushionTouch(t, int(hist.ids[striker]), s)
            for s, t in zip(first.cushions, first.t_cushions_s, strict=True)
        ),
    )
    extra: dict[str, Any] = {"first_disc": first_disc, "first_cushion": record.first_cushion,
                             "cushion_before_contact": record.cushion_before_contact, "side": side}
    extra |= shot_extras(ctx.game, record)
    events.append(factory.shot_end(t_end, frame_end, shot=n, first_contact=first_contact, rest=rest, extra=extra))
    lost = tuple(int(hist.ids[row]) for row, _ in losses)
    return ShotOutcome(tuple(events), lost, record, tuple(int(i) for i in hist.ids[vanished]))


def _rest(hist: ShotHistory, ctx: ShotContext, kinds: np.ndarray, anchor: np.ndarray, fate: list[str],
          ref: list[dict[str, Any]], vanished: np.ndarray) -> tuple[list[dict[str, Any]], np.ndarray]:
    """Rest list (every disc on the board, board mm) and (M, 2) rest positions (NaN for lost discs,
    and for the tracks in `vanished` (M,) bool: doubles of discs listed under the tracks that picked
    them up again)."""
    after = np.full((len(hist.ids), 2), np.nan)
    seen = np.isfinite(hist.xy_mm[..., 0])
    n_obs = seen.sum(axis=1)
    # (standing nowhere before the shot and not seen since it started: no disc came to rest)
    since = seen[:, int(np.searchsorted(hist.t_s, ctx.t_trigger_s)):].any(axis=1)
    for row in range(len(hist.ids)):  # once per shot
        if fate[row] != "board" or vanished[row]:
            continue
        if not np.isfinite(anchor[row, 0]) and (n_obs[row] < 4 or not since[row]):
            continue  # a passing false detection, not a disc
        pos = _rest_position(hist, row)
        after[row] = pos if pos is not None else anchor[row]
    rank = _credibility(ctx, anchor, after, n_obs)
    after[_doubles(ctx, kinds, after, rank)] = np.nan
    after[_beyond_the_set(ctx, kinds, after, rank)] = np.nan
    rest = [{**ref[row], "x_mm": round(float(after[row, 0]), 1), "y_mm": round(float(after[row, 1]), 1)}
            for row in np.flatnonzero(np.isfinite(after[:, 0]))]
    return rest, after


def _credibility(ctx: ShotContext, anchor: np.ndarray, after: np.ndarray, n_obs: np.ndarray) -> np.ndarray:
    """(M,) rank of each row as a disc at rest, 0 the most credible: standing there before the shot
    first, then off the base circles' prints, then seen most."""
    on_print = ctx.board.on_base_circle(np.nan_to_num(after, nan=1e6))
    order = np.lexsort((-n_obs, on_print, ~np.isfinite(anchor[:, 0])))  # (the last key is the first)
    rank = np.empty(len(order), np.intp)
    rank[order] = np.arange(len(order))
    return rank


_OVERLAP = 0.8  # discs lie flat, side by side: centres this share of their radii's sum apart overlap, beyond doubt


def _doubles(ctx: ShotContext, kinds: np.ndarray, after: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """(M,) bool: rows at rest (`after` (M, 2) finite) lying over a more credible one (`rank` (M,), 0
    the most; centres within `_OVERLAP` of their radii's sum): a second track on one disc (korona seed
    1041 at 30 fps: a dark man against the S rail listed twice, 3 mm apart)."""
    rows = np.flatnonzero(np.isfinite(after[:, 0]))
    radius = ctx.equipment.radii_mm(kinds[rows])
    d = point_distance(after[rows], after[rows])
    over = (d < _OVERLAP * (radius[:, None] + radius[None, :])) & (rank[rows][:, None] > rank[rows][None, :])
    out = np.zeros(len(kinds), bool)
    out[rows[over.any(axis=1)]] = True
    return out


def _beyond_the_set(ctx: ShotContext, kinds: np.ndarray, after: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """(M,) bool: rows at rest (`after` (M, 2) finite) beyond what the set holds of their kind (one
    striker, its queens, its men of each colour): the least credible of them (`rank` (M,), 0 the most)
    are false detections (a base circle's red print read as the queen under a shadow, a hand as the
    striker; carrom seed 1023 at 120 fps: two "queens" on base circles beside the queen)."""
    eq = ctx.equipment
    limit = {int(DiscKind.WHITE): eq.men_per_colour, int(DiscKind.BLACK): eq.men_per_colour,
             int(DiscKind.QUEEN): eq.queens, int(DiscKind.STRIKER): 1}
    out = np.zeros(len(kinds), bool)
    at_rest = np.isfinite(after[:, 0])
    for kind, most in limit.items():  # four kinds
        rows = np.flatnonzero(at_rest & (kinds == kind))
        if rows.size > most:
            out[rows[np.argsort(rank[rows])[most:]]] = True
    return out
