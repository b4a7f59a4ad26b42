"""Crash recovery: `kill -9` the real service mid-match; the restarted one has the same match."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.service._standin import shot_events
from tests.service.conftest import free_port

TOKEN = "crash-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
REPO = Path(__file__).resolve().parents[2]


def _start(db: Path, port: int, game: str) -> subprocess.Popen[bytes]:
    cmd = [
        sys.executable,
        "-m",
        "service.cli",
        "serve",
        "--source",
        "none",
        "--game",
        game,
        "--db",
        str(db),
        "--port",
        str(port),
        "--token",
        TOKEN,
    ]
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"serve exited: {proc.stderr.read().decode() if proc.stderr else ''}")
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/state", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("serve did not come up")


def _snapshot(base: str) -> dict[str, Any]:
    state = httpx.get(f"{base}/api/state").json()
    return {
        "state": {k: v for k, v in state.items() if k not in ("source", "discs")},
        "log": httpx.get(f"{base}/api/matches/1/log").json(),
        "sheet": httpx.get(f"{base}/api/sheet").json(),
        "events": httpx.get(f"{base}/api/events").json(),
        "reviews": [
            {k: v for k, v in r.items() if k != "clip"} for r in httpx.get(f"{base}/api/reviews").json()
        ],
    }


@pytest.mark.slow
@pytest.mark.parametrize("game", ["carrom", "korona"])
def test_kill_9_and_restart_resume_the_match_exactly(tmp_path: Path, game: str) -> None:
    db, port = tmp_path / "match.db", free_port()
    base = f"http://127.0.0.1:{port}"
    proc = _start(db, port, game)
    try:
        r = httpx.post(
            f"{base}/api/umpire/start_match",
            headers=AUTH,
            json={"players": {"S": "Asha", "N": "Bilal"}, "first_break": "Asha"},
        )
        assert r.status_code == 200, r.text
        events = (
            shot_events(1, 1.0, pocketed=("white",))
            + shot_events(2, 3.0, striker=True)
            + shot_events(3, 5.0, pocketed=("black",))
        )
        assert len(httpx.post(f"{base}/api/umpire/ingest", headers=AUTH, json={"events": events}).json()) == 3
        while httpx.get(f"{base}/api/state").json()["review"] is not None:  # confirm every flagged foul
            assert httpx.post(f"{base}/api/umpire/confirm", headers=AUTH, json={}).status_code == 200
        # an open review at the moment of the crash must still be open afterwards
        httpx.post(
            f"{base}/api/umpire/ingest", headers=AUTH, json={"events": shot_events(4, 7.0, striker=True)}
        )
        before = _snapshot(base)
        assert before["state"]["review"] is not None and len(before["sheet"]) == 4  # start + 3 strokes
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    proc = _start(db, port, game)
    try:
        after = _snapshot(base)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert after == before
