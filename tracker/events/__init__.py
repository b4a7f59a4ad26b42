"""Game events: types, factories, filters and the detector that derives them from tracks."""

from __future__ import annotations

from tracker.events import factory
from tracker.events.filter import after, before, by_agent, by_kind, by_shot, filter_events, sort_events
from tracker.events.types import EVENT_PRIORITY, EventKind, GameEvent

__all__ = [
    "EVENT_PRIORITY",
    "EventKind",
    "GameEvent",
    "after",
    "before",
    "by_agent",
    "by_kind",
    "by_shot",
    "factory",
    "filter_events",
    "sort_events",
]
