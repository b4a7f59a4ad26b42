"""Pure predicates on one carrom stroke record (no state, no I/O).

Examples:
    >>> from rules.records import parse_stroke
    >>> r = parse_stroke({"stroke": 1, "side": "S", "striker_pocketed": True,
    ...                   "pocketed": [{"kind": "white"}, {"kind": "queen"}]})
    >>> is_striker_pocketed(r), is_queen_pocketed(r), count_pocketed(r, "white")
    (True, True, 1)
"""

from __future__ import annotations

import math

from rules.base import stroke_event_id
from rules.records import COIN_KINDS, StrokeRecord

__all__ = [
    "MOVED_MM",
    "count_pocketed",
    "event_ids",
    "has_coin_moved",
    "is_coin_touched",
    "is_improper",
    "is_queen_pocketed",
    "is_striker_off_board",
    "is_striker_pocketed",
    "pocketed_ids",
]

# A coin whose centre moved more than this between "before" and "after" was touched (board mm).
# Larger than the tracker's position noise (a few mm), smaller than any real knock.
MOVED_MM = 5.0


def is_striker_pocketed(record: StrokeRecord) -> bool:
    """The striker went into a pocket (a "pegno" stroke, ICF glossary, §45)."""
    return record.striker_pocketed


def is_striker_off_board(record: StrokeRecord) -> bool:
    """The striker left the playing surface (ICF §77)."""
    return record.striker_off_board


def is_improper(record: StrokeRecord) -> bool:
    """The umpire called the stroke improper (ICF §37, §49-50, §71)."""
    return record.calls.improper


def is_queen_pocketed(record: StrokeRecord) -> bool:
    """The queen went into a pocket."""
    return record.count_pocketed("queen") > 0


def count_pocketed(record: StrokeRecord, kind: str) -> int:
    """Coins of `kind` pocketed in the stroke."""
    return record.count_pocketed(kind)


def has_coin_moved(record: StrokeRecord) -> bool:
    """A coin present before and after moved more than `MOVED_MM` (matched by id, else by kind order)."""
    after = {d.id: d for d in record.after if d.id is not None and d.kind in COIN_KINDS}
    for d in record.before:
        a = after.get(d.id) if d.id is not None else None
        if d.kind in COIN_KINDS and a is not None and math.hypot(a.x_mm - d.x_mm, a.y_mm - d.y_mm) > MOVED_MM:
            return True
    return False


def is_coin_touched(record: StrokeRecord) -> bool:
    """The striker touched at least one coin (ICF §17: what makes a break).

    True when the first contact is a coin, a coin was pocketed or left the board, or a coin moved.
    """
    if record.first_contact in COIN_KINDS or record.pocketed or record.off_board:
        return True
    return has_coin_moved(record)


def pocketed_ids(record: StrokeRecord, *kinds: str) -> tuple[str, ...]:
    """Event ids of the pocketed items of the given kinds ("striker" names the striker)."""
    out = [stroke_event_id(record.stroke, "pocketed", i)
           for i, p in enumerate(record.pocketed) if p.kind in kinds]
    if "striker" in kinds and record.striker_pocketed:
        out.append(stroke_event_id(record.stroke, "striker"))
    return tuple(out)


def event_ids(record: StrokeRecord) -> tuple[str, ...]:
    """The id of the whole stroke."""
    return (stroke_event_id(record.stroke),)
