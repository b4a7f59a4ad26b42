"""Builders for the korona rules tests: layouts, stroke records and an engine state to judge them.

Seats: player A at S plays the light ("white") discs 1-8, player B at N the dark ("black") discs
9-16. A's own rail zone is along the S rail (y near +457), his opposite zone along N.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from rules.base import Step
from rules.korona import KoronaRules
from rules.korona_state import KoronaState
from rules.records import MatchStart, parse_stroke

W, B = "white", "black"
# Free spots: outside the centre circle (r 80 mm) and every rail zone (75 mm deep).
FREE_W = {i: (-175.0 + 50.0 * (i - 1), -200.0) for i in range(1, 9)}
FREE_B = {i: (-175.0 + 50.0 * (i - 9), 200.0) for i in range(9, 17)}
CENTRE = (0.0, 0.0)
CENTRE2 = (30.0, 0.0)
CENTRE3 = (-30.0, 0.0)
S_ZONE = (100.0, 440.0)  # A's own rail zone
S_ZONE2 = (-100.0, 440.0)
N_ZONE = (100.0, -440.0)  # B's own rail zone (A's opposite zone)
AWAY = (0.0, -250.0)  # a free spot nothing else uses
AWAY2 = (150.0, 120.0)

START = MatchStart(seats=MappingProxyType({"S": "A", "N": "B"}), first_break="A")


def layout(
    whites: Mapping[int, tuple[float, float]] | None = None,
    blacks: Mapping[int, tuple[float, float]] | None = None,
    **moved: tuple[float, float],
) -> dict[int, tuple[str, float, float]]:
    """id -> (kind, x, y); `whites`/`blacks` replace the default sets, `d3=(x, y)` moves disc 3."""
    out = {i: (W, *xy) for i, xy in (FREE_W if whites is None else whites).items()}
    out |= {i: (B, *xy) for i, xy in (FREE_B if blacks is None else blacks).items()}
    for key, xy in moved.items():
        i = int(key[1:])
        out[i] = (out[i][0], *xy)
    return out


def discs(lay: Mapping[int, tuple[str, float, float]]) -> list[dict[str, Any]]:
    return [{"id": i, "kind": k, "x_mm": x, "y_mm": y} for i, (k, x, y) in sorted(lay.items())]


def contacts(seq: Sequence[Any], lay: Mapping[int, tuple[str, float, float]]) -> list[dict[str, Any]]:
    """`[1]`, `["E", 1]`, `[(1, 9)]` (simultaneous), `["N"]` -> "striker_contacts"."""
    out: list[dict[str, Any]] = []
    for k, item in enumerate(seq):
        t = 1.0 + 0.1 * k
        for part in item if isinstance(item, tuple) else (item,):
            if isinstance(part, str):
                out.append({"cushion": part, "t": t})
            else:
                out.append({"id": part, "kind": lay[part][0], "t": t})
    return out


def stroke(
    n: int = 1,
    side: str = "S",
    *,
    before: Mapping[int, tuple[str, float, float]] | None = None,
    hits: Sequence[Any] = (),
    moves: Mapping[int, tuple[float, float]] | None = None,
    pocketed: Sequence[int] = (),
    off: Sequence[tuple[int, str | None]] = (),
    **extra: Any,
) -> dict[str, Any]:
    """A korona stroke record: `hits` in `contacts` form, `moves` id -> new spot."""
    lay = dict(layout() if before is None else before)
    after = {i: v for i, v in lay.items() if i not in pocketed and i not in {o[0] for o in off}}
    for i, xy in (moves or {}).items():
        after[i] = (lay[i][0], *xy)
    line: dict[str, Any] = {
        "stroke": n,
        "side": side,
        "before": discs(lay),
        "after": discs(after),
        "striker_contacts": contacts(hits, lay),
        "pocketed": [{"kind": lay[i][0], "pocket": "NE"} for i in pocketed],
        "pocketed_discs": [{"id": i, "kind": lay[i][0], "pocket": "NE"} for i in pocketed],
        "off_board": [{"kind": lay[i][0]} for i, _ in off],
        "off_board_discs": [{"id": i, "kind": lay[i][0], "rail": rail} for i, rail in off],
    }
    line.update(extra)
    return line


def engine_state(
    engine: KoronaRules, *, on: tuple[int, int] = (8, 8), dues: tuple[int, int] = (0, 0), turn: str = "A"
) -> KoronaState:
    """A fresh match state with A on `on[0]` discs / `dues[0]` owed, B on `on[1]` / `dues[1]`."""
    s = engine.initial_state(START)
    for name, n, d in (("A", on[0], dues[0]), ("B", on[1], dues[1])):
        s = s.with_player(replace(s.player(name), on_board=n, dues=d))
    return replace(s, turn=turn)


def judge(
    line: Mapping[str, Any],
    *,
    on: tuple[int, int] = (8, 8),
    dues: tuple[int, int] = (0, 0),
    fmt: str = "default",
) -> tuple[dict[str, Any], Step[KoronaState]]:
    """Rule on one stroke from a prepared state; returns (ruling JSON, step)."""
    engine = KoronaRules(fmt)
    state = engine_state(engine, on=on, dues=dues)
    step = engine.assess_stroke(state, parse_stroke(line))
    return engine.ruling_json(step, stroke=line["stroke"]), step


def reasons(ruling: Mapping[str, Any]) -> set[str]:
    return {c["reason"] for c in ruling["calls"]}


def laws(ruling: Mapping[str, Any]) -> set[str]:
    return {c["law"] for c in ruling["calls"]}
