"""Korona strokes, one case per computable clause (korona-et.txt §20, §21, §23-§25, §28.2).

Each case: a layout before the stroke, what the striker touched, what moved, was pocketed or went
off; the expected calls (exact set of reason codes), the law that must be cited, and the
consequences (next player, discs put back, penalty discs, debts, game winner). Player A (S,
white, discs 1-8) strikes; B (N, black, 9-16) is the opponent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from rules.korona_laws import LAWS
from tests.rules.korona_build import (
    AWAY,
    AWAY2,
    CENTRE,
    CENTRE2,
    CENTRE3,
    FREE_W,
    N_ZONE,
    S_ZONE,
    S_ZONE2,
    judge,
    laws,
    layout,
    reasons,
    stroke,
)

BLOCKED_ONLY = {1: CENTRE, 2: S_ZONE}  # A has only blocked discs left (on_board 2)


@dataclass(frozen=True)
class Case:
    id: str
    line: dict[str, Any]
    reasons: set[str]
    law: str
    next: str | None = None
    on: tuple[int, int] = (8, 8)
    dues: tuple[int, int] = (0, 0)
    restore: list[int] = field(default_factory=list)
    penalties: int = 0
    dues_after: tuple[int, int] | None = None
    on_after: tuple[int, int] | None = None
    winner: str | None = None
    replace: list[list[float]] | None = None


def _blk(**kw: Any) -> dict[str, Any]:
    return stroke(before=layout(whites=BLOCKED_ONLY), **kw)


CASES = [
    # §20.9 / §25: the turn
    Case(
        "korona-20.9-own-pocketed-strikes-again",
        stroke(hits=[1], pocketed=[1]),
        {"own_pocketed"},
        "korona §20.9",
        next="A",
        on_after=(7, 8),
    ),
    Case(
        "korona-25.1.1-legal-nothing-pocketed",
        stroke(hits=[1], moves={1: AWAY}),
        {"no_own_pocketed"},
        "korona §25.1.1",
        next="B",
    ),
    Case(
        "korona-25.1.1-only-opponent-pocketed",
        stroke(hits=[1], pocketed=[9]),
        {"no_own_pocketed"},
        "korona §25.1.1",
        next="B",
        on_after=(8, 7),
    ),
    Case(
        "korona-25.1.2-own-and-opponent-pocketed",
        stroke(hits=[1], pocketed=[1, 9]),
        {"opponent_pocketed"},
        "korona §25.1.2",
        next="B",
        on_after=(7, 7),
    ),
    Case(
        "korona-25.1.3-own-off-board-after-pocketing",
        stroke(hits=[1], pocketed=[1], off=[(2, "E")]),
        {"disc_off_board"},
        "korona §25.1.3",
        next="B",
        on_after=(7, 8),
        replace=[[0.0, 0.0]],
    ),
    Case(
        "korona-25.1.3-opponent-off-by-legal-stroke-goes-to-centre",
        stroke(hits=[1], off=[(9, "N")]),
        {"no_own_pocketed", "disc_off_board"},
        "korona §25.1.3",
        next="B",
        replace=[[0.0, 0.0]],
    ),
    # §24.1.1 / §21.2: direct strokes
    Case(
        "korona-24.1.1-direct-touches-nothing",
        stroke(hits=[]),
        {"no_own_disc_touched"},
        "korona §24.1.1",
        next="B",
        dues_after=(1, 0),
    ),
    Case(
        "korona-24.1.1-all-blocked-direct-nothing-no-penalty",
        _blk(hits=[]),
        {"no_own_pocketed"},
        "korona §25.1.1",
        next="B",
        on=(2, 8),
        dues_after=(0, 0),
    ),
    Case(
        "korona-24.1.2-direct-opponent-first",
        stroke(hits=[9], moves={9: AWAY2}),
        {"opponent_disc_first"},
        "korona §24.1.2",
        next="B",
        dues_after=(1, 0),
    ),
    Case(
        "korona-24.1.2-direct-own-and-opponent-together",
        stroke(hits=[(1, 9)], pocketed=[1]),
        {"opponent_disc_first"},
        "korona §24.1.2",
        next="B",
        on=(7, 8),
        on_after=(7, 8),
        penalties=1,
    ),
    Case(
        "korona-21.2-direct-two-own-together-legal",
        stroke(hits=[(1, 2)], pocketed=[2]),
        {"own_pocketed"},
        "korona §20.9",
        next="A",
    ),
    Case(
        "korona-21.2-direct-own-then-opponent-legal",
        stroke(hits=[1, 9], pocketed=[1]),
        {"own_pocketed"},
        "korona §20.9",
        next="A",
    ),
    Case(
        "korona-21.2-hole-shows-circle-line-not-blocked",
        stroke(before=layout(d1=(0.0, 78.0)), hits=[1], pocketed=[1]),
        {"own_pocketed"},
        "korona §20.9",
        next="A",
    ),
    Case(
        "korona-24.1.8-direct-hits-own-blocked-in-centre",
        stroke(before=layout(d1=CENTRE), hits=[1], moves={1: CENTRE2}),
        {"own_blocked_direct"},
        "korona §24.1.8",
        next="B",
    ),
    Case(
        "korona-24.1.8-direct-hits-own-blocked-in-own-zone",
        stroke(before=layout(d1=S_ZONE), hits=[1]),
        {"own_blocked_direct", "own_zone_disc_touched"},
        "korona §24.1.8",
        next="B",
    ),
    Case(
        "korona-24.1.11-opponent-disc-in-own-zone-first",
        stroke(before=layout(d9=S_ZONE), hits=[9]),
        {"opponent_disc_first", "own_zone_disc_touched"},
        "korona §24.1.11",
        next="B",
    ),
    Case(
        "korona-21.5-own-blocked-knocked-out-put-back",
        stroke(before=layout(d1=CENTRE), hits=[1], moves={1: AWAY}),
        {"own_blocked_direct"},
        "korona §21.5",
        next="B",
        restore=[1],
    ),
    Case(
        "korona-21.5-own-blocked-pocketed-put-back-not-counted",
        stroke(before=layout(d1=CENTRE), hits=[1], pocketed=[1]),
        {"own_blocked_direct"},
        "korona §21.5",
        next="B",
        restore=[1],
        on_after=(8, 8),
        dues_after=(1, 0),
    ),
    Case(
        "korona-23.1.1-two-own-blocked-knocked-out-game-lost",
        stroke(before=layout(d1=CENTRE, d2=CENTRE2), hits=[1], moves={1: AWAY, 2: AWAY2}),
        {"own_blocked_direct", "own_blocked_two_out"},
        "korona §23.1.1",
        winner="B",
    ),
    Case(
        "korona-23.1.4-direct-at-own-blocked-moves-two-others",
        stroke(
            before=layout(d1=CENTRE), hits=[1], moves={1: CENTRE2, 3: (-130.0, -150.0), 10: (-120.0, 150.0)}
        ),
        {"own_blocked_direct", "own_blocked_direct_moved_two"},
        "korona §23.1.4",
        winner="B",
    ),
    Case(
        "korona-23.1.4-one-other-moved-only-penalty",
        stroke(before=layout(d1=CENTRE), hits=[1], moves={1: CENTRE2, 3: (-130.0, -150.0)}),
        {"own_blocked_direct"},
        "korona §24.1.8",
        next="B",
    ),
    # §21.4: blocked discs reached legally
    Case(
        "korona-21.4.1-rebound-opposite-rail-knocks-out-own-blocked",
        stroke(before=layout(d1=CENTRE), hits=["N", 1], moves={1: AWAY}),
        {"no_own_pocketed"},
        "korona §25.1.1",
        next="B",
    ),
    Case(
        "korona-21.4.2-striker-via-own-free-disc-hits-blocked",
        stroke(before=layout(d2=CENTRE), hits=[1, 2], moves={2: AWAY}, pocketed=[1]),
        {"own_pocketed"},
        "korona §20.9",
        next="A",
    ),
    Case(
        "korona-21.4.3-own-free-disc-knocks-blocked-out",
        stroke(before=layout(d2=CENTRE), hits=[1], moves={1: CENTRE3}, pocketed=[2]),
        {"own_pocketed"},
        "korona §20.9",
        next="A",
        on_after=(7, 8),
    ),
    Case(
        "korona-21.4.5-side-rail-then-own-blocked-first",
        _blk(hits=["E", 1], pocketed=[1]),
        {"own_pocketed"},
        "korona §20.9",
        next="A",
        on=(2, 8),
        on_after=(1, 8),
    ),
    # §21.8 / §24.1.3 / §24.1.6: rebounds
    Case(
        "korona-21.8-rebound-side-rail-opponent-first",
        stroke(hits=["E", 9]),
        {"rebound_opponent_first"},
        "korona §21.8",
        next="B",
    ),
    Case(
        "korona-24.1.3-rebound-opposite-rail-opponent-first",
        stroke(hits=["N", 9]),
        {"rebound_opponent_first"},
        "korona §24.1.3",
        next="B",
    ),
    Case(
        "korona-21.8-rebound-touches-nothing-with-free-discs",
        stroke(hits=["N"]),
        {"no_own_disc_touched"},
        "korona §21.8",
        next="B",
    ),
    Case(
        "korona-21.8-rebound-own-and-opponent-together-legal",
        stroke(hits=["N", (1, 9)], pocketed=[1]),
        {"own_pocketed"},
        "korona §20.9",
        next="A",
    ),
    Case(
        "korona-24.1.6-note1-all-blocked-opposite-rail-nothing-touched",
        _blk(hits=["N"]),
        {"no_own_pocketed"},
        "korona §25.1.1",
        next="B",
        on=(2, 8),
    ),
    Case(
        "korona-24.1.6-all-blocked-side-rail-then-opponent",
        _blk(hits=["E", 9]),
        {"blocked_rebound_missed"},
        "korona §24.1.6",
        next="B",
        on=(2, 8),
        penalties=1,
        on_after=(3, 8),
    ),
    Case(
        "korona-24.1.6-all-blocked-side-rail-nothing-touched",
        _blk(hits=["W"]),
        {"blocked_rebound_missed"},
        "korona §24.1.6",
        next="B",
        on=(2, 8),
        penalties=1,
    ),
    Case(
        "korona-24.1.6-all-blocked-direct-stroke-nothing-is-not-a-rebound-miss",
        _blk(hits=[]),
        {"no_own_pocketed"},
        "korona §25.1.1",
        next="B",
        on=(2, 8),
    ),
    Case(
        "korona-24.1.6-note2-all-blocked-side-rail-then-own-in-centre",
        _blk(hits=["E", 1], moves={1: AWAY}),
        {"no_own_pocketed"},
        "korona §25.1.1",
        next="B",
        on=(2, 8),
    ),
    Case(
        "korona-24.1.3-not-called-when-all-own-blocked",
        _blk(hits=["N", 9]),
        {"no_own_pocketed"},
        "korona §25.1.1",
        next="B",
        on=(2, 8),
    ),
    Case(
        "korona-21.11.1-all-blocked-side-then-opposite-rail-drives-opponent-in",
        _blk(hits=["E", "N", 9], moves={9: CENTRE2}),
        {"no_own_pocketed"},
        "korona §25.1.1",
        next="B",
        on=(2, 8),
    ),
    Case(
        "korona-24.1.3-rebound-unknown-rail-opponent-first",
        stroke(
            hits=[],
            striker_contacts=None,
            first_cushion=None,
            cushion_before_contact=True,
            first_disc_ids=[9],
        ),
        {"rebound_opponent_first"},
        "korona §24.1.3",
        next="B",
    ),
    Case(
        "korona-24.1.6-rebound-with-rail-unknown-not-called",
        _blk(striker_contacts=None, stroke_type="rebound", first_disc_ids=[9]),
        {"no_own_pocketed"},
        "korona §25.1.1",
        next="B",
        on=(2, 8),
    ),
    Case(
        "korona-21.5-opponent-first-chain-knocks-own-blocked-out-put-back",
        stroke(before=layout(d1=CENTRE), hits=[9], moves={9: AWAY2, 1: AWAY}),
        {"opponent_disc_first"},
        "korona §21.5",
        next="B",
        restore=[1],
    ),
    # §24.1.4 / §24.1.5 / §24.2: striker
    Case(
        "korona-24.1.4-striker-pocketed",
        stroke(hits=[1], pocketed=[1], striker_pocketed=True),
        {"striker_pocketed"},
        "korona §24.1.4",
        next="B",
        on_after=(8, 8),
        penalties=1,
        dues_after=(0, 0),
    ),
    Case(
        "korona-24.1.5-striker-off-board",
        stroke(hits=[1], striker_off_board=True),
        {"striker_off_board"},
        "korona §24.1.5",
        next="B",
        dues_after=(1, 0),
    ),
    Case(
        "korona-24.2-one-penalty-disc-for-several-offences",
        stroke(hits=[], striker_pocketed=True),
        {"no_own_disc_touched", "striker_pocketed"},
        "korona §24.1.4",
        next="B",
        on=(6, 8),
        penalties=1,
        on_after=(7, 8),
        dues_after=(0, 0),
    ),
    # §21.9-§21.14: opponent discs
    Case(
        "korona-21.10-opponent-driven-into-centre-put-back",
        stroke(hits=[9], moves={9: CENTRE2}),
        {"opponent_disc_first", "opponent_into_blocked"},
        "korona §21.10",
        next="B",
        restore=[9],
    ),
    Case(
        "korona-21.10-opponent-driven-into-its-own-zone-put-back",
        stroke(hits=[9], moves={9: N_ZONE}),
        {"opponent_disc_first", "opponent_into_blocked"},
        "korona §21.10",
        next="B",
        restore=[9],
    ),
    Case(
        "korona-21.10-chain-drives-opponent-in-after-illegal-first",
        stroke(hits=[9], moves={9: AWAY2, 10: CENTRE2}),
        {"opponent_disc_first", "opponent_into_blocked"},
        "korona §21.10",
        next="B",
        restore=[10],
    ),
    Case(
        "korona-21.9-opponent-blocked-knocked-out-stays",
        stroke(before=layout(d9=CENTRE), hits=[9], moves={9: AWAY2}),
        {"opponent_disc_first"},
        "korona §24.1.2",
        next="B",
    ),
    Case(
        "korona-21.9-note-opponent-blocked-centre-to-zone-stays",
        stroke(before=layout(d9=CENTRE), hits=[9], moves={9: N_ZONE}),
        {"opponent_disc_first"},
        "korona §24.1.2",
        next="B",
    ),
    Case(
        "korona-21.11.2-legal-stroke-drives-opponent-into-centre",
        stroke(hits=[1, 9], moves={9: CENTRE2}, pocketed=[1]),
        {"own_pocketed"},
        "korona §20.9",
        next="A",
    ),
    Case(
        "korona-21.11.3-own-disc-drives-opponent-into-zone",
        stroke(hits=[1], moves={1: AWAY, 9: N_ZONE}),
        {"no_own_pocketed"},
        "korona §25.1.1",
        next="B",
    ),
    Case(
        "korona-21.12-legal-first-then-striker-pocketed-nothing-put-back",
        stroke(hits=[1], moves={9: CENTRE2}, striker_pocketed=True),
        {"striker_pocketed"},
        "korona §24.1.4",
        next="B",
    ),
    Case(
        "korona-21.13-opponent-knocked-off-directly-put-back",
        stroke(hits=[9], off=[(9, "N")]),
        {"opponent_disc_first", "opponent_off_board_direct"},
        "korona §24.1.16",
        next="B",
        restore=[9],
        replace=[],
    ),
    Case(
        "korona-21.14-other-opponent-disc-off-put-back-hit-one-stays",
        stroke(hits=[9], moves={9: AWAY2}, off=[(10, "S")]),
        {"opponent_disc_first", "opponent_off_board_direct"},
        "korona §21.13",
        next="B",
        restore=[10],
    ),
    Case(
        "korona-21.13-own-disc-off-after-opponent-first-goes-to-centre",
        stroke(hits=[9], off=[(1, "N")]),
        {"opponent_disc_first"},
        "korona §24.1.2",
        next="B",
        replace=[[0.0, 0.0]],
    ),
    # §20.8 / §25.1.4: the rebounding striker
    Case(
        "korona-25.1.4-striker-back-over-own-zone-line",
        stroke(hits=[1], pocketed=[1], striker_rest={"x_mm": 0.0, "y_mm": 430.0}),
        {"striker_returned_to_zone"},
        "korona §25.1.4",
        next="B",
    ),
    Case(
        "korona-20.8-striker-back-allowed-with-a-blocked-disc",
        stroke(before=layout(d2=CENTRE), hits=[1], pocketed=[1], striker_rest={"x_mm": 0.0, "y_mm": 430.0}),
        {"own_pocketed"},
        "korona §20.8".replace("20.8", "20.9"),
        next="A",
    ),
    Case(
        "korona-25.1.4-zone-line-still-visible-in-hole",
        stroke(hits=[1], pocketed=[1], striker_rest={"x_mm": 0.0, "y_mm": 382.0}),
        {"own_pocketed"},
        "korona §20.9",
        next="A",
    ),
    Case(
        "korona-25.1.4-tracker-flag-overrides-geometry",
        stroke(hits=[1], pocketed=[1], striker_beyond_zone_line=True),
        {"striker_returned_to_zone"},
        "korona §25.1.4",
        next="B",
    ),
    # §24.3-§24.7: penalty discs and debts
    Case(
        "korona-24.4-penalty-owed-when-all-eight-on-board",
        stroke(hits=[9]),
        {"opponent_disc_first"},
        "korona §24.1.2",
        next="B",
        penalties=0,
        dues_after=(1, 0),
        on_after=(8, 8),
    ),
    Case(
        "korona-24.6-penalty-placed-when-turn-ends",
        stroke(hits=[9]),
        {"opponent_disc_first"},
        "korona §24.1.2",
        next="B",
        on=(7, 8),
        penalties=1,
        dues_after=(0, 0),
        on_after=(8, 8),
    ),
    Case(
        "korona-24.7-at-most-eight-rest-stays-owed",
        stroke(hits=[9]),
        {"opponent_disc_first"},
        "korona §24.1.2",
        next="B",
        on=(6, 8),
        dues=(3, 0),
        penalties=2,
        dues_after=(2, 0),
        on_after=(8, 8),
    ),
    Case(
        "korona-24.5-debt-placed-when-opponent-pockets-its-disc",
        stroke(hits=[1], pocketed=[1, 9]),
        {"opponent_pocketed"},
        "korona §25.1.2",
        next="B",
        dues=(0, 1),
        penalties=1,
        dues_after=(0, 0),
        on_after=(7, 8),
    ),
    Case(
        "korona-24.6-all-eight-pocketed-debt-placed-turn-goes-on",
        stroke(before=layout(whites={1: FREE_W[1]}), hits=[1], pocketed=[1]),
        {"own_pocketed"},
        "korona §20.9",
        next="A",
        on=(1, 8),
        dues=(2, 0),
        penalties=2,
        dues_after=(0, 0),
        on_after=(2, 8),
    ),
    # §28.2: the game
    Case(
        "korona-28.2-last-own-disc-wins-the-game",
        stroke(before=layout(whites={1: FREE_W[1]}), hits=[1], pocketed=[1]),
        {"own_pocketed", "game_won"},
        "korona §28.2",
        on=(1, 8),
        winner="A",
    ),
    Case(
        "korona-28.2-penalty-on-the-last-stroke-no-win",
        stroke(before=layout(whites={1: FREE_W[1]}), hits=[1], pocketed=[1], striker_pocketed=True),
        {"striker_pocketed"},
        "korona §24.1.4",
        next="B",
        on=(1, 8),
        penalties=1,
        on_after=(1, 8),
    ),
    Case(
        "korona-28.2-opponent-last-disc-pocketed-opponent-wins",
        stroke(before=layout(blacks={9: (0.0, 200.0)}), hits=[1], pocketed=[1, 9]),
        {"opponent_pocketed", "game_won"},
        "korona §28.2",
        on=(8, 1),
        winner="B",
    ),
    Case(
        "korona-28.2-debtor-does-not-win-by-emptying",
        stroke(before=layout(blacks={9: (0.0, 200.0)}), hits=[1], pocketed=[9]),
        {"no_own_pocketed"},
        "korona §24.5",
        next="B",
        on=(8, 1),
        dues=(0, 1),
        penalties=1,
        on_after=(8, 1),
        dues_after=(0, 0),
    ),
    # §20.17-§20.19: off-board discs back to the centre circle
    Case(
        "korona-20.17-centre-taken-point-on-its-side",
        stroke(before=layout(d9=CENTRE), hits=[1], off=[(2, "E")]),
        {"no_own_pocketed", "disc_off_board"},
        "korona §25.1.3",
        next="B",
        replace=[[67.5, 0.0]],
    ),
    Case(
        "korona-20.18-side-point-taken-clockwise-neighbour",
        stroke(before=layout(d9=CENTRE, d10=(67.5, 0.0)), hits=[1], off=[(2, "E")]),
        {"no_own_pocketed", "disc_off_board"},
        "korona §25.1.3",
        next="B",
        replace=[[0.0, 67.5]],
    ),
    Case(
        "korona-20.19-first-hit-disc-goes-to-centre-first",
        stroke(hits=[1], off=[(2, "W"), (1, "N")]),
        {"no_own_pocketed", "disc_off_board"},
        "korona §25.1.3",
        next="B",
        replace=[[0.0, 0.0], [-67.5, 0.0]],
    ),
    Case(
        "korona-20.18-note-corner-known-diagonal-point",
        stroke(before=layout(d9=CENTRE), hits=[1], off=[(2, "NE")]),
        {"no_own_pocketed", "disc_off_board"},
        "korona §25.1.3",
        next="B",
        replace=[[47.7, -47.7]],
    ),
    # umpire calls on a stroke (§24.1.9 ...)
    Case(
        "korona-24.1.9-umpire-double-hit-on-a-pocketing-stroke",
        stroke(hits=[1], pocketed=[1], umpire_calls=["double_hit"]),
        {"double_hit"},
        "korona §24.1.9",
        next="B",
        penalties=1,
    ),
    Case(
        "korona-25.1.6-umpire-struck-the-board",
        stroke(hits=[1], pocketed=[1], umpire_calls=["struck_board"]),
        {"struck_board"},
        "korona §25.1.6",
        next="B",
        penalties=0,
        dues_after=(0, 0),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_korona_stroke(case: Case) -> None:
    ruling, step = judge(case.line, on=case.on, dues=case.dues)
    assert reasons(ruling) == case.reasons
    placed = {p["law"] for key in ("restore", "replace", "penalty") for p in ruling[key]}
    assert case.law in laws(ruling) | placed
    # The case id names a paragraph this package knows (korona_laws.LAWS).
    para = "korona §" + case.id.split("-")[1]
    assert any(para == law or para.startswith(law + ".") for law in LAWS), para
    if case.winner is None:
        assert ruling["game_over"] is None
        assert ruling["next"] == case.next
    else:
        assert ruling["game_over"]["winner"] == case.winner
        assert ruling["score"]["games"][case.winner] == 1
    assert sorted(r["id"] for r in ruling["restore"]) == sorted(case.restore)
    if case.winner is None:
        assert len(ruling["penalty"]) == case.penalties
    if case.dues_after is not None:
        assert (ruling["dues"]["A"], ruling["dues"]["B"]) == case.dues_after
    if case.on_after is not None:
        assert (ruling["on_board"]["A"], ruling["on_board"]["B"]) == case.on_after
    if case.replace is not None:
        assert [r["spot_mm"] for r in ruling["replace"]] == case.replace
    # One penalty disc per stroke at most (§24.2).
    assert len(ruling["penalty"]) <= max(1, case.dues[0] + 1, case.dues[1] + 1)


def test_fouls_are_the_penalising_calls() -> None:
    ruling, _ = judge(stroke(hits=[(1, 9)], striker_off_board=True))
    assert {f["reason"] for f in ruling["fouls"]} == {"opponent_disc_first", "striker_off_board"}
    assert all(f["player"] == "A" and f["events"] for f in ruling["fouls"])
    assert ruling["fouls"][0]["events"] == ["stroke:1:striker_contacts:0", "stroke:1:striker_contacts:1"]


def test_penalty_disc_spot_in_the_opposite_zone_on_the_centre_line() -> None:
    # A's (S) penalty disc goes against the N rail on the zone's centre line (§24.3).
    ruling, _ = judge(stroke(hits=[9]), on=(7, 8))
    assert ruling["penalty"][0]["spot_mm"] == [0.0, -444.5]
    assert ruling["penalty"][0]["where"] == "N" and ruling["penalty"][0]["law"] == "korona §24.3"


def test_restore_spot_is_the_former_position() -> None:
    ruling, _ = judge(stroke(hits=[9], moves={9: CENTRE2}))
    assert ruling["restore"] == [
        {
            "what": "restore",
            "id": 9,
            "kind": "black",
            "player": "B",
            "spot_mm": [-175.0, 200.0],
            "law": "korona §21.10",
            "where": None,
            "occupied": False,
        }
    ]


def test_restore_onto_an_occupied_spot_is_flagged() -> None:
    ruling, _ = judge(stroke(hits=[9], moves={9: CENTRE2, 10: (-170.0, 205.0)}))
    assert ruling["restore"][0]["occupied"] is True


def test_no_disc_ids_in_the_record_still_judged_by_kind() -> None:
    line = {"stroke": 1, "side": "S", "first_contact": "black", "pocketed": [{"kind": "white"}]}
    ruling, _ = judge(line)
    assert reasons(ruling) == {"opponent_disc_first"}


def test_unknown_first_disc_after_a_rail_is_not_guessed() -> None:
    line = {"stroke": 1, "side": "S", "first_contact": "cushion", "pocketed": [{"kind": "white"}]}
    ruling, _ = judge(line)
    assert reasons(ruling) == {"own_pocketed"}


def test_s_zone_spots_are_in_the_own_zone() -> None:
    # Sanity of the builders the table relies on.
    import numpy as np

    from rules.korona_geometry import korona_geometry

    g = korona_geometry()
    assert g.in_rail_zone(np.array([S_ZONE, S_ZONE2]), "S").all()
    assert not g.is_blocked(np.array([AWAY, AWAY2, *FREE_W.values()]), "S").any()


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (
            {"first_disc": "black", "first_cushion": "N", "first_contact": "cushion"},
            {"rebound_opponent_first"},
        ),
        ({"first_disc": "white", "first_disc_id": 1, "first_contact": "white"}, {"own_pocketed"}),
        (
            {"first_disc_id": 1, "before": [{"id": 1, "kind": "white", "x_mm": 0.0, "y_mm": 0.0}]},
            {"own_blocked_direct"},
        ),
        (
            {"first_contact": "cushion", "cushion_before_contact": True, "first_disc": "white"},
            {"own_pocketed"},
        ),
    ],
    ids=[
        "korona-24.1.3-tracker-summary-rebound-opponent-first",
        "korona-20.9-tracker-summary-own-first",
        "korona-24.1.8-tracker-summary-id-in-centre",
        "korona-21.3-tracker-summary-rebound-own-first",
    ],
)
def test_tracker_shot_summary_fields(extra: dict[str, Any], expected: set[str]) -> None:
    line = {"stroke": 1, "side": "S", "pocketed": [{"kind": "white"}], **extra}
    ruling, _ = judge(line)
    assert reasons(ruling) == expected


def test_without_after_nothing_is_assumed_knocked_out() -> None:
    # Only "before" is known: the blocked disc that was hit is not assumed to have left (§21.5).
    line = {
        "stroke": 1,
        "side": "S",
        "first_disc_id": 1,
        "before": [{"id": 1, "kind": "white", "x_mm": 0.0, "y_mm": 0.0}],
    }
    ruling, _ = judge(line)
    assert reasons(ruling) == {"own_blocked_direct"} and ruling["restore"] == []
    line["pocketed_discs"] = [{"id": 1, "kind": "white"}]  # ... unless it is known to have gone: put back
    ruling, _ = judge(line)
    assert [r["id"] for r in ruling["restore"]] == [1] and ruling["on_board"]["A"] == 8
