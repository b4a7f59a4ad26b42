"""Property tests: random legal stroke sequences keep the carrom state sane and replayable."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import RulesSession

FMT_MAX_POINTS = 25 - 1 + 12  # a game ends at 25; the last board adds at most 12 (ICF §28)


@st.composite
def _stroke(draw, state: dict, n: int) -> dict:  # noqa: ANN001
    coins, queen = state["coins"], state["queen"]["state"]
    pocketed = []
    for kind in ("white", "black"):
        pocketed += [kind] * draw(st.integers(0, min(3, coins[kind])))
    if queen == "on_board" and draw(st.booleans()):
        pocketed.append("queen")
    off = []
    if draw(st.integers(0, 9)) == 0:
        for kind in ("white", "black"):
            if coins[kind] - pocketed.count(kind) > 0:
                off.append(kind)
    side = state["constraints"]["side"]
    if draw(st.integers(0, 40)) == 0:
        side = "N" if side == "S" else "S"  # now and then a stroke out of turn (ICF §24)
    return {"stroke": n, "side": side, "pocketed": [{"kind": k} for k in pocketed],
            "off_board": [{"kind": k} for k in off], "striker_pocketed": draw(st.integers(0, 5)) == 0,
            "first_contact": draw(st.sampled_from(["white", "black", None])),
            "umpire": {"improper": draw(st.integers(0, 8)) == 0, "demanded": draw(st.booleans())}}


def _check(state: dict) -> None:
    for kind in ("white", "black"):
        assert 0 <= state["coins"][kind] <= 9
    for player, owed in state["dues"].items():
        assert owed >= 0
        if owed:  # a due waits only while no coin of that colour is off the board (ICF §45b, §56)
            assert state["coins"][state["colours"][player]] == 9
    for board in state["boards"]:
        assert 1 <= board["points"] <= 12
    assert all(0 <= p <= FMT_MAX_POINTS for p in state["score"]["points"].values())
    assert (state["queen"]["by"] is None) == (state["queen"]["state"] == "on_board")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_strokes_keep_state_sane_and_replay(data):  # noqa: ANN001
    s = RulesSession("carrom")
    for n in range(1, 120):
        state = s.state()
        if state["winner"] is not None:
            break
        s.apply(data.draw(_stroke(state, n)))
        _check(s.state())
    again = s.replay(s.log)
    assert again.state() == s.state()
