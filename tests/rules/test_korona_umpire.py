"""Korona umpire decisions, formats and bad input through `RulesSession(game="korona")`."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from rules import RulesSession
from tracker.errors import ConfigError, RuleError

START = {"umpire": "start_match", "players": {"S": "A", "N": "B"}, "first_break": "A"}


def _st(
    n: int,
    side: str,
    hits: list[tuple[int | None, str]] = (),
    pocketed: list[tuple[int | None, str]] = (),
    **kw: Any,
) -> dict[str, Any]:
    return {
        "stroke": n,
        "side": side,
        "striker_contacts": [{"id": i, "kind": k, "t": 1.0 + 0.1 * j} for j, (i, k) in enumerate(hits)],
        "pocketed": [{"kind": k} for _, k in pocketed],
        "pocketed_discs": [{"id": i, "kind": k} for i, k in pocketed],
        **kw,
    }


def _session(*lines: dict[str, Any], fmt: str = "default") -> tuple[RulesSession, dict[str, Any]]:
    s = RulesSession("korona", format=fmt)
    out: dict[str, Any] = {}
    for line in (START, *lines):
        out = s.apply(line)
    return s, out


def _player(s: RulesSession, name: str) -> dict[str, Any]:
    return next(p for p in s.state()["players"] if p["name"] == name)


# A pockets 1 and B's 9 (turn to B, B has a pocketed disc), B pockets 10 and misses: A on turn.
SETUP = [
    _st(1, "S", [(1, "white")], [(1, "white"), (9, "black")]),
    _st(2, "N", [(10, "black")], [(10, "black")]),
    _st(3, "N", [(11, "black")]),
]


def test_korona_24_8_foul_during_opponents_turn_placed_now_next_turn_skipped() -> None:
    s, r = _session(*SETUP, {"umpire": "foul", "player": "B", "reason": "touched_disc_out_of_turn"})
    assert r["fouls"][0]["law"] == "korona §24.1.15" and r["fouls"][0]["player"] == "B"
    assert r["penalty"][0]["law"] == "korona §24.8" and r["penalty"][0]["where"] == "S"
    assert r["on_board"]["B"] == 7 and r["next"] == "A"
    r = s.apply(_st(4, "S", [(2, "white")]))  # A's turn ends; B sits this one out
    assert r["next"] == "A"
    r = s.apply(_st(5, "S", [(2, "white")]))
    assert r["next"] == "B"


@pytest.mark.parametrize(
    ("decision", "law", "next_", "winner", "match"),
    [
        ({"player": "A", "reason": "declined_turn"}, "korona §24.1.7", "B", None, None),
        ({"player": "A", "reason": "double_hit"}, "korona §24.1.9", "B", None, None),
        ({"player": "A", "reason": "time_limit"}, "korona §24.1.18", "B", None, None),
        ({"player": "A", "reason": "left_playing_zone"}, "korona §25.1.5", "B", None, None),
        ({"player": "B", "reason": "out_of_turn"}, "korona §23.1.8", None, "A", "A"),
        ({"player": "A", "reason": "board_pushed"}, "korona §23.1.2", None, "B", "B"),
        ({"player": "A", "reason": "moved_discs_by_hand"}, "korona §23.1.5", None, "B", "B"),
        ({"player": "A", "reason": "no_show"}, "korona §22.3", None, "B", "B"),
        ({"player": "B", "reason": "unsporting"}, "korona §22.4", None, "A", "A"),
    ],
    ids=[
        "korona-24.1.7-declined-turn-penalty",
        "korona-24.1.9-double-hit-by-umpire",
        "korona-24.1.18-time-limit",
        "korona-25.1.5-left-playing-zone-turn-lost",
        "korona-23.1.8-stroke-out-of-turn-game-lost",
        "korona-23.1.2-board-pushed-game-lost",
        "korona-23.1.5-moved-discs-by-hand-game-lost",
        "korona-22.3-no-show-match-lost",
        "korona-22.4-unsporting-match-lost",
    ],
)
def test_umpire_foul(
    decision: dict[str, Any], law: str, next_: str | None, winner: str | None, match: str | None
) -> None:
    _, r = _session({"umpire": "foul", **decision})
    assert r["law"] == law and r["umpire"] == "foul"
    assert r["next"] == next_
    assert (r["game_over"] or {}).get("winner") == winner
    assert (r["match_over"] or {}).get("winner") == match


def test_korona_24_4_umpire_penalty_with_eight_on_board_is_owed() -> None:
    _, r = _session({"umpire": "foul", "player": "A", "reason": "cue_butt"})
    assert r["dues"]["A"] == 1 and r["penalty"] == []


def test_korona_25_1_5_not_on_turn_skips_next_turn() -> None:
    s, _ = _session({"umpire": "foul", "player": "B", "reason": "left_playing_zone"})
    assert _player(s, "B")["skip_next"] is True
    r = s.apply(_st(1, "S", [(1, "white")]))
    assert r["next"] == "A"


def test_korona_26_8_third_warning_loses_the_match() -> None:
    s, r = _session(*[{"umpire": "warning", "player": "A", "law": "korona §26.3"}] * 2)
    assert r["match_over"] is None and _player(s, "A")["warnings"] == 2
    r = s.apply({"umpire": "warning", "player": "A"})
    assert r["match_over"] == {"winner": "B"}
    assert {c["reason"] for c in r["calls"]} == {"warning", "third_warning"}


def test_korona_24_6_note_forgotten_debts_annulled() -> None:
    s, _ = _session({"umpire": "foul", "player": "A", "reason": "cue_butt"})
    assert _player(s, "A")["dues"] == 1
    r = s.apply({"umpire": "annul_dues", "player": "A"})
    assert r["dues"]["A"] == 0 and r["law"] == "korona §24.6"


def test_korona_20_32_reset_only_before_the_game_starts() -> None:
    s, r = _session({"umpire": "reset_position"})
    assert r["law"] == "korona §20.32"
    s.apply(_st(1, "S", [(1, "white")]))
    with pytest.raises(RuleError, match="board_pushed"):
        s.apply({"umpire": "reset_position"})


def test_colours_before_the_first_stroke() -> None:
    s, _ = _session({"umpire": "colours", "white": "B"})
    assert _player(s, "B")["colour"] == "white"
    s.apply(_st(1, "S", [(1, "black")], [(1, "black")]))
    with pytest.raises(RuleError, match="before the first stroke"):
        s.apply({"umpire": "colours", "white": "A"})


def test_best_of_five_swaps_seats_and_alternates_the_break() -> None:
    s, r = _session({"umpire": "foul", "player": "B", "reason": "out_of_turn"}, fmt="bo5")
    assert r["game_over"]["winner"] == "A" and r["match_over"] is None
    state = s.state()
    assert state["game_number"] == 2 and state["seats"] == {"N": "A", "S": "B"}
    assert state["turn"] == "B" and state["breaker"] == "B"
    assert all(p["on_board"] == 8 for p in state["players"])
    for _ in range(2):
        r = s.apply({"umpire": "foul", "player": "B", "reason": "out_of_turn"})
    assert r["match_over"] == {"winner": "A"} and r["score"]["games"] == {"A": 3, "B": 0}


@pytest.mark.parametrize(
    ("fmt", "expect"),
    [
        ("default", contextlib.nullcontext(1)),
        ("bo7", contextlib.nullcontext(4)),
        ("best_of=5", contextlib.nullcontext(3)),
        ("best_of=4", pytest.raises(ConfigError)),
        ("bogus", pytest.raises(ConfigError)),
    ],
    ids=["best-of-1", "best-of-7", "best-of-5-spec", "even-rejected", "unknown-rejected"],
)
def test_formats(fmt: str, expect: Any) -> None:
    with expect as games:
        assert RulesSession("korona", format=fmt).engine.format.games_to_win == games


@pytest.mark.parametrize(
    ("line", "match"),
    [
        (_st(1, "N", [(9, "black")]), "is on turn"),
        ({**_st(1, "S"), "umpire": {"improper": True}}, "carrom umpire calls"),
        ({**_st(1, "S"), "umpire_calls": ["nonsense"]}, "not a korona reason"),
        ({**_st(1, "S"), "umpire_calls": ["striker_pocketed"]}, "decided from the stroke"),
        ({**_st(1, "S"), "stroke_type": "direct", "striker_contacts": [{"cushion": "N"}]}, "stroke_type"),
        ({**_st(1, "S"), "striker_contacts": [{"kind": "queen"}]}, "white or black"),
        ({**_st(1, "S"), "off_board_discs": [{"id": 3, "kind": "white", "rail": "X"}]}, "rail"),
        ({**_st(1, "S", pocketed=[(1, "white")]), "pocketed": [{"kind": "black"}]}, "list different discs"),
        ({"stroke": 1, "side": "S", "pocketed": [{"kind": "white"}] * 9}, "more discs pocketed"),
        ({"umpire": "foul", "player": "Z", "reason": "double_hit"}, "unknown player"),
        ({"umpire": "foul", "player": "A", "reason": "own_pocketed"}, "not a foul"),
        ({"umpire": "warning", "player": "A", "law": "korona §24.1.1"}, "§26.1"),
        ({"umpire": "start_match", "players": {"N": "A", "E": "B", "S": "C", "W": "D"}}, "doubles"),
    ],
    ids=[
        "wrong-side",
        "carrom-call",
        "unknown-code",
        "camera-code-by-umpire",
        "type-contradicts-contacts",
        "bad-contact-kind",
        "bad-rail",
        "pocketed-lists-differ",
        "more-than-on-board",
        "unknown-player",
        "not-a-foul",
        "warning-law",
        "doubles-unsupported",
    ],
)
def test_bad_lines_raise_and_change_nothing(line: dict[str, Any], match: str) -> None:
    s = RulesSession("korona")
    if line.get("umpire") != "start_match":
        s.apply(START)
    before = s.state()
    with pytest.raises(RuleError, match=match):
        s.apply(line)
    assert s.state() == before


def test_no_strokes_after_the_match() -> None:
    s, _ = _session({"umpire": "foul", "player": "B", "reason": "out_of_turn"})
    with pytest.raises(RuleError, match="match is over"):
        s.apply(_st(1, "S"))
    assert s.state()["constraints"]["duties"] == ["match_over"]
