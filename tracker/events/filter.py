"""Composable queries over time-sorted event lists (STYLE §5).

Each `by_*`/`before`/`after` returns a predicate; `filter_events(events, *preds)` keeps the
events every predicate accepts, in time order.

Examples:
    >>> from tracker.events import factory as f
    >>> evs = [f.shot_start(1.0, 30, shot=1), f.pocketed(1.5, 45, shot=1, disc=f.disc_ref(3, 0), pocket="NE")]
    >>> [e.kind.value for e in filter_events(evs, by_kind(EventKind.POCKETED), after(1.2))]
    ['pocketed']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from tracker.events.types import EventKind, GameEvent

__all__ = ["EventPredicate", "after", "before", "by_agent", "by_kind", "by_shot", "filter_events", "sort_events"]

EventPredicate = Callable[[GameEvent], bool]


def sort_events(events: Iterable[GameEvent]) -> list[GameEvent]:
    """Events in time order; ties broken by `EVENT_PRIORITY` (see `GameEvent.sort_key`)."""
    return sorted(events, key=GameEvent.sort_key)


def by_kind(*kinds: EventKind) -> EventPredicate:
    """Keep events of any of `kinds`."""
    wanted = frozenset(kinds)
    return lambda e: e.kind in wanted


def by_agent(agent: str) -> EventPredicate:
    """Keep events in which `agent` (`"disc:3"`, `"cushion:N"`, `"pocket:NE"`) took part."""
    return lambda e: agent in e.agents


def by_shot(shot: int) -> EventPredicate:
    """Keep the events of shot number `shot`."""
    return lambda e: e.shot == shot


def before(t_s: float, *, inclusive: bool = False) -> EventPredicate:
    """Keep events earlier than `t_s` seconds (or at it, if `inclusive`)."""
    return (lambda e: e.t_s <= t_s) if inclusive else (lambda e: e.t_s < t_s)


def after(t_s: float, *, inclusive: bool = False) -> EventPredicate:
    """Keep events later than `t_s` seconds (or at it, if `inclusive`)."""
    return (lambda e: e.t_s >= t_s) if inclusive else (lambda e: e.t_s > t_s)


def filter_events(events: Iterable[GameEvent], *predicates: EventPredicate) -> list[GameEvent]:
    """The events (sorted) that satisfy every predicate."""
    return [e for e in sort_events(events) if all(p(e) for p in predicates)]
