"""A whole korona game replayed from a log, and properties of random play.

The game (A at S plays white 1-8, B at N black 9-16, A breaks; best of 1), derived by hand:

 1. A hits 1, pockets 1: own disc by a legal stroke, A strikes again (§20.9). A 7, B 8.
 2. A hits 2, pockets 2: again (§20.9). A 6.
 3. A hits 3, pockets nothing: turn lost (§25.1.1). Next B.
 4. B touches nothing with free discs on the board: penalty (§24.1.1); B has all 8 on the
    board so it is owed (§24.4): B dues 1. Next A.
 5. A hits 3, pockets 3 and B's 9: turn lost (§25.1.2). A 5, B 7; B's debt is placed at once
    because his disc went down (§24.5): against the S rail (B's opposite zone), B 8, dues 0.
 6. B hits 10, pockets 10: again (§20.9). B 7.
 7. B hits A's 4 first: penalty (§24.1.2); B has a pocketed disc, so the penalty disc goes on
    at once against the S rail (§24.3, §24.6). B 8. Next A.
 8. A hits 4, pockets 4, but the striker follows it into a pocket: penalty (§24.1.4). A 4, and
    the penalty disc brings him back to 5, against the N rail. Next B.
 9. B plays a rebound off the E rail onto his own 11 and pockets it: legal (§21.3), again. B 7.
10. B hits 12, which jumps off over the S rail: turn lost (§25.1.1, §25.1.3); 12 goes to the centre of
    the centre circle (§20.17). B 7.
11. A hits 5, pockets 5 and 6: again. A 3.
12. A hits 7, pockets 7 and 8: again. A 1 (the penalty disc from stroke 8).
13. A pockets his last disc: no disc on the board, none owed: A wins the game (§28.2), and the
    match (best of 1). B has 7 discs left.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import RulesSession
from rules.korona_laws import KoronaReason

START = {"umpire": "start_match", "players": {"S": "A", "N": "B"}, "first_break": "A"}


def _s(
    n: int, side: str, hits: list[Any], pocketed: list[tuple[int | None, str]] = (), **kw: Any
) -> dict[str, Any]:
    contacts = []
    for k, h in enumerate(hits):
        t = 1.0 + 0.1 * k
        contacts.append(
            {"cushion": h, "t": t}
            if isinstance(h, str) and len(h) == 1
            else {"id": h[0], "kind": h[1], "t": t}
        )
    return {
        "stroke": n,
        "side": side,
        "striker_contacts": contacts,
        "pocketed": [{"kind": k, "pocket": "SW"} for _, k in pocketed],
        "pocketed_discs": [{"id": i, "kind": k, "pocket": "SW"} for i, k in pocketed],
        **kw,
    }


W, B = "white", "black"
GAME = [
    START,
    _s(1, "S", [(1, W)], [(1, W)]),
    _s(2, "S", [(2, W)], [(2, W)]),
    _s(3, "S", [(3, W)]),
    _s(4, "N", []),
    _s(5, "S", [(3, W)], [(3, W), (9, B)]),
    _s(6, "N", [(10, B)], [(10, B)]),
    _s(7, "N", [(4, W)]),
    _s(8, "S", [(4, W)], [(4, W)], striker_pocketed=True),
    _s(9, "N", ["E", (11, B)], [(11, B)]),
    _s(10, "N", [(12, B)], off_board=[{"kind": B}], off_board_discs=[{"id": 12, "kind": B, "rail": "S"}]),
    _s(11, "S", [(5, W)], [(5, W), (6, W)]),
    _s(12, "S", [(7, W)], [(7, W), (8, W)]),
    _s(13, "S", [(None, W)], [(None, W)]),
]
# (next player, headline reason) after each stroke, from the derivation above.
EXPECTED = [
    ("A", "own_pocketed"),
    ("A", "own_pocketed"),
    ("B", "no_own_pocketed"),
    ("A", "no_own_disc_touched"),
    ("B", "opponent_pocketed"),
    ("B", "own_pocketed"),
    ("A", "opponent_disc_first"),
    ("B", "striker_pocketed"),
    ("B", "own_pocketed"),
    ("A", "no_own_pocketed"),
    ("A", "own_pocketed"),
    ("A", "own_pocketed"),
    (None, "game_won"),
]


def test_whole_game_replayed_from_the_log() -> None:
    s = RulesSession("korona")
    rulings = [s.apply(line) for line in GAME]
    got = [(r["next"], r["reason"]) for r in rulings[1:]]
    assert got == EXPECTED
    r4, r5, r7, r8, r10 = rulings[4], rulings[5], rulings[7], rulings[8], rulings[10]
    assert r4["dues"] == {"A": 0, "B": 1} and r4["penalty"] == []  # §24.4
    assert r5["penalty"][0]["law"] == "korona §24.5" and r5["penalty"][0]["spot_mm"][1] == 444.5
    assert r5["on_board"] == {"A": 5, "B": 8} and r5["dues"]["B"] == 0
    assert r7["penalty"][0]["where"] == "S" and r7["on_board"]["B"] == 8
    assert r8["penalty"][0]["where"] == "N" and r8["on_board"]["A"] == 5
    assert {c["reason"] for c in r10["calls"]} == {"no_own_pocketed", "disc_off_board"}
    assert r10["replace"][0]["spot_mm"] == [0.0, 0.0] and r10["replace"][0]["id"] == 12
    final = rulings[-1]
    assert final["game_over"]["winner"] == "A" and final["match_over"] == {"winner": "A"}
    assert final["board_over"]["coins"] == 7  # B's discs left
    state = s.state()
    assert state["match_over"] == "A" and state["score"]["games"] == {"A": 1, "B": 0}
    assert s.export_sol()["winner"] == "A"
    # Replay from the log gives the same state.
    assert s.replay(s.log).state() == state


def test_undo_then_redo_same_state() -> None:
    s = RulesSession("korona")
    for line in GAME[:8]:
        s.apply(line)
    before = s.state()
    s.apply(GAME[8])
    s.apply({"umpire": "undo"})
    assert {k: v for k, v in s.state().items() if k != "lines"} == {
        k: v for k, v in before.items() if k != "lines"
    }


# -- properties -------------------------------------------------------------------------------
CALLS = [None, None, None, "double_hit", "struck_board", "touched_disc"]


def _random_stroke(data: st.DataObject, n: int, state: dict[str, Any]) -> dict[str, Any]:
    me = next(p for p in state["players"] if p["name"] == state["turn"])
    opp = next(p for p in state["players"] if p["name"] != state["turn"])
    own_n = data.draw(st.integers(0, min(3, me["on_board"])))
    opp_n = data.draw(st.integers(0, min(2, opp["on_board"])))
    first = data.draw(st.sampled_from([me["colour"], me["colour"], opp["colour"], None]))
    rail = data.draw(st.sampled_from([None, None, "N", "E", "S", "W"]))
    call = data.draw(st.sampled_from(CALLS))
    line: dict[str, Any] = {
        "stroke": n,
        "side": me["seat"],
        "striker_contacts": ([{"cushion": rail, "t": 1.0}] if rail else [])
        + ([{"kind": first, "t": 1.1}] if first else []),
        "pocketed": [{"kind": me["colour"]}] * own_n + [{"kind": opp["colour"]}] * opp_n,
        "striker_pocketed": data.draw(st.booleans()) and data.draw(st.booleans()),
    }
    if call:
        line["umpire_calls"] = [call]
    return line


@settings(max_examples=40, deadline=None)
@given(data=st.data(), fmt=st.sampled_from(["default", "bo5"]))
def test_random_play_keeps_counts_sane_and_replays(data: st.DataObject, fmt: str) -> None:
    s = RulesSession("korona", format=fmt)
    s.apply(START)
    for n in range(1, 60):
        state = s.state()
        if state["match_over"]:
            break
        before = {p["name"]: p for p in state["players"]}
        striker = state["turn"]
        ruling = s.apply(_random_stroke(data, n, state))
        for name, on in ruling["on_board"].items():
            assert 0 <= on <= 8  # never negative, never more than a set
            assert ruling["dues"][name] >= 0
        reasons = {c["reason"] for c in ruling["calls"]}
        assert all(KoronaReason(r) for r in reasons)
        assert len(ruling["penalty"]) <= 1 + before[striker]["dues"] + max(p["dues"] for p in before.values())
        if ruling["game_over"] is None and ruling["next"] != striker:
            # The turn ended: every owed disc that fits is on the board (§24.6, §24.7).
            p = next(p for p in s.state()["players"] if p["name"] == striker)
            assert p["dues"] == 0 or p["on_board"] == 8
    assert s.replay(s.log).state() == s.state()
