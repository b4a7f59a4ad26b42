"""Event types: `EventKind` and the frozen `GameEvent`.

Events are what the tracker tells the rules engine and the overlay: a shot started, two discs
touched, a disc was pocketed or left the board, a disc was put on the board by hand, a shot
ended. Each event is built complete by a factory in `tracker.events.factory` and never changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any

__all__ = ["EVENT_PRIORITY", "EventKind", "GameEvent", "freeze", "thaw"]


class EventKind(StrEnum):
    """Every kind of event; the value is the `"type"` of the JSON line (contract 1)."""

    SHOT_START = "shot_start"
    CONTACT = "contact"
    POCKETED = "pocketed"
    OFF_BOARD = "off_board"
    PLACED = "placed"
    SHOT_END = "shot_end"

    def is_pocketing(self) -> bool:
        """True for a disc going into a pocket."""
        return self is EventKind.POCKETED

    def is_loss(self) -> bool:
        """True when a disc leaves play (pocketed or off the board)."""
        return self in (EventKind.POCKETED, EventKind.OFF_BOARD)

    def is_shot_boundary(self) -> bool:
        """True for the start and end of a shot."""
        return self in (EventKind.SHOT_START, EventKind.SHOT_END)

    def is_contact(self) -> bool:
        """True for a collision (disc-disc or disc-cushion)."""
        return self is EventKind.CONTACT

    def is_in_shot(self) -> bool:
        """True for kinds that belong to a shot and carry a `"shot"` number."""
        return self is not EventKind.PLACED


# Order of events that share a time stamp: a shot starts before anything happens in it; contacts
# come before the losses they cause; a shot ends after everything in it; a disc placed by hand at
# the same instant belongs after the shot that freed its place.
EVENT_PRIORITY: Mapping[EventKind, int] = MappingProxyType({
    EventKind.SHOT_START: 0,
    EventKind.CONTACT: 1,
    EventKind.POCKETED: 2,
    EventKind.OFF_BOARD: 3,
    EventKind.SHOT_END: 4,
    EventKind.PLACED: 5,
})


def freeze(value: Any) -> Any:
    """Return an immutable copy of a JSON-like value (dicts -> read-only mappings, lists -> tuples).

    Examples:
        >>> v = freeze({"rest": [{"id": 1}]})
        >>> type(v["rest"]).__name__, v["rest"][0]["id"]
        ('tuple', 1)
    """
    if isinstance(value, Mapping):
        return MappingProxyType({str(k): freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """Inverse of `freeze`: plain dicts and lists, ready for `json.dumps`.

    Examples:
        >>> thaw(freeze({"a": (1, 2)}))
        {'a': [1, 2]}
    """
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [thaw(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class GameEvent:
    """One thing that happened on the board.

    Attributes:
        kind: what happened.
        t_s: when, in seconds from the start of the video (by frame time stamps); for a pocketing,
            the moment the disc's centre crossed the pocket's point of no return.
        frame_idx: the frame (counted from 0) at or just after `t_s`.
        agents: who took part, as `"disc:<id>"`, `"cushion:<side>"` or `"pocket:<corner>"` strings.
        payload: the other fields of the JSON line (contract 1), read-only.
    """

    kind: EventKind
    t_s: float
    frame_idx: int
    agents: tuple[str, ...] = ()
    payload: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def shot(self) -> int | None:
        """The shot number, for events inside a shot."""
        shot = self.payload.get("shot")
        return None if shot is None else int(shot)

    def sort_key(self) -> tuple[float, int, int, tuple[str, ...]]:
        """Time, then frame, then `EVENT_PRIORITY`, then agents: a total, deterministic order."""
        return (self.t_s, self.frame_idx, EVENT_PRIORITY[self.kind], self.agents)

    def to_json(self) -> dict[str, Any]:
        """The contract-1 JSON object (`{"type": ..., "t": ..., "frame": ..., ...}`)."""
        head: dict[str, Any] = {"type": self.kind.value, "t": round(float(self.t_s), 4), "frame": int(self.frame_idx)}
        body: dict[str, Any] = thaw(self.payload)
        return head | body
