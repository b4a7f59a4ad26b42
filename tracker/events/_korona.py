"""Korona stroke facts from a finished shot: direct or rebound, first disc, blocked discs.

Korona (../shared/rules/korona-et.txt) is played with a ring striker driven by a cue. What the
rules need from the camera, per stroke (the keys returned by `shot_extras`, read by
rules/korona_record.py):

- ``"stroke"`` / ``"stroke_type"``: ``"direct"`` (otselöök) or ``"rebound"`` (põrkelöök: the
  striker touched a rail before any disc, §21.3); ``"first_cushion"`` and
  ``"cushion_before_contact"``.
- ``"first_disc"``, ``"first_disc_ids"``, ``"first_disc_kinds"``: the disc(s) the striker touched
  first (two when at once); ``"striker_contacts"``: the rails before it and that group, with times.
- ``"pocketed_discs"``, ``"off_board_discs"`` (with the ``"rail"`` it went over, §20.17).
- ``"striker_rest"`` and ``"striker_beyond_zone_line"`` (§20.8, §25.1.4: the striker's hole wholly
  on the rail side of the own zone line).
- ``"side"``: the side whose striking field the striker was struck from (its rail zone, korona
  §20), replacing the generic guess; the stroke record's "side".
- ``"striker_placed_touching"``: ids of discs the striker touched where it was set down for the
  stroke (korona §24.1.10; the rules take it as an umpire call today).
- ``"zones_before"`` / ``"zones_after"``: ``{"centre": [ids], "N": [ids], "E": .., "S": .., "W": ..}``,
  the discs whose hole lies in the centre circle or in each rail zone (the zone line not visible
  through the hole, §21.2) before and after the stroke; ``"moved"``: ids of the discs that moved.
  A disc in the centre circle or in its owner's own rail zone is blocked ("suluseib", §21.1).
- ``"blocked_before"``, ``"blocked_after"``, ``"unblocked"``, ``"newly_blocked"``: the blocked
  discs themselves, only from `korona_facts(..., seats=...)`. Which colour sits where is not in
  one shot's tracks: colours stay with the players when they change sides between games, so the
  hook leaves blocking to the rules engine, which knows the seats and uses the same geometry
  (rules.korona_geometry; the tests check the two agree).

How the first contact is found: see tracker/events/_korona_path.py. The detector's own summary
(`ShotRecord.first_disc_id`, `first_cushion`) is used only when the striker's path before its
first contact was not seen.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from tracker.events._history import seen_before
from tracker.events._korona_path import FirstContact, find_first_contact
from tracker.events._korona_zones import SIDE_OUT as _OUT
from tracker.events._korona_zones import KoronaZones
from tracker.specs import BoardSpec, DiscKind, EquipmentSpec

if TYPE_CHECKING:
    from tracker.events._shot_record import ShotRecord

__all__ = [
    "DEFAULT_SEATS",
    "STROKE_KEYS",
    "KoronaZones",
    "korona_facts",
    "shot_extras",
]

# the rules engine's seating of a match's first game: the player seated S plays the light discs,
# which he sets against the N rail before going round to strike (korona §19)
DEFAULT_SEATS: Mapping[str, str] = {"white": "S", "black": "N"}
# shot_end keys produced here, all copied into the stroke record
STROKE_KEYS: tuple[str, ...] = (
    "stroke",
    "stroke_type",
    "first_contact",
    "first_cushion",
    "cushion_before_contact",
    "first_disc",
    "first_disc_ids",
    "first_disc_kinds",
    "striker_contacts",
    "pocketed_discs",
    "off_board_discs",
    "striker_rest",
    "striker_beyond_zone_line",
    "zones_before",
    "zones_after",
    "moved",
    "striker_placed_touching",
)
_CORNERS = ("NW", "NE", "SE", "SW")
_COINS = (DiscKind.WHITE, DiscKind.BLACK)
_MIN_OBS = 3  # observations standing a track needs to count as a disc
_TOUCH_MM = 1.0  # a striker set down this close to a disc touches it (detection noise)
_MOVE_MM = 5.0  # a disc displaced more than this from where it stood has moved (noise is ~1 mm)


# -- the stroke facts ------------------------------------------------------------------------------


def _side_of_exit(xy: np.ndarray, half_mm: float) -> str:
    """The rail nearest to a point (board mm): the one a disc last seen there went over."""
    d = {name: half_mm - (xy[0] * ox + xy[1] * oy) for name, (ox, oy) in _OUT.items()}
    return min(d, key=lambda k: d[k])


def _pocket_of(xy: np.ndarray, pockets_mm: np.ndarray) -> str:
    return _CORNERS[int(np.argmin(np.hypot(*(pockets_mm - xy).T)))]


def _last_seen(xy: np.ndarray) -> np.ndarray:
    seen = np.flatnonzero(np.isfinite(xy[:, 0]))
    return xy[seen[-1]] if seen.size else np.full(2, np.nan)


def _striker_path(xy_mm: np.ndarray, kinds: np.ndarray, row: int) -> np.ndarray:
    """(K, 2) the striker's observations: its own track's, with the frames it was not seen filled
    from another striker track seen then (there is one striker; a fast one can be picked up by a
    second track when the first loses it)."""
    path: np.ndarray = xy_mm[row].copy()
    for other in np.flatnonzero(kinds == DiscKind.STRIKER):
        gap = ~np.isfinite(path[:, 0]) & np.isfinite(xy_mm[other, :, 0])
        path[gap] = xy_mm[other, gap]
    return path


def _start_of(t_s: np.ndarray, path: np.ndarray, before_xy: np.ndarray, t_start_s: float) -> np.ndarray:
    """Where the striker stood before the stroke: its rest position, else its last observations
    before the start."""
    if np.all(np.isfinite(before_xy)):
        return before_xy
    near = (t_s <= t_start_s) & (t_s >= t_start_s - 0.3) & np.isfinite(path[:, 0])
    return np.median(path[near][-3:], axis=0) if near.any() else np.full(2, np.nan)


def _striking_side(zones: KoronaZones, start_xy: np.ndarray, default: str) -> str:
    """The side whose striking field (its rail zone between the end lines, korona §20) the striker
    was struck from; `default` when that is not one side."""
    if not np.all(np.isfinite(start_xy)):
        return default
    inside = []
    for side in _OUT:
        u, v = zones.rail_distance(start_xy[None, :], side)
        if u[0] <= zones.zone_depth_mm + 15.0 and abs(v[0]) <= zones.zone_length_mm / 2.0 + 15.0:
            inside.append(side)
    return inside[0] if len(inside) == 1 else default


def _vanished(t_s: np.ndarray, xy: np.ndarray) -> bool:
    """A track lost from sight while moving and not seen for the last 0.25 s."""
    seen = np.flatnonzero(np.isfinite(xy[:, 0]))
    if seen.size < 2 or t_s[-1] - t_s[seen[-1]] < 0.25:
        return False
    return bool(np.hypot(*(xy[seen[-1]] - xy[seen[-2]])) > 3.0)


def _ids_where(ids: np.ndarray, mask: np.ndarray) -> list[int]:
    return sorted(int(i) for i in ids[mask])


def _blocked(zones: KoronaZones, xy: np.ndarray, kinds: np.ndarray, seats: Mapping[str, str]) -> np.ndarray:
    """(N,) bool: each disc (NaN rows: not on the board) is in a blocked position for its owner."""
    out = np.zeros(len(xy), bool)
    on = np.all(np.isfinite(xy), axis=1)
    for kind in _COINS:
        rows = on & (kinds == kind)
        if rows.any():
            out[rows] = zones.is_blocked(xy[rows], seats[kind.label])
    return out


def korona_facts(
    ids: np.ndarray,
    kinds: np.ndarray,
    t_s: np.ndarray,
    xy_mm: np.ndarray,
    before_mm: np.ndarray,
    after_mm: np.ndarray,
    fate: tuple[str, ...],
    *,
    side: str,
    t_start_s: float,
    board: BoardSpec,
    equipment: EquipmentSpec,
    seats: Mapping[str, str] | None = None,
    striker_id: int | None = None,
    fallback: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The korona keys of one stroke (see the module docstring), from plain arrays.

    Args:
        ids: (M,) track ids; kinds: (M,) `DiscKind` values (one row should be the striker).
        t_s: (K,) frame times, s.
        xy_mm: (M, K, 2) observed centres, board mm, NaN where not seen.
        before_mm, after_mm: (M, 2) where each disc stood before / came to rest (NaN: not on the board).
        fate: (M,) "board", "pocketed" or "off_board".
        side: the striker's side ("N", "S", ...).
        t_start_s: when the stroke started, s.
        board, equipment: the korona board and disc set.
        seats: the seat of each colour's player, e.g. `DEFAULT_SEATS`; when given, the blocked-disc
            keys are added (a disc is blocked for its owner's seat).
        striker_id: the striker's track id (default: the first striker row).
        fallback: the detector's summary, used when the striker's path was not seen:
            ``{"first_cushion": .., "first_disc_id": ..}``.

    Returns:
        JSON-ready dict with the keys of `STROKE_KEYS`.
    """
    zones = KoronaZones.from_specs(board, equipment)
    # discs the striker could hit: light and dark tracks seen standing where they stood before the
    # stroke a few times (not a stray detection, nor a stale track left where a moving disc was lost),
    # and there a while before it (not the cue's tip, seen as the cue goes in)
    coin = np.isin(kinds, [int(k) for k in _COINS])
    with np.errstate(invalid="ignore"):
        standing = np.hypot(*(xy_mm - before_mm[:, None, :]).transpose(2, 0, 1)) <= _MOVE_MM
    solid = coin & (standing.sum(axis=1) >= _MIN_OBS) & seen_before(t_s, xy_mm, t_start_s)
    if striker_id is not None and np.any(ids == striker_id):
        s = int(np.flatnonzero(ids == striker_id)[0])
    else:
        srow = np.flatnonzero(kinds == DiscKind.STRIKER)
        s = int(srow[0]) if srow.size else -1
    fc = None
    if s >= 0:
        gone = fate[s] if fate[s] != "board" else ("vanished" if _vanished(t_s, xy_mm[s]) else None)
        fc = find_first_contact(
            t_s,
            _striker_path(xy_mm, kinds, s),
            before_mm[s],
            xy_mm[solid],
            before_mm[solid],
            t_start_s=t_start_s,
            half_mm=board.half_mm,
            striker_r_mm=equipment.radius_mm(DiscKind.STRIKER),
            coin_r_mm=equipment.radius_mm(DiscKind.WHITE),
            striker_gone=gone,
            pocket_r_mm=board.pocket_radius_mm,
        )
    c_ids, c_kinds = ids[solid], kinds[solid]
    out = _contact_keys(
        fc, c_ids, c_kinds, fallback or {}, dict(zip(ids.tolist(), kinds.tolist(), strict=True))
    )
    out |= _loss_keys(ids, kinds, xy_mm, fate, coin, board)
    out |= _zone_keys(ids, kinds, xy_mm, before_mm, after_mm, fate, coin, zones, seats)
    start = np.full(2, np.nan)
    if s >= 0:
        start = _start_of(t_s, _striker_path(xy_mm, kinds, s), before_mm[s], t_start_s)
        side = _striking_side(zones, start, side)
    out["side"] = side
    # korona §24.1.10: the striker set down touching a disc
    reach = equipment.radius_mm(DiscKind.STRIKER) + equipment.radius_mm(DiscKind.WHITE) + _TOUCH_MM
    with np.errstate(invalid="ignore"):
        touching = solid & (np.hypot(*(before_mm - start).T) <= reach)
    out["striker_placed_touching"] = _ids_where(ids, touching)
    rest = after_mm[s] if s >= 0 else np.full(2, np.nan)
    if np.all(np.isfinite(rest)):
        out["striker_rest"] = {"x_mm": round(float(rest[0]), 1), "y_mm": round(float(rest[1]), 1)}
        out["striker_beyond_zone_line"] = bool(zones.is_beyond_zone_line(rest[None, :], side)[0])
    else:
        out["striker_rest"], out["striker_beyond_zone_line"] = None, None
    return out


