"""Cut the camera's event stream into shots, and remember the rest layout before each one."""

from __future__ import annotations

from typing import Any

__all__ = ["ShotCollector", "positions_as_records"]


def positions_as_records(discs: list[list[Any]]) -> list[dict[str, Any]]:
    """Compact frame positions `[[id, kind, x_mm, y_mm], ...]` as contract rest records.

    Examples:
        >>> positions_as_records([[3, "white", 10.0, -5.5]])
        [{'id': 3, 'kind': 'white', 'x_mm': 10.0, 'y_mm': -5.5}]
    """
    return [{"id": d[0], "kind": d[1], "x_mm": d[2], "y_mm": d[3]} for d in discs]


class ShotCollector:
    """Groups contract-1 events from `shot_start` to `shot_end` into one shot body.

    The "before" layout of a shot is the latest frame positions seen while no shot was in
    progress (so coins placed by hand are included), else the rest layout of the previous shot.
    """

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self._events: list[dict[str, Any]] = []
        self._in_shot = False
        self._before: list[dict[str, Any]] = []
        self._rest: list[dict[str, Any]] = []
        self._seen: list[list[Any]] | None = None

    def see_positions(self, discs: list[list[Any]]) -> None:
        """Latest positions of one frame (board mm); kept only between shots."""
        if not self._in_shot:
            self._seen = discs

    def add(self, event: dict[str, Any]) -> dict[str, Any] | None:
        """Add one event; returns the shot body when `event` ends a shot, else None."""
        kind = event.get("type")
        if kind == "shot_start":
            self._before = positions_as_records(self._seen) if self._seen else list(self._rest)
            self._events = [event]
            self._in_shot = True
            return None
        if not self._in_shot:
            return None
        self._events.append(event)
        if kind != "shot_end":
            return None
        self._in_shot = False
        self._rest = list(event.get("rest") or [])
        self._seen = None
        return {"shot": event.get("shot"), "events": self._events, "before": self._before, "rest": self._rest}
