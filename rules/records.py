"""Parsing and validation of the rules input: stroke records and umpire decisions (contract 2).

A line is a JSON object. If its "umpire" value is a string, it is an umpire decision
(``{"umpire": "undo"}``); otherwise it is a stroke record::

    {"stroke": 1, "side": "S", "pocketed": [{"kind": "white", "pocket": "NE"}],
     "off_board": [{"kind": "black"}], "striker_pocketed": false, "striker_off_board": false,
     "first_contact": "white", "cushion_before_contact": false,
     "before": [{"id": 1, "kind": "white", "x_mm": 0.0, "y_mm": 31.0}], "after": [...],
     "umpire": {"improper": false, "technical_foul": false, "demanded": false}}

Only "stroke" and "side" are required. Unknown top-level keys of a stroke record are kept in
`StrokeRecord.extra` (games add their own, e.g. korona's stroke type); unknown keys inside
"umpire" are rejected, so a misspelt umpire call never passes silently. Every error is a
`RuleError` whose message names the field and what is wrong, in one line.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from tracker.errors import RuleError

__all__ = [
    "COIN_KINDS",
    "DiscPos",
    "MatchStart",
    "Pocketing",
    "StrokeCalls",
    "StrokeRecord",
    "UmpireDecision",
    "is_decision",
    "parse_decision",
    "parse_match_start",
    "parse_stroke",
]

SIDE_NAMES: tuple[str, ...] = ("N", "E", "S", "W")
POCKET_NAMES: tuple[str, ...] = ("NW", "NE", "SE", "SW")
COIN_KINDS: tuple[str, ...] = ("white", "black", "queen")
CONTACT_KINDS: tuple[str, ...] = (*COIN_KINDS, "cushion")
STROKE_CALLS: tuple[str, ...] = ("improper", "technical_foul", "demanded", "early_break")
_EMPTY: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class DiscPos:
    """A disc resting on the board: kind and centre in board mm (origin at the board centre)."""

    kind: str
    x_mm: float
    y_mm: float
    id: int | None = None


@dataclass(frozen=True, slots=True)
class Pocketing:
    """A coin that went into a pocket (pocket None when unknown)."""

    kind: str
    pocket: str | None = None


@dataclass(frozen=True, slots=True)
class StrokeCalls:
    """The umpire's calls about one stroke (what the camera cannot see).

    Attributes:
        improper: the stroke was improper (pushed, thumbed where not allowed, ...): ICF §37, §49-50.
        technical_foul: a technical foul before this stroke in the same turn: ICF §36a.
        demanded: the opponent demanded the penalty coin when this stroke ended the board: ICF §72-73.
        early_break: the break was played before the umpire's "go": ICF §20.
    """

    improper: bool = False
    technical_foul: bool = False
    demanded: bool = False
    early_break: bool = False


@dataclass(frozen=True, slots=True)
class StrokeRecord:
    """One stroke as the tracker saw it plus the umpire's calls about it.

    Attributes:
        stroke: stroke number (as given by the tracker; used to address corrections).
        side: the side the stroke was played from ("N", "E", "S", "W").
        pocketed: coins pocketed, in the order seen.
        off_board: kinds of coins that left the board (ICF §38).
        striker_pocketed / striker_off_board: what happened to the striker.
        first_contact: first thing the striker touched: a coin kind, "cushion" or None (nothing).
        cushion_before_contact: the striker touched a cushion before any coin.
        before / after: discs on the board before and after the stroke (board mm).
        calls: the umpire's calls.
        extra: every other key of the record, unvalidated (read-only).
    """

    stroke: int
    side: str
    pocketed: tuple[Pocketing, ...] = ()
    off_board: tuple[str, ...] = ()
    striker_pocketed: bool = False
    striker_off_board: bool = False
    first_contact: str | None = None
    cushion_before_contact: bool = False
    before: tuple[DiscPos, ...] = ()
    after: tuple[DiscPos, ...] = ()
    calls: StrokeCalls = field(default_factory=StrokeCalls)
    extra: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)

    def count_pocketed(self, kind: str) -> int:
        """How many coins of `kind` were pocketed."""
        return sum(1 for p in self.pocketed if p.kind == kind)

    def count_off_board(self, kind: str) -> int:
        """How many coins of `kind` left the board."""
        return sum(1 for k in self.off_board if k == kind)


@dataclass(frozen=True, slots=True)
class UmpireDecision:
    """An umpire decision: its kind, its other fields (validated by the engine) and its position.

    Attributes:
        kind: the decision name ("foul", "concede", ...).
        fields: every other key of the line (read-only).
        seq: 1-based position of the line in the effective log (its event id is ``"line:<seq>"``).
    """

    kind: str
    fields: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    seq: int = 0

    @property
    def event_id(self) -> str:
        return f"line:{self.seq}"

    def get(self, key: str, default: Any = None) -> Any:
        return self.fields.get(key, default)


@dataclass(frozen=True, slots=True)
class MatchStart:
    """Who sits where and who breaks first.

    Attributes:
        seats: side -> player name, e.g. {"S": "A", "N": "B"} (two opposite sides: singles).
        first_break: the player who breaks the first board.
    """

    seats: Mapping[str, str]
    first_break: str

    @property
    def players(self) -> tuple[str, ...]:
        """Player names in the order the "players" object lists them."""
        return tuple(self.seats.values())


DEFAULT_START = MatchStart(seats=MappingProxyType({"S": "A", "N": "B"}), first_break="A")


def is_decision(line: Mapping[str, Any]) -> bool:
    """True when `line` is an umpire decision (its "umpire" value is a string)."""
    return isinstance(line.get("umpire"), str)


def _bool(d: Mapping[str, Any], key: str, where: str) -> bool:
    v = d.get(key, False)
    if not isinstance(v, bool):
        raise RuleError(f"{where}: {key!r} must be true or false, got {v!r}")
    return v


def _choice(v: Any, allowed: tuple[str, ...], what: str) -> str:
    if not isinstance(v, str) or v not in allowed:
        raise RuleError(f"{what} must be one of {', '.join(allowed)}, got {v!r}")
    return v


def _list(d: Mapping[str, Any], key: str) -> list[Any]:
    v = d.get(key, [])
    if v is None:
        return []
    if not isinstance(v, list):
        raise RuleError(f"stroke record: {key!r} must be a list, got {type(v).__name__}")
    return v


def _item(v: Any, key: str, i: int) -> Mapping[str, Any]:
    if isinstance(v, str):  # shorthand: "pocketed": ["white"]
        return {"kind": v}
    if not isinstance(v, Mapping):
        raise RuleError(f"stroke record: {key}[{i}] must be an object, got {type(v).__name__}")
    return v


def _number(v: Any, what: str) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
        raise RuleError(f"{what} must be a finite number, got {v!r}")
    return float(v)


def _discs(d: Mapping[str, Any], key: str) -> tuple[DiscPos, ...]:
    out = []
    for i, raw in enumerate(_list(d, key)):
        item = _item(raw, key, i)
        kind = _choice(item.get("kind"), (*COIN_KINDS, "striker"), f"stroke record: {key}[{i}].kind")
        x = _number(item.get("x_mm"), f"stroke record: {key}[{i}].x_mm")
        y = _number(item.get("y_mm"), f"stroke record: {key}[{i}].y_mm")
        ident = item.get("id")
        if ident is not None and (isinstance(ident, bool) or not isinstance(ident, int)):
            raise RuleError(f"stroke record: {key}[{i}].id must be an integer, got {ident!r}")
        out.append(DiscPos(kind, x, y, ident))
    return tuple(out)


def _calls(d: Mapping[str, Any]) -> StrokeCalls:
    raw = d.get("umpire", {})
    if raw is None:
        return StrokeCalls()
    if not isinstance(raw, Mapping):
        raise RuleError(f"stroke record: 'umpire' must be an object of calls, got {type(raw).__name__}")
    unknown = sorted(set(raw) - set(STROKE_CALLS))
    if unknown:
        expected = ", ".join(STROKE_CALLS)
        raise RuleError(f"stroke record: unknown umpire call {unknown[0]!r}; expected {expected}")
    return StrokeCalls(**{k: _bool(raw, k, "stroke record: umpire") for k in STROKE_CALLS})


_KNOWN = frozenset({"stroke", "side", "pocketed", "off_board", "striker_pocketed", "striker_off_board",
                    "first_contact", "cushion_before_contact", "before", "after", "umpire"})


def parse_stroke(line: Mapping[str, Any]) -> StrokeRecord:
    """Validate a stroke record (contract 2) and return it as a `StrokeRecord`.

    A "striker" entry in "pocketed" or "off_board" sets `striker_pocketed` / `striker_off_board`.

    Raises:
        RuleError: a field is missing, of the wrong type or out of its closed set.

    Examples:
        >>> r = parse_stroke({"stroke": 3, "side": "S", "pocketed": [{"kind": "white", "pocket": "NE"}]})
        >>> (r.stroke, r.side, r.count_pocketed("white"))
        (3, 'S', 1)
        >>> parse_stroke({"stroke": 3, "side": "X"})
        Traceback (most recent call last):
        ...
        tracker.errors.RuleError: stroke record: 'side' must be one of N, E, S, W, got 'X'
    """
    if not isinstance(line, Mapping):
        raise RuleError(f"a line must be a JSON object, got {type(line).__name__}")
    n = line.get("stroke")
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise RuleError(f"stroke record: 'stroke' must be a non-negative integer, got {n!r}")
    side = _choice(line.get("side"), SIDE_NAMES, "stroke record: 'side'")
    striker_pocketed = _bool(line, "striker_pocketed", "stroke record")
    striker_off = _bool(line, "striker_off_board", "stroke record")
    pocketed: list[Pocketing] = []
    for i, raw in enumerate(_list(line, "pocketed")):
        item = _item(raw, "pocketed", i)
        kind = _choice(item.get("kind"), (*COIN_KINDS, "striker"), f"stroke record: pocketed[{i}].kind")
        pocket = item.get("pocket")
        if pocket is not None:
            _choice(pocket, POCKET_NAMES, f"stroke record: pocketed[{i}].pocket")
        if kind == "striker":
            striker_pocketed = True
        else:
            pocketed.append(Pocketing(kind, pocket))
    off: list[str] = []
    for i, raw in enumerate(_list(line, "off_board")):
        kind = _choice(_item(raw, "off_board", i).get("kind"), (*COIN_KINDS, "striker"),
                       f"stroke record: off_board[{i}].kind")
        if kind == "striker":
            striker_off = True
        else:
            off.append(kind)
    fc = line.get("first_contact")
    if fc is not None:
        _choice(fc, CONTACT_KINDS, "stroke record: 'first_contact'")
    if striker_pocketed and striker_off:
        raise RuleError("stroke record: the striker cannot be both pocketed and off the board")
    return StrokeRecord(
        stroke=n, side=side, pocketed=tuple(pocketed), off_board=tuple(off),
        striker_pocketed=striker_pocketed, striker_off_board=striker_off, first_contact=fc,
        cushion_before_contact=_bool(line, "cushion_before_contact", "stroke record"),
        before=_discs(line, "before"), after=_discs(line, "after"), calls=_calls(line),
        extra=MappingProxyType({k: v for k, v in line.items() if k not in _KNOWN}),
    )


def parse_decision(line: Mapping[str, Any], *, seq: int = 0) -> UmpireDecision:
    """Split an umpire decision line into its kind and its other fields.

    Examples:
        >>> d = parse_decision({"umpire": "foul", "player": "A"})
        >>> (d.kind, d.get("player"))
        ('foul', 'A')
    """
    kind = line.get("umpire")
    if not isinstance(kind, str) or not kind:
        raise RuleError(f"umpire decision: 'umpire' must be a decision name, got {kind!r}")
    return UmpireDecision(kind, MappingProxyType({k: v for k, v in line.items() if k != "umpire"}), seq)


def parse_match_start(decision: UmpireDecision) -> MatchStart:
    """Validate a "start_match" decision: ``{"players": {"S": "A", "N": "B"}, "first_break": "A"}``.

    Raises:
        RuleError: seats not two opposite sides or four sides, names empty or repeated,
            first_break not one of the players.
    """
    seats = decision.get("players")
    if not isinstance(seats, Mapping) or not seats:
        raise RuleError("start_match: 'players' must be an object mapping sides to player names")
    for side, name in seats.items():
        _choice(side, SIDE_NAMES, "start_match: a side in 'players'")
        if not isinstance(name, str) or not name.strip():
            raise RuleError(f"start_match: the player at {side} must be a non-empty name, got {name!r}")
    names = list(seats.values())
    if len(set(names)) != len(names):
        raise RuleError("start_match: each player must have a different name")
    if set(seats) not in ({"N", "S"}, {"E", "W"}, set(SIDE_NAMES)):
        raise RuleError(f"start_match: players must sit on two opposite sides or all four, "
                        f"got {sorted(seats)}")
    first = decision.get("first_break", seats.get("S", names[0]))
    if first not in names:
        raise RuleError(f"start_match: 'first_break' must be one of {', '.join(names)}, got {first!r}")
    return MatchStart(seats=MappingProxyType(dict(seats)), first_break=first)