def _contact_keys(
    fc: FirstContact | None,
    c_ids: np.ndarray,
    c_kinds: np.ndarray,
    fallback: Mapping[str, Any],
    kind_of: Mapping[int, int],
) -> dict[str, Any]:
    if fc is None:  # the striker's path was not seen: the detector's contact events decide
        cushion = fallback.get("first_cushion")
        fid = fallback.get("first_disc_id")
        first = [int(fid)] if fid is not None and int(kind_of.get(int(fid), -1)) in _COINS else []
        fc_rebound, t_d = cushion is not None, None
        first_kinds = [DiscKind(kind_of[i]).label for i in first]
    else:
        cushion, fc_rebound, t_d = fc.cushion, fc.rebound, fc.t_first_s
        first = [int(c_ids[r]) for r in fc.first_rows]
        first_kinds = [DiscKind(int(c_kinds[r])).label for r in fc.first_rows]
    contacts: list[dict[str, Any]] = []
    if fc_rebound:
        contacts.append({"cushion": cushion})
    for i, k in zip(first, first_kinds, strict=True):
        contacts.append({"id": i, "kind": k, **({"t": round(t_d, 4)} if t_d is not None else {})})
    stroke = "rebound" if fc_rebound else "direct"
    first_contact = "cushion" if fc_rebound else (first_kinds[0] if first_kinds else None)
    return {
        "stroke": stroke,
        "stroke_type": stroke,
        "first_contact": first_contact,
        "first_cushion": cushion if fc_rebound else None,
        "cushion_before_contact": fc_rebound,
        "first_disc": first_kinds[0] if first_kinds else None,
        "first_disc_ids": first,
        "first_disc_kinds": first_kinds,
        "striker_contacts": contacts,
    }


