"""The match log: every change goes through the log, and replaying it gives the same match."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from service.store import Store
from service.table import Table
from tests.service._standin import shot_events, standin_factory, standin_stroke
from tracker.errors import RuleError

START = {"umpire": "start_match", "players": {"S": "A", "N": "B"}, "first_break": "A"}


def make_table(db: Path) -> Table:
    return Table(
        Store(db),
        game="carrom",
        publish=lambda *a, **k: None,
        rules_factory=standin_factory,
        stroke_builder=standin_stroke,
    )


def _clean(t: Table) -> None:
    t.ingest(shot_events(1, 1.0, pocketed=("white",)))


def _foul_confirm(t: Table) -> None:
    t.ingest(shot_events(1, 1.0, striker=True))
    t.act("review", {"target": t.book.head_flagged(), "decision": "confirm"})


def _foul_reject(t: Table) -> None:
    t.ingest(shot_events(1, 1.0, striker=True))
    t.act("review", {"target": t.book.head_flagged(), "decision": "reject"})


def _foul_open(t: Table) -> None:
    t.ingest(shot_events(1, 1.0, striker=True))


def _queue_behind_review(t: Table) -> None:
    t.ingest(
        shot_events(1, 1.0, pocketed=("white",), striker=True) + shot_events(2, 3.0, pocketed=("black",))
    )
    assert len(t.book.pending) == 2  # the second stroke waits behind the review
    t.act("review", {"target": t.book.head_flagged(), "decision": "confirm"})


def _correct(t: Table) -> None:
    seq = t.ingest(shot_events(1, 1.0, pocketed=("white", "white")))[0]
    t.ingest(shot_events(2, 3.0, pocketed=("black",)))
    t.act("correct", {"target": seq, "patch": {"pocketed": []}})


def _undo(t: Table) -> None:
    _clean(t)
    t.act("undo", {})


def _manual_foul(t: Table) -> None:
    t.act("umpire", {"umpire": "foul", "player": "B", "reason": "technical_foul"})


# (scenario, expected points {A, B}, expected turn, lines applied after the start, open review?)
CASES: list[tuple[Callable[[Table], None], dict[str, int], str, int, bool]] = [
    (_clean, {"A": 1, "B": 0}, "A", 1, False),
    (_foul_confirm, {"A": -1, "B": 0}, "B", 1, False),
    (_foul_reject, {"A": 0, "B": 0}, "B", 1, False),
    (_foul_open, {"A": 0, "B": 0}, "A", 0, True),
    (_queue_behind_review, {"A": 0, "B": 1}, "B", 2, False),
    (_correct, {"A": 0, "B": 1}, "B", 2, False),
    (_undo, {"A": 0, "B": 0}, "A", 0, False),
    (_manual_foul, {"A": 0, "B": -1}, "A", 1, False),
]
IDS = [
    "clean-stroke",
    "foul-confirmed",
    "foul-rejected",
    "foul-open",
    "queue-behind-review",
    "correct-earlier-stroke",
    "undo",
    "manual-foul",
]


@pytest.mark.parametrize(("scenario", "points", "turn", "applied", "open_review"), CASES, ids=IDS)
def test_scenario_and_replay_give_the_same_match(
    tmp_path: Path,
    scenario: Callable[[Table], None],
    points: dict[str, int],
    turn: str,
    applied: int,
    open_review: bool,
) -> None:
    table = make_table(tmp_path / "m.db")
    table.start_match(dict(START))
    scenario(table)
    state: dict[str, Any] = table.state()
    assert state["rules"]["points"] == points
    assert state["rules"]["turn"] == turn
    assert len(table.sheet()) == 1 + applied
    assert (state["review"] is not None) is open_review
    table.store.close()

    again = make_table(tmp_path / "m.db")  # a restart: the state is rebuilt from the log alone
    assert again.state() == state
    assert again.sheet() == table.sheet()


@pytest.mark.parametrize(
    ("kind", "body", "message"),
    [
        ("review", {"target": 2, "decision": "confirm"}, "no flagged foul"),
        ("correct", {"target": 99, "patch": {}}, "not a stroke"),
        ("undo", {}, "nothing to undo"),
        ("umpire", {"umpire": "foul", "player": "Z"}, "unknown player"),
        ("bogus", {}, "unknown log entry kind"),
    ],
    ids=["review-without-flag", "correct-unknown", "undo-at-start", "rules-refusal", "unknown-kind"],
)
def test_refused_actions_leave_no_trace_in_the_log(
    tmp_path: Path, kind: str, body: dict[str, Any], message: str
) -> None:
    table = make_table(tmp_path / "m.db")
    match = table.start_match(dict(START))
    before = table.store.entries(match.id)
    with pytest.raises(Exception, match=message) as info:
        table.act(kind, body)
    assert isinstance(info.value, RuleError) or "kind" in message
    assert table.store.entries(match.id) == before


def test_log_rows_cannot_be_rewritten(tmp_path: Path) -> None:
    table = make_table(tmp_path / "m.db")
    table.start_match(dict(START))
    with pytest.raises(Exception, match="append-only"):
        table.store._db.execute("UPDATE log SET body='{}'")
    with pytest.raises(Exception, match="append-only"):
        table.store._db.execute("DELETE FROM log")


def test_events_outside_a_match_are_logged_but_not_ruled(tmp_path: Path) -> None:
    table = make_table(tmp_path / "m.db")
    assert table.ingest(shot_events(1, 1.0, pocketed=("white",))) == []
    assert [e["type"] for e in table.store.events()] == ["shot_start", "pocketed", "shot_end"]
    assert table.state()["match"] is None


def test_pre_shot_layout_is_the_last_seen_positions(tmp_path: Path) -> None:
    table = make_table(tmp_path / "m.db")
    table.start_match(dict(START))
    table.on_frame({"type": "frame", "discs": [[1, "white", 10.0, 20.0], [20, "striker", 0.0, 250.0]]})
    seq = table.ingest(shot_events(1, 1.0, pocketed=("white",)))[0]
    before = table.book.entry(seq).body["before"]
    assert before == [
        {"id": 1, "kind": "white", "x_mm": 10.0, "y_mm": 20.0},
        {"id": 20, "kind": "striker", "x_mm": 0.0, "y_mm": 250.0},
    ]
