"""Fuzz the HTTP API from its own OpenAPI schema: no input gives a 500 (bounded: ~100 cases)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from service.app import create_app
from service.settings import Settings
from tests.service._standin import shot_events
from tests.service.conftest import running

TOKEN = "fuzz-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
SCHEMA = schemathesis.openapi.from_dict(
    create_app(Settings(db=Path("never-opened.db"), clip_dir=Path("never-used"), token=TOKEN)).openapi()
)


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real server with a match under way (a flagged foul open), shared by every case."""
    with running(Settings(db=tmp_path_factory.mktemp("fuzz") / "m.db", token=TOKEN)) as base:
        httpx.post(
            f"{base}/api/umpire/start_match",
            headers=AUTH,
            json={"players": {"S": "A", "N": "B"}, "first_break": "A"},
        )
        events = shot_events(1, 1.0, pocketed=("white",)) + shot_events(2, 3.0, striker=True)
        httpx.post(f"{base}/api/umpire/ingest", headers=AUTH, json={"events": events})
        yield base


@SCHEMA.parametrize()
@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck), database=None)
def test_no_input_gives_a_server_error(case: Any, base_url: str) -> None:
    response = case.call(base_url=base_url, headers=AUTH, timeout=10)
    assert response.status_code < 500, (
        f"{case.method} {case.formatted_path}: {response.status_code} {response.text}"
    )
