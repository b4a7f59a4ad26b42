"""What a shot's contacts say about the striker: its first contact and the cushions before it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tracker.events.types import GameEvent
from tracker.specs import BoardSpec

__all__ = ["ShotSummary", "summarise_shot", "side_of"]


@dataclass(frozen=True, slots=True)
class ShotSummary:
    """The striker's first contact in a shot.

    Attributes:
        first_contact: kind label of the first thing the striker touched, "cushion", or None.
        first_disc: kind label of the first disc the striker touched, or None.
        first_disc_id: its track id, or None.
        first_cushion: the first cushion side touched before any disc, or None.
        side: the side the shot was played from ("N", "E", "S", "W").
    """

    first_contact: str | None
    first_disc: str | None
    first_disc_id: int | None
    first_cushion: str | None
    side: str

    def extra(self) -> dict[str, Any]:
        """The extra keys of the shot_end line."""
        return {"first_disc": self.first_disc, "first_cushion": self.first_cushion,
                "cushion_before_contact": self.first_cushion is not None, "side": self.side}


def side_of(xy_mm: tuple[float, float]) -> str:
    """The side of the board nearest to a point (board mm).

    Examples:
        >>> side_of((10.0, 250.0)), side_of((-300.0, 20.0))
        ('S', 'W')
    """
    x, y = xy_mm
    if abs(y) >= abs(x):
        return "S" if y > 0 else "N"
    return "E" if x > 0 else "W"


def summarise_shot(contacts: Sequence[GameEvent], start_xy: tuple[float, float], board: BoardSpec) -> ShotSummary:
    """Read the striker's first contact from the shot's contact events (any order)."""
    first_contact = first_disc = first_cushion = None
    first_id = None
    for ev in sorted(contacts, key=GameEvent.sort_key):
        a, b = ev.payload["a"], ev.payload["b"]
        if a.get("kind") != "striker":
            continue
        if "cushion" in b:
            first_cushion = first_cushion or b["cushion"]
            first_contact = first_contact or "cushion"
            continue
        first_disc, first_id = b["kind"], int(b["id"])
        first_contact = first_contact or first_disc
        break
    return ShotSummary(first_contact, first_disc, first_id, first_cushion, side_of(start_xy))
