"""Reading a finished shot off its history: start, first contact, losses, rest positions.

Run once when everything has come to rest. Everything hard is decided here, with the whole shot in
view, rather than frame by frame: the striker's straight run gives the start time and, cast against
where every disc stood, its first contact; each disc that is no longer seen is followed on from its
last motion into a pocket, off the board, or nowhere (hidden). Events are dated when they happened.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from tracker.events import factory
from tracker.events._contacts import FirstContact, cast_line, reflect
from tracker.events._history import ShotHistory
from tracker.events._losses import Loss, classify_loss
from tracker.events._shot_record import CushionTouch, ShotRecord, shot_extras
from tracker.events._start import StrikerRun, follow_line, striker_run
from tracker.events.types import GameEvent
from tracker.specs import BoardSpec, DiscKind, EquipmentSpec

__all__ = ["ShotContext", "ShotOutcome", "ShotTuning", "analyse_shot", "side_of"]


@dataclass(frozen=True, slots=True)
class ShotTuning:
    """Tuning of the end-of-shot analysis (mm, mm/s, s)."""

    assumed_speed_mm_s: float = 3500.0
    fast_speed_mm_s: float = 4500.0
    line_tol_mm: float = 4.0
    move_mm: float = 5.0
    moved_mm: float = 6.0
    shift_mm: float = 1.5
    graze_mm: float = 2.5
    loss_horizon_frames: float = 4.5
    pocket_reach_mm: float = 16.0
    min_off_speed_mm_s: float = 2000.0
    min_loss_speed_mm_s: float = 150.0
    min_loss_obs: int = 3


@dataclass(frozen=True, slots=True)
class ShotContext:
    """What the detector knows besides the history.

    Attributes:
        game: "carrom" or "korona".
        number: shot number.
        board: board geometry.
        equipment: disc sizes.
        kind_of: track id -> `DiscKind` value (by vote).
        kind_share: track id -> share of the votes behind that kind.
        anchors: track id -> (x, y) where the disc stood at rest before the shot, board mm.
        striker_rest: (x, y) where the striker was seen standing just before the shot, or None.
        hidden: ids of tracks that vanished under a hand.
        t_trigger_s: when motion was first noticed, s.
        frame_dt_s: frame interval, s.
        placement_line_mm: distance of the placement lines from the centre, mm.
        placement_extent_mm: half the length of a placement line, mm.
    """

    game: str
    number: int
    board: BoardSpec
    equipment: EquipmentSpec
    kind_of: Mapping[int, int]
    kind_share: Mapping[int, float]
    anchors: Mapping[int, tuple[float, float]]
    striker_rest: tuple[float, float] | None
    hidden: frozenset[int]
    t_trigger_s: float
    frame_dt_s: float
    placement_line_mm: float
    placement_extent_mm: float


@dataclass(frozen=True, slots=True)
class ShotOutcome:
    """The shot's events (time order not guaranteed), ids that left the board, and the record."""

    events: tuple[GameEvent, ...]
    lost_ids: tuple[int, ...]
    record: ShotRecord | None


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
                 tune: ShotTuning = ShotTuning()) -> ShotOutcome:
    """The events of one finished shot.

    Args:
        hist: observations from shortly before the shot to its end.
        ctx: anchors, kinds and the rest of the context.
        t_end_s: when everything was at rest long enough (shot_end time), s.
        frame_end: the frame of `t_end_s`.
        tune: tuning.

    Returns:
        The outcome; no events at all if nothing moved (motion that was not a shot).
    """
    kinds = np.array([ctx.kind_of.get(int(i), DiscKind.WHITE) for i in hist.ids], np.int8)
    share = np.array([ctx.kind_share.get(int(i), 1.0) for i in hist.ids], np.float64)
    radius = ctx.equipment.radii_mm(kinds).astype(np.float64)
    anchor = np.array([ctx.anchors.get(int(i), (np.nan, np.nan)) for i in hist.ids], np.float64).reshape(-1, 2)
    k_trig = int(np.searchsorted(hist.t_s, ctx.t_trigger_s - 0.25))
    moved = _moved(hist, anchor, k_trig, tune)
    gone = _gone(hist, ctx, t_end_s)
    moved |= gone & ~np.isin(hist.ids, list(ctx.hidden))  # vanished during the shot, not under a hand
    losses = _losses(hist, ctx, kinds, radius, moved & gone, t_end_s, tune)
    striker = _striker_row(hist, kinds, share, k_trig)
    run = _run(hist, ctx, striker, k_trig, tune) if striker >= 0 else None
    if striker < 0 or (run is None and not moved.any() and not losses):
        # no striker at all: discs moved by a hand (placing the striker, tidying), not a shot
        return ShotOutcome((), (), None)
    lost_rows = {row for row, _ in losses}
    eligible = moved & np.isfinite(anchor[:, 0]) & (kinds != DiscKind.STRIKER)
    reach = radius + ctx.equipment.striker_diameter_mm / 2
    if run is not None and not _seen_before_contact(run, anchor, reach, kinds, ctx):
        # first seen after its first contact (hidden by the hand, blurred, a low frame rate)
        first, t_start = _guess_first_contact(hist, run, anchor, reach, eligible, k_trig, ctx, tune)
        run = None
    elif run is None:
        first, t_start = _guess_first_contact(hist, None, anchor, reach, eligible, k_trig, ctx, tune)
    else:
        first = _first_contact(hist, ctx, run, striker, anchor, radius, eligible, striker in lost_rows, tune)
        t_start = run.t_start_s
    t_start = float(max(t_start, hist.t_s[0], ctx.t_trigger_s - 0.5))
    return _build(hist, ctx, kinds, anchor, striker, run, first, losses, t_start, t_end_s, frame_end)


