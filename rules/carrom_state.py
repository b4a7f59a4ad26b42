"""Carrom state: one board (coins, dues, queen, turn) inside one match (games, points, seats).

All state objects are frozen; updates go through `dataclasses.replace`. Mappings held by the
state are never mutated after construction (helpers return new dicts).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any, TypeVar

from rules.base import BoardResult

__all__ = [
    "COINS_PER_COLOUR",
    "BoardState",
    "MatchState",
    "QueenState",
    "frozen_map",
    "new_board",
    "opposite_side",
]

COINS_PER_COLOUR = 9
_OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


V = TypeVar("V")


def frozen_map(d: Mapping[str, V]) -> Mapping[str, V]:
    """A read-only copy of `d`."""
    return MappingProxyType(dict(d))


def opposite_side(side: str) -> str:
    """The side across the board.

    Examples:
        >>> opposite_side("S")
        'N'
    """
    return _OPPOSITE[side]


class QueenState(StrEnum):
    """Where the queen is: on the board, pocketed and waiting for cover (ICF §65, §69), covered."""

    ON_BOARD = "on_board"
    PENDING = "pending_cover"
    COVERED = "covered"


@dataclass(frozen=True, slots=True)
class BoardState:
    """One board, from the break to the finish.

    Attributes:
        number: board number within the game (1-based).
        white: the player scheduled to break, who has the white coins all board (ICF §16, §18b).
        turn: the player on turn.
        broken: True once a break stroke touched a coin (ICF §17).
        attempts: strokes the current breaker has taken without touching a coin (ICF §18a).
        on_board: colour ("white"/"black") -> coins of that colour on the board (0-9).
        dues: player -> penalty coins owed and not yet placed (ICF §45b, §56).
        queen: the queen's state; queen_by: who pocketed it (pending) or covered it.
        strokes: strokes played in this board.
        extra: True for the extra board played on a tie (ICF §29b).
    """

    number: int
    white: str
    turn: str
    broken: bool
    attempts: int
    on_board: Mapping[str, int]
    dues: Mapping[str, int]
    queen: QueenState
    queen_by: str | None
    strokes: int
    extra: bool = False

    def colour_of(self, player: str) -> str:
        """"white" for the player who has the white coins, else "black"."""
        return "white" if player == self.white else "black"

    def coins_of(self, player: str) -> int:
        """Coins of `player`'s colour on the board."""
        return self.on_board[self.colour_of(player)]


def new_board(number: int, breaker: str, players: tuple[str, ...], *, extra: bool = False) -> BoardState:
    """A freshly set board (ICF §14): 9 + 9 coins and the queen at the centre, `breaker` white."""
    return BoardState(
        number=number, white=breaker, turn=breaker, broken=False, attempts=0,
        on_board=frozen_map({"white": COINS_PER_COLOUR, "black": COINS_PER_COLOUR}),
        dues=frozen_map({p: 0 for p in players}),
        queen=QueenState.ON_BOARD, queen_by=None, strokes=0, extra=extra,
    )


@dataclass(frozen=True, slots=True)
class MatchState:
    """A match: players, seats, games and points, and the board in play.

    Attributes:
        players: the two player names (seat order at the start).
        seats: side -> player (changes at side changes, ICF §31-33).
        first_break: who broke the first board of the match (ICF §13, §22a).
        game: game number (1-based); points: player -> points in this game; games: player -> games won.
        board: the board in play.
        mid_change_done: the deciding-game change of sides (ICF §33) has happened this game.
        results: every finished board, in order.
        game_winners: winner of each finished game.
        strokes: strokes applied in the whole match.
        winner: the match winner, once decided.
    """

    players: tuple[str, str]
    seats: Mapping[str, str]
    first_break: str
    game: int
    points: Mapping[str, int]
    games: Mapping[str, int]
    board: BoardState
    mid_change_done: bool = False
    results: tuple[BoardResult, ...] = ()
    game_winners: tuple[str, ...] = ()
    strokes: int = 0
    winner: str | None = None

    def other(self, player: str) -> str:
        """The opponent of `player`."""
        a, b = self.players
        return b if player == a else a

    def side_of(self, player: str) -> str:
        """The side `player` sits at now."""
        return next(side for side, name in self.seats.items() if name == player)

    def with_board(self, **changes: Any) -> MatchState:
        """A copy with fields of the board replaced."""
        return replace(self, board=replace(self.board, **changes))
