"""Whole carrom matches replayed from logs, scores derived by hand from the laws (ICF §22, §25-33)."""

from __future__ import annotations

from rules import RulesSession
from tests.rules.carrom_builders import Script


def test_best_of_three_full_match():
    """Default format (best of 3, 25 points or 8 boards, queen cut-off 22).

    Game 1 (A breaks first, A at S): A wins b1 9 coins + queen 3 = 12 (A 12); b2 12 (A 24);
    b3 5 coins, queen 0 since A has 24 >= 22 (§27): A 29 >= 25 -> A wins game 1 (§29a).
    Game 2: sides change (§31), B breaks first (§22a-ii). Boards alternate B, A, ...:
    b1 B 1+3 (B 4), b2 A 4 (A 4), b3 B 4 (B 8), b4 A 4 (A 8), b5 B 12, b6 A 12, b7 B 16, b8 A 16:
    16-16 after 8 boards -> extra board (§29b), broken by B (alternation): B wins 2+3 -> B 21-16.
    Game 3: sides change again, A breaks first (§22a-iii). b1 A 9+3 (A 12), b2 A 1+3 (A 16):
    A reached 13 -> change of sides after b2 (§33a), once. b3 B 3+3 (B 6), b4 A 9+3 -> A 28,
    A wins game 3 and the match 2-1 (§30).
    """
    s = Script()
    s.win_board("A", 9)
    s.win_board("A", 9)
    out = s.win_board("A", 5)
    assert out["board_over"]["points"] == 5 and out["board_over"]["queen_credited_to"] == "A"
    assert out["score"]["games"] == {"A": 1, "B": 0} and out["score"]["game"] == 2
    st = s.session.state()
    assert st["seats"] == {"N": "A", "S": "B"} and st["turn"] == "B"  # §31, §22a-ii
    for winner in "BABABABA":
        out = s.win_board(winner, 1)
    assert out["score"]["points"] == {"A": 16, "B": 16}
    assert any(r["reason"] == "extra_board" for r in out["rulings"])
    assert s.session.state()["turn"] == "B" and s.session.state()["extra_board"]
    out = s.win_board("B", 2)
    assert out["score"]["games"] == {"A": 1, "B": 1} and out["score"]["game"] == 3
    st = s.session.state()
    assert st["seats"] == {"S": "A", "N": "B"} and st["turn"] == "A"  # §22a-iii
    s.win_board("A", 9)
    out = s.win_board("A", 1)
    assert any(r["reason"] == "change_sides" and r["law"] == "ICF §33a" for r in out["rulings"])
    assert s.session.state()["seats"] == {"N": "A", "S": "B"}
    out = s.win_board("B", 3)
    assert not any(r["reason"] == "change_sides" for r in out["rulings"])  # once per game
    out = s.win_board("A", 9)
    assert out["match_over"] == {"winner": "A"}
    assert out["score"]["games"] == {"A": 2, "B": 1}
    sol = s.session.export_sol()
    assert [(g["score1"], g["score2"], g["breaker"], g["winner"]) for g in sol["games"]] == \
        [(29, 0, "1", "1"), (16, 21, "2", "2"), (28, 6, "1", "1")]
    assert len(sol["games"][1]["boards"]) == 9
    assert sol["winner"] == "1" and sol["first_break"] == "1"
    # replay from the log gives the same state (crash recovery)
    again = RulesSession("carrom").replay(s.session.log)
    assert again.state() == s.session.state()


def test_third_game_change_after_board_four_single_format():
    """Format "single": the only game is the deciding one, so §33a applies in it.

    b1 A 1+3 (A 4), b2 B 4, b3 A 4 (A 8), b4 B 4 (B 8): nobody reached 13, board 4 done ->
    change of sides after b4 (§33a). The game goes on: b5 A 9+3 = 12 -> A 20, b6 A 5+3 -> 28,
    A wins the game and, the format having one game, the match.
    """
    s = Script("single")
    for winner in "ABA":
        out = s.win_board(winner, 1)
        assert not any(r["reason"] == "change_sides" for r in out["rulings"])
    out = s.win_board("B", 1)
    assert any(r["reason"] == "change_sides" for r in out["rulings"])
    s.win_board("A", 9)
    out = s.win_board("A", 5)
    assert out["board_over"]["points"] == 8
    assert out["match_over"] == {"winner": "A"} and out["score"]["points"] == {"A": 28, "B": 8}


def test_no_mid_game_change_outside_deciding_game():
    """ICF §33 (original text: "in the third game"): game 1 has no change at board 4 or 13 points."""
    s = Script()
    for winner in "ABAB":
        out = s.win_board(winner, 1)
        assert not any(r["reason"] == "change_sides" for r in out["rulings"])
    assert s.session.state()["seats"] == {"S": "A", "N": "B"}


def test_fixed_seats_format():
    """FIC §15 (format "fic"): players never change sides, not even between games."""
    s = Script("fic")
    s.win_board("A", 9)
    s.win_board("A", 9)
    out = s.win_board("A", 9)
    assert out["score"]["game"] == 2
    assert s.session.state()["seats"] == {"S": "A", "N": "B"}
    assert s.session.state()["turn"] == "B"


def test_queen_cutoff_format():
    """Format "queen24": the queen still counts at 22 and 23 (league rule), not at 24.

    b1 A 9+3 = 12, b2 A 7+3 -> 22, b3 A 1 + queen (22 < 24: 3) -> 26.
    """
    s = Script("queen24")
    s.win_board("A", 9)
    s.win_board("A", 7)
    out = s.win_board("A", 1)
    assert out["board_over"]["points"] == 4
    assert out["score"]["games"]["A"] == 1


def test_eight_boards_leader_wins_without_25():
    """ICF §29a: after the eighth board the leader wins the game even below 25.

    Boards alternate winners A, B, ... with 1 coin + queen = 4 points, except b8: B 2+3 = 5.
    After 8 boards A 4*4 = 16, B 4*3+5 = 17 -> B wins game 1.
    """
    s = Script()
    for winner in "ABABABA":
        s.win_board(winner, 1)
    out = s.win_board("B", 2)
    assert out["board_over"]["points"] == 5
    assert out["score"]["games"] == {"A": 0, "B": 1}


def test_unlimited_boards():
    """Format "unlimited" (ICF §29b from the quarter-finals): a level game after 8 boards goes on."""
    s = Script("unlimited")
    for winner in "ABABABAB":
        out = s.win_board(winner, 1)
    assert out["score"]["points"] == {"A": 16, "B": 16} and out["score"]["game"] == 1
    out = s.win_board("A", 1)
    assert out["score"]["board"] == 10 and out["score"]["points"]["A"] == 20
