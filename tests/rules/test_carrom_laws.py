# ruff: noqa: E501 - one law case per table row
"""Carrom laws, clause by clause: one position + one stroke -> the expected ruling.

A is white and sits at S, B is black and sits at N; A is on turn unless a case says otherwise.
Each id names the article (ICF numbering of ../shared/rules/carrom-icf-it.rst; FIC where it
settles the reading).
"""

from __future__ import annotations

import pytest

from rules.carrom_reasons import FoulReason
from tests.rules.carrom_builders import assess, position, reasons, stroke

P = position
S = stroke

# (id, position, stroke, expected: next, coins (white, black), dues (A, B), queen (state, by), reasons ⊇)
CASES = [
    # --- break (§17-20) ---
    ("ICF-17-break-made", P(broken=False), S(), "B", (9, 9), (0, 0), ("on_board", None), ["turn_lost"]),
    ("ICF-17-break-cushion-then-coin-moved", P(broken=False),
     S(contact="cushion", before=[{"id": 1, "kind": "black", "x_mm": 0, "y_mm": 31}],
       after=[{"id": 1, "kind": "black", "x_mm": 0, "y_mm": 60}]), "B", (9, 9), (0, 0), ("on_board", None), ["turn_lost"]),
    ("ICF-18a-first-miss", P(broken=False), S(contact=None), "A", (9, 9), (0, 0), ("on_board", None), ["break_missed"]),
    ("ICF-18a-cushion-nothing-moved", P(broken=False), S(contact="cushion"), "A", (9, 9), (0, 0), ("on_board", None),
     ["break_missed"]),
    ("ICF-18a-second-miss", P(broken=False, attempts=1), S(contact=None), "A", (9, 9), (0, 0), ("on_board", None),
     ["break_missed"]),
    ("ICF-18b-third-miss-passes", P(broken=False, attempts=2), S(contact=None), "B", (9, 9), (0, 0), ("on_board", None),
     ["break_lost"]),
    ("ICF-18b-opponent-breaks-keeps-black", P(broken=False, turn="B"), S("black", side="N"), "B", (9, 8), (0, 0),
     ("on_board", None), ["own_coin_pocketed"]),
    ("ICF-18c-improper-no-touch", P(broken=False), S(contact=None, improper=True), "B", (9, 9), (0, 0),
     ("on_board", None), ["break_void"]),
    ("ICF-18c-striker-no-touch", P(broken=False), S(contact=None, striker=True), "B", (9, 9), (0, 0),
     ("on_board", None), ["break_void"]),
    ("ICF-36a-technical-foul-before-break", P(broken=False), S(contact=None, technical_foul=True), "A", (9, 9),
     (1, 0), ("on_board", None), ["technical_foul", "due_waiting", "break_missed"]),
    ("ICF-20-early-break", P(broken=False), S("white", "queen", early_break=True), "B", (9, 9), (1, 0),
     ("on_board", None), ["early_break", "due_waiting"]),
    # --- turn (§21, §86) ---
    ("ICF-21-own-coin-keeps-turn", P(), S("white"), "A", (8, 9), (0, 0), ("on_board", None), ["own_coin_pocketed"]),
    ("ICF-21-two-own-coins", P(), S("white", "white"), "A", (7, 9), (0, 0), ("on_board", None), ["own_coin_pocketed"]),
    ("ICF-21-nothing-loses-turn", P(), S(), "B", (9, 9), (0, 0), ("on_board", None), ["turn_lost"]),
    ("ICF-86a-opponent-coin-only", P(), S("black"), "B", (9, 8), (0, 0), ("on_board", None), ["opponent_coin_pocketed"]),
    ("ICF-21-own-and-opponent", P(), S("white", "black"), "A", (8, 8), (0, 0), ("on_board", None),
     ["own_coin_pocketed", "opponent_coin_pocketed"]),
    ("ICF-21-black-player-own-coin", P(turn="B"), S("black", side="N"), "B", (9, 8), (0, 0), ("on_board", None),
     ["own_coin_pocketed"]),
    ("ICF-86a-black-player-pockets-white", P(turn="B"), S("white", side="N"), "A", (8, 9), (0, 0), ("on_board", None),
     ["opponent_coin_pocketed"]),
    # --- technical foul, foul, improper (§36-37) ---
    ("ICF-36a-technical-foul-in-stroke", P(white=7), S("white", technical_foul=True), "A", (7, 9), (0, 0),
     ("on_board", None), ["technical_foul", "due_paid", "own_coin_pocketed"]),
    ("ICF-36a-technical-foul-due-waits", P(), S("white", technical_foul=True), "A", (9, 9), (0, 0),
     ("on_board", None), ["technical_foul", "due_waiting", "own_coin_pocketed", "due_paid"]),
    ("ICF-37a-improper-nothing-pocketed", P(white=7), S(improper=True), "B", (8, 9), (0, 0), ("on_board", None),
     ["improper_stroke", "due_paid"]),
    ("ICF-37a-improper-due-waits", P(), S(improper=True), "B", (9, 9), (1, 0), ("on_board", None),
     ["improper_stroke", "due_waiting"]),
    # --- coins and striker off the board (§38, §77) ---
    ("ICF-38a-coin-off-board", P(), S(off=("black",)), "B", (9, 9), (0, 0), ("on_board", None),
     ["turn_lost", "coin_off_board"]),
    ("ICF-38a-queen-off-board", P(), S(off=("queen",)), "B", (9, 9), (0, 0), ("on_board", None),
     ["turn_lost", "queen_off_board"]),
    ("ICF-38a-off-board-does-not-stop-turn", P(), S("white", off=("black",)), "A", (8, 9), (0, 0),
     ("on_board", None), ["own_coin_pocketed", "coin_off_board"]),
    ("ICF-77-striker-off-board-with-own", P(), S("white", striker_off_board=True), "A", (8, 9), (0, 0),
     ("on_board", None), ["own_coin_pocketed", "striker_off_board"]),
    ("ICF-77-striker-off-board-with-queen", P(white=8), S("queen", striker_off_board=True), "A", (8, 9), (0, 0),
     ("pending_cover", "A"), ["queen_pending_cover", "striker_off_board"]),
    ("ICF-77-striker-off-board-nothing", P(), S(striker_off_board=True), "B", (9, 9), (0, 0), ("on_board", None),
     ["turn_lost", "striker_off_board"]),
    # --- striker pocketed, improper strokes (§45-50) ---
    ("ICF-45a-striker-alone", P(white=7), S(striker=True), "B", (8, 9), (0, 0), ("on_board", None),
     ["striker_pocketed", "due_paid"]),
    ("ICF-45a-striker-alone-improper", P(white=7), S(striker=True, improper=True), "B", (8, 9), (0, 0),
     ("on_board", None), ["striker_pocketed"]),
    ("ICF-45b-due-waits-no-coin", P(), S(striker=True), "B", (9, 9), (1, 0), ("on_board", None),
     ["striker_pocketed", "due_waiting"]),
    ("ICF-45b-due-paid-when-own-coin-pocketed", P(dues={"A": 1}), S("white"), "A", (9, 9), (0, 0),
     ("on_board", None), ["own_coin_pocketed", "due_paid"]),
    ("ICF-45a-black-player-striker", P(turn="B", black=5), S(side="N", striker=True), "A", (9, 6), (0, 0),
     ("on_board", None), ["striker_pocketed", "due_paid"]),
    ("ICF-46-striker-with-own", P(white=7), S("white", striker=True), "A", (8, 9), (0, 0), ("on_board", None),
     ["striker_with_own", "due_paid"]),
    ("ICF-46-striker-with-own-all-on-board", P(), S("white", "white", striker=True), "A", (9, 9), (1, 0),
     ("on_board", None), ["striker_with_own", "due_waiting"]),
    ("ICF-47-striker-with-opponent", P(white=7), S("black", striker=True), "B", (8, 8), (0, 0), ("on_board", None),
     ["striker_with_opponent", "due_paid"]),
    ("ICF-48-striker-with-both", P(white=7), S("white", "black", striker=True), "A", (8, 8), (0, 0),
     ("on_board", None), ["striker_with_both", "due_paid"]),
    ("ICF-49-improper-opponent-coins", P(white=7), S("black", improper=True), "B", (8, 8), (0, 0),
     ("on_board", None), ["improper_opponent_coins", "due_paid"]),
    ("ICF-50a-improper-own-coins", P(white=7), S("white", improper=True), "B", (8, 9), (0, 0), ("on_board", None),
     ["improper_own_coins", "due_paid"]),
    ("ICF-50a-improper-own-all-on-board", P(), S("white", improper=True), "B", (9, 9), (1, 0), ("on_board", None),
     ["improper_own_coins", "due_waiting"]),
    ("ICF-50b-improper-striker-own", P(white=7), S("white", striker=True, improper=True), "B", (8, 9), (0, 0),
     ("on_board", None), ["improper_striker_own", "due_paid"]),
    ("ICF-49-50-improper-both", P(white=7), S("white", "black", improper=True), "B", (8, 8), (0, 0),
     ("on_board", None), ["improper_own_coins", "improper_opponent_coins"]),
    # --- dues (§51-56) ---
    ("ICF-51bii-opponent-due-placed-when-pocketed", P(dues={"B": 1}), S("black"), "B", (9, 9), (0, 0),
     ("on_board", None), ["opponent_coin_pocketed", "due_paid"]),
    ("ICF-56-several-dues-one-available", P(dues={"A": 2}), S("white"), "A", (9, 9), (1, 0), ("on_board", None),
     ["own_coin_pocketed", "due_paid", "due_waiting"]),
    ("ICF-56-several-dues-all-available", P(dues={"A": 2}), S("white", "white", "white"), "A", (8, 9), (0, 0),
     ("on_board", None), ["own_coin_pocketed", "due_paid"]),
    # --- the queen (§65-71) ---
    ("ICF-68a-queen-before-own-coin", P(), S("queen"), "B", (9, 9), (0, 0), ("on_board", None),
     ["queen_before_own_coin"]),
    ("ICF-68a-queen-and-opponent-coin-first", P(), S("queen", "black"), "B", (9, 8), (0, 0), ("on_board", None),
     ["queen_before_own_coin"]),
    ("ICF-65-queen-after-own-coin", P(white=8), S("queen"), "A", (8, 9), (0, 0), ("pending_cover", "A"),
     ["queen_pending_cover"]),
    ("ICF-65-queen-with-opponent-coin", P(white=8), S("queen", "black"), "A", (8, 8), (0, 0), ("pending_cover", "A"),
     ["queen_pending_cover"]),
    ("ICF-70-queen-with-own-covered", P(white=8), S("queen", "white"), "A", (7, 9), (0, 0), ("covered", "A"),
     ["queen_covered"]),
    ("ICF-70a-one-own-at-start-must-cover", P(), S("queen", "white"), "A", (8, 9), (0, 0), ("pending_cover", "A"),
     ["queen_must_be_covered"]),
    ("ICF-70a-two-own-at-start-covered", P(), S("queen", "white", "white"), "A", (7, 9), (0, 0), ("covered", "A"),
     ["queen_covered"]),
    ("ICF-70a-break-stroke-queen-one-own", P(broken=False), S("queen", "white"), "A", (8, 9), (0, 0),
     ("pending_cover", "A"), ["queen_must_be_covered"]),
    ("FIC-70-all-nine-back-after-due-may-pocket-queen-with-two", P(), S("white", "queen", "white"), "A", (7, 9), (0, 0),
     ("covered", "A"), ["queen_covered"]),
    ("ICF-glossary-cover-next-stroke", P(white=8, queen="pending_cover", queen_by="A"), S("white"), "A", (7, 9),
     (0, 0), ("covered", "A"), ["queen_covered"]),
    ("ICF-69-cover-failed", P(white=8, queen="pending_cover", queen_by="A"), S(), "B", (8, 9), (0, 0),
     ("on_board", None), ["queen_not_covered"]),
    ("ICF-69-cover-failed-opponent-coin", P(white=8, queen="pending_cover", queen_by="A"), S("black"), "B", (8, 8),
     (0, 0), ("on_board", None), ["opponent_coin_pocketed", "queen_not_covered"]),
    ("ICF-68b-queen-while-due", P(dues={"A": 1}), S("queen", "white"), "B", (9, 9), (0, 0), ("on_board", None),
     ["queen_while_due", "due_paid"]),
    ("ICF-68c-queen-striker-all-on-board", P(), S("queen", striker=True), "B", (9, 9), (1, 0), ("on_board", None),
     ["queen_striker_all_on_board", "due_waiting"]),
    ("ICF-68c-break-queen-striker", P(broken=False), S("queen", striker=True), "B", (9, 9), (1, 0),
     ("on_board", None), ["queen_striker_all_on_board"]),
    ("ICF-68c-queen-own-striker-all-on-board", P(), S("queen", "white", striker=True), "B", (9, 9), (1, 0),
     ("on_board", None), ["queen_striker_all_on_board"]),
    ("ICF-71a-queen-own-striker", P(white=7), S("queen", "white", striker=True), "A", (8, 9), (0, 0),
     ("on_board", None), ["queen_own_striker", "due_paid"]),
    ("ICF-71b-queen-striker", P(white=7), S("queen", striker=True), "A", (8, 9), (0, 0), ("on_board", None),
     ["queen_striker", "due_paid"]),
    ("ICF-71c-cover-striker-alone", P(white=7, queen="pending_cover", queen_by="A"), S(striker=True), "B", (8, 9),
     (0, 0), ("on_board", None), ["cover_striker_alone", "due_paid"]),
    ("ICF-71d-cover-striker-own", P(white=7, queen="pending_cover", queen_by="A"), S("white", striker=True), "A",
     (8, 9), (0, 0), ("pending_cover", "A"), ["cover_striker_own", "due_paid"]),
    ("ICF-71c-cover-striker-opponent-coin", P(white=7, queen="pending_cover", queen_by="A"), S("black", striker=True),
     "B", (8, 8), (0, 0), ("on_board", None), ["striker_with_opponent", "queen_not_covered"]),
    ("ICF-71-improper-queen-striker", P(white=7), S("queen", striker=True, improper=True), "B", (9, 9), (0, 0),
     ("on_board", None), ["striker_pocketed", "improper_queen", "due_paid"]),
    ("ICF-71-improper-queen-own-striker", P(white=6), S("queen", "white", striker=True, improper=True), "B", (8, 9),
     (0, 0), ("on_board", None), ["improper_striker_own", "improper_queen"]),
    ("ICF-71-improper-cover-striker-alone", P(white=7, queen="pending_cover", queen_by="A"),
     S(striker=True, improper=True), "B", (9, 9), (0, 0), ("on_board", None), ["improper_queen"]),
    ("ICF-71-improper-cover-striker-own", P(white=6, queen="pending_cover", queen_by="A"),
     S("white", striker=True, improper=True), "B", (8, 9), (0, 0), ("on_board", None), ["improper_queen"]),
    ("ICF-37b-improper-queen-own", P(white=7), S("queen", "white", improper=True), "B", (8, 9), (0, 0),
     ("on_board", None), ["improper_own_coins"]),
    ("ICF-37b-improper-cover", P(white=7, queen="pending_cover", queen_by="A"), S("white", improper=True), "B",
     (8, 9), (0, 0), ("on_board", None), ["improper_own_coins", "queen_not_covered"]),
    ("ICF-65-queen-covered-earlier-stays-covered", P(white=5, queen="covered", queen_by="B"), S("white"), "A",
     (4, 9), (0, 0), ("covered", "B"), ["own_coin_pocketed"]),
    ("ICF-65-covered-queen-survives-striker", P(white=5, queen="covered", queen_by="A"), S(striker=True), "B",
     (6, 9), (0, 0), ("covered", "A"), ["striker_pocketed"]),
]


@pytest.mark.parametrize(("pos", "line", "nxt", "coins", "dues", "queen", "want"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_stroke_law(pos, line, nxt, coins, dues, queen, want):  # noqa: ANN001
    step = assess(pos, line)
    b = step.state.board
    assert step.board_over is None
    assert b.turn == nxt
    assert (b.on_board["white"], b.on_board["black"]) == coins
    assert (b.dues["A"], b.dues["B"]) == dues
    assert (str(b.queen), b.queen_by) == queen
    got = reasons(step)
    assert set(want) <= set(got), got


def test_every_ruling_names_its_law_and_events():
    for case in CASES:
        step = assess(case[1], case[2])
        for r in step.rulings:
            assert isinstance(r.reason, FoulReason)
            assert r.law.startswith("ICF §")
            assert r.events and r.events[0] == "stroke:1"
            assert r.foul == r.reason.is_foul()


@pytest.mark.parametrize("reason", list(FoulReason), ids=[r.value for r in FoulReason])
def test_every_reason_has_a_law(reason):
    assert reason.law.startswith("ICF §")