# -- pieces -----------------------------------------------------------------------------------------

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
        end[r] = np.median(after[r, seen[r]][-5:], axis=0)
    shift = np.hypot(*(end - anchor).T)
    return np.asarray(far | (np.nan_to_num(shift, nan=0.0) > tune.shift_mm))


def _gone(hist: ShotHistory, ctx: ShotContext, t_end_s: float) -> np.ndarray:
    """(M,) bool: tracks seen during the shot but not at its end."""
    seen = np.isfinite(hist.xy_mm[..., 0])
    last = seen.shape[1] - 1 - np.argmax(seen[:, ::-1], axis=1)
    return np.asarray(seen.any(axis=1) & (hist.t_s[last] < t_end_s - 0.15) & (hist.t_s[last] >= ctx.t_trigger_s - 0.25))


def _losses(hist: ShotHistory, ctx: ShotContext, kinds: np.ndarray, radius: np.ndarray, candidates: np.ndarray,
            t_end_s: float, tune: ShotTuning) -> list[tuple[int, Loss]]:
    """Rows that vanished during the shot (not under a hand) and where they went."""
    out = []
    dt = ctx.frame_dt_s
    seen = np.isfinite(hist.xy_mm[..., 0])
    first = np.argmax(seen, axis=1)
    n_obs = seen.sum(axis=1)
    for row in np.flatnonzero(candidates):  # the few discs that vanished, once per shot
        if int(hist.ids[row]) in ctx.hidden:
            continue
        cols, t, p = hist.observations(int(row))
        if len(cols) < tune.min_loss_obs:
            continue  # a passing false detection is not a disc
        v = None
        if len(cols) >= 2 and t[-1] - t[-2] <= 2.5 * dt + 1e-6:
            v = (p[-1] - p[-2]) / (t[-1] - t[-2])
            if float(np.hypot(*v)) < tune.min_loss_speed_mm_s:
                v = None
        loss = classify_loss(p[-1], v, float(t[-1]), float(radius[row]), ctx.board,
                             horizon_s=tune.loss_horizon_frames * dt, pocket_reach_mm=tune.pocket_reach_mm,
                             min_off_speed_mm_s=tune.min_off_speed_mm_s)
        if loss is not None and _continued(hist, int(row), t[-1], p[-1], v, first, n_obs, kinds, dt, tune):
            continue  # the disc bounced and was picked up again as a new track
        if (loss is not None and loss.side is not None and v is not None
                and _bounced(hist, int(row), t[-1], p[-1], v, float(radius[row]), ctx, dt)):
            continue  # something is seen where it would be had it bounced: it did, under another track
        if loss is not None:
            out.append((int(row), loss))
    return out


