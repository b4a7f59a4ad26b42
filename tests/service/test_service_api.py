"""The HTTP API and WebSockets against a real SQLite file (TestClient, app factory, overrides)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from service.app import Hooks, create_app
from service.settings import Settings, get_settings
from tests.service._standin import shot_events, standin_factory, standin_stroke

TOKEN = "t0ken"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
START = {"players": {"S": "A", "N": "B"}, "first_break": "A"}
HOOKS = Hooks(rules_factory=standin_factory, stroke_builder=standin_stroke)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(hooks=HOOKS)
    app.dependency_overrides[get_settings] = lambda: Settings(db=tmp_path / "m.db", token=TOKEN)
    with TestClient(app) as c:
        yield c


def _umpire_routes() -> list[str]:
    """Every umpire route in the OpenAPI document (so a new action is tested automatically)."""
    app = create_app(
        Settings(db=Path("never-opened.db"), clip_dir=Path("build/never-used"), token="x"), hooks=HOOKS
    )
    return sorted(p for p in app.openapi()["paths"] if p.startswith("/api/umpire/"))


@pytest.mark.parametrize("path", _umpire_routes())
@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer wrong"}, {"Authorization": "Basic dTpw"}],
    ids=["no-token", "wrong-token", "not-bearer"],
)
def test_every_umpire_action_needs_the_token(client: TestClient, path: str, headers: dict[str, str]) -> None:
    r = client.post(path, json={}, headers=headers)
    assert r.status_code == 401, r.text
    assert "Bearer" in r.json()["detail"]


_HUGE_DISC = {"id": -(2**70), "kind": "white"}


@pytest.mark.parametrize(
    ("path", "body", "status"),
    [
        ("/api/umpire/start_match", {"players": {"S": "A"}, "first_break": "A"}, 422),
        ("/api/umpire/start_match", {"players": {"X": "A", "N": "B"}, "first_break": "A"}, 422),
        ("/api/umpire/confirm", {}, 409),
        ("/api/umpire/undo", {}, 409),
        ("/api/umpire/correct", {"target": 1, "patch": {}}, 409),
        ("/api/umpire/decision", {"action": "Bad Action!"}, 422),
        ("/api/umpire/ingest", {"events": "nope"}, 422),
        ("/api/umpire/ingest", {"events": [{"t": 0.0, "type": "shot_start", "frame": 2**63}]}, 422),
        ("/api/umpire/ingest", {"events": [{"t": 0.0, "type": "placed", "disc": _HUGE_DISC}]}, 422),
        ("/api/umpire/correct", {"target": 2**64, "patch": {}}, 422),
    ],
    ids=[
        "one-player",
        "bad-seat",
        "confirm-without-match",
        "undo-without-match",
        "correct-without-match",
        "bad-action-name",
        "events-not-a-list",
        "frame-beyond-64-bits",
        "disc-id-beyond-64-bits",
        "target-beyond-64-bits",
    ],
)
def test_bad_requests_get_a_clear_4xx(client: TestClient, path: str, body: dict, status: int) -> None:
    r = client.post(path, json=body, headers=AUTH)
    assert r.status_code == status, r.text
    assert r.json()["detail"]


def test_match_flow_over_http(client: TestClient) -> None:
    assert client.post("/api/umpire/start_match", json=START, headers=AUTH).status_code == 200
    events = shot_events(1, 1.0, pocketed=("white",)) + shot_events(2, 3.0, striker=True)
    assert len(client.post("/api/umpire/ingest", json={"events": events}, headers=AUTH).json()) == 2
    state = client.get("/api/state").json()
    assert state["rules"]["points"] == {"A": 1, "B": 0} and state["review"] is not None
    fouls = [r for r in client.get("/api/reviews").json() if r["kind"] == "foul"]
    assert [r["status"] for r in fouls] == ["open"]
    r = client.post("/api/umpire/confirm", json={"review": fouls[0]["id"]}, headers=AUTH)
    assert r.status_code == 200 and r.json()["state"]["rules"]["points"] == {"A": 0, "B": 0}
    assert [r["status"] for r in client.get("/api/reviews").json() if r["kind"] == "foul"] == ["confirmed"]
    assert [e["type"] for e in client.get("/api/events").json()][:3] == ["shot_start", "pocketed", "shot_end"]
    assert len(client.get("/api/sheet").json()) == 3
    log = client.get("/api/matches/1/log").json()
    assert [e["kind"] for e in log] == ["umpire", "shot", "shot", "review"]
    assert client.get("/api/matches/7/log").status_code == 404
    summary = client.get("/api/matches/1").json()
    assert summary["players"] == START["players"] and summary["sheet"] == client.get("/api/sheet").json()


def test_overlay_socket_gets_a_snapshot_then_updates(client: TestClient) -> None:
    client.post("/api/umpire/start_match", json=START, headers=AUTH)
    with client.websocket_connect("/ws/overlay") as ws:
        snap = ws.receive_json()
        assert snap["type"] == "state" and snap["match"]["players"] == START["players"]
        assert snap["sent_at"] >= snap["captured_at"]
        client.post(
            "/api/umpire/ingest", json={"events": shot_events(1, 1.0, pocketed=("white",))}, headers=AUTH
        )
        seen = [ws.receive_json()]
        while seen[-1]["type"] != "state":
            seen.append(ws.receive_json())
    kinds = [m["type"] for m in seen]
    assert kinds == ["event", "event", "callout", "event", "ruling", "state"]
    assert all(m["sent_at"] >= m["captured_at"] for m in seen)


def test_umpire_socket_refuses_a_bad_token_and_accepts_a_first_message(client: TestClient) -> None:
    with client.websocket_connect("/ws/umpire?token=nope") as ws:
        ws.send_json({"token": "still-wrong"})
        assert ws.receive_json() == {"type": "error", "detail": "bad or missing umpire token"}
    with client.websocket_connect("/ws/umpire") as ws:
        ws.send_json({"token": TOKEN})
        snap = ws.receive_json()
        assert snap["type"] == "state" and snap["reviews"] == [] and snap["sheet"] == []


def test_overlay_delay_holds_messages(client: TestClient) -> None:
    client.post("/api/umpire/start_match", json=START, headers=AUTH)
    with client.websocket_connect("/ws/overlay?delay=0.6") as ws:
        ws.receive_json()
        client.post("/api/umpire/ingest", json={"events": shot_events(1, 1.0)}, headers=AUTH)
        msg = ws.receive_json()
        assert time.time() - msg["captured_at"] >= 0.6
        assert msg["sent_at"] - msg["captured_at"] >= 0.6


def test_pages_and_board_geometry_are_served(client: TestClient) -> None:
    for page in ("/overlay", "/umpire"):
        r = client.get(page)
        assert r.status_code == 200 and "<canvas" in r.text
    assert client.get("/static/board.js").status_code == 200
    board = client.get("/api/board").json()
    assert board["game"] == "carrom" and len(board["pockets_mm"]) == 4
    assert "/api/umpire/undo" in client.get("/openapi.json").json()["paths"]
