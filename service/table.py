"""One table: the match log, the rules state, live positions, review items and announcements.

Inputs arrive from three places, all serialised by one lock:
    - the tracker thread: per-frame positions (`on_frame`, lock-free) and events (`on_events`,
      queued to the log thread so the tracker never waits on the disk);
    - `POST /api/ingest`: contract-1 events from an external tracker (`ingest`);
    - the umpire console (`start_match`, `act`).
Every change is committed to the log first and then fed to the `MatchBook`.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from service.match import Applied, FeedResult, MatchBook, RulesFactory, StrokeBuilder
from service.shots import ShotCollector
from service.store import MatchRow, ReviewRow, Store
from tracker.errors import RuleError

__all__ = ["Table", "default_rules_factory", "default_stroke_builder"]

log = logging.getLogger(__name__)

_DECIDED = {"confirm": "confirmed", "reject": "rejected", "correct": "corrected"}
Publish = Callable[..., None]
ClipRequest = Callable[[int, float], None]


def default_rules_factory(game: str, format: str) -> Any:
    """A `rules.RulesSession` for `game` and `format`."""
    from rules import RulesSession

    return RulesSession(game, format=format)


def default_stroke_builder(
    events: Sequence[dict[str, Any]], side: str, before: list[dict[str, Any]]
) -> dict[str, Any]:
    """The contract-2 stroke record of one shot, from `tracker.strokes.stroke_record`."""
    from tracker.strokes import stroke_record

    return dict(stroke_record(list(events), side=side, before=before))


class Table:
    """Live state of one table. Thread-safe.

    Args:
        store: the match log.
        game: "carrom" or "korona".
        publish: `publish(msg, umpire_only=False)` delivering a message to clients from any thread.
        rules_factory, stroke_builder: see `MatchBook`.
        review_fouls: default review policy of new matches.
        rules_format: default rules format of new matches.
    """

    def __init__(
        self,
        store: Store,
        *,
        game: str,
        publish: Publish,
        rules_factory: RulesFactory = default_rules_factory,
        stroke_builder: StrokeBuilder = default_stroke_builder,
        review_fouls: bool = True,
        rules_format: str = "default",
    ) -> None:
        self.store = store
        self.game = game
        self.publish = publish
        self.rules_factory = rules_factory
        self.stroke_builder = stroke_builder
        self.review_fouls = review_fouls
        self.rules_format = rules_format
        self.request_clip: ClipRequest | None = None
        self.shots = ShotCollector()
        self.source_status: dict[str, Any] = {"state": "none", "detail": "no camera"}
        self._lock = threading.RLock()
        self._inbox: queue.Queue[tuple[list[dict[str, Any]], float | None] | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._last_result = FeedResult()
        self.positions: list[list[Any]] = []
        self.last_captured_at: float | None = None
        self.book: MatchBook | None = None
        latest = store.latest_match()
        if latest is not None and latest.game == game:
            self.book = self._replay(latest)

    # -- start-up ------------------------------------------------------------------------------
    def _new_book(self, match: MatchRow) -> MatchBook:
        return MatchBook(match, rules_factory=self.rules_factory, stroke_builder=self.stroke_builder)

    def _replay(self, match: MatchRow) -> MatchBook:
        book = self._new_book(match)
        entries = self.store.entries(match.id)
        for entry in entries:
            book.feed(entry)
        log.info(
            "match %d: replayed %d log entries, %d lines applied", match.id, len(entries), len(book.history)
        )
        return book

    def start(self) -> None:
        """Start the log thread that takes camera events off the tracker thread."""
        self._thread = threading.Thread(target=self._drain_inbox, name="match-log", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._thread is not None:
            self._inbox.put(None)
            self._thread.join(timeout=5)
            self._thread = None

    def _drain_inbox(self) -> None:
        while (item := self._inbox.get()) is not None:
            try:
                self.ingest(*item)
            except Exception:  # noqa: BLE001 - one bad event must not stop the match log
                log.exception("could not log camera events")

    # -- live inputs ---------------------------------------------------------------------------
    def on_frame(self, msg: dict[str, Any]) -> None:
        """A frame's positions (tracker thread): remembered for ghosts and sent to clients."""
        self.positions = msg["discs"]
        self.last_captured_at = msg.get("captured_at")
        self.shots.see_positions(msg["discs"])
        self.publish(msg)

    def on_events(self, events: list[dict[str, Any]], captured_at: float | None) -> None:
        """Camera events (tracker thread): queued for the log thread; returns at once."""
        self._inbox.put((events, captured_at))

    def on_source(self, status: dict[str, Any]) -> None:
        self.source_status = status
        self.publish({"type": "source", **status, "captured_at": time.time()})

    def ingest(self, events: list[dict[str, Any]], captured_at: float | None = None) -> list[int]:
        """Log camera events, announce pockets, and log each completed shot. Returns new log seqs."""
        stamp = captured_at if captured_at is not None else time.time()
        seqs: list[int] = []
        with self._lock:
            match_id = self.book.match.id if self.book else None
            self.store.add_events(match_id, events, stamp)
            for event in events:
                self.publish({"type": "event", "event": event, "captured_at": stamp})
                if event.get("type") == "pocketed":
                    self._announce_pocket(event, stamp)
                shot = self.shots.add(event)
                if shot is not None and self.book is not None:
                    seqs.append(self._commit("shot", shot).seq)
        return seqs

    def _announce_pocket(self, event: dict[str, Any], stamp: float) -> None:
        disc = event.get("disc") or {}
        self.publish(
            {
                "type": "callout",
                "kind": "pocket",
                "disc": disc.get("kind"),
                "pocket": event.get("pocket"),
                "captured_at": stamp,
            }
        )
        if self.book is not None:
            review = self.store.add_review(self.book.match.id, None, "pocket", {"event": event})
            self._clip(review.id, event.get("t"))

    def _clip(self, review_id: int, t_s: Any) -> None:
        if self.request_clip is not None and isinstance(t_s, int | float):
            self.request_clip(review_id, float(t_s))

    # -- umpire --------------------------------------------------------------------------------
    def start_match(
        self, start: dict[str, Any], *, rules_format: str | None = None, review_fouls: bool | None = None
    ) -> MatchRow:
        """Start a new match with the rules line `start` (`{"umpire": "start_match", ...}`)."""
        fmt = rules_format or self.rules_format
        with self._lock:
            self.rules_factory(self.game, fmt).apply(dict(start))  # refuse a bad start before logging it
            match = self.store.create_match(
                game=self.game,
                format=fmt,
                review_fouls=self.review_fouls if review_fouls is None else review_fouls,
                start=start,
            )
            self.book = self._new_book(match)
            result = self.book.feed(self.store.entries(match.id)[0])
            self.shots.reset()
            log.info("match %d started: %s", match.id, start.get("players"))
            self._announce(result)
        return match

    def act(self, kind: str, body: dict[str, Any]) -> FeedResult:
        """Commit one umpire entry ("umpire", "stroke", "review", "correct", "undo") and apply it."""
        with self._lock:
            if self.book is None:
                raise RuleError("no match in progress: start a match first")
            self.book.check(kind, body)
            entry = self._commit(kind, body)
            log.info(
                "umpire %s %s -> log %d", kind, body.get("umpire") or body.get("decision") or "", entry.seq
            )
            return self._last_result

    def _commit(self, kind: str, body: dict[str, Any]) -> Any:
        assert self.book is not None
        entry = self.store.append(self.book.match.id, kind, body)
        result = self.book.feed(entry)
        self._last_result = result
        self._announce(result, source_seq=entry.seq)
        return entry

    def _announce(self, result: FeedResult, *, source_seq: int | None = None) -> None:
        assert self.book is not None
        match_id = self.book.match.id
        if result.applied:
            self.store.add_rulings(match_id, [(a.seq, a.ruling) for a in result.applied])
        now = time.time()
        for applied in result.applied:
            self.publish({"type": "ruling", "seq": applied.seq, "ruling": applied.ruling, "captured_at": now})
            self._callout_fouls(applied, now)
        if result.flagged is not None:
            self._open_review(*result.flagged)
        self.publish({**self.state(), "captured_at": now})

    def _callout_fouls(self, applied: Applied, now: float) -> None:
        for foul in applied.ruling.get("fouls") or []:
            self.publish(
                {
                    "type": "callout",
                    "kind": "foul",
                    "reason": foul.get("reason"),
                    "law": foul.get("law"),
                    "captured_at": now,
                }
            )

    def _open_review(self, seq: int, provisional: dict[str, Any]) -> None:
        assert self.book is not None
        entry = self.book.entry(seq)
        body = {
            "ruling": provisional,
            "before": (entry.body.get("before") if entry else None) or [],
            "events": (entry.body.get("events") if entry else None) or [],
        }
        review = self.store.add_review(self.book.match.id, seq, "foul", body)
        log.info(
            "foul flagged for review %d (log %d): %s",
            review.id,
            seq,
            [f.get("reason") for f in provisional.get("fouls") or []],
        )
        now = time.time()
        self.publish(
            {
                "type": "callout",
                "kind": "review",
                "review": review.id,
                "fouls": provisional.get("fouls"),
                "captured_at": now,
            }
        )
        self.publish(
            {"type": "review", "review": self.review_public(review), "captured_at": now}, umpire_only=True
        )
        self._clip(review.id, _foul_time(body["events"]))

    # -- queries -------------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """The score-bar snapshot: match, rules state, last ruling, open review, source status."""
        with self._lock:
            book = self.book
            if book is None:
                return {
                    "type": "state",
                    "game": self.game,
                    "match": None,
                    "rules": None,
                    "last_ruling": None,
                    "review": None,
                    "queued": 0,
                    "source": self.source_status,
                    "discs": self.positions,
                }
            head = book.head_flagged()
            return {
                "type": "state",
                "game": self.game,
                "match": {
                    "id": book.match.id,
                    "players": book.match.start.get("players"),
                    "first_break": book.match.start.get("first_break"),
                    "format": book.match.format,
                },
                "rules": book.state(),
                "last_ruling": book.last_ruling(),
                "review": self._review_id_for(head) if head is not None else None,
                "queued": max(0, len(book.pending) - (1 if head is not None else 0)),
                "refused": [{"seq": seq, "detail": detail} for seq, detail in book.errors[-5:]],
                "source": self.source_status,
                "discs": self.positions,
            }

    def _review_id_for(self, seq: int) -> int | None:
        assert self.book is not None
        ids = [r.id for r in self.store.reviews(self.book.match.id) if r.log_seq == seq and r.kind == "foul"]
        return ids[-1] if ids else None

    def review_public(self, review: ReviewRow) -> dict[str, Any]:
        """A review item as shown to the umpire, with its status and clip URL."""
        return {
            "id": review.id,
            "match": review.match_id,
            "seq": review.log_seq,
            "kind": review.kind,
            "status": self._review_status(review),
            "clip": f"/clips/{review.clip}" if review.clip else None,
            "created_at": review.created_at,
            **review.body,
        }

    def _review_status(self, review: ReviewRow) -> str:
        book = self.book
        if review.kind != "foul" or book is None or review.match_id != book.match.id:
            return "info" if review.kind != "foul" else "closed"
        if review.log_seq in book.flagged:
            return "open"
        if review.log_seq in book.voided:
            return "undone"
        return _DECIDED.get(book.decisions.get(review.log_seq or -1, ""), "closed")

    def reviews(self, match_id: int | None = None) -> list[dict[str, Any]]:
        with self._lock:
            mid = match_id if match_id is not None else (self.book.match.id if self.book else None)
            return [] if mid is None else [self.review_public(r) for r in self.store.reviews(mid)]

    def match_summary(self, match_id: int) -> dict[str, Any] | None:
        """A match rebuilt from its log: players, rules state (boards, score) and sheet, or None."""
        match = next((m for m in self.store.matches() if m.id == match_id), None)
        if match is None:
            return None
        book = self._replay(match)
        sheet = [{"seq": a.seq, "line": a.line, "ruling": a.ruling} for a in book.history]
        return {
            "id": match.id,
            "game": match.game,
            "players": self.store.players(match.id),
            "state": book.state(),
            "sheet": sheet,
        }

    def sheet(self) -> list[dict[str, Any]]:
        """The match sheet: every applied line with its current ruling, in order."""
        with self._lock:
            if self.book is None:
                return []
            return [{"seq": a.seq, "line": a.line, "ruling": a.ruling} for a in self.book.history]


def _foul_time(events: list[dict[str, Any]]) -> float | None:
    """The time of the last pocket/off-board event of a shot, else its end (s)."""
    times = [e.get("t") for e in events if e.get("type") in ("pocketed", "off_board")]
    times = times or [e.get("t") for e in events if e.get("type") == "shot_end"]
    return float(times[-1]) if times and isinstance(times[-1], int | float) else None
