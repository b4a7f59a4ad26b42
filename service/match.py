"""The state of one match, rebuilt from its log entries through the rules engine.

`MatchBook.feed(entry)` is the only way state changes, both live (after the entry is committed
to the log) and at start-up (replaying the log), so a restarted service reaches exactly the
state it had. Entries (see `service.store.LogEntry`):

    umpire   a rules line (`{"umpire": "start_match", ...}`, a manual foul, end of board, ...)
    shot     a stroke seen by the camera: its contract-1 events and the rest positions before it;
             the stroke record is built when the stroke is applied, for the side then to play
    stroke   a ready contract-2 stroke record (ingested or entered by hand)
    review   the umpire's decision on the oldest held stroke: confirm or reject its foul
    correct  a patch to an earlier stroke; that stroke and everything after it is re-applied
    undo     take back the last applied line

Held strokes: when `review_fouls` is on, a stroke whose ruling has a foul is not applied but
held for review; strokes after it wait behind it, in order, until the umpire decides.
"""

from __future__ import annotations

import copy
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from service.store import LogEntry, MatchRow
from tracker.errors import InputError, RuleError, TrackerError

__all__ = [
    "Applied",
    "FeedResult",
    "MatchBook",
    "RulesLike",
    "side_to_play",
    "waiver_patch",
]

_UMPIRE_DEFAULT = {"improper": False, "technical_foul": False, "demanded": False}

# Foul reason -> the stroke-record facts to clear when the umpire rejects that foul.
_NO_STRIKER_POCKET = {"striker_pocketed": False}
_WAIVERS: dict[str, dict[str, Any]] = {
    "striker_pocketed": _NO_STRIKER_POCKET,
    "striker_with_own": _NO_STRIKER_POCKET,
    "striker_with_opponent": _NO_STRIKER_POCKET,
    "striker_with_both": _NO_STRIKER_POCKET,
    "striker_off_board": {"striker_off_board": False},
    "coin_off_board": {"off_board": []},
    "queen_off_board": {"off_board": []},
    "disc_off_board": {"off_board": [], "striker_off_board": False},
    "cushion_before_contact": {"cushion_before_contact": False},
}


class RulesLike(Protocol):
    """What the service needs of a rules session (`rules.RulesSession`)."""

    def apply(self, line: dict[str, Any]) -> dict[str, Any]: ...

    def state(self) -> dict[str, Any]: ...


RulesFactory = Callable[[str, str], RulesLike]
StrokeBuilder = Callable[[Sequence[dict[str, Any]], str, list[dict[str, Any]]], dict[str, Any]]


@dataclass(frozen=True, slots=True)
class Applied:
    """One line the rules engine accepted: the log entry it came from, the line, the ruling."""

    seq: int
    line: dict[str, Any]
    ruling: dict[str, Any]


@dataclass(slots=True)
class FeedResult:
    """What one `feed` changed: newly applied lines, a newly held stroke, lines taken back."""

    applied: list[Applied] = field(default_factory=list)
    flagged: tuple[int, dict[str, Any]] | None = None
    voided: list[int] = field(default_factory=list)
    rebuilt: bool = False


def side_to_play(state: dict[str, Any]) -> str:
    """The seat ("S", "N", ...) whose turn it is, from a rules state snapshot.

    Accepts `constraints.side` (rules.RulesSession), a `turn_side`/`side` key, or a `turn`
    naming a player or a seat together with
    `seats`/`players` mapping seat -> player. Defaults to "S".
    """
    constraints = state.get("constraints")
    if isinstance(constraints, dict) and isinstance(constraints.get("side"), str):
        return str(constraints["side"])
    for key in ("turn_side", "side", "seat"):
        if isinstance(state.get(key), str):
            return str(state[key])
    turn = state.get("turn")
    if isinstance(turn, dict):
        turn = turn.get("side") or turn.get("seat") or turn.get("player")
    for key in ("seats", "players"):
        seats = state.get(key)
        if isinstance(seats, dict):
            if turn in seats:
                return str(turn)
            for seat, name in seats.items():
                if name == turn or (isinstance(name, list) and turn in name):
                    return str(seat)
    return str(turn) if isinstance(turn, str) and len(turn) == 1 else "S"


