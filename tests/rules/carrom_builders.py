"""Builders for the carrom rules tests: states at a given position, strokes, scripted boards."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.carrom import CarromRules
from rules.carrom_state import MatchState, QueenState, frozen_map
from rules.records import MatchStart, parse_decision, parse_stroke
from rules.session import RulesSession

START = MatchStart(seats={"S": "A", "N": "B"}, first_break="A")


def engine(fmt: str = "default") -> CarromRules:
    return CarromRules(fmt)


def position(*, white: int = 9, black: int = 9, queen: str = "on_board", queen_by: str | None = None,
             turn: str = "A", broken: bool = True, attempts: int = 0, dues: dict[str, int] | None = None,
             points: dict[str, int] | None = None, fmt: str = "default") -> MatchState:
    """A match state with A (white, seat S) and B (black, seat N), board 1 of game 1."""
    state = engine(fmt).initial_state(START)
    board = replace(state.board, on_board=frozen_map({"white": white, "black": black}),
                    queen=QueenState(queen), queen_by=queen_by, turn=turn, broken=broken,
                    attempts=attempts, dues=frozen_map({"A": 0, "B": 0, **(dues or {})}))
    return replace(state, board=board, points=frozen_map({"A": 0, "B": 0, **(points or {})}))


def stroke(*pocketed: str, side: str = "S", n: int = 1, striker: bool = False, improper: bool = False,
           contact: str | None = "white", off: tuple[str, ...] = (), **extra: Any) -> dict[str, Any]:
    """A stroke record dict: `pocketed` kinds, the umpire's calls as keywords."""
    calls = {k: extra.pop(k) for k in ("technical_foul", "demanded", "early_break") if k in extra}
    return {"stroke": n, "side": side, "pocketed": [{"kind": k} for k in pocketed],
            "off_board": [{"kind": k} for k in off], "striker_pocketed": striker,
            "first_contact": contact, "umpire": {"improper": improper, **calls}, **extra}


def assess(state: MatchState, line: dict[str, Any], fmt: str = "default"):  # noqa: ANN201
    return engine(fmt).assess_stroke(state, parse_stroke(line))


def decide(state: MatchState, line: dict[str, Any], fmt: str = "default"):  # noqa: ANN201
    return engine(fmt).apply_decision(state, parse_decision(line, seq=1))


def reasons(step: Any) -> list[str]:
    return [str(r.reason) for r in step.rulings]


class Script:
    """Drive a live session with scripted boards (sides looked up from the session's seats)."""

    def __init__(self, fmt: str = "default", first_break: str = "A") -> None:
        self.session = RulesSession("carrom", format=fmt)
        self.n = 0
        self.lines: list[dict[str, Any]] = []
        self.feed({"umpire": "start_match", "players": {"S": "A", "N": "B"}, "first_break": first_break})

    def feed(self, line: dict[str, Any]) -> dict[str, Any]:
        self.lines.append(line)
        return self.session.apply(line)

    def side(self, player: str) -> str:
        st = self.session.state()
        return next(s for s, p in st["seats"].items() if p == player)

    def play(self, player: str, *pocketed: str, **kw: Any) -> dict[str, Any]:
        self.n += 1
        return self.feed(stroke(*pocketed, side=self.side(player), n=self.n, **kw))

    def colour(self, player: str) -> str:
        return self.session.state()["colours"][player]

    def win_board(self, winner: str, loser_left: int, *, queen: bool = True) -> dict[str, Any]:
        """Play one board that `winner` finishes with `loser_left` loser coins on the board.

        Breaker misses; the loser pockets 9 - loser_left of his coins one per stroke, then misses;
        the winner covers the queen (if `queen`) and pockets his nine coins. Returns the last ruling.
        """
        st = self.session.state()
        loser = next(p for p in st["players"] if p != winner)
        turn = st["turn"]
        self.play(turn)  # the break: touches, pockets nothing
        if turn == loser:
            self.play(winner)  # winner misses too
        for _ in range(9 - loser_left):
            self.play(loser, self.colour(loser))
        self.play(loser)
        own = self.colour(winner)
        if queen:
            self.play(winner, "queen", own)
            left = 8
        else:
            left = 9
        out: dict[str, Any] = {}
        for _ in range(left):
            out = self.play(winner, own)
        return out