def _loss_keys(
    ids: np.ndarray,
    kinds: np.ndarray,
    xy_mm: np.ndarray,
    fate: tuple[str, ...],
    coin: np.ndarray,
    board: BoardSpec,
) -> dict[str, Any]:
    pocketed, off = [], []
    for r in np.flatnonzero(coin):  # the few discs that left the board in this stroke
        if fate[r] == "board":
            continue
        last = _last_seen(xy_mm[r])
        ref = {"id": int(ids[r]), "kind": DiscKind(int(kinds[r])).label}
        if fate[r] == "pocketed":
            pocketed.append(
                {**ref, "pocket": _pocket_of(last, board.pockets_mm) if np.isfinite(last).all() else None}
            )
        else:
            off.append(
                {**ref, "rail": _side_of_exit(last, board.half_mm) if np.isfinite(last).all() else None}
            )
    return {"pocketed_discs": pocketed, "off_board_discs": off}


def _zone_keys(
    ids: np.ndarray,
    kinds: np.ndarray,
    xy_mm: np.ndarray,
    before_mm: np.ndarray,
    after_mm: np.ndarray,
    fate: tuple[str, ...],
    coin: np.ndarray,
    zones: KoronaZones,
    seats: Mapping[str, str] | None,
) -> dict[str, Any]:
    on_before = coin & np.all(np.isfinite(before_mm), axis=1)
    on_after = coin & np.all(np.isfinite(after_mm), axis=1) & np.array([f == "board" for f in fate], bool)
    xy_before = np.where(on_before[:, None], before_mm, np.nan)
    xy_after = np.where(on_after[:, None], after_mm, np.nan)
    # moved: left the board, or came to rest elsewhere, or was seen well away during the stroke
    disp_end = np.hypot(*(after_mm - before_mm).T)
    with np.errstate(invalid="ignore"):
        far = np.hypot(*(xy_mm - before_mm[:, None, :]).transpose(2, 0, 1)) > 2 * _MOVE_MM
    gone = coin & ~on_after
    moved = on_before & (gone | (np.nan_to_num(disp_end, nan=np.inf) > _MOVE_MM) | (far.sum(axis=1) >= 2))
    out: dict[str, Any] = {
        "zones_before": _zone_members(zones, ids, xy_before),
        "zones_after": _zone_members(zones, ids, xy_after),
        "moved": _ids_where(ids, moved),
    }
    if seats is not None:
        b_before, b_after = _blocked(zones, xy_before, kinds, seats), _blocked(zones, xy_after, kinds, seats)
        out |= {
            "blocked_before": _ids_where(ids, b_before),
            "blocked_after": _ids_where(ids, b_after),
            "unblocked": _ids_where(ids, b_before & ~b_after),
            "newly_blocked": _ids_where(ids, b_after & ~b_before & on_before),
        }
    return out