def waiver_patch(ruling: dict[str, Any]) -> dict[str, Any]:
    """The stroke-record patch that removes the facts behind every foul of `ruling`."""
    reasons = [str(f.get("reason", "")) for f in ruling.get("fouls") or []]
    patch: dict[str, Any] = {}
    for reason in reasons:
        patch.update(_WAIVERS.get(reason, {}))
    return patch


def _merge(line: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    out = dict(line)
    for key, value in patch.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = {**out[key], **value}
        else:
            out[key] = copy.deepcopy(value)
    return out


class MatchBook:
    """Rules state of one match as a pure function of its log entries.

    Args:
        match: the match row (game, rules format, review policy).
        rules_factory: `(game, format) -> session`; a fresh session is made on every rebuild.
        stroke_builder: `(events, side, before) -> stroke record` for camera shots.
    """

    def __init__(
        self, match: MatchRow, *, rules_factory: RulesFactory, stroke_builder: StrokeBuilder
    ) -> None:
        self.match = match
        self._factory = rules_factory
        self._build_stroke = stroke_builder
        self._session = rules_factory(match.game, match.format)
        self._entries: dict[int, LogEntry] = {}
        self.history: list[Applied] = []
        self.pending: deque[int] = deque()
        self.flagged: dict[int, dict[str, Any]] = {}  # held seq -> provisional ruling
        self._patches: dict[int, dict[str, Any]] = {}
        self._decided: set[int] = set()
        self.decisions: dict[int, str] = {}  # held seq -> "confirm" | "reject" | "correct"
        self.voided: list[int] = []
        self.errors: list[tuple[int, str]] = []
        self._handlers: dict[str, Callable[[LogEntry, FeedResult], None]] = {
            "umpire": self._on_umpire,
            "shot": self._on_stroke,
            "stroke": self._on_stroke,
            "review": self._on_review,
            "correct": self._on_correct,
            "undo": self._on_undo,
        }

    # -- queries -------------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """The rules engine's state snapshot (JSON)."""
        return self._session.state()

    def last_ruling(self) -> dict[str, Any] | None:
        return self.history[-1].ruling if self.history else None

    def entry(self, seq: int) -> LogEntry | None:
        return self._entries.get(seq)

    def last_seq(self) -> int | None:
        """The seq of the latest log entry fed, if any."""
        return max(self._entries) if self._entries else None

    def head_flagged(self) -> int | None:
        """The log seq of the held stroke awaiting the umpire, if any."""
        return self.pending[0] if self.pending and self.pending[0] in self.flagged else None

    # -- validation before an entry is committed -----------------------------------------------
    def check(self, kind: str, body: dict[str, Any]) -> None:
        """Raise `RuleError`/`InputError` if an entry would be refused, without changing state."""
        if kind not in self._handlers:
            raise InputError(f"unknown log entry kind {kind!r}")
        if kind == "umpire":
            trial = self._factory(self.match.game, self.match.format)
            for a in self.history:
                trial.apply(a.line)
            trial.apply(body)  # raises RuleError if the rules engine refuses it
        elif kind == "review":
            head = self.head_flagged()
            if head is None:
                raise RuleError("no flagged foul is waiting for review")
            if int(body.get("target", -1)) != head:
                raise RuleError(
                    f"stroke {body.get('target')} is not the flagged foul under review (that is {head})"
                )
        elif kind == "correct":
            target = int(body.get("target", -1))
            if target not in self._entries or self._entries[target].kind not in ("shot", "stroke"):
                raise RuleError(f"log entry {target} is not a stroke that can be corrected")
            if target in self.voided:
                raise RuleError(f"stroke {target} was undone and cannot be corrected")
        elif kind == "undo" and len(self.history) <= 1:
            raise RuleError("nothing to undo: no line applied since the match started")

    # -- the one state transition ---------------------------------------------------------------
    def feed(self, entry: LogEntry) -> FeedResult:
        """Apply one committed log entry. Never raises for rules refusals (they are recorded)."""
        self._entries[entry.seq] = entry
        result = FeedResult()
        self._handlers[entry.kind](entry, result)
        return result

    def _apply(self, seq: int, line: dict[str, Any], result: FeedResult) -> Applied | None:
        try:
            ruling = self._session.apply(line)
        except RuleError as exc:
            self.errors.append((seq, str(exc)))
            return None
        applied = Applied(seq, line, ruling)
        self.history.append(applied)
        result.applied.append(applied)
        return applied

    def _reset_to(self, n: int) -> None:
        """Rewind to the state after the first `n` applied lines (a fresh session, re-applied)."""
        self._session = self._factory(self.match.game, self.match.format)
        for a in self.history[:n]:
            self._session.apply(a.line)
        del self.history[n:]

    def _line_for(self, seq: int) -> dict[str, Any]:
        entry = self._entries[seq]
        if entry.kind == "umpire":
            return dict(entry.body)
        side = side_to_play(self._session.state())
        if entry.kind == "shot":
            line = self._build_stroke(entry.body.get("events", []), side, entry.body.get("before", []))
        else:
            line = {"side": side, "stroke": seq, **entry.body}
        line = _merge({"umpire": dict(_UMPIRE_DEFAULT)}, line)
        return _merge(line, self._patches.get(seq, {}))

    def _safe_line(self, seq: int) -> dict[str, Any] | None:
        """`_line_for`, recording (not raising) a stroke that cannot be built from its events."""
        try:
            return self._line_for(seq)
        except (TrackerError, KeyError, TypeError, ValueError, AttributeError) as exc:
            self.errors.append((seq, f"stroke could not be built: {exc}"))
            return None

    def _on_umpire(self, entry: LogEntry, result: FeedResult) -> None:
        self._apply(entry.seq, dict(entry.body), result)

    def _on_stroke(self, entry: LogEntry, result: FeedResult) -> None:
        self.pending.append(entry.seq)
        self._drain(result)

    def _drain(self, result: FeedResult) -> None:
        """Apply held strokes in order until one needs the umpire."""
        while self.pending and self.pending[0] not in self.flagged:
            seq = self.pending[0]
            line = self._safe_line(seq)
            if line is None:
                self.pending.popleft()
                continue
            applied = self._apply(seq, line, result)
            if applied is not None and self._needs_review(seq, applied.ruling):
                self._reset_to(len(self.history) - 1)
                result.applied.pop()
                self.flagged[seq] = applied.ruling
                result.flagged = (seq, applied.ruling)
                return
            self.pending.popleft()

    def _needs_review(self, seq: int, ruling: dict[str, Any]) -> bool:
        return self.match.review_fouls and seq not in self._decided and bool(ruling.get("fouls"))

    def _on_review(self, entry: LogEntry, result: FeedResult) -> None:
        seq = int(entry.body.get("target", -1))
        if self.head_flagged() != seq:
            self.errors.append((entry.seq, f"stroke {seq} is not under review"))
            return
        provisional = self.flagged.pop(seq)
        self._decided.add(seq)
        self.decisions[seq] = str(entry.body.get("decision"))
        patch = dict(entry.body.get("patch") or {})
        if entry.body.get("decision") == "reject":
            patch = _merge(waiver_patch(provisional), patch)
        if patch:
            self._patches[seq] = _merge(self._patches.get(seq, {}), patch)
        self._drain(result)

    def _on_correct(self, entry: LogEntry, result: FeedResult) -> None:
        target = int(entry.body.get("target", -1))
        self._patches[target] = _merge(self._patches.get(target, {}), dict(entry.body.get("patch") or {}))
        self._decided.add(target)
        index = next((i for i, a in enumerate(self.history) if a.seq == target), None)
        if index is None:
            if target in self.flagged:  # corrected while held: re-assess it as corrected
                del self.flagged[target]
                self.decisions[target] = "correct"
                self._drain(result)
            return
        tail = [a.seq for a in self.history[index:]]
        self._reset_to(index)
        result.rebuilt = True
        for seq in tail:
            line = self._safe_line(seq)
            if line is not None:
                self._apply(seq, line, result)

    def _on_undo(self, entry: LogEntry, result: FeedResult) -> None:
        if len(self.history) <= 1:
            self.errors.append((entry.seq, "nothing to undo"))
            return
        undone = self.history[-1].seq
        self._reset_to(len(self.history) - 1)
        self.voided.append(undone)
        result.voided.append(undone)
        result.rebuilt = True
