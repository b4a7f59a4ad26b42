# ruff: noqa: E501 - one law case per table row
"""RulesSession: log, undo, corrections, replay, rejected lines (game-agnostic framework)."""

from __future__ import annotations

import pytest

from rules import ENGINES, RulesSession, engine_class
from rules.records import parse_stroke
from tests.rules.carrom_builders import stroke
from tracker.errors import ConfigError, RuleError

START = {"umpire": "start_match", "players": {"S": "A", "N": "B"}, "first_break": "A"}


def _session(*lines):  # noqa: ANN002, ANN202
    s = RulesSession("carrom")
    for line in (START, *lines):
        s.apply(line)
    return s


BAD_LINES = [
    ("not-an-object", [1, 2], "JSON object"),
    ("no-stroke-number", {"side": "S"}, "'stroke' must be a non-negative integer"),
    ("bad-side", {"stroke": 1, "side": "X"}, "'side' must be one of"),
    ("bad-kind", {"stroke": 1, "side": "S", "pocketed": [{"kind": "red"}]}, "pocketed\\[0\\].kind"),
    ("bad-pocket", {"stroke": 1, "side": "S", "pocketed": [{"kind": "white", "pocket": "X"}]}, "pocket"),
    ("bad-bool", {"stroke": 1, "side": "S", "striker_pocketed": "yes"}, "true or false"),
    ("bad-umpire-call", {"stroke": 1, "side": "S", "umpire": {"improperr": True}}, "unknown umpire call"),
    ("bad-position", {"stroke": 1, "side": "S", "after": [{"kind": "white", "x_mm": "a", "y_mm": 0}]}, "x_mm"),
    ("nobody-at-side", {"stroke": 1, "side": "E"}, "nobody sits at side E"),
    ("too-many-coins", {"stroke": 1, "side": "S", "pocketed": ["white"] * 10}, "only 9 on the board"),
    ("queen-twice", {"stroke": 1, "side": "S", "pocketed": ["queen", "queen"]}, "queen is listed 2 times"),
    ("unknown-decision", {"umpire": "teleport"}, "unknown umpire decision 'teleport'"),
    ("undo-nothing", {"umpire": "undo"}, None),
    ("correct-missing-stroke", {"umpire": "correct", "stroke": 99, "set": {"pocketed": []}}, "no stroke numbered 99"),
    ("striker-both", {"stroke": 1, "side": "S", "striker_pocketed": True, "striker_off_board": True}, "both"),
]


@pytest.mark.parametrize(("line", "match"), [c[1:] for c in BAD_LINES], ids=[c[0] for c in BAD_LINES])
def test_bad_line_is_rejected_and_changes_nothing(line, match):
    s = RulesSession("carrom")
    before = s.state()
    with pytest.raises(RuleError, match=match):
        s.apply(line)
    assert s.state() == before and s.log == []


def test_undo_restores_previous_state():
    s = _session(stroke("white", n=1))
    before = s.state()
    s.apply(stroke(striker=True, n=2))
    out = s.apply({"umpire": "undo"})
    assert out["undone"]["stroke"] == 2
    want = {k: v for k, v in before.items() if k not in ("lines", "pending_placements")}
    assert {k: v for k, v in s.state().items() if k not in ("lines", "pending_placements")} == want


def test_correct_a_wrong_pocket_call_replays():
    """The camera called a white pocketed in stroke 1; it was black: A loses the turn (ICF §86a)."""
    s = _session(stroke("white", n=1), stroke("white", n=2))
    assert s.state()["coins"] == {"white": 7, "black": 9}
    out = s.apply({"umpire": "correct", "stroke": 1, "set": {"pocketed": [{"kind": "black"}]}})
    # stroke 2 now comes from A out of turn (B was on turn): A loses the board (§24)
    assert out["umpire"] == "correct"
    assert s.state()["boards"][0]["winner"] == "B" and s.state()["boards"][0]["law"] == "ICF §24"
    s.apply({"umpire": "undo"})  # withdraw the correction
    assert s.state()["coins"] == {"white": 7, "black": 9} and s.state()["boards"] == []


def test_correct_umpire_call_merges():
    s = _session(stroke("white", n=1))
    s.apply({"umpire": "correct", "stroke": 1, "set": {"umpire": {"improper": True}}})
    assert s.state()["turn"] == "B" and s.state()["dues"] == {"A": 1, "B": 0}  # §50a


def test_rejected_correction_changes_nothing():
    s = _session(stroke("white", n=1), stroke("white", "white", "white", "white", "white", "white", "white", n=2))
    before = s.state()
    with pytest.raises(RuleError, match="no longer applies"):
        s.apply({"umpire": "correct", "stroke": 1, "set": {"pocketed": ["white", "white", "white"]}})
    assert s.state() == before


def test_replay_gives_the_same_state():
    s = _session(stroke("white", n=1), stroke(striker=True, n=2), {"umpire": "foul", "player": "B"},
                 {"umpire": "undo"}, stroke("black", side="N", n=3),
                 {"umpire": "correct", "stroke": 3, "set": {"pocketed": []}})
    again = s.replay(s.log)
    assert again.state() == s.state()
    assert again.export_sol() == s.export_sol()


def test_start_match_after_a_stroke_is_rejected():
    s = _session(stroke(n=1))
    with pytest.raises(RuleError, match="already started"):
        s.apply(START)


def test_default_start_without_start_match():
    s = RulesSession("carrom")
    assert s.apply(stroke("white", n=1))["next"] == "A"


def test_unknown_game_and_format():
    with pytest.raises(ConfigError, match="unknown game"):
        RulesSession("chess")
    with pytest.raises(ConfigError, match="unknown carrom format"):
        RulesSession("carrom", format="quick")
    with pytest.raises(ConfigError, match="bad override"):
        RulesSession("carrom", format="default,colour=red")


def test_extra_keys_are_kept():
    r = parse_stroke({"stroke": 1, "side": "S", "stroke_type": "rebound"})
    assert r.extra["stroke_type"] == "rebound"


@pytest.mark.parametrize("game", sorted(ENGINES), ids=sorted(ENGINES))
def test_every_registered_engine_follows_the_contract(game):
    """Every registered engine: a reason enum with laws, a default format, a JSON state."""
    try:
        cls = engine_class(game)
    except ConfigError:
        pytest.skip(f"{game} engine not available")
    s = RulesSession(game)
    state = s.state()
    assert state["game"] == game and "constraints" in state
    assert len(list(cls.reasons)) > 0
