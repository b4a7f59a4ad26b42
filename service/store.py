"""The match log: an append-only SQLite file (WAL mode, full sync).

Tables (every one insert-only; triggers refuse UPDATE and DELETE on the log):
    matches   one row per match (game, rules format, review policy, the start line)
    players   seat -> name for each match
    log       the umpire-and-camera log: every entry the match state is rebuilt from
    rulings   each ruling as it was first announced (the live state is recomputed by replay)
    events    every camera event (contract-1 JSON), with its capture time
    reviews   review items (flagged fouls, pocket calls) linked to a log entry
    clips     clip files written for review items

A committed row survives `kill -9`: each append is one transaction with `synchronous=FULL`.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tracker.errors import ConfigError

__all__ = ["LogEntry", "MatchRow", "ReviewRow", "Store"]

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL, format TEXT NOT NULL,
    review_fouls INTEGER NOT NULL, start TEXT NOT NULL, created_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    match_id INTEGER NOT NULL REFERENCES matches(id), seat TEXT NOT NULL, name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, match_id INTEGER NOT NULL REFERENCES matches(id),
    kind TEXT NOT NULL, body TEXT NOT NULL, created_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS rulings (
    log_seq INTEGER NOT NULL, match_id INTEGER NOT NULL, ruling TEXT NOT NULL, created_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT, match_id INTEGER, t_s REAL, frame INTEGER,
    captured_at REAL, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS reviews (
    id INTEGER PRIMARY KEY AUTOINCREMENT, match_id INTEGER NOT NULL, log_seq INTEGER,
    kind TEXT NOT NULL, body TEXT NOT NULL, created_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS clips (
    id INTEGER PRIMARY KEY AUTOINCREMENT, review_id INTEGER NOT NULL, path TEXT NOT NULL,
    t0_s REAL, t1_s REAL, created_at REAL NOT NULL);
CREATE TRIGGER IF NOT EXISTS log_no_update BEFORE UPDATE ON log
    BEGIN SELECT RAISE(ABORT, 'the match log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS log_no_delete BEFORE DELETE ON log
    BEGIN SELECT RAISE(ABORT, 'the match log is append-only'); END;
"""


