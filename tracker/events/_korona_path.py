"""How a korona stroke began: direct or rebound, and the disc(s) the striker touched first.

Until the striker touches its first disc every other disc stands still. So (1) the moment of the
first contact is bracketed by the first frame in which any disc is seen displaced, (2) every turn of
the striker's path before that moment is a rail (a rail reverses the component of the motion
towards it), and (3) the first disc is the one the striker's straight path, after its rails, meets
first. A push goes through touching discs at once (the far end of a row flies off first, the struck
disc may not move at all when pinned against a rail), so the departures only bracket the moment
and the candidates; the path geometry picks the disc. Neither contact events nor a frame rate high
enough to see the contact itself are needed.

All positions are board mm (origin at the board centre, x right, y down), times video seconds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tracker._track_assign import point_segment_distance
from tracker.events._korona_rays import fit_line, legs, path_points, ray_to_discs, ray_to_rail, unit

__all__ = ["FirstContact", "find_first_contact"]

_MOVE_MM = 5.0  # a disc displaced more than this from where it stood has moved (noise is ~1 mm)
_TOUCH_TOL_MM = 1.5  # slack on "the path meets a disc" (detection noise)
_REACH_TOL_MM = 4.0  # larger slack when only the discs that moved are tried
_TIE_MM = 2.0  # discs met within this distance along the path are met at once
_REST_S = 0.25  # the striker's sightings this long before a stroke's start show where it stood, s
_BEND = 0.25  # how far off a step between two sightings a hit may have bent the striker's path, per mm of step


@dataclass(frozen=True, slots=True)
class FirstContact:
    """What the striker touched before and at its first disc contact.

    Attributes:
        rebound: a rail came before the first disc (or the striker touched a rail and no disc).
        cushion: the first rail ("N", "E", "S", "W"); None for a direct stroke.
        first_rows: rows (of the disc arrays given) of the disc(s) touched first; () if none.
        t_first_s: about when, s (between the last frame with every disc still and the first
            with one moved); None if no disc was touched.
    """

    rebound: bool
    cushion: str | None
    first_rows: tuple[int, ...]
    t_first_s: float | None


def _departures(
    t_s: np.ndarray,
    xy_mm: np.ndarray,
    before_mm: np.ndarray,
    t_from_s: float,
) -> tuple[np.ndarray, np.ndarray]:
    """When each disc left its place: (N,) last time seen still and (N,) first time seen moved (s).

    A disc is moved at a frame when it is more than `_MOVE_MM` from where it stood and still is at
    its next observation (or is never seen again): one stray detection does not move a disc. A disc
    seen standing after the start that is then never seen again in the shot (knocked away too fast
    to be followed) left at the first frame it was missing. Discs that never moved get +inf for both.

    A track seen where another disc stood is taken for standing: it took that disc's detections (a
    row against a rail, its tracks swapping places), as no disc gets there before the one that
    stood there left, which is the earlier departure (korona seed 1030 at 30 fps: a dark man's track
    in the S row jumped to its neighbour's place as the striker set off, 0.3 s before the striker met
    its first disc, and the man was called the first disc).
    """
    disp = np.hypot(*(xy_mm - before_mm[:, None, :]).transpose(2, 0, 1))
    others = np.hypot(*(xy_mm[:, :, None, :] - before_mm[None, None, :, :]).transpose(3, 0, 1, 2))  # (N, K, N)
    others[np.arange(len(before_mm)), :, np.arange(len(before_mm))] = np.inf
    disp[np.nan_to_num(others, nan=np.inf).min(axis=2, initial=np.inf) <= _MOVE_MM] = 0.0
    disp[:, t_s < t_from_s] = np.nan
    seen = np.isfinite(disp)
    moved = seen & (disp > _MOVE_MM)
    still = seen & ~moved
    # next observation also moved (or no further observation)
    k_idx = np.where(seen, np.arange(len(t_s))[None, :], len(t_s))
    nxt = np.minimum.accumulate(k_idx[:, ::-1], axis=1)[:, ::-1]
    nxt = np.concatenate([nxt[:, 1:], np.full((len(nxt), 1), len(t_s))], axis=1)
    moved_pad = np.concatenate([moved, np.ones((len(moved), 1), bool)], axis=1)
    confirmed = moved & np.take_along_axis(moved_pad, nxt, axis=1)
    k_last = np.where(seen.any(axis=1), len(t_s) - 1 - np.argmax(seen[:, ::-1], axis=1), len(t_s))
    last_still = still[np.arange(len(seen)), np.minimum(k_last, len(t_s) - 1)]
    vanished = ~confirmed.any(axis=1) & (k_last <= len(t_s) - 4) & last_still
    confirmed[vanished, np.minimum(k_last[vanished] + 1, len(t_s) - 1)] = True
    has = confirmed.any(axis=1)
    k_move = np.where(has, np.argmax(confirmed, axis=1), len(t_s))
    t_pad = np.append(t_s, np.inf)
    t_move = t_pad[k_move]
    before_move = still & (np.arange(len(t_s))[None, :] < k_move[:, None])
    k_still = np.where(before_move.any(axis=1), len(t_s) - 1 - np.argmax(before_move[:, ::-1], axis=1), -1)
    t_still = np.where(k_still >= 0, t_s[np.maximum(k_still, 0)], -np.inf)
    return np.where(has, t_still, np.inf), t_move


def _touching_group(centres: np.ndarray, seed: np.ndarray, touch_mm: float) -> np.ndarray:
    """(N,) bool: `seed` rows and every disc linked to one through discs touching each other
    (centres closer than `touch_mm`; NaN rows never touch)."""
    d = np.linalg.norm(centres[:, None, :] - centres[None, :, :], axis=2)
    adj = np.nan_to_num(d, nan=np.inf) <= touch_mm
    group = seed.copy()
    for _ in range(len(centres)):
        grown = group | adj[group].any(axis=0)
        if np.array_equal(grown, group):
            break
        group = grown
    return group


def _meet(
    p: np.ndarray,
    d: np.ndarray,
    centres: np.ndarray,
    rows: np.ndarray,
    reach_mm: float,
) -> tuple[float, tuple[int, ...]]:
    """Distance along the unit ray p + s d to the first of `rows` it meets, and those rows
    (several when met within `_TIE_MM`); (inf, ()) if it meets none."""
    if rows.size == 0:
        return np.inf, ()
    s = ray_to_discs(p, d, centres[rows], reach_mm)
    if not np.isfinite(s).any():
        return np.inf, ()
    best = float(s.min())
    return best, tuple(int(r) for r in rows[s <= best + _TIE_MM])


def find_first_contact(
    t_s: np.ndarray,
    striker_xy: np.ndarray,
    start_xy: np.ndarray,
    coins_xy: np.ndarray,
    coins_before: np.ndarray,
    *,
    t_start_s: float,
    half_mm: float,
    striker_r_mm: float,
    coin_r_mm: float,
    striker_gone: str | None = None,
    pocket_r_mm: float = 0.0,
) -> FirstContact | None:
    """Direct or rebound, and the first disc, from the striker's path and the discs' departures.

    Args:
        t_s: (K,) frame times, s.
        striker_xy: (K, 2) striker centres, board mm, NaN where not seen.
        start_xy: (2,) where the striker stood before the stroke (NaN if unknown).
        coins_xy: (N, K, 2) disc centres per frame, NaN where not seen.
        coins_before: (N, 2) where each disc stood before the stroke (rows with NaN are ignored).
        t_start_s: when the stroke started, s.
        half_mm: half the playing surface, mm.
        striker_r_mm: striker radius, mm.
        coin_r_mm: disc radius, mm.
        striker_gone: "pocketed" or "off_board" when the striker left the board, "vanished" when it
            was lost from sight moving and not found again, else None.
        pocket_r_mm: pocket radius, mm (pockets touch both edges at each corner).

    Returns:
        The `FirstContact`, or None when the striker was not seen moving before its first contact
        and the departures leave more than one candidate.
    """
    on = np.all(np.isfinite(coins_before), axis=1)
    moment = _first_moment(t_s, coins_xy, coins_before, on, t_start_s - 0.05, coin_r_mm,
                           striker=(striker_xy, striker_r_mm + coin_r_mm))
    pts, _ = path_points(t_s, striker_xy, start_xy, t_start_s, moment.t_pre_s)
    if len(pts) < 2:
        if moment.cand.size == 1:
            return FirstContact(False, None, (int(moment.cand[0]),), moment.t_contact_s)
        return None
    scene = _Scene(coins_before, np.flatnonzero(on), moment, half_mm - striker_r_mm, striker_r_mm + coin_r_mm)
    rails: list[str] = []
    last: tuple[np.ndarray, np.ndarray, float, str] | None = None  # the last leg that a rail ended
    for leg, rail in legs(pts, half_mm, scene.line_mm):
        if len(leg) < 2:  # nothing usable seen between two rails
            rails += [rail] if rail is not None else []
            continue
        p, d = fit_line(leg)
        if rail is None:
            return _last_leg(scene, leg, p, d, rails, striker_gone, pocket_r_mm, half_mm)
        s_disc, rows = _meet(p, d, coins_before, scene.on_rows, scene.reach_mm + _TOUCH_TOL_MM)
        s_rail, _ = ray_to_rail(p, d, scene.line_mm)
        if rows and s_disc <= s_rail + 1.0:  # the path turned at a disc before that rail
            return _found(rails, rows, moment.t_contact_s)
        rails.append(rail)
        last = (p, d, s_rail, rail)
    if moment.moved and last is not None:  # the path after the last rail was not seen: bounce off it
        p, d, s_rail, rail = last
        first = _best_after_rail(p + d * s_rail, d, rail, coins_before, moment.cand, scene.reach_mm)
        return _found(rails, first, moment.t_contact_s)
    return _found(rails, (), moment.t_contact_s)


@dataclass(frozen=True, slots=True)
class _Moment:
    """The first contact's moment bracketed by the discs' departures.

    Attributes:
        moved: some disc moved. t_pre_s: last frame (s) before any disc could have left (inf if
            none moved). cand: rows that may have been hit first. t_contact_s: about when, s.
    """

    moved: bool
    t_pre_s: float
    cand: np.ndarray
    t_contact_s: float | None


@dataclass(frozen=True, slots=True)
class _Scene:
    """What the path is cast against: where the discs stood, the rails, the reach of a touch (mm)."""

    centres: np.ndarray
    on_rows: np.ndarray
    moment: _Moment
    line_mm: float
    reach_mm: float


def _first_moment(
    t_s: np.ndarray,
    coins_xy: np.ndarray,
    coins_before: np.ndarray,
    on: np.ndarray,
    t_from_s: float,
    coin_r_mm: float,
    *,
    striker: tuple[np.ndarray, float] | None = None,
) -> _Moment:
    """The moment the discs' departures bracket; with `striker` ((K, 2) its centres, NaN where not
    seen; the distance at which it touches a disc, mm), a departure the striker was nowhere near
    is none (see `_out_of_reach`)."""
    t_still, t_move = np.full(len(coins_before), np.inf), np.full(len(coins_before), np.inf)
    if on.any():
        t_still[on], t_move[on] = _departures(t_s, coins_xy[on], coins_before[on], t_from_s)
    if striker is not None and np.isfinite(t_move).any():
        far = _out_of_reach(t_s, *striker, coins_before, t_move, 2.0 * coin_r_mm + 2.0, t_from_s=t_from_s - _REST_S)
        # (only those before the first departure in reach: after a contact, struck discs move others)
        far &= t_move < np.min(t_move[~far], initial=np.inf)
        t_still[far], t_move[far] = np.inf, np.inf
    if not np.isfinite(t_move).any():
        return _Moment(False, np.inf, np.zeros(0, int), None)
    t_seen = float(np.min(t_move))
    early = t_still < t_seen  # could have left at or before the first disc seen moving
    # (a disc not seen standing since the start, hidden by the cue or the hand that struck, brackets
    # nothing: while another disc was seen standing later, the moment is after that)
    if (early & np.isfinite(t_still)).any():
        early &= np.isfinite(t_still)
    t_pre = float(np.min(t_still[early]))
    # a push goes through touching discs at once (the far end of a row flies off first), so the
    # striker may have hit any disc touching an early mover
    cand = np.flatnonzero(_touching_group(coins_before, early, 2.0 * coin_r_mm + 2.0))
    return _Moment(True, t_pre, cand, 0.5 * (t_pre + t_seen) if np.isfinite(t_pre) else t_seen)


def _out_of_reach(t_s: np.ndarray, striker_xy: np.ndarray, reach_mm: float, before_mm: np.ndarray,
                  t_move: np.ndarray, touch_mm: float, *, t_from_s: float) -> np.ndarray:
    """(N,) bool: discs seen leaving their place (at `t_move`) though the striker, seen from where
    it stood (from `t_from_s`) until then, came nowhere near them or any disc touching them in a row
    (a push goes through a row at once).

    Until the striker's first contact every other disc stands still, so such a departure is a
    track's jitter or swap, not a disc struck (korona seed 1001 at 60 fps: a light man at the N rail
    seen 6 mm off his place while the striker rolled slowly 600 mm away; the moment bracketed
    there, the stroke was called a rebound off the N rail). The striker is followed along the steps
    between its sightings (a quarter of a step off them, for the bend of a hit); not seen at all,
    the departure stands."""
    out = np.zeros(len(before_mm), bool)
    dt = float(np.median(np.diff(t_s))) if len(t_s) > 1 else 0.0
    seen = np.isfinite(striker_xy[:, 0])
    for i in np.flatnonzero(np.isfinite(t_move)):  # (the few discs that moved before the shot's end)
        win = np.flatnonzero(seen & (t_s >= t_from_s) & (t_s <= t_move[i] + 1.5 * dt))
        if win.size == 0:
            continue
        # the steps between its sightings (a sighting alone: a step of none)
        a, b = (striker_xy[win[:-1]], striker_xy[win[1:]]) if win.size > 1 else (striker_xy[win],) * 2
        row = _touching_group(before_mm, np.arange(len(before_mm)) == i, touch_mm)
        members = before_mm[row & np.isfinite(before_mm[:, 0])]
        # (a striker deflected by the disc between two sightings passed off the step between them)
        bend = _BEND * np.hypot(*(b - a).T)
        out[i] = (point_segment_distance(members, a, b) - bend[:, None]).min() > reach_mm + _REACH_TOL_MM
    return out


def _last_leg(
    scene: _Scene,
    leg: np.ndarray,
    p: np.ndarray,
    d: np.ndarray,
    rails: list[str],
    gone: str | None,
    pocket_r_mm: float,
    half_mm: float,
) -> FirstContact:
    """The path's last straight leg seen before the first contact, cast at p along d."""
    m, c = scene.moment, scene.centres
    s_disc, rows = _meet(p, d, c, scene.on_rows, scene.reach_mm + _TOUCH_TOL_MM)
    s_rail, ray_rail = ray_to_rail(p, d, scene.line_mm)
    if not m.moved:  # the striker stopped or left the board without moving a disc
        if rows and s_disc <= 3.0:
            return _found(rails, rows, m.t_contact_s)
        if ray_rail is not None and _left_over_rail(p, d, s_rail, gone, pocket_r_mm, half_mm):
            rails = [*rails, ray_rail]
        return _found(rails, (), None)
    if rows and s_disc <= s_rail + 1.0:
        return _found(rails, rows, m.t_contact_s)
    # a short leg gives a rough direction: a disc that moved first, just off the ray, was hit
    rows = _cone_meet(p, d, c, m.cand, scene.reach_mm, float(np.hypot(*(leg[-1] - leg[0]))), s_rail)
    if rows:
        return _found(rails, rows, m.t_contact_s)
    if ray_rail is not None and np.isfinite(s_rail):  # a rail between the last sight and the disc
        first = _best_after_rail(p + d * s_rail, d, ray_rail, c, m.cand, scene.reach_mm)
        return _found([*rails, ray_rail], first, m.t_contact_s)
    _, rows = _meet(p, d, c, m.cand, scene.reach_mm + _REACH_TOL_MM)
    return _found(rails, rows or _nearest(p, c, m.cand), m.t_contact_s)


