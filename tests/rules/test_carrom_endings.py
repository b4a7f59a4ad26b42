# ruff: noqa: E501 - one law case per table row
"""Carrom board endings and their points (ICF §24-28, §72-73; FIC §81-94 where they settle a reading).

A is white at S and on turn, B is black at N. Points: the winner scores the loser's coins left,
plus the queen if credited to him (3 while his game score is 21 or less; 1 when the queen is all
that is left; else 0), plus a demanded penalty coin, at most 12.
"""

from __future__ import annotations

import pytest

from tests.rules.carrom_builders import assess, position, stroke

P = position
S = stroke

# (id, position, stroke, winner, points, queen credited to, queen pocketed by, law)
CASES = [
    ("ICF-25a-last-coin-queen-covered-by-self", P(white=1, black=4, queen="covered", queen_by="A"), S("white"),
     "A", 7, "A", "A", "ICF §25a"),
    ("ICF-26b-queen-covered-by-opponent", P(white=1, black=4, queen="covered", queen_by="B"), S("white"),
     "A", 4, "B", "B", "ICF §25a"),
    ("ICF-25b-queen-counts-at-21", P(white=1, black=4, queen="covered", queen_by="A", points={"A": 21}), S("white"),
     "A", 7, "A", "A", "ICF §25a"),
    ("ICF-27-queen-lost-at-22", P(white=1, black=4, queen="covered", queen_by="A", points={"A": 22}), S("white"),
     "A", 4, "A", "A", "ICF §25a"),
    ("ICF-25a-last-coin-covers-pending-queen", P(white=1, black=5, queen="pending_cover", queen_by="A"), S("white"),
     "A", 8, "A", "A", "ICF §25a"),
    ("ICF-70-queen-and-last-coin-together", P(white=1, black=5), S("queen", "white"), "A", 8, "A", "A", "ICF §25a"),
    ("ICF-28-nine-coins-and-queen-is-twelve", P(white=1, black=9, queen="covered", queen_by="A"), S("white"),
     "A", 12, "A", "A", "ICF §25a"),
    ("ICF-25a-black-player-finishes", P(white=3, black=1, queen="covered", queen_by="B", turn="B"),
     S("black", side="N"), "B", 6, "B", "B", "ICF §25a"),
    ("ICF-72a-cover-with-both-last", P(white=1, black=1, queen="pending_cover", queen_by="A"), S("white", "black"),
     "A", 3, "A", "A", "ICF §72a"),
    ("ICF-72a-over-cutoff-one-point", P(white=1, black=1, queen="pending_cover", queen_by="A", points={"A": 23}),
     S("white", "black"), "A", 1, "A", "A", "ICF §72a"),
    ("ICF-72a-improper-opponent-wins", P(white=1, black=1, queen="pending_cover", queen_by="A"),
     S("white", "black", improper=True), "B", 3, "B", "A", "ICF §72a"),
    ("ICF-72a-improper-demanded", P(white=1, black=1, queen="pending_cover", queen_by="A"),
     S("white", "black", improper=True, demanded=True), "B", 4, "B", "A", "ICF §72a"),
    ("ICF-72b-queen-with-both-last", P(white=1, black=1), S("queen", "white", "black"), "A", 3, "A", "A", "ICF §72b"),
    ("ICF-72b-over-cutoff-one-point", P(white=1, black=1, points={"A": 22}), S("queen", "white", "black"),
     "A", 1, "A", "A", "ICF §72b"),
    ("ICF-72b-improper-opponent-wins", P(white=1, black=1), S("queen", "white", "black", improper=True),
     "B", 3, "B", "A", "ICF §72b"),
    ("FIC-91-queen-both-last-with-striker", P(white=1, black=1), S("queen", "white", "black", striker=True),
     "B", 3, "B", "A", "ICF §72b"),
    ("ICF-73a-cover-attempt-pockets-opponent-last", P(white=3, black=1, queen="pending_cover", queen_by="A"),
     S("black"), "B", 6, "B", None, "ICF §73a"),
    ("ICF-73a-over-cutoff-coins-only", P(white=3, black=1, queen="pending_cover", queen_by="A", points={"B": 22}),
     S("black"), "B", 3, "B", None, "ICF §73a"),
    ("ICF-73a-improper-demanded", P(white=3, black=1, queen="pending_cover", queen_by="A"),
     S("black", improper=True, demanded=True), "B", 7, "B", None, "ICF §73a"),
    ("ICF-73b-own-last-queen-on-board", P(white=1, black=4), S("white"), "B", 3, "B", None, "ICF §73b"),
    ("ICF-73b-own-last-over-cutoff-one-point", P(white=1, black=4, points={"B": 22}), S("white"), "B", 1, "B", None,
     "ICF §73b"),
    ("FIC-90-own-last-with-striker-queen-on-board", P(white=1, black=4), S("white", striker=True), "B", 3, "B", None,
     "ICF §73b"),
    ("ICF-73b-opponent-last-queen-on-board", P(white=4, black=1), S("black"), "B", 7, "B", None, "ICF §73b"),
    ("ICF-73b-opponent-last-over-cutoff", P(white=4, black=1, points={"B": 22}), S("black"), "B", 4, "B", None,
     "ICF §73b"),
    ("FIC-93-opponent-last-with-striker", P(white=4, black=1), S("black", striker=True), "B", 7, "B", None,
     "ICF §73b"),
    ("ICF-73b-both-last-queen-on-board", P(white=1, black=1), S("white", "black"), "B", 3, "B", None, "ICF §73b"),
    ("ICF-73c-both-last-queen-covered-by-self", P(white=1, black=1, queen="covered", queen_by="A"),
     S("white", "black"), "B", 1, None, "A", "ICF §73c"),
    ("ICF-73c-both-last-queen-covered-by-opponent", P(white=1, black=1, queen="covered", queen_by="B"),
     S("white", "black"), "B", 3, "B", "B", "ICF §73c"),
    ("ICF-73c-covered-by-opponent-over-cutoff", P(white=1, black=1, queen="covered", queen_by="B", points={"B": 24}),
     S("white", "black"), "B", 1, "B", "B", "ICF §73c"),
    ("ICF-25a-opponent-last-queen-covered-by-self", P(white=4, black=1, queen="covered", queen_by="A"), S("black"),
     "B", 4, "A", "A", "ICF §25a"),
    ("ICF-25a-opponent-last-queen-covered-by-opponent", P(white=4, black=1, queen="covered", queen_by="B"),
     S("black"), "B", 7, "B", "B", "ICF §25a"),
    ("ICF-49-opponent-last-improper-demanded", P(white=4, black=1, queen="covered", queen_by="B"),
     S("black", improper=True, demanded=True), "B", 8, "B", "B", "ICF §25a"),
    ("ICF-28-cap-twelve", P(white=9, black=1), S("black", improper=True, demanded=True), "B", 12, "B", None,
     "ICF §73b"),
    ("ICF-24-out-of-turn-loses-board", P(white=5, black=9), S(side="N"), "A", 12, "A", None, "ICF §24"),
    ("ICF-24-out-of-turn-queen-covered-by-striker", P(white=5, black=6, queen="covered", queen_by="B"),
     S("black", side="N"), "A", 6, None, "B", "ICF §24"),
    ("ICF-24-out-of-turn-queen-covered-by-winner", P(white=5, black=6, queen="covered", queen_by="A"),
     S(side="N"), "A", 9, "A", "A", "ICF §24"),
]


