"""The table service: FastAPI app factory, WebSockets, pages and the error handler.

    app = create_app(Settings(db=Path("match.db"), source="synthetic"))

At start-up the app opens the match log (replaying the current match through the rules
engine), starts the log thread and, unless `source` is "none", the camera worker. Pages:
`/overlay` (OBS browser source) and `/umpire` (console). WebSockets: `/ws/overlay` (public,
`?delay=` seconds) and `/ws/umpire` (`?token=` or a first message `{"token": ...}`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from service.api import router, token_ok
from service.errors import http_status
from service.hub import Client, Hub
from service.match import RulesFactory, StrokeBuilder
from service.settings import Settings, get_settings
from service.store import Store
from service.table import Table, default_rules_factory, default_stroke_builder
from tracker.errors import TrackerError

__all__ = ["Hooks", "create_app"]

log = logging.getLogger(__name__)
STATIC = Path(str(resources.files("service").joinpath("static")))


@dataclass(frozen=True)
class Hooks:
    """Replaceable parts of the service (tests and benchmarks swap them; defaults are the real ones).

    Attributes:
        rules_factory: `(game, format) -> rules session`.
        stroke_builder: `(events, side, before) -> stroke record`.
        live_factory: `(settings, table) -> object with start()/stop()` running the camera,
            or None for the real worker (`service.worker.start_live`).
    """

    rules_factory: RulesFactory = default_rules_factory
    stroke_builder: StrokeBuilder = default_stroke_builder
    live_factory: Any = None


def _settings_of(app: FastAPI) -> Settings:
    return app.dependency_overrides.get(get_settings, get_settings)()  # type: ignore[no-any-return]


def create_app(settings: Settings | None = None, *, hooks: Hooks | None = None) -> FastAPI:
    """Build the app. `settings` (if given) overrides the `get_settings` dependency."""
    hooks = hooks or Hooks()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        s = _settings_of(app)
        s.clips_path().mkdir(parents=True, exist_ok=True)
        hub = Hub(max_queue=s.client_queue)
        hub.bind(asyncio.get_running_loop())
        store = Store(s.db)
        table = Table(
            store,
            game=s.game,
            publish=hub.publish_threadsafe,
            rules_factory=hooks.rules_factory,
            stroke_builder=hooks.stroke_builder,
            review_fouls=s.review_fouls,
            rules_format=s.rules_format,
        )
        table.start()
        if table.book is None and (start := s.start_line()) is not None:
            table.start_match(start)
        app.state.hub, app.state.table = hub, table
        live = None
        if s.source != "none":
            if hooks.live_factory is not None:
                live = hooks.live_factory(s, table)
            else:
                from service.worker import start_live

                live = start_live(s, table)
        try:
            yield
        finally:
            if live is not None:
                live.stop()
            table.stop()
            store.close()

    app = FastAPI(
        title="boardtrack table service",
        version="1",
        description="Live feed for the stream overlay, foul review for the umpire, a crash-proof match log.",
        lifespan=lifespan,
    )
    if settings is not None:
        app.dependency_overrides[get_settings] = lambda: settings
    clips = _settings_of(app).clips_path()

    @app.exception_handler(TrackerError)
    async def _tracker_error(request: Request, exc: TrackerError) -> JSONResponse:
        return JSONResponse({"detail": str(exc), "error": type(exc).__name__}, status_code=http_status(exc))

    app.include_router(router)
    _add_pages(app)
    _add_sockets(app)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.mount("/clips", StaticFiles(directory=clips, check_dir=False), name="clips")
    return app


def _add_pages(app: FastAPI) -> None:
    @app.get("/", include_in_schema=False)
    def index() -> Response:
        return RedirectResponse("/umpire")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        return Response(status_code=204)

    @app.get("/overlay", include_in_schema=False)
    def overlay() -> Response:
        return FileResponse(STATIC / "overlay.html")

    @app.get("/umpire", include_in_schema=False)
    def umpire_page() -> Response:
        return FileResponse(STATIC / "umpire.html")


async def _run_client(websocket: WebSocket, hub: Hub, client: Client, snapshot: dict[str, Any]) -> None:
    """Send to the client until either side stops; incoming messages are ignored."""
    sender = asyncio.create_task(hub.serve(websocket, client, snapshot))

    async def receive() -> None:
        while (await websocket.receive())["type"] != "websocket.disconnect":
            pass

    receiver = asyncio.create_task(receive())
    try:
        await asyncio.wait({sender, receiver}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        client.closed = True
        client.wake.set()
        for task in (sender, receiver):
            task.cancel()
        for task in (sender, receiver):
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(Exception):
            await websocket.close()


def _add_sockets(app: FastAPI) -> None:
    @app.websocket("/ws/overlay")
    async def ws_overlay(websocket: WebSocket, delay: float = 0.0) -> None:
        """Public live feed: a state snapshot, then frames, events, call-outs and state updates."""
        await websocket.accept()
        hub: Hub = websocket.app.state.hub
        table: Table = websocket.app.state.table
        delay_s = min(max(delay, 0.0), 60.0) if delay == delay else 0.0  # NaN -> 0
        client = Client("overlay", delay_s=delay_s, max_queue=hub.max_queue)
        await _run_client(websocket, hub, client, _snapshot(table))

    @app.websocket("/ws/umpire")
    async def ws_umpire(websocket: WebSocket, token: str | None = None) -> None:
        """Umpire feed (token): as the overlay's, plus review items, with reviews in the snapshot."""
        await websocket.accept()
        settings = _settings_of(websocket.app)
        if not token_ok(token, settings):
            first = await _first_token(websocket)
            if not token_ok(first, settings):
                await websocket.send_text(
                    json.dumps({"type": "error", "detail": "bad or missing umpire token"})
                )
                await websocket.close(code=4401)
                return
        hub: Hub = websocket.app.state.hub
        table: Table = websocket.app.state.table
        snapshot = {**_snapshot(table), "reviews": table.reviews(), "sheet": table.sheet()}
        await _run_client(websocket, hub, Client("umpire", max_queue=hub.max_queue), snapshot)


def _snapshot(table: Table) -> dict[str, Any]:
    """The state sent on connect, stamped with the capture time of the latest frame (or now)."""
    return {**table.state(), "captured_at": table.last_captured_at or time.time()}


async def _first_token(websocket: WebSocket) -> str | None:
    """The token of a first message `{"token": "..."}`, waiting at most 5 s."""
    try:
        text = await asyncio.wait_for(websocket.receive_text(), timeout=5.0)
        token = json.loads(text).get("token")
        return token if isinstance(token, str) else None
    except (TimeoutError, ValueError, AttributeError, KeyError, RuntimeError):
        return None
    except Exception:  # noqa: BLE001 - a disconnect while waiting is not an error
        return None
