"""`RulesSession`: one match's log of stroke records and umpire decisions, folded by an engine.

The session owns everything that is not a law: parsing lines, keeping the log, undo, umpire
corrections of past strokes and replay. The state is a pure fold of the effective log through
the game's engine, so replaying the log of accepted lines always gives the same state (crash
recovery relies on it). A line that cannot apply raises `RuleError` and changes nothing.

Session-level umpire decisions (the engine handles all others):

- ``{"umpire": "start_match", "players": {"S": "A", "N": "B"}, "first_break": "A"}``: seats and
  first break; only before the first stroke (a session that never sees it starts with A at S,
  B at N, A breaking).
- ``{"umpire": "undo"}``: withdraw the last accepted line (stroke, decision or correction);
  repeatable.
- ``{"umpire": "correct", "stroke": 12, "set": {"pocketed": [...]}}``: replace fields of the
  latest stroke record numbered 12 (an "umpire" object is merged call by call) and replay
  everything after it. A correction that makes a later line impossible is rejected.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any

from rules.base import RulesEngine, Step
from rules.records import DEFAULT_START, is_decision, parse_decision, parse_match_start, parse_stroke
from rules.registry import create_engine
from tracker.errors import RuleError

__all__ = ["SESSION_DECISIONS", "RulesSession"]

SESSION_DECISIONS: tuple[str, ...] = ("start_match", "undo", "correct")


def _patch(target: dict[str, Any], patch: Mapping[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(target)
    for key, value in patch.items():
        if key == "stroke":
            raise RuleError("correct: the stroke number itself cannot be corrected")
        if key == "umpire" and isinstance(value, Mapping) and isinstance(out.get("umpire"), Mapping):
            out["umpire"] = {**out["umpire"], **copy.deepcopy(dict(value))}
        else:
            out[key] = copy.deepcopy(value)
    return out


def effective_lines(entries: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The lines an engine folds: `entries` with every correction applied to its target.

    Raises:
        RuleError: a correction names no earlier stroke or is malformed.
    """
    out: list[dict[str, Any]] = []
    for entry in entries:
        if is_decision(entry) and entry["umpire"] == "correct":
            n, patch = entry.get("stroke"), entry.get("set")
            if not isinstance(patch, Mapping) or not patch:
                raise RuleError("correct: 'set' must be a non-empty object of stroke-record fields")
            idx = next((i for i in range(len(out) - 1, -1, -1)
                        if not is_decision(out[i]) and out[i].get("stroke") == n), None)
            if idx is None:
                raise RuleError(f"correct: no stroke numbered {n!r} in the log")
            out[idx] = _patch(out[idx], patch)
        else:
            out.append(dict(entry))
    return out