def _zone_members(zones: KoronaZones, ids: np.ndarray, xy: np.ndarray) -> dict[str, list[int]]:
    """Ids of the discs (rows of `xy` not NaN) in the centre circle and in each rail zone."""
    on = np.all(np.isfinite(xy), axis=1)
    out = {"centre": _ids_where(ids[on], zones.in_centre_circle(xy[on]))}
    out |= {side: _ids_where(ids[on], zones.in_rail_zone(xy[on], side)) for side in _OUT}
    return out


def shot_extras(record: ShotRecord) -> dict[str, Any]:
    """The korona keys of a finished shot's `shot_end` event (the `_shot_record` hook).

    Args:
        record: the finished shot (track histories, before/after positions, fates).

    Returns:
        JSON-ready dict with the keys of `STROKE_KEYS`.
    """
    fallback = {"first_cushion": record.first_cushion, "first_disc_id": record.first_disc_id}
    return korona_facts(
        np.asarray(record.ids),
        np.asarray(record.kinds),
        np.asarray(record.t_s),
        np.asarray(record.xy_mm, np.float64),
        np.asarray(record.before_mm, np.float64),
        np.asarray(record.after_mm, np.float64),
        tuple(record.fate),
        side=record.side,
        t_start_s=record.t_start_s,
        board=record.board,
        equipment=record.equipment,
        striker_id=record.striker_id,
        fallback=fallback,
    )
