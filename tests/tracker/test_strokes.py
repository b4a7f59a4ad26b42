"""Stroke records (contract 2) from one shot's events."""

from __future__ import annotations

import contextlib

import pytest

from tracker.errors import InputError
from tracker.events import factory as f
from tracker.strokes import stroke_record

BEFORE = [{"id": 3, "kind": "white", "x_mm": 0.0, "y_mm": 0.0}]


def _shot(n: int = 1) -> list:  # type: ignore[type-arg]
    return [f.shot_start(1.0, 30, shot=n),
            f.pocketed(1.4, 42, shot=n, disc=f.disc_ref(3, 0), pocket="NE"),
            f.off_board(1.5, 45, shot=n, disc=f.disc_ref(20, 3), side="N"),
            f.shot_end(3.0, 90, shot=n, first_contact="white", rest=[], extra={"cushion_before_contact": True})]


@pytest.mark.parametrize(
    ("events", "side", "expect"),
    [(_shot(), "S", contextlib.nullcontext()), (_shot()[:2], "S", pytest.raises(InputError)),
     (_shot(1) + _shot(2), "S", pytest.raises(InputError)), (_shot(), "X", pytest.raises(InputError))],
    ids=["ok", "no-end", "two-shots", "bad-side"],
)
def test_stroke_record_validation(events: list, side: str, expect) -> None:  # type: ignore[no-untyped-def,type-arg]
    with expect:
        stroke_record(events, side=side, before=BEFORE)


def test_stroke_record_fields_from_events_and_dicts() -> None:
    rec = stroke_record(_shot(), side="S", before=BEFORE)
    assert rec["pocketed"] == [{"kind": "white", "pocket": "NE"}]
    assert rec["off_board"] == [] and rec["striker_off_board"] and not rec["striker_pocketed"]
    assert rec["cushion_before_contact"] and rec["first_contact"] == "white" and rec["before"] == BEFORE
    assert stroke_record([e.to_json() for e in _shot()], side="S", before=BEFORE) == rec