class RulesSession:
    """A match under one game's rules.

    Args:
        game: "carrom" or "korona" (any name in `rules.registry.ENGINES`).
        format: the engine's format preset ("default", ...).

    Examples:
        >>> s = RulesSession("carrom")
        >>> s.apply({"umpire": "start_match", "players": {"S": "A", "N": "B"}, "first_break": "A"})["next"]
        'A'
        >>> s.apply({"stroke": 1, "side": "S", "first_contact": "white",
        ...          "pocketed": [{"kind": "white", "pocket": "NE"}]})["next"]
        'A'
        >>> s.apply({"umpire": "undo"})["next"], len(s.log)
        ('A', 3)
    """

    def __init__(self, game: str = "carrom", *, format: str = "default") -> None:  # noqa: A002 - contract name
        self.game = game
        self.format_name = format
        self._engine: RulesEngine[Any] = create_engine(game, format)
        self._log: list[dict[str, Any]] = []  # every accepted line, undo included
        self._entries: list[dict[str, Any]] = []  # accepted lines minus the undone ones
        self._initial = self._engine.initial_state(DEFAULT_START)
        self._states: list[Any] = [self._initial]  # state after each effective line
        self._steps: list[Step[Any]] = [Step(self._initial)]

    # -- public API -------------------------------------------------------------------------
    @property
    def engine(self) -> RulesEngine[Any]:
        return self._engine

    @property
    def log(self) -> list[dict[str, Any]]:
        """Copies of every accepted line, in order (feed it to `replay`)."""
        return copy.deepcopy(self._log)

    def apply(self, line: Mapping[str, Any]) -> dict[str, Any]:
        """Apply one stroke record or umpire decision; return the ruling (contract 2).

        Raises:
            RuleError: the line is malformed or cannot apply; the session is unchanged.
        """
        if not isinstance(line, Mapping):
            raise RuleError(f"a line must be a JSON object, got {type(line).__name__}")
        own: dict[str, Any] = copy.deepcopy(dict(line))  # never keep the caller's objects
        kind = own["umpire"] if is_decision(own) else None
        if kind == "undo":
            return self._undo(own)
        entries = [*self._entries, own]
        if kind == "correct":
            states, steps = self._fold(effective_lines(entries))
            self._commit(own, entries, states, steps)
        else:
            step = self._apply_one(self._states[-1], own, len(self._states))
            self._commit(own, entries, [*self._states, step.state], [*self._steps, step])
        out = self._ruling(self._steps[-1], own)
        if kind == "correct":
            out["umpire"] = "correct"
        return out

    def state(self) -> dict[str, Any]:
        """JSON snapshot: players, seats, turn, score, dues, queen, board/game numbers, placements."""
        current = self._states[-1]
        out = self._engine.state_json(current)
        out.update(game=self.game, format=self.format_name, lines=len(self._log),
                   constraints=self._engine.next_constraints(current).to_json(),
                   pending_placements=[p.to_json() for p in self._steps[-1].returns])
        return out

    def replay(self, lines: Iterable[Mapping[str, Any]]) -> RulesSession:
        """A fresh session of the same game and format fed every line of `lines`."""
        fresh = RulesSession(self.game, format=self.format_name)
        for line in lines:
            fresh.apply(line)
        return fresh

    def export_sol(self) -> dict[str, Any]:
        """The match result for the SoL tournament manager (see rules/export.py)."""
        return self._engine.export_sol(self._states[-1])

    # -- internals --------------------------------------------------------------------------
    def _apply_one(self, state: Any, line: Mapping[str, Any], seq: int) -> Step[Any]:
        if not is_decision(line):
            if "umpire" in line and not isinstance(line["umpire"], Mapping | None):
                raise RuleError(f"'umpire' must be a decision name or an object of calls, "
                                f"got {line['umpire']!r}")
            return self._engine.assess_stroke(state, parse_stroke(line))
        decision = parse_decision(line, seq=seq)
        if decision.kind == "start_match":
            if self._engine.strokes_played(state):
                raise RuleError("start_match: the match has already started (undo its strokes first)")
            return Step(self._engine.initial_state(parse_match_start(decision)))
        if decision.kind not in self._engine.decision_kinds:
            kinds = ", ".join(sorted({*SESSION_DECISIONS, *self._engine.decision_kinds}))
            raise RuleError(f"unknown umpire decision {decision.kind!r}; expected one of {kinds}")
        return self._engine.apply_decision(state, decision)

    def _fold(self, lines: list[dict[str, Any]]) -> tuple[list[Any], list[Step[Any]]]:
        states, steps = [self._initial], [Step(self._initial)]
        for i, line in enumerate(lines, start=1):
            try:
                step = self._apply_one(states[-1], line, i)
            except RuleError as exc:
                raise RuleError(f"after this change, line {i} of the log no longer applies: {exc}") from None
            states.append(step.state)
            steps.append(step)
        return states, steps

    def _commit(self, line: dict[str, Any], entries: list[dict[str, Any]],
                states: list[Any], steps: list[Step[Any]]) -> None:
        self._log.append(line)
        self._entries, self._states, self._steps = entries, states, steps

    def _undo(self, line: dict[str, Any]) -> dict[str, Any]:
        if not self._entries:
            raise RuleError("undo: nothing to undo")
        last, entries = self._entries[-1], self._entries[:-1]
        if is_decision(last) and last["umpire"] == "correct":
            states, steps = self._fold(effective_lines(entries))
        else:
            states, steps = self._states[:-1], self._steps[:-1]
        self._commit(line, entries, states, steps)
        out = self._ruling(Step(states[-1]), line)
        out["undone"] = copy.deepcopy(last)
        return out

    def _ruling(self, step: Step[Any], line: Mapping[str, Any]) -> dict[str, Any]:
        if is_decision(line):
            out = self._engine.ruling_json(step, stroke=None)
            out["umpire"] = line["umpire"]
            return out
        return self._engine.ruling_json(step, stroke=line.get("stroke"))