def _continued(hist: ShotHistory, row: int, t_last: float, p_last: np.ndarray, v: np.ndarray | None,
               first: np.ndarray, n_obs: np.ndarray, kinds: np.ndarray, dt: float, tune: ShotTuning) -> bool:
    """Whether a track born just after `row` vanished, close enough to be the same disc going on."""
    t_first = hist.t_s[first]
    born = (t_first > t_last) & (t_first <= t_last + 3.5 * dt) & (n_obs >= tune.min_loss_obs) & (kinds == kinds[row])
    if not born.any():
        return False
    speed = float(np.hypot(*v)) if v is not None else 0.0
    gap = t_first[born] - t_last
    reach = 15.0 + max(1.3 * speed, 500.0) * gap
    d = np.hypot(*(hist.xy_mm[born, first[born]] - p_last).T)
    return bool((d <= reach).any())


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
        q = p_last + v * gap
        over = np.abs(q) > lim  # mirror about the cushion, keeping 0.6 of the normal speed
        q = np.where(over, np.sign(q) * (lim - 0.6 * (np.abs(q) - lim)), q)
        obs = hist.xy_mm[others, c]
        d = np.hypot(*(obs - q).T)
        if bool((d[np.isfinite(d)] <= 15.0 + 0.25 * speed * gap).any()):
            return True
    return False


def _striker_row(hist: ShotHistory, kinds: np.ndarray, share: np.ndarray, k_trig: int) -> int:
    """The striker's track: of the striker-kind tracks, the surest and most seen during the shot."""
    rows = np.flatnonzero(kinds == DiscKind.STRIKER)
    if rows.size == 0:
        return -1
    n_obs = np.isfinite(hist.xy_mm[rows, k_trig:, 0]).sum(axis=1)
    return int(rows[np.argmax(n_obs * (share[rows] >= 0.6) + 0.001 * n_obs)])


def _run(hist: ShotHistory, ctx: ShotContext, row: int, k_trig: int, tune: ShotTuning) -> StrikerRun | None:
    cols, t, p = hist.observations(row, since=k_trig)
    # observations before a gap (the striker seen elsewhere before it was picked up and placed) are not the run
    gaps = np.flatnonzero(np.diff(t) > 3.5 * ctx.frame_dt_s)
    early = gaps[t[gaps + 1] <= ctx.t_trigger_s + 1e-6] if gaps.size else gaps
    if early.size:
        t, p = t[early[-1] + 1:], p[early[-1] + 1:]
    rest = None if ctx.striker_rest is None else np.asarray(ctx.striker_rest, np.float64)
    return striker_run(t, p, rest_xy=rest, line_mm=ctx.placement_line_mm,
                       assumed_speed_mm_s=tune.assumed_speed_mm_s, tol_mm=tune.line_tol_mm, move_mm=tune.move_mm,
                       extent_mm=ctx.placement_extent_mm)


def _first_contact(hist: ShotHistory, ctx: ShotContext, run: StrikerRun | None, striker: int, anchor: np.ndarray,
                   radius: np.ndarray, eligible: np.ndarray, striker_lost: bool, tune: ShotTuning) -> FirstContact:
    if run is None:
        return FirstContact(-1, (), None, ())
    r_s = ctx.equipment.striker_diameter_mm / 2
    reach = radius + r_s
    xy = np.nan_to_num(anchor, nan=1e6)
    if np.isfinite(run.deviate_mm):
        # the contact came between the last observation on the line and the first off it
        limit = run.straight_mm + run.speed_mm_s * (run.deviate_t_s - run.straight_t_s) + tune.graze_mm
    else:
        limit = np.inf if striker_lost else run.straight_mm + r_s
    origin, u, speed, t0 = run.origin_mm, run.direction, run.speed_mm_s, run.t_start_s
    cushions: list[str] = []
    t_cush: list[float] = []
    travelled = 0.0
    for _ in range(3):  # the first segment and up to two bounces
        cast = cast_line(origin, u, limit, xy, reach, eligible, ctx.board, r_s, graze_mm=tune.graze_mm)
        t_hit = t0 + (travelled + cast.s_mm) / speed
        if cast.what == "disc":
            return FirstContact(cast.disc, tuple(cushions), t_hit, tuple(t_cush))
        if cast.what != "cushion" or cast.side is None:
            return FirstContact(-1, tuple(cushions), None, tuple(t_cush), cast.what == "pocket")
        cushions.append(cast.side)
        t_cush.append(t_hit)
        travelled += cast.s_mm
        origin = origin + u * cast.s_mm
        u, limit = _after_bounce(hist, striker, origin, reflect(u, cast.side), t_hit, tune)
    return FirstContact(-1, tuple(cushions), None, tuple(t_cush))


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


