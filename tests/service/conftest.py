"""Resources with teardown for the service tests: a real uvicorn server on a free local port."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
import uvicorn

from service.app import Hooks, create_app
from service.settings import Settings

TOKEN = "test-token"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running(settings: Settings, hooks: Hooks | None = None) -> Iterator[str]:
    """Serve `create_app(settings)` with uvicorn in a thread; yields the base URL."""
    port = free_port()
    app = create_app(settings.model_copy(update={"port": port}), hooks=hooks or Hooks())
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws="websockets-sansio")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture
def serve() -> Iterator[Callable[..., Iterator[str]]]:
    """`with serve(settings, hooks) as base_url:` (a factory, so tests can restart servers)."""
    yield running
