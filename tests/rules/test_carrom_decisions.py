# ruff: noqa: E501 - one law case per table row
"""Carrom umpire decisions (what the camera cannot see), one case per article."""

from __future__ import annotations

import contextlib

import pytest

from tests.rules.carrom_builders import decide, position
from tracker.errors import RuleError

P = position
OK = contextlib.nullcontext()

# (id, position, decision, expected: next, (dues A, B), (white, black), board winner or None, points, raises)
CASES = [
    ("ICF-37a-foul-on-turn", P(white=7), {"umpire": "foul", "player": "A"}, "B", (0, 0), (8, 9), None, None, OK),
    ("ICF-37a-foul-due-waits", P(), {"umpire": "foul", "player": "A"}, "B", (1, 0), (9, 9), None, None, OK),
    ("ICF-37a-foul-not-on-turn", P(black=6), {"umpire": "foul", "player": "B", "law": "ICF §87a"}, "A", (0, 0),
     (9, 7), None, None, OK),
    ("ICF-69-foul-while-covering-returns-queen", P(white=7, queen="pending_cover", queen_by="A"),
     {"umpire": "foul", "player": "A"}, "B", (0, 0), (8, 9), None, None, OK),
    ("ICF-36a-technical-foul-keeps-turn", P(white=7), {"umpire": "technical_foul", "player": "A"}, "A", (0, 0),
     (8, 9), None, None, OK),
    ("ICF-36b-technical-foul-by-opponent", P(), {"umpire": "technical_foul", "player": "B"}, "A", (0, 1), (9, 9),
     None, None, OK),
    ("ICF-60-waive-dues", P(dues={"A": 2}), {"umpire": "waive_dues", "player": "A"}, "A", (0, 0), (9, 9), None, None,
     OK),
    ("ICF-60-waive-nothing-owed", P(), {"umpire": "waive_dues", "player": "A"}, "A", (0, 0), (9, 9), None, None,
     pytest.raises(RuleError, match="owes no penalty")),
    ("ICF-64-left-seat", P(white=4, black=6), {"umpire": "lose_board", "player": "A", "reason": "left_seat"},
     "B", (0, 0), (9, 9), "B", 7, OK),
    ("ICF-64-left-seat-queen-covered-by-loser", P(white=4, queen="covered", queen_by="A"),
     {"umpire": "lose_board", "player": "A", "reason": "left_seat"}, "B", (0, 0), (9, 9), "B", 4, OK),
    ("ICF-64-left-seat-over-cutoff", P(white=4, points={"B": 22}),
     {"umpire": "lose_board", "player": "A", "reason": "left_seat"}, "B", (0, 0), (9, 9), "B", 4, OK),
    ("ICF-82b-played-during-appeal", P(black=2), {"umpire": "lose_board", "player": "B", "reason": "appeal"},
     "B", (0, 0), (9, 9), "A", 5, OK),
    ("ICF-87b-board-disturbed", P(white=3), {"umpire": "lose_board", "player": "A", "reason": "disturbed"},
     "B", (0, 0), (9, 9), "B", 6, OK),
    ("ICF-64-bad-reason", P(), {"umpire": "lose_board", "player": "A", "reason": "sneezed"}, "A", (0, 0), (9, 9),
     None, None, pytest.raises(RuleError, match="reason")),
    ("ICF-100-concede-board", P(white=2), {"umpire": "concede", "player": "A"}, "B", (0, 0), (9, 9), "B", 5, OK),
    ("ICF-29b-set-breaker", P(broken=False), {"umpire": "set_breaker", "player": "B"}, "B", (0, 0), (9, 9), None,
     None, OK),
    ("ICF-98-replay-board", P(white=3, black=2, dues={"A": 1}), {"umpire": "replay_board"}, "A", (0, 0), (9, 9),
     None, None, OK),
    ("unknown-player", P(), {"umpire": "foul", "player": "Z"}, "A", (0, 0), (9, 9), None, None,
     pytest.raises(RuleError, match="'player' must be one of A, B")),
]


@pytest.mark.parametrize(("pos", "line", "nxt", "dues", "coins", "winner", "points", "raises"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_decision(pos, line, nxt, dues, coins, winner, points, raises):  # noqa: ANN001
    with raises:
        step = decide(pos, line)
    if raises is not OK:
        return
    b = step.state.board
    assert b.turn == nxt
    assert (b.dues["A"], b.dues["B"]) == dues
    assert (b.on_board["white"], b.on_board["black"]) == coins
    if winner is None:
        assert step.board_over is None
    else:
        assert (step.board_over.winner, step.board_over.points) == (winner, points)
    for r in step.rulings:
        assert r.law.startswith("ICF §") and r.events == ("line:1",)


def test_set_breaker_swaps_colours():
    """ICF §16, §29b: the toss winner breaks and takes white."""
    step = decide(P(broken=False), {"umpire": "set_breaker", "player": "B"})
    assert step.state.board.white == "B" and step.state.board.colour_of("A") == "black"


def test_set_breaker_after_the_break_is_rejected():
    pos = P()
    from dataclasses import replace
    pos = pos.with_board(strokes=3)
    with pytest.raises(RuleError, match="already started"):
        decide(replace(pos), {"umpire": "set_breaker", "player": "B"})


@pytest.mark.parametrize(("what", "games"), [("game", {"A": 0, "B": 1}), ("match", {"A": 0, "B": 0})],
                         ids=["ICF-100-concede-game", "ICF-100-concede-match"])
def test_concede_game_and_match(what, games):
    step = decide(P(), {"umpire": "concede", "player": "A", "what": what})
    assert dict(step.state.games) == games
    if what == "match":
        assert step.match_over == "B" and step.state.winner == "B"
    else:
        assert step.state.game == 2 and step.match_over is None


def test_lose_match_conduct():
    """ICF §104: an act of indiscipline loses the whole match."""
    step = decide(P(), {"umpire": "lose_match", "player": "B"})
    assert step.match_over == "A"
    assert [str(r.reason) for r in step.rulings] == ["match_forfeited", "match_won"]


def test_set_seats():
    """ICF §33c: a change of sides that was missed is made when noticed."""
    step = decide(P(), {"umpire": "set_seats", "players": {"S": "B", "N": "A"}})
    assert dict(step.state.seats) == {"S": "B", "N": "A"}
    with pytest.raises(RuleError):
        decide(P(), {"umpire": "set_seats", "players": {"S": "B", "E": "A"}})
