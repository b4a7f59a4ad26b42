"""Factories: the only way events are built, each one complete (STYLE §5).

Disc references are `{"id": <track id>, "kind": <"white"|"black"|"queen"|"striker">}`; cushions
are `{"cushion": <"N"|"E"|"S"|"W">}`. Times are seconds, frames count from 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tracker.errors import InputError
from tracker.events.types import EventKind, GameEvent, freeze
from tracker.specs import CORNERS, SIDES, DiscKind

__all__ = [
    "contact_cushion",
    "contact_discs",
    "disc_ref",
    "from_json",
    "off_board",
    "placed",
    "pocketed",
    "shot_end",
    "shot_start",
]


def disc_ref(track_id: int, kind: DiscKind | int | str) -> dict[str, Any]:
    """`{"id": .., "kind": ..}` for a disc of the given kind.

    Examples:
        >>> disc_ref(3, 0)
        {'id': 3, 'kind': 'white'}
    """
    label = DiscKind.from_label(kind).label if isinstance(kind, str) else DiscKind(int(kind)).label
    return {"id": int(track_id), "kind": label}


def _agent(ref: Mapping[str, Any]) -> str:
    return f"cushion:{ref['cushion']}" if "cushion" in ref else f"disc:{ref['id']}"


def _event(kind: EventKind, t_s: float, frame_idx: int, agents: Sequence[str], payload: dict[str, Any]) -> GameEvent:
    if not t_s >= 0.0:
        raise ValueError(f"t_s must be >= 0 seconds, got {t_s}")
    if frame_idx < 0:
        raise ValueError(f"frame_idx must be >= 0, got {frame_idx}")
    return GameEvent(kind, float(t_s), int(frame_idx), tuple(agents), freeze(payload))


def shot_start(t_s: float, frame_idx: int, *, shot: int, striker: Mapping[str, Any] | None = None) -> GameEvent:
    """The striker left its placement (carrom) or was hit by the cue (korona)."""
    agents = [] if striker is None else [_agent(striker)]
    return _event(EventKind.SHOT_START, t_s, frame_idx, agents, {"shot": int(shot)})


def shot_end(
    t_s: float,
    frame_idx: int,
    *,
    shot: int,
    first_contact: str | None,
    rest: Sequence[Mapping[str, Any]],
    extra: Mapping[str, Any] | None = None,
) -> GameEvent:
    """Everything at rest. `rest` lists `{"id", "kind", "x_mm", "y_mm"}` of every disc on the board;
    `first_contact` is the kind of the striker's first disc, `"cushion"`, or None; `extra` holds
    game-specific keys (korona stroke analysis, `cushion_before_contact`)."""
    if first_contact is not None and first_contact != "cushion":
        DiscKind.from_label(first_contact)
    payload: dict[str, Any] = {"shot": int(shot), "first_contact": first_contact, "rest": [dict(r) for r in rest]}
    payload |= dict(extra or {})
    return _event(EventKind.SHOT_END, t_s, frame_idx, [], payload)


def contact_discs(t_s: float, frame_idx: int, *, shot: int, a: Mapping[str, Any], b: Mapping[str, Any]) -> GameEvent:
    """Disc `a` (the one that was moving) touched disc `b`."""
    payload = {"shot": int(shot), "a": dict(a), "b": dict(b)}
    return _event(EventKind.CONTACT, t_s, frame_idx, [_agent(a), _agent(b)], payload)


def contact_cushion(t_s: float, frame_idx: int, *, shot: int, a: Mapping[str, Any], side: str) -> GameEvent:
    """Disc `a` bounced off the cushion of `side` ("N", "E", "S", "W")."""
    if side not in SIDES:
        raise ValueError(f"side must be one of {SIDES}, got {side!r}")
    b = {"cushion": side}
    return _event(EventKind.CONTACT, t_s, frame_idx, [_agent(a), _agent(b)], {"shot": int(shot), "a": dict(a), "b": b})


def pocketed(t_s: float, frame_idx: int, *, shot: int, disc: Mapping[str, Any], pocket: str) -> GameEvent:
    """`disc` crossed the point of no return of `pocket` ("NW", "NE", "SE", "SW") at `t_s`."""
    if pocket not in CORNERS:
        raise ValueError(f"pocket must be one of {CORNERS}, got {pocket!r}")
    payload = {"shot": int(shot), "disc": dict(disc), "pocket": pocket}
    return _event(EventKind.POCKETED, t_s, frame_idx, [_agent(disc), f"pocket:{pocket}"], payload)


def off_board(t_s: float, frame_idx: int, *, shot: int, disc: Mapping[str, Any], side: str | None = None) -> GameEvent:
    """`disc` left the board over the frame (over `side`, when known)."""
    payload: dict[str, Any] = {"shot": int(shot), "disc": dict(disc)}
    if side is not None:
        payload["side"] = side
    return _event(EventKind.OFF_BOARD, t_s, frame_idx, [_agent(disc)], payload)


def placed(t_s: float, frame_idx: int, *, disc: Mapping[str, Any], xy_mm: Sequence[float]) -> GameEvent:
    """`disc` was put on the board by hand at `xy_mm` (board mm): a returned coin, the queen, a penalty disc."""
    payload = {"disc": dict(disc), "x_mm": round(float(xy_mm[0]), 1), "y_mm": round(float(xy_mm[1]), 1)}
    return _event(EventKind.PLACED, t_s, frame_idx, [_agent(disc)], payload)


def from_json(line: Mapping[str, Any]) -> GameEvent:
    """Parse a contract-1 JSON object back into a `GameEvent` (agents rebuilt from its fields).

    Raises:
        InputError: the object is not a known event line.
    """
    try:
        kind = EventKind(line["type"])
        t_s, frame_idx = float(line["t"]), int(line.get("frame") or 0)
    except (KeyError, ValueError, TypeError) as exc:
        raise InputError(f"not an event line: {dict(line)!r:.120}") from exc
    payload = {k: v for k, v in line.items() if k not in ("type", "t", "frame")}
    refs = [payload[k] for k in ("a", "b", "disc") if isinstance(payload.get(k), Mapping)]
    agents = [_agent(r) for r in refs]
    if "pocket" in payload:
        agents.append(f"pocket:{payload['pocket']}")
    return GameEvent(kind, t_s, frame_idx, tuple(agents), freeze(payload))
