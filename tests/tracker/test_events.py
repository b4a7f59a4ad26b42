"""Event types, factories and filters."""

from __future__ import annotations

import contextlib

import pytest

from tracker.events import (
    EVENT_PRIORITY,
    EventKind,
    after,
    before,
    by_agent,
    by_kind,
    by_shot,
    filter_events,
    sort_events,
)
from tracker.events import factory as f
from tracker.events.types import GameEvent


def _one_of_each() -> dict[EventKind, GameEvent]:
    disc = f.disc_ref(3, 0)
    return {
        EventKind.SHOT_START: f.shot_start(1.0, 30, shot=1),
        EventKind.CONTACT: f.contact_discs(1.1, 33, shot=1, a=f.disc_ref(20, 3), b=disc),
        EventKind.POCKETED: f.pocketed(1.5, 45, shot=1, disc=disc, pocket="NE"),
        EventKind.OFF_BOARD: f.off_board(1.6, 48, shot=1, disc=f.disc_ref(4, 1), side="N"),
        EventKind.SHOT_END: f.shot_end(
            3.0, 90, shot=1, first_contact="white", rest=[{"id": 4, "kind": "black", "x_mm": 1.0, "y_mm": 2.0}]
        ),
        EventKind.PLACED: f.placed(4.0, 120, disc=f.disc_ref(21, 2), xy_mm=(0.0, 0.0)),
    }


@pytest.mark.parametrize("kind", list(EventKind), ids=[k.value for k in EventKind])
def test_every_kind_has_priority_factory_and_round_trip(kind: EventKind) -> None:
    ev = _one_of_each()[kind]
    assert kind in EVENT_PRIORITY
    line = ev.to_json()
    assert line["type"] == kind.value and line["frame"] == ev.frame_idx
    back = f.from_json(line)
    assert back.to_json() == line
    assert back.agents == ev.agents


@pytest.mark.parametrize(
    ("build", "expect"),
    [
        (lambda: f.pocketed(1.0, 3, shot=1, disc=f.disc_ref(1, 0), pocket="XX"), pytest.raises(ValueError)),
        (lambda: f.contact_cushion(1.0, 3, shot=1, a=f.disc_ref(1, 3), side="Q"), pytest.raises(ValueError)),
        (lambda: f.shot_start(-1.0, 0, shot=1), pytest.raises(ValueError)),
        (lambda: f.shot_start(1.0, -2, shot=1), pytest.raises(ValueError)),
        (lambda: f.contact_cushion(1.0, 3, shot=1, a=f.disc_ref(1, 3), side="E"), contextlib.nullcontext()),
    ],
    ids=["bad-pocket", "bad-side", "negative-time", "negative-frame", "good-cushion"],
)
def test_factories_validate(build, expect) -> None:  # type: ignore[no-untyped-def]
    with expect:
        build()


def test_payload_is_read_only() -> None:
    ev = _one_of_each()[EventKind.SHOT_END]
    with pytest.raises(TypeError):
        ev.payload["shot"] = 2  # type: ignore[index]
    assert isinstance(ev.payload["rest"], tuple)


def test_simultaneous_events_sort_by_priority() -> None:
    t = 2.0
    evs = [f.shot_end(t, 60, shot=1, first_contact=None, rest=[]),
           f.pocketed(t, 60, shot=1, disc=f.disc_ref(2, 0), pocket="SW"),
           f.contact_cushion(t, 60, shot=1, a=f.disc_ref(20, 3), side="S")]
    assert [e.kind for e in sort_events(evs)] == [EventKind.CONTACT, EventKind.POCKETED, EventKind.SHOT_END]


def test_filters_compose() -> None:
    evs = list(_one_of_each().values())
    assert [e.kind for e in filter_events(evs, by_agent("disc:3"))] == [EventKind.CONTACT, EventKind.POCKETED]
    late_losses = filter_events(evs, by_kind(EventKind.POCKETED, EventKind.OFF_BOARD), after(1.55))
    assert [e.kind for e in late_losses] == [EventKind.OFF_BOARD]
    assert len(filter_events(evs, by_shot(1), before(3.0, inclusive=True))) == 5
    assert EventKind.POCKETED.is_pocketing() and EventKind.OFF_BOARD.is_loss() and not EventKind.PLACED.is_in_shot()
