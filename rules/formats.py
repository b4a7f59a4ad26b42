"""Match formats (configuration, not law): how many games, points, boards, the queen cut-off.

A format spec is a preset name optionally followed by overrides: ``"default"``,
``"single"``, ``"default,queen_cutoff=24"``, ``"unlimited,seats_fixed=true"``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from types import MappingProxyType

from tracker.errors import ConfigError

__all__ = ["CARROM_FORMATS", "CarromFormat", "parse_carrom_format"]


@dataclass(frozen=True, slots=True)
class CarromFormat:
    """How a carrom match is organised.

    Attributes:
        name: preset name (with overrides appended).
        games_to_win: games needed to win the match; 2 = best of three (ICF §30), 1 = one game.
        game_points: points that win a game (ICF §29a: 25).
        max_boards: boards after which a game ends (ICF §29a: 8); None = no limit (from the
            quarter-finals on, ICF §29b/§33b).
        extra_board_on_tie: play one more board when the scores are level after `max_boards`
            (ICF §29b); if False a level game after `max_boards` continues board by board.
        queen_cutoff: the queen counts only for a board winner whose game score before the board
            is below this (ICF §25b-i "3 points up to 21 inclusive", §27 "lost on reaching 22"):
            22; some leagues use 24.
        board_cap: most points one board can give (ICF §28: 12).
        seats_fixed: players never change sides (FIC §15); otherwise ICF §31/§33.
        change_after_board: in the deciding game, change sides after this board (ICF §33a: 4;
            None from the quarter-finals, §33b).
        change_at_points: in the deciding game, change sides once a player reaches this (ICF §33: 13).
        break_attempts: strokes a breaker may take without touching a coin (ICF §18a: 1 + 2 more).
    """

    name: str = "default"
    games_to_win: int = 2
    game_points: int = 25
    max_boards: int | None = 8
    extra_board_on_tie: bool = True
    queen_cutoff: int = 22
    board_cap: int = 12
    seats_fixed: bool = False
    change_after_board: int | None = 4
    change_at_points: int | None = 13
    break_attempts: int = 3

    def __post_init__(self) -> None:
        checks = [
            ("games_to_win", self.games_to_win, 1, 9),
            ("game_points", self.game_points, 1, 1000),
            ("queen_cutoff", self.queen_cutoff, 0, 1000),
            ("board_cap", self.board_cap, 1, 100),
            ("break_attempts", self.break_attempts, 1, 10),
        ]
        if self.max_boards is not None:
            checks.append(("max_boards", self.max_boards, 1, 100))
        for name, value, lo, hi in checks:
            if not lo <= value <= hi:
                raise ConfigError(f"carrom format: {name} must be in [{lo}, {hi}], got {value}")

    @property
    def deciding_game(self) -> int:
        """The number of the game that can decide the match (3 in a best of three)."""
        return 2 * self.games_to_win - 1


CARROM_FORMATS: MappingProxyType[str, CarromFormat] = MappingProxyType({
    "default": CarromFormat(),
    "single": CarromFormat(name="single", games_to_win=1),
    "unlimited": CarromFormat(name="unlimited", max_boards=None, extra_board_on_tie=False,
                              change_after_board=None),
    "fic": CarromFormat(name="fic", seats_fixed=True),
    "queen24": CarromFormat(name="queen24", queen_cutoff=24),
})


def _value(field: dataclasses.Field[object], text: str) -> object:
    kind = str(field.type)
    if "bool" in kind:
        if text.lower() not in ("true", "false", "1", "0", "yes", "no"):
            raise ConfigError(f"carrom format: {field.name} must be true or false, got {text!r}")
        return text.lower() in ("true", "1", "yes")
    if text.lower() in ("none", "null", "") and "None" in kind:
        return None
    try:
        return int(text)
    except ValueError:
        raise ConfigError(f"carrom format: {field.name} must be an integer, got {text!r}") from None


def parse_carrom_format(spec: str) -> CarromFormat:
    """A `CarromFormat` from ``"preset[,key=value,...]"``.

    Raises:
        ConfigError: unknown preset or key, or a value out of range.

    Examples:
        >>> parse_carrom_format("default,queen_cutoff=24").queen_cutoff
        24
        >>> parse_carrom_format("single").games_to_win
        1
    """
    name, *overrides = [p.strip() for p in spec.split(",")]
    if name not in CARROM_FORMATS:
        raise ConfigError(f"unknown carrom format {name!r}; expected one of {', '.join(CARROM_FORMATS)}")
    fmt = CARROM_FORMATS[name]
    fields = {f.name: f for f in dataclasses.fields(CarromFormat) if f.name != "name"}
    changes: dict[str, object] = {}
    for item in overrides:
        key, sep, text = item.partition("=")
        if not sep or key.strip() not in fields:
            raise ConfigError(f"carrom format: bad override {item!r}; expected key=value with key in "
                              f"{', '.join(fields)}")
        changes[key.strip()] = _value(fields[key.strip()], text.strip())
    return dataclasses.replace(fmt, name=spec, **changes) if changes else fmt  # type: ignore[arg-type]