@pytest.mark.parametrize(("pos", "line", "winner", "points", "credited", "pocketed_by", "law"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_board_ending(pos, line, winner, points, credited, pocketed_by, law):  # noqa: ANN001
    step = assess(pos, line)
    r = step.board_over
    assert r is not None
    assert (r.winner, r.points, r.queen_credited_to, r.queen_pocketed_by, r.law) == \
        (winner, points, credited, pocketed_by, law)
    assert step.state.results[-1] == r
    if pos.points[winner] + points < 25:
        assert step.state.points[winner] == pos.points[winner] + points
        assert step.state.board.number == 2  # the next board is set up
        assert step.state.board.white == "B"  # ICF §22a: the break alternates
    else:  # ICF §29a: the game is over, game 2 starts
        assert step.state.games[winner] == 1 and step.state.game == 2


NOT_OVER = [
    ("ICF-46-last-coin-with-striker-queen-covered", P(white=1, black=4, queen="covered", queen_by="A"),
     S("white", striker=True)),
    ("ICF-50a-last-coin-improper-queen-covered", P(white=1, black=4, queen="covered", queen_by="A"),
     S("white", improper=True)),
    ("ICF-71a-queen-last-coin-striker", P(white=1, black=4), S("queen", "white", striker=True)),
    ("ICF-71d-cover-last-coin-striker", P(white=1, black=4, queen="pending_cover", queen_by="A"),
     S("white", striker=True)),
]


@pytest.mark.parametrize(("pos", "line"), [c[1:] for c in NOT_OVER], ids=[c[0] for c in NOT_OVER])
def test_faulty_last_coin_goes_back(pos, line):  # noqa: ANN001
    step = assess(pos, line)
    assert step.board_over is None
    assert step.state.board.on_board["white"] >= 1
