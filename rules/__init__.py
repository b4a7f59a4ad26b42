"""Rules engines: stroke records and umpire decisions in, rulings out.

`RulesSession(game, format=...)` is the entry point (log, undo, corrections, replay); per-game
engines subclass `RulesEngine` (rules/base.py) and are looked up in `rules.registry.ENGINES`.
Pure Python, deterministic, no I/O: the same log always gives the same state.
"""

from __future__ import annotations

from rules.base import BoardResult, Constraints, Placement, RulesEngine, Ruling, Step
from rules.records import MatchStart, StrokeRecord, UmpireDecision, parse_decision, parse_stroke
from rules.registry import ENGINES, create_engine, engine_class, register_engine
from rules.session import RulesSession

__all__ = [
    "ENGINES",
    "BoardResult",
    "Constraints",
    "MatchStart",
    "Placement",
    "RulesEngine",
    "RulesSession",
    "Ruling",
    "Step",
    "StrokeRecord",
    "UmpireDecision",
    "create_engine",
    "engine_class",
    "parse_decision",
    "parse_stroke",
    "register_engine",
]