def _seen_before_contact(run: StrikerRun, anchor: np.ndarray, reach: np.ndarray, kinds: np.ndarray,
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
    rest = np.isfinite(anchor[:, 0]) & (kinds != DiscKind.STRIKER)
    xy = np.nan_to_num(anchor, nan=1e6)
    cast = cast_line(o, run.direction, max(run.first_mm - 5.0, 0.0), xy, reach, rest, ctx.board,
                     ctx.equipment.striker_diameter_mm / 2, graze_mm=-2.0)
    return cast.what == "none"


def _guess_first_contact(hist: ShotHistory, run: StrikerRun | None, anchor: np.ndarray, reach: np.ndarray,
                         eligible: np.ndarray, k_trig: int, ctx: ShotContext,
                         tune: ShotTuning) -> tuple[FirstContact, float]:
    """First contact and start time when the striker was not seen on its way in.

    The disc hit first is the one that moved whose rest position is nearest to touching the
    striker where it was first seen (it slows down hard on a hit and is seen close by); the
    contact is when the first disc left its place, and the start is dated back from there by a
    fast strike from the nearest placement line.
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
    travel = max(ctx.placement_line_mm - float(np.max(np.abs(where))) - float(reach[disc] if disc >= 0 else 0.0), 0.0)
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
        back = float(np.hypot(*(p[j] - anchor))) / max(speed, 1.0)
        return float(max(t[j] - back, t[j - 1] if j > 0 else -np.inf))
    return float(t[j])


def _rest_position(hist: ShotHistory, row: int) -> tuple[float, float] | None:
    cols, _, p = hist.observations(row)
    if len(cols) == 0:
        return None
    xy = np.median(p[-5:], axis=0)
    return float(xy[0]), float(xy[1])


def _build(hist: ShotHistory, ctx: ShotContext, kinds: np.ndarray, anchor: np.ndarray, striker: int,
           run: StrikerRun | None, first: FirstContact, losses: list[tuple[int, Loss]], t_start: float,
           t_end: float, frame_end: int) -> ShotOutcome:
    n = ctx.number
    ref = [factory.disc_ref(int(i), int(k)) for i, k in zip(hist.ids, kinds, strict=True)]
    events: list[GameEvent] = []
    striker_ref = ref[striker] if striker >= 0 else None
    t_start = min(t_start, t_end)
    events.append(factory.shot_start(t_start, hist.frame_at(t_start), shot=n, striker=striker_ref))
    if striker_ref is not None:
        for side, t in zip(first.cushions, first.t_cushions_s, strict=True):
            t = min(max(t, t_start), t_end)
            events.append(factory.contact_cushion(t, hist.frame_at(t), shot=n, a=striker_ref, side=side))
        if first.disc >= 0 and first.t_disc_s is not None:
            t = min(max(first.t_disc_s, t_start), t_end)
            events.append(factory.contact_discs(t, hist.frame_at(t), shot=n, a=striker_ref, b=ref[first.disc]))
    fate = ["board"] * len(hist.ids)
    for row, loss in losses:
        t = min(max(loss.t_s, t_start), t_end)
        if loss.pocket is not None:
            fate[row] = "pocketed"
            events.append(factory.pocketed(t, hist.frame_at(t), shot=n, disc=ref[row], pocket=loss.pocket))
        else:
            fate[row] = "off_board"
            events.append(factory.off_board(t, hist.frame_at(t), shot=n, disc=ref[row], side=loss.side))
    rest, after = _rest(hist, ctx, kinds, anchor, fate, ref)
    first_disc = ref[first.disc]["kind"] if first.disc >= 0 else None
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
    return ShotOutcome(tuple(events), lost, record)


def _rest(hist: ShotHistory, ctx: ShotContext, kinds: np.ndarray, anchor: np.ndarray, fate: list[str],
          ref: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], np.ndarray]:
    """Rest list (every disc on the board, board mm) and (M, 2) rest positions (NaN for lost discs)."""
    after = np.full((len(hist.ids), 2), np.nan)
    rest = []
    n_obs = np.isfinite(hist.xy_mm[..., 0]).sum(axis=1)
    for row in range(len(hist.ids)):  # once per shot
        if fate[row] != "board":
            continue
        if not np.isfinite(anchor[row, 0]) and n_obs[row] < 4:
            continue  # a passing false detection, not a disc
        pos = _rest_position(hist, row)
        if pos is None:
            pos = (float(anchor[row, 0]), float(anchor[row, 1]))
        after[row] = pos
        rest.append({**ref[row], "x_mm": round(pos[0], 1), "y_mm": round(pos[1], 1)})
    return rest, after
