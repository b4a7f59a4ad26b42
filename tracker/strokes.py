"""`stroke_record`: one shot's events -> the contract-2 stroke record read by the rules engine."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tracker.errors import InputError
from tracker.events._korona import STROKE_KEYS as KORONA_STROKE_KEYS
from tracker.events.factory import from_json
from tracker.events.filter import sort_events
from tracker.events.types import EventKind, GameEvent, thaw
from tracker.specs import SIDES

__all__ = ["stroke_record"]

# shot_end keys copied into the stroke record when present (korona analysis, first disc)
# Game-specific shot_end keys copied into the stroke record. Contract 1's korona key "stroke"
# ("direct"/"rebound") is NOT copied: contract 2's "stroke" is the stroke number, and the korona
# engine reads the same fact from "stroke_type".
_PASS_THROUGH = ("first_disc", "first_cushion", *(k for k in KORONA_STROKE_KEYS if k != "stroke"))


def stroke_record(shot_events: Sequence[GameEvent | Mapping[str, Any]], *, side: str,
                  before: list[dict[str, Any]]) -> dict[str, Any]:
    """The stroke record (contract 2, without the "umpire" part) of one shot.

    Args:
        shot_events: the shot's events (GameEvent or contract-1 dicts), from shot_start to shot_end.
        side: the striking player's side ("N", "E", "S", "W").
        before: every disc on the board before the stroke, `{"id", "kind", "x_mm", "y_mm"}` (board mm).

    Raises:
        InputError: no shot_end among the events, or events of more than one shot, or a bad side.

    Examples:
        >>> from tracker.events import factory as f
        >>> evs = [f.shot_start(1.0, 30, shot=2), f.pocketed(1.4, 42, shot=2, disc=f.disc_ref(5, 1), pocket="NE"),
        ...        f.shot_end(3.0, 90, shot=2, first_contact="black", rest=[])]
        >>> r = stroke_record(evs, side="S", before=[])
        >>> r["stroke"], r["pocketed"], r["first_contact"]
        (2, [{'kind': 'black', 'pocket': 'NE'}], 'black')
    """
    if side not in SIDES:
        raise InputError(f"side must be one of {', '.join(SIDES)}, got {side!r}")
    events = sort_events(e if isinstance(e, GameEvent) else from_json(e) for e in shot_events)
    shots = {e.shot for e in events if e.shot is not None}
    if len(shots) > 1:
        raise InputError(f"events of several shots given: {sorted(shots)}")
    end = next((e for e in events if e.kind is EventKind.SHOT_END), None)
    if end is None:
        raise InputError("no shot_end among the shot's events")
    pocketed = [e for e in events if e.kind is EventKind.POCKETED]
    off = [e for e in events if e.kind is EventKind.OFF_BOARD]
    record: dict[str, Any] = {
        "stroke": end.shot,
        "side": side,
        "pocketed": [{"kind": e.payload["disc"]["kind"], "pocket": e.payload["pocket"]}
                     for e in pocketed if e.payload["disc"]["kind"] != "striker"],
        "off_board": [{"kind": e.payload["disc"]["kind"]} for e in off if e.payload["disc"]["kind"] != "striker"],
        "striker_pocketed": any(e.payload["disc"]["kind"] == "striker" for e in pocketed),
        "striker_off_board": any(e.payload["disc"]["kind"] == "striker" for e in off),
        "first_contact": end.payload.get("first_contact"),
        "cushion_before_contact": bool(end.payload.get("cushion_before_contact", False)),
        "before": [dict(d) for d in before],
        "after": thaw(end.payload.get("rest", ())),
    }
    for key in _PASS_THROUGH:
        if key in end.payload:
            record[key] = thaw(end.payload[key])
    return record
