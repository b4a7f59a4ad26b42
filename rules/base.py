"""Game-agnostic core of the rules engines: value types and the engine ABC.

A rules engine is a pure function of (state, line) -> (state, rulings). It never reads a clock,
a file or a camera: the `RulesSession` (rules/session.py) feeds it one parsed line at a time
(a `StrokeRecord` or an `UmpireDecision`, see rules/records.py), keeps the log and replays it for
undo, corrections and crash recovery. Engines are registered by game name in rules/registry.py.

Every decision an engine makes is a frozen `Ruling` naming its reason (a member of the engine's
closed `StrEnum` of reasons), the law it applies (for example ``"ICF §45a"``) and the ids of the
events it came from (``"stroke:12"``, ``"stroke:12:pocketed:0"``, ``"line:40"``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Generic, TypeVar

from rules.records import MatchStart, StrokeRecord, UmpireDecision

__all__ = [
    "BoardResult",
    "Constraints",
    "Placement",
    "RulesEngine",
    "Ruling",
    "Step",
    "stroke_event_id",
]

S = TypeVar("S")


def stroke_event_id(stroke: int, part: str | None = None, index: int | None = None) -> str:
    """The id of a stroke record or of one item in it.

    Examples:
        >>> stroke_event_id(12)
        'stroke:12'
        >>> stroke_event_id(12, "pocketed", 0)
        'stroke:12:pocketed:0'
    """
    out = f"stroke:{stroke}"
    if part is not None:
        out += f":{part}"
    if index is not None:
        out += f":{index}"
    return out


@dataclass(frozen=True, slots=True)
class Ruling:
    """One decision of a rules engine.

    Attributes:
        reason: member of the engine's closed reason enum (`CarromReason`, korona's own enum).
        law: the article applied, e.g. ``"ICF §45a"`` or ``"korona §24.1.4"``.
        events: ids of the stroke items or log lines the decision came from.
        player: the player the decision is about (the one penalised, credited, ...), if any.
        foul: True when the decision penalises `player` (it is listed under "fouls").
    """

    reason: StrEnum
    law: str
    events: tuple[str, ...] = ()
    player: str | None = None
    foul: bool = False

    def to_json(self) -> dict[str, Any]:
        """Contract-2 form: ``{"law", "reason", "player", "events"}`` (+ ``"foul"``)."""
        return {"law": self.law, "reason": str(self.reason), "player": self.player,
                "events": list(self.events), "foul": self.foul}


@dataclass(frozen=True, slots=True)
class Placement:
    """Discs to put back on the board after a stroke.

    Attributes:
        kind: "white", "black" or "queen".
        count: how many discs of `kind`.
        placed_by: "umpire" (queen and coins that left the board, at the centre circle) or
            "opponent" (returned coins and dues, anywhere in the outer circle; the placer chooses).
        by: name of the player who places them; None when the umpire does.
        law: the article that requires it.
        spot_mm: (x, y) board mm of the prescribed spot, or None when the placer chooses.
    """

    kind: str
    count: int
    placed_by: str
    by: str | None
    law: str
    spot_mm: tuple[float, float] | None = None

    def to_json(self) -> dict[str, Any]:
        spot = None if self.spot_mm is None else [round(self.spot_mm[0], 1), round(self.spot_mm[1], 1)]
        return {"kind": self.kind, "count": self.count, "placed_by": self.placed_by, "by": self.by,
                "law": self.law, "spot_mm": spot}


@dataclass(frozen=True, slots=True)
class BoardResult:
    """How one board ended.

    Attributes:
        winner: the player (or team) credited with the board.
        points: points added to the winner's game score (already capped).
        coins: the part of `points` that comes from coins (the loser's coins left on the board,
            plus a demanded penalty coin); SoL's "coins" field.
        queen_points: the part of `points` the queen is worth (0, 1 or 3).
        queen_credited_to: who the queen counts for in this board's result, or None.
        queen_pocketed_by: who pocketed (and covered) the queen during the board, or None.
        game: game number (1-based); board: board number within the game (1-based).
        breaker: who broke this board.
        law: the article that decided the ending; reason: its reason code.
    """

    winner: str
    points: int
    coins: int
    queen_points: int
    queen_credited_to: str | None
    queen_pocketed_by: str | None
    game: int
    board: int
    breaker: str
    law: str
    reason: StrEnum

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "points": self.points, "coins": self.coins,
                "queen_points": self.queen_points, "queen_credited_to": self.queen_credited_to,
                "queen_pocketed_by": self.queen_pocketed_by, "game": self.game, "board": self.board,
                "breaker": self.breaker, "law": self.law, "reason": str(self.reason)}


@dataclass(frozen=True, slots=True)
class Constraints:
    """What the next stroke must respect.

    Attributes:
        turn: the player on turn (None once the match is over).
        side: the side that player sits at ("N", "E", "S", "W").
        duties: short codes of pending obligations, e.g. ("break",), ("cover_queen",).
        details: engine-specific extras (JSON-able).
    """

    turn: str | None
    side: str | None
    duties: tuple[str, ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "side": self.side, "duties": list(self.duties), **dict(self.details)}


@dataclass(frozen=True, slots=True)
class Step(Generic[S]):
    """The result of applying one line: the new state and what was decided.

    Attributes:
        state: the engine state after the line (a new object; the old one is untouched).
        rulings: every decision taken, in the order taken.
        returns: discs to put back on the board.
        board_over: set when the line ended a board.
        match_over: the match winner when the line ended the match.
    """

    state: S
    rulings: tuple[Ruling, ...] = ()
    returns: tuple[Placement, ...] = ()
    board_over: BoardResult | None = None
    match_over: str | None = None


class RulesEngine(ABC, Generic[S]):
    """A game's rules as pure hooks over an immutable state.

    Subclasses set the class attributes and implement the hooks; the session does the rest
    (parsing, log, undo, replay, corrections). A hook never mutates its `state` argument and
    raises `tracker.errors.RuleError` for a line that cannot apply (the session then leaves its
    state unchanged).

    Class attributes:
        game: registry name ("carrom", "korona").
        reasons: the closed StrEnum of reason codes the engine's rulings use.
        decision_kinds: the umpire decision kinds `apply_decision` accepts (the session itself
            handles "start_match", "undo" and "correct").
        formats: named format presets; `__init__` picks one.
    """

    game: ClassVar[str]
    reasons: ClassVar[type[StrEnum]]
    decision_kinds: ClassVar[frozenset[str]]
    formats: ClassVar[Mapping[str, Any]]

    def __init__(self, fmt: str = "default") -> None:
        self.format_name = fmt
        self.format = self.resolve_format(fmt)

    @classmethod
    def resolve_format(cls, spec: str) -> Any:
        """The format object named by `spec` (default: a key of `formats`).

        Raises:
            ConfigError: unknown name.
        """
        from tracker.errors import ConfigError

        if spec not in cls.formats:
            names = ", ".join(sorted(cls.formats))
            raise ConfigError(f"unknown {cls.game} format {spec!r}; expected one of {names}")
        return cls.formats[spec]

    @abstractmethod
    def initial_state(self, start: MatchStart) -> S:
        """The state at the start of a match (board 1 of game 1, before the break)."""

    @abstractmethod
    def assess_stroke(self, state: S, record: StrokeRecord) -> Step[S]:
        """Rule on one stroke. Raises RuleError if the record contradicts the state."""

    @abstractmethod
    def apply_decision(self, state: S, decision: UmpireDecision) -> Step[S]:
        """Apply one umpire decision of a kind in `decision_kinds`."""

    @abstractmethod
    def next_constraints(self, state: S) -> Constraints:
        """Who plays next, from which side, and what they must do."""

    @abstractmethod
    def strokes_played(self, state: S) -> int:
        """Number of strokes applied so far in the match (used to guard "start_match")."""

    @abstractmethod
    def ruling_json(self, step: Step[S], *, stroke: int | None) -> dict[str, Any]:
        """The contract-2 ruling dict for `step` (`stroke` is None for umpire decisions)."""

    @abstractmethod
    def state_json(self, state: S) -> dict[str, Any]:
        """A JSON snapshot of `state` (players, seats, turn, score, dues, queen, ...)."""

    @abstractmethod
    def export_sol(self, state: S) -> dict[str, Any]:
        """The match result in the shape the SoL tournament manager imports (see rules/export.py)."""
