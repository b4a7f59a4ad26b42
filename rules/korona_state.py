"""Korona state: the players' discs, debts and warnings, the turn, the games of a match.

All objects are frozen; updates go through `dataclasses.replace`. Formats (how many games) are
configuration, not law: the text plays "best of 1 game" (korona, competition terms).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

import numpy as np

from rules.korona_geometry import OPPOSITE, KoronaGeometry
from rules.records import DiscPos
from tracker.errors import ConfigError, RuleError

__all__ = [
    "DISCS_PER_PLAYER",
    "GameRecord",
    "KORONA_FORMATS",
    "KoronaFormat",
    "KoronaState",
    "Pending",
    "PlayerState",
    "initial_layout",
    "parse_korona_format",
]

DISCS_PER_PLAYER = 8


@dataclass(frozen=True, slots=True)
class KoronaFormat:
    """How a korona match is organised.

    Attributes:
        name: preset name.
        games_to_win: games needed to win the match (1 = best of 1, 3 = best of 5, 4 = best of 7).
        swap_seats: players change sides between games (korona §20.24 allows walking round then).
        alternate_break: the break alternates between the players game by game.
        move_tol_mm: a disc displaced more than this between "before" and "after" has moved.
    """

    name: str = "default"
    games_to_win: int = 1
    swap_seats: bool = True
    alternate_break: bool = True
    move_tol_mm: float = 2.0

    def __post_init__(self) -> None:
        if not 1 <= self.games_to_win <= 9:
            raise ConfigError(f"korona format: games_to_win must be in [1, 9], got {self.games_to_win}")
        if not 0.0 < self.move_tol_mm <= 20.0:
            raise ConfigError(f"korona format: move_tol_mm must be in (0, 20], got {self.move_tol_mm}")

    @property
    def best_of(self) -> int:
        return 2 * self.games_to_win - 1


KORONA_FORMATS = MappingProxyType(
    {
        "default": KoronaFormat(),
        "bo1": KoronaFormat(name="bo1", games_to_win=1),
        "bo3": KoronaFormat(name="bo3", games_to_win=2),
        "bo5": KoronaFormat(name="bo5", games_to_win=3),
        "bo7": KoronaFormat(name="bo7", games_to_win=4),
        "fixed_seats": KoronaFormat(name="fixed_seats", swap_seats=False),
    }
)


def parse_korona_format(spec: str) -> KoronaFormat:
    """A preset name, or ``"best_of=N"`` for odd N.

    Examples:
        >>> parse_korona_format("bo5").games_to_win
        3
        >>> parse_korona_format("best_of=7").games_to_win
        4
    """
    if spec in KORONA_FORMATS:
        return KORONA_FORMATS[spec]
    key, sep, value = spec.partition("=")
    if sep and key.strip() == "best_of" and value.strip().isdigit() and int(value) % 2 == 1:
        return KoronaFormat(name=spec, games_to_win=(int(value) + 1) // 2)
    raise ConfigError(
        f"unknown korona format {spec!r}; expected one of {', '.join(KORONA_FORMATS)} or best_of=N with N odd"
    )


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One player. `on_board`: own discs on the board; `dues`: penalty discs owed (§24.4)."""

    name: str
    seat: str
    colour: str
    on_board: int = DISCS_PER_PLAYER
    dues: int = 0
    warnings: int = 0
    skip_next: bool = False
    games: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "seat": self.seat,
            "colour": self.colour,
            "on_board": self.on_board,
            "dues": self.dues,
            "warnings": self.warnings,
            "skip_next": self.skip_next,
            "games": self.games,
        }


@dataclass(frozen=True, slots=True)
class Pending:
    """A disc the umpire must put on the board now.

    Attributes:
        what: "penalty" (trahviseib, §24.3), "restore" (back where it was) or "off_board" (§20.17).
        kind: disc colour; player: the penalised player or the owner.
        spot_mm: prescribed spot in board mm, None when nothing fits (the umpire decides).
        law: the paragraph that requires it; id: disc id when known; where: the rail zone that
            takes a penalty disc, or the rail an off-board disc went over.
        occupied: a restore spot now overlaps another disc (the umpire decides, §21.10).
    """

    what: str
    kind: str
    player: str | None
    spot_mm: tuple[float, float] | None
    law: str
    id: int | None = None
    where: str | None = None
    occupied: bool = False

    def to_json(self) -> dict[str, Any]:
        spot = None if self.spot_mm is None else [round(self.spot_mm[0], 1), round(self.spot_mm[1], 1)]
        return {
            "what": self.what,
            "id": self.id,
            "kind": self.kind,
            "player": self.player,
            "spot_mm": spot,
            "law": self.law,
            "where": self.where,
            "occupied": self.occupied,
        }


@dataclass(frozen=True, slots=True)
class GameRecord:
    """How one game ended."""

    game: int
    winner: str
    law: str
    reason: str
    loser_discs: int


@dataclass(frozen=True, slots=True)
class KoronaState:
    """A korona match in progress.

    Attributes:
        players: the two players (singles).
        turn: the player on turn; breaker: who broke (breaks) the current game.
        game: current game number (1-based); game_strokes: strokes in it; strokes: in the match.
        layout: discs on the board as last seen or placed (board mm; ids may be None).
        pending: placements decided by the last line.
        results: finished games; match_winner: set when the match is over.
    """

    players: tuple[PlayerState, PlayerState]
    turn: str
    breaker: str
    first_break: str
    layout: tuple[DiscPos, ...]
    game: int = 1
    game_strokes: int = 0
    strokes: int = 0
    pending: tuple[Pending, ...] = ()
    results: tuple[GameRecord, ...] = ()
    match_winner: str | None = None

    def player(self, name: str) -> PlayerState:
        for p in self.players:
            if p.name == name:
                return p
        raise RuleError(f"unknown player {name!r}; expected one of {', '.join(p.name for p in self.players)}")

    def other(self, name: str) -> PlayerState:
        return self.players[1] if self.players[0].name == name else self.players[0]

    def with_player(self, p: PlayerState) -> KoronaState:
        a, b = self.players
        return replace(self, players=(p if a.name == p.name else a, p if b.name == p.name else b))

    def by_colour(self, colour: str) -> PlayerState:
        return self.players[0] if self.players[0].colour == colour else self.players[1]


def initial_layout(players: tuple[PlayerState, ...], geometry: KoronaGeometry) -> tuple[DiscPos, ...]:
    """Set-up (korona §19.1-§19.2): each player's 8 discs against the rail across from his seat
    (he sets them on his side, then goes round to strike). Ids: white 1-8, black 9-16."""
    out: list[DiscPos] = []
    for p in sorted(players, key=lambda q: q.colour != "white"):
        base = 1 if p.colour == "white" else 1 + DISCS_PER_PLAYER
        row = geometry.initial_row(OPPOSITE[p.seat])
        out += [DiscPos(p.colour, float(x), float(y), base + i) for i, (x, y) in enumerate(np.asarray(row))]
    return tuple(out)
