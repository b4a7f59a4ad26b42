"""Fan-out of live messages to WebSocket clients, without ever waiting for a slow one.

Messages are JSON-encoded once per publish. Each client has its own bounded queue and its own
sender task; `publish` only appends to the queues, so the tracker thread (which hands messages
over with `publish_threadsafe`) never waits for the network. A client that falls behind has
its oldest `frame` updates skipped (events and state are kept); one that falls far behind is
disconnected. Every message carries `captured_at` (wall-clock seconds when its frame was
captured) and gets `sent_at` (wall-clock seconds when it left the server) spliced in at send.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Client", "Hub"]

log = logging.getLogger(__name__)


@dataclass(eq=False)
class Client:
    """One connected WebSocket client.

    Attributes:
        role: "overlay" or "umpire" (umpire clients also get review and log messages).
        delay_s: hold each message until `captured_at + delay_s` (to match a stream delay).
        max_queue: messages buffered before old frame updates are skipped.
    """

    role: str
    delay_s: float = 0.0
    max_queue: int = 240
    queue: deque[tuple[float, bool, str]] = field(default_factory=deque)  # (due, is_frame, text)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    skipped: int = 0
    closed: bool = False
    on_skip: Any = field(default=lambda: None, repr=False)

    def push(self, due: float, is_frame: bool, text: str) -> None:
        """Queue one message; skip the oldest frame update if the queue is full."""
        if len(self.queue) >= self.max_queue:
            for i, item in enumerate(self.queue):
                if item[1]:
                    del self.queue[i]
                    self.skipped += 1
                    self.on_skip()
                    break
            else:
                if len(self.queue) >= 4 * self.max_queue:
                    self.closed = True  # far behind on events: drop the client
        self.queue.append((due, is_frame, text))
        self.wake.set()


def _splice_sent_at(text: str) -> str:
    """Append `"sent_at": now` to an encoded JSON object without re-encoding it."""
    return f'{text[:-1]},"sent_at":{time.time():.6f}}}'


class Hub:
    """The set of connected clients and the fan-out of messages to them."""

    def __init__(self, *, max_queue: int = 240) -> None:
        self.clients: set[Client] = set()
        self.max_queue = max_queue
        self.loop: asyncio.AbstractEventLoop | None = None
        self.published = 0
        self.skipped = 0  # frame updates skipped for slow clients, all clients together

    def _count_skip(self) -> None:
        self.skipped += 1

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Remember the event loop that owns the clients (called at app start-up)."""
        self.loop = loop

    def publish(self, msg: dict[str, Any], *, umpire_only: bool = False) -> None:
        """Queue `msg` for every client (or only umpire clients). Call on the event loop."""
        text = json.dumps(msg, separators=(",", ":"))
        is_frame = msg.get("type") == "frame"
        base = float(msg.get("captured_at") or time.time())
        self.published += 1
        for client in list(self.clients):
            if umpire_only and client.role != "umpire":
                continue
            client.push(base + client.delay_s if client.delay_s > 0 else 0.0, is_frame, text)

    def publish_threadsafe(self, msg: dict[str, Any], *, umpire_only: bool = False) -> None:
        """Hand `msg` to the event loop from another thread; returns at once."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            loop.call_soon_threadsafe(lambda: self.publish(msg, umpire_only=umpire_only))
        except RuntimeError:  # loop shutting down
            pass

    async def serve(self, websocket: Any, client: Client, snapshot: dict[str, Any]) -> None:
        """Send `snapshot`, then queued messages, until the client goes away or falls too far behind."""
        client.on_skip = self._count_skip
        self.clients.add(client)
        log.debug("%s client connected (%d clients)", client.role, len(self.clients))
        try:
            await websocket.send_text(_splice_sent_at(json.dumps(snapshot, separators=(",", ":"))))
            while not client.closed:
                if not client.queue:
                    client.wake.clear()
                    await client.wake.wait()
                    continue
                due, _, text = client.queue[0]
                wait = due - time.time()
                if wait > 0:
                    await asyncio.sleep(min(wait, 0.05))
                    continue
                client.queue.popleft()
                await websocket.send_text(_splice_sent_at(text))
        finally:
            self.clients.discard(client)
            log.debug(
                "%s client gone (%d clients, %d updates skipped)",
                client.role,
                len(self.clients),
                client.skipped,
            )