@dataclass(frozen=True, slots=True)
class MatchRow:
    """One match: its id, game, rules format, review policy and start line."""

    id: int
    game: str
    format: str
    review_fouls: bool
    start: dict[str, Any]
    created_at: float


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One log entry. `kind` is "umpire", "shot", "stroke", "review", "correct" or "undo"."""

    seq: int
    match_id: int
    kind: str
    body: dict[str, Any]
    created_at: float


@dataclass(frozen=True, slots=True)
class ReviewRow:
    """A review item: a flagged foul ("foul") or a pocket call ("pocket") linked to a log entry."""

    id: int
    match_id: int
    log_seq: int | None
    kind: str
    body: dict[str, Any]
    created_at: float
    clip: str | None = None


def _dump(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), sort_keys=True)


class Store:
    """Thread-safe access to one match-log file. Every write is one committed transaction."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise ConfigError(f"{path}: not a usable match log ({exc})") from None
        self._lock = threading.RLock()
        self._check_version()

    def _check_version(self) -> None:
        row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if row is None:
            self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif row[0] != str(SCHEMA_VERSION):
            raise ConfigError(
                f"{self.path}: match log schema {row[0]}, this boardtrack reads {SCHEMA_VERSION}"
            )

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def _rows(self, sql: str, args: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, tuple(args)).fetchall()

    # -- matches -------------------------------------------------------------------------------
    def create_match(self, *, game: str, format: str, review_fouls: bool, start: dict[str, Any]) -> MatchRow:
        """Insert a match, its players and its start line (the first log entry), atomically."""
        now = time.time()
        with self._tx() as db:
            cur = db.execute(
                "INSERT INTO matches (game, format, review_fouls, start, created_at) VALUES (?,?,?,?,?)",
                (game, format, int(review_fouls), _dump(start), now),
            )
            match_id = int(cur.lastrowid or 0)
            for seat, name in (start.get("players") or {}).items():
                db.execute("INSERT INTO players VALUES (?,?,?)", (match_id, str(seat), str(name)))
            db.execute(
                "INSERT INTO log (match_id, kind, body, created_at) VALUES (?,?,?,?)",
                (match_id, "umpire", _dump(start), now),
            )
        return MatchRow(match_id, game, format, review_fouls, start, now)

    def matches(self) -> list[MatchRow]:
        rows = self._rows("SELECT id, game, format, review_fouls, start, created_at FROM matches ORDER BY id")
        return [MatchRow(r[0], r[1], r[2], bool(r[3]), json.loads(r[4]), r[5]) for r in rows]

    def latest_match(self) -> MatchRow | None:
        rows = self.matches()
        return rows[-1] if rows else None

    # -- log -----------------------------------------------------------------------------------
    def append(
        self, match_id: int, kind: str, body: dict[str, Any], ruling: dict[str, Any] | None = None
    ) -> LogEntry:
        """Append one log entry (and the ruling first announced for it) in one transaction."""
        now = time.time()
        with self._tx() as db:
            cur = db.execute(
                "INSERT INTO log (match_id, kind, body, created_at) VALUES (?,?,?,?)",
                (match_id, kind, _dump(body), now),
            )
            seq = int(cur.lastrowid or 0)
            if ruling is not None:
                db.execute("INSERT INTO rulings VALUES (?,?,?,?)", (seq, match_id, _dump(ruling), now))
        return LogEntry(seq, match_id, kind, body, now)

    def add_rulings(self, match_id: int, rulings: Iterable[tuple[int, dict[str, Any]]]) -> None:
        """Record rulings announced later than their entry (a held stroke applied on review)."""
        now = time.time()
        with self._tx() as db:
            db.executemany(
                "INSERT INTO rulings VALUES (?,?,?,?)", [(s, match_id, _dump(r), now) for s, r in rulings]
            )

    def entries(self, match_id: int) -> list[LogEntry]:
        rows = self._rows(
            "SELECT seq, match_id, kind, body, created_at FROM log WHERE match_id=? ORDER BY seq", (match_id,)
        )
        return [LogEntry(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

    def announced_rulings(self, match_id: int) -> list[tuple[int, dict[str, Any]]]:
        rows = self._rows("SELECT log_seq, ruling FROM rulings WHERE match_id=? ORDER BY rowid", (match_id,))
        return [(r[0], json.loads(r[1])) for r in rows]

    # -- camera events -------------------------------------------------------------------------
    def add_events(
        self, match_id: int | None, events: list[dict[str, Any]], captured_at: float | None
    ) -> None:
        if not events:
            return
        rows = [(match_id, e.get("t"), e.get("frame"), captured_at, _dump(e)) for e in events]
        with self._tx() as db:
            db.executemany(
                "INSERT INTO events (match_id, t_s, frame, captured_at, body) VALUES (?,?,?,?,?)", rows
            )

    def events(
        self, *, match_id: int | None = None, after_id: int = 0, limit: int = 1000
    ) -> list[dict[str, Any]]:
        """Camera events in arrival order, each with its `id`, `match` and `captured_at`."""
        sql = "SELECT id, match_id, captured_at, body FROM events WHERE id>?"
        args: list[Any] = [after_id]
        if match_id is not None:
            sql += " AND match_id=?"
            args.append(match_id)
        rows = self._rows(sql + " ORDER BY id LIMIT ?", [*args, limit])
        return [{**json.loads(r[3]), "id": r[0], "match": r[1], "captured_at": r[2]} for r in rows]

    # -- reviews and clips ---------------------------------------------------------------------
    def add_review(self, match_id: int, log_seq: int | None, kind: str, body: dict[str, Any]) -> ReviewRow:
        now = time.time()
        with self._tx() as db:
            cur = db.execute(
                "INSERT INTO reviews (match_id, log_seq, kind, body, created_at) VALUES (?,?,?,?,?)",
                (match_id, log_seq, kind, _dump(body), now),
            )
        return ReviewRow(int(cur.lastrowid or 0), match_id, log_seq, kind, body, now)

    def add_clip(self, review_id: int, path: str, t0_s: float, t1_s: float) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO clips (review_id, path, t0_s, t1_s, created_at) VALUES (?,?,?,?,?)",
                (review_id, path, t0_s, t1_s, time.time()),
            )

    def reviews(self, match_id: int) -> list[ReviewRow]:
        rows = self._rows(
            "SELECT r.id, r.match_id, r.log_seq, r.kind, r.body, r.created_at,"
            " (SELECT path FROM clips c WHERE c.review_id=r.id ORDER BY c.id DESC LIMIT 1)"
            " FROM reviews r WHERE r.match_id=? ORDER BY r.id",
            (match_id,),
        )
        return [ReviewRow(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5], r[6]) for r in rows]

    def players(self, match_id: int) -> dict[str, str]:
        return {
            r[0]: r[1] for r in self._rows("SELECT seat, name FROM players WHERE match_id=?", (match_id,))
        }