def _cone_meet(
    p: np.ndarray,
    d: np.ndarray,
    centres: np.ndarray,
    rows: np.ndarray,
    reach_mm: float,
    leg_mm: float,
    s_max: float,
) -> tuple[int, ...]:
    """Rows within the cone of directions a path leg of `leg_mm` allows (observed centres of a fast
    striker scatter by about 3 mm), ahead of p and nearer than `s_max`; the nearest along the ray."""
    if rows.size == 0:
        return ()
    rel = centres[rows] - p[None, :]
    along = rel @ d
    across = np.abs(rel[:, 0] * d[1] - rel[:, 1] * d[0])
    slack = _REACH_TOL_MM + 12.0 / max(leg_mm, 12.0) * np.clip(along, 0.0, None)
    # met before the rail ahead: a disc lying against that rail is often met just after it
    s_touch = along - np.sqrt(np.clip(reach_mm**2 - across**2, 0.0, None))
    ok = (along > -reach_mm) & (s_touch <= s_max + 1.0) & (across <= reach_mm + slack)
    if not ok.any():
        return ()
    best = float(along[ok].min())
    return tuple(int(r) for r in rows[ok & (along <= best + _TIE_MM)])


def _left_over_rail(
    p: np.ndarray, d: np.ndarray, s_rail: float, gone: str | None, pocket_r_mm: float, half_mm: float
) -> bool:
    """Did a striker that moved no disc touch the rail its path leads to? Yes if it stopped against
    it or went over it. One that went into a pocket (or vanished, which is either) did if the
    rail comes before the pocket's capture (its centre within about a third of the pocket radius
    of the pocket's centre)."""
    if s_rail <= 6.0 or gone == "off_board":
        return True
    if gone not in ("vanished", "pocketed"):
        return False
    corner = half_mm - pocket_r_mm  # pocket circles touch both edges of the surface
    centres = np.array([[-corner, -corner], [corner, -corner], [corner, corner], [-corner, corner]])
    s_pocket = float(ray_to_discs(p, d, centres, 0.6 * pocket_r_mm).min())
    if gone == "vanished" and not np.isfinite(s_pocket):
        return True
    return bool(s_rail < s_pocket)


def _found(rails: list[str], rows: tuple[int, ...], t_contact: float | None) -> FirstContact:
    return FirstContact(bool(rails), rails[0] if rails else None, tuple(rows), t_contact if rows else None)


def _best_after_rail(
    hit: np.ndarray, d: np.ndarray, rail: str, centres: np.ndarray, cand: np.ndarray, reach: float
) -> tuple[int, ...]:
    """After a rail the angle depends on the rail's bounce; try softer and harder bounces."""
    axis = 0 if rail in ("E", "W") else 1
    for e in (1.0, 0.8, 0.6, 1.2, 0.45, 1.5):
        out = d.copy()
        out[axis] = -out[axis] * e
        _, rows = _meet(hit, unit(out), centres, cand, reach + _REACH_TOL_MM)
        if rows:
            return rows
    return _nearest(hit, centres, cand)


def _nearest(p: np.ndarray, centres: np.ndarray, cand: np.ndarray) -> tuple[int, ...]:
    if cand.size == 0:
        return ()
    return (int(cand[int(np.argmin(np.hypot(*(centres[cand] - p).T)))]),)
