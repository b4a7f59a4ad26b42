"""The korona part of a stroke record: what korona needs beyond the contract-2 fields.

`KoronaStroke.from_record(record)` reads a validated `rules.records.StrokeRecord` and its korona
extra keys (all optional; without them the engine falls back on the contract fields):

- ``"striker_contacts"``: the striker's contacts in time order, up to at least its first disc
  contact: ``[{"cushion": "N", "t": 1.10}, {"id": 3, "kind": "white", "t": 1.25}]``. Contacts
  whose ``"t"`` (s) differ by at most 2 ms are simultaneous; without ``"t"`` each is its own moment.
- ``"stroke_type"``: ``"direct"`` (otselöök) or ``"rebound"`` (põrkelöök: a rail before any disc).
  Derived from the contacts when absent; it must agree with them when both are given.
- Fallback when there are no ``"striker_contacts"``: ``"first_cushion"`` (rail touched before any
  disc, null for a direct stroke; contract ``"cushion_before_contact": true`` alone means a rail of
  unknown side), ``"first_disc_ids"`` (ids of the disc(s) the striker touched first, two when at
  once) or ``"first_disc_kinds"`` (their kinds, e.g. ``["white", "black"]``); the tracker's
  single ``"first_disc_id"`` / ``"first_disc"`` are read the same way; else the contract's
  ``"first_contact"`` when it names a disc kind.
- ``"pocketed_discs"``: ``[{"id": 3, "kind": "white", "pocket": "NE"}]`` and ``"off_board_discs"``:
  ``[{"id": 5, "kind": "black", "rail": "N"}]`` (rail: the side it went over, a corner when only
  the diagonal is known, or null; a disc left on the rail counts as off, korona §20.16). Without
  them, the ids are the discs of "before" missing from "after" when that is unambiguous.
- ``"striker_rest"``: ``{"x_mm": .., "y_mm": ..}`` where the striker stopped (else the "striker"
  entry of "after"); ``"striker_beyond_zone_line"``: bool, overrides the geometry (§25.1.4).
- ``"blocked_before"`` / ``"blocked_after"``: ids of discs in a blocked position, overriding the
  geometry; ``"moved"``: ids of discs that moved, overriding the before/after comparison.
- ``"umpire_calls"``: korona reason codes the umpire called on this stroke (what the camera
  cannot see), e.g. ``["double_hit"]`` (see `rules.korona_laws.KoronaReason`).

The contract's "umpire" object holds carrom calls only; a true carrom call on a korona stroke is
rejected.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.korona_laws import KoronaReason
from rules.records import DiscPos, StrokeRecord
from tracker.errors import RuleError

__all__ = ["Contact", "Gone", "KoronaStroke", "StrokeType"]

_RAILS = ("N", "E", "S", "W")
_WHERE_OFF = (*_RAILS, "NW", "NE", "SE", "SW")
_POCKETS = ("NW", "NE", "SE", "SW")
_KINDS = ("white", "black")
SIMULTANEOUS_S = 0.002


class StrokeType:
    DIRECT = "direct"
    REBOUND = "rebound"


@dataclass(frozen=True, slots=True)
class Contact:
    """One striker contact: a disc (`id`/`kind`) or a rail (`rail`, None = side unknown)."""

    index: int
    t_s: float | None
    id: int | None = None
    kind: str | None = None
    rail: str | None = None
    cushion: bool = False


@dataclass(frozen=True, slots=True)
class Gone:
    """A disc that left the board surface: pocketed (`where` = pocket) or off (`where` = rail)."""

    index: int
    kind: str
    id: int | None
    where: str | None


@dataclass(frozen=True, slots=True)
class KoronaStroke:
    """A stroke record seen by the korona rules (see module docstring for the fields)."""

    number: int
    side: str
    rebound: bool
    cushions: tuple[Contact, ...]  # rails touched before the first disc contact
    first_group: tuple[Contact, ...]  # disc(s) touched first (simultaneously); () = none
    first_known: bool  # False when the record does not say which disc came first
    pocketed: tuple[Gone, ...]
    off_board: tuple[Gone, ...]
    striker_pocketed: bool
    striker_off_board: bool
    before: tuple[DiscPos, ...]
    after: tuple[DiscPos, ...]
    striker_rest: tuple[float, float] | None
    striker_beyond_zone_line: bool | None
    blocked_before: frozenset[int] | None
    blocked_after: frozenset[int] | None
    moved: frozenset[int] | None
    umpire_calls: tuple[KoronaReason, ...]

    @classmethod
    def from_record(cls, record: StrokeRecord) -> KoronaStroke:
        """Read the korona view of a validated stroke record.

        Raises:
            RuleError: a korona field is malformed or contradicts the contract fields.
        """
        calls = record.calls
        if calls.improper or calls.technical_foul or calls.demanded or calls.early_break:
            raise RuleError(
                "stroke record: carrom umpire calls do not apply to korona; "
                "use 'umpire_calls' with korona reason codes"
            )
        x = record.extra
        cushions, group, given = _contacts(record, x)
        rebound = _stroke_type(x, cushions, record)
        if rebound and not cushions:  # "rebound" without the rail: a rail of unknown side
            cushions = (Contact(-1, None, rail=None, cushion=True),)
        pocketed = _gone(x, "pocketed_discs", "pocket", _POCKETS, record)
        off = _gone(x, "off_board_discs", "rail", _WHERE_OFF, record)
        pocketed, off = _fill_ids(pocketed, off, record)
        rest = _rest(x, record)
        return cls(
            number=record.stroke,
            side=record.side,
            rebound=rebound,
            cushions=cushions,
            first_group=group,
            first_known=given,
            pocketed=pocketed,
            off_board=off,
            striker_pocketed=record.striker_pocketed,
            striker_off_board=record.striker_off_board,
            before=record.before,
            after=record.after,
            striker_rest=rest,
            striker_beyond_zone_line=_opt_bool(x, "striker_beyond_zone_line"),
            blocked_before=_ids(x, "blocked_before"),
            blocked_after=_ids(x, "blocked_after"),
            moved=_ids(x, "moved"),
            umpire_calls=_umpire_calls(x),
        )


def _err(msg: str) -> RuleError:
    return RuleError(f"stroke record: {msg}")


def _int_id(v: Any, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise _err(f"{what} must be an integer id, got {v!r}")
    return v


def _opt_bool(x: Mapping[str, Any], key: str) -> bool | None:
    v = x.get(key)
    if v is not None and not isinstance(v, bool):
        raise _err(f"{key!r} must be true, false or null, got {v!r}")
    return v


def _ids(x: Mapping[str, Any], key: str) -> frozenset[int] | None:
    v = x.get(key)
    if v is None:
        return None
    if not isinstance(v, list):
        raise _err(f"{key!r} must be a list of disc ids")
    return frozenset(_int_id(i, f"{key} item") for i in v)


def _list(x: Mapping[str, Any], key: str) -> list[Any] | None:
    v = x.get(key)
    if v is None:
        return None
    if not isinstance(v, list):
        raise _err(f"{key!r} must be a list, got {type(v).__name__}")
    return v


def _contacts(
    record: StrokeRecord, x: Mapping[str, Any]
) -> tuple[tuple[Contact, ...], tuple[Contact, ...], bool]:
    raw = _list(x, "striker_contacts")
    if raw is None:
        return _fallback_contacts(record, x)
    items = [_contact(i, v) for i, v in enumerate(raw)]
    cushions: list[Contact] = []
    for i, c in enumerate(items):
        if c.cushion:
            cushions.append(c)
            continue
        group = [c]
        for d in items[i + 1 :]:
            if d.cushion or not _same_moment(c, d):
                break
            group.append(d)
        return tuple(cushions), tuple(group), True
    return tuple(cushions), (), True


def _contact(i: int, v: Any) -> Contact:
    if not isinstance(v, Mapping):
        raise _err(f"striker_contacts[{i}] must be an object")
    t = v.get("t")
    if t is not None and (isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t)):
        raise _err(f"striker_contacts[{i}].t must be a time in seconds, got {t!r}")
    t_s = None if t is None else float(t)
    if "cushion" in v:
        rail = v["cushion"]
        if rail is not None and rail not in _RAILS:
            raise _err(f"striker_contacts[{i}].cushion must be one of N, E, S, W or null, got {rail!r}")
        return Contact(i, t_s, rail=rail, cushion=True)
    kind = v.get("kind")
    if kind not in _KINDS:
        raise _err(f"striker_contacts[{i}].kind must be white or black, got {kind!r}")
    ident = v.get("id")
    return Contact(
        i, t_s, id=None if ident is None else _int_id(ident, f"striker_contacts[{i}].id"), kind=kind
    )


def _same_moment(a: Contact, b: Contact) -> bool:
    return a.t_s is not None and b.t_s is not None and abs(a.t_s - b.t_s) <= SIMULTANEOUS_S


def _fallback_contacts(
    record: StrokeRecord, x: Mapping[str, Any]
) -> tuple[tuple[Contact, ...], tuple[Contact, ...], bool]:
    rail = x.get("first_cushion")
    if rail is not None and rail not in _RAILS:
        raise _err(f"'first_cushion' must be one of N, E, S, W or null, got {rail!r}")
    cushion = rail is not None or record.cushion_before_contact or record.first_contact == "cushion"
    cushions = (Contact(-1, None, rail=rail, cushion=True),) if cushion else ()
    kinds_by_id = {d.id: d.kind for d in record.before if d.id is not None}
    ids = _list(x, "first_disc_ids")
    if ids is None and x.get("first_disc_id") is not None:  # the tracker's shot summary
        ids = [x["first_disc_id"]]
    kinds = _list(x, "first_disc_kinds")
    if kinds is None and x.get("first_disc") is not None:
        kinds = [x["first_disc"]]
    if ids is not None:
        group = []
        for i, v in enumerate(ids):
            ident = _int_id(v, f"first_disc_ids[{i}]")
            kind = kinds_by_id.get(ident) or (kinds[i] if kinds is not None and i < len(kinds) else None)
            if kind not in _KINDS:
                raise _err(
                    f"first_disc_ids[{i}] = {ident} is not a white or black disc of 'before' "
                    "(or give its kind in 'first_disc_kinds')"
                )
            group.append(Contact(-1, None, id=ident, kind=kind))
        return cushions, tuple(group), True
    known = kinds is not None or record.first_contact != "cushion"
    if kinds is None:
        kinds = [record.first_contact] if record.first_contact in _KINDS else []
    for i, k in enumerate(kinds):
        if k not in _KINDS:
            raise _err(f"first_disc_kinds[{i}] must be white or black, got {k!r}")
    return cushions, tuple(Contact(-1, None, kind=k) for k in kinds), known


def _stroke_type(x: Mapping[str, Any], cushions: Sequence[Contact], record: StrokeRecord) -> bool:
    derived = bool(cushions)
    given = x.get("stroke_type")
    if given is None:
        return derived
    if given not in (StrokeType.DIRECT, StrokeType.REBOUND):
        raise _err(f"'stroke_type' must be direct or rebound, got {given!r}")
    rebound: bool = given == StrokeType.REBOUND
    if (derived and not rebound) or (rebound and not derived and x.get("striker_contacts") is not None):
        raise _err(
            f"'stroke_type' is {given} but the record "
            f"{'has a rail' if derived else 'has no rail'} before the first disc"
        )
    return rebound


def _gone(
    x: Mapping[str, Any], key: str, where_key: str, allowed: tuple[str, ...], record: StrokeRecord
) -> tuple[Gone, ...] | None:
    raw = _list(x, key)
    if raw is None:
        return None
    out = []
    for i, v in enumerate(raw):
        if not isinstance(v, Mapping):
            raise _err(f"{key}[{i}] must be an object")
        kind = v.get("kind")
        if kind not in _KINDS:
            raise _err(f"{key}[{i}].kind must be white or black, got {kind!r}")
        where = v.get(where_key, v.get("side")) if where_key == "rail" else v.get(where_key)
        if where is not None and where not in allowed:
            raise _err(f"{key}[{i}].{where_key} must be one of {', '.join(allowed)} or null, got {where!r}")
        ident = v.get("id")
        out.append(Gone(i, kind, None if ident is None else _int_id(ident, f"{key}[{i}].id"), where))
    contract = [p.kind for p in record.pocketed] if key == "pocketed_discs" else list(record.off_board)
    if contract and sorted(contract) != sorted(g.kind for g in out):
        base = "pocketed" if key == "pocketed_discs" else "off_board"
        raise _err(f"{key!r} and {base!r} list different discs")
    return tuple(out)


def _fill_ids(
    pocketed: tuple[Gone, ...] | None, off: tuple[Gone, ...] | None, record: StrokeRecord
) -> tuple[tuple[Gone, ...], tuple[Gone, ...]]:
    """Contract lists -> `Gone` items; ids from before/after when only one reading fits."""
    if pocketed is None:
        pocketed = tuple(
            Gone(i, p.kind, None, p.pocket) for i, p in enumerate(record.pocketed) if p.kind in _KINDS
        )
    if off is None:
        off = tuple(Gone(i, k, None, None) for i, k in enumerate(record.off_board) if k in _KINDS)
    if not record.after:  # without "after" nothing says which discs are missing
        return pocketed, off
    after_ids = {d.id for d in record.after}
    missing: dict[str, list[int]] = {}
    for d in record.before:
        if d.id is not None and d.id not in after_ids and d.kind in _KINDS:
            missing.setdefault(d.kind, []).append(d.id)
    known = {g.id for g in (*pocketed, *off) if g.id is not None}
    for kind, ids in missing.items():
        ids = [i for i in ids if i not in known]
        p_need = [g for g in pocketed if g.kind == kind and g.id is None]
        o_need = [g for g in off if g.kind == kind and g.id is None]
        if len(ids) == len(p_need) + len(o_need) and not (p_need and o_need):
            fill = dict(zip([g.index for g in (p_need or o_need)], ids, strict=True))
            if p_need:
                pocketed = tuple(Gone(g.index, g.kind, fill.get(g.index, g.id), g.where) for g in pocketed)
            else:
                off = tuple(Gone(g.index, g.kind, fill.get(g.index, g.id), g.where) for g in off)
    return pocketed, off


def _rest(x: Mapping[str, Any], record: StrokeRecord) -> tuple[float, float] | None:
    v = x.get("striker_rest")
    if v is None:
        s = [d for d in record.after if d.kind == "striker"]
        return (s[0].x_mm, s[0].y_mm) if s else None
    if not isinstance(v, Mapping):
        raise _err("'striker_rest' must be an object with x_mm and y_mm")
    try:
        xy = (float(v["x_mm"]), float(v["y_mm"]))
    except (KeyError, TypeError, ValueError):
        raise _err("'striker_rest' must be an object with numeric x_mm and y_mm") from None
    if not all(math.isfinite(c) for c in xy):
        raise _err("'striker_rest' must be finite")
    return xy


def _umpire_calls(x: Mapping[str, Any]) -> tuple[KoronaReason, ...]:
    raw = _list(x, "umpire_calls") or []
    out = []
    for i, v in enumerate(raw):
        try:
            reason = KoronaReason(v)
        except ValueError:
            raise _err(f"umpire_calls[{i}] {v!r} is not a korona reason code") from None
        if not reason.is_umpire_only():
            raise _err(f"umpire_calls[{i}] {v!r} is decided from the stroke itself, not by the umpire")
        out.append(reason)
    return tuple(out)
