"""The camera side on a real uvicorn server: live feed, clips, and a source that misbehaves."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import av
import httpx
import numpy as np

from service.app import Hooks
from service.settings import Settings
from service.sources import SourceLost
from service.worker import start_live
from tests.service._standin import shot_events, standin_factory, standin_stroke
from tracker.detections import FrameDetections

TOKEN = "live-token"
FPS = 30.0


class ScriptedSource:
    """Frames at FPS; `plan` says per open what each read does: "ok", "corrupt", "lost" or "end"."""

    live = True
    fps = FPS
    name = "scripted"

    def __init__(self, plans: list[list[str]]) -> None:
        self.plans, self.opens, self.n = plans, 0, 0
        self.plan: list[str] = []

    def open(self) -> None:
        self.opens += 1
        if self.opens > len(self.plans):
            raise SourceLost("scripted: no more takes")
        self.plan = list(self.plans[self.opens - 1])
        if self.plan and self.plan[0] == "refuse":
            raise SourceLost("scripted: camera unplugged")

    def close(self) -> None:
        self.plan = []

    def read(self) -> tuple[np.ndarray, float] | None:
        step = self.plan.pop(0) if self.plan else "end"
        time.sleep(1 / FPS)
        if step == "lost":
            raise SourceLost("scripted: cable pulled")
        if step == "end":
            return None
        if step == "corrupt":
            return np.zeros((3, 3), np.uint8), self.n / FPS  # type: ignore[return-value]
        self.n += 1
        frame = np.full((120, 160, 3), (self.n * 7) % 255, np.uint8)
        return frame, self.n / FPS


class ScriptedPipeline:
    """Two discs moving right; the events of shot 1 (a white pocketed) around frame 20."""

    def __init__(self) -> None:
        self.i = 0
        self.events = {20: shot_events(1, 20 / FPS, pocketed=("white",))}

    def process(self, frame: np.ndarray, t_s: float) -> Any:
        self.i += 1
        x = np.array([[self.i, 0.0], [-100.0, 50.0]], np.float32)
        dets = FrameDetections(
            np.zeros((2, 2), np.float32),
            np.full(2, 10, np.float32),
            np.array([0, 3], np.int8),
            np.ones(2, np.float32),
            xy_board=x,
            track_id=np.array([4, 9], np.int32),
        )
        return SimpleNamespace(
            frame_idx=self.i,
            t_s=t_s,
            detections=dets,
            events=tuple(self.events.get(self.i, ())),
            board_ok=True,
        )


def _hooks(source: ScriptedSource) -> Hooks:
    return Hooks(
        rules_factory=standin_factory,
        stroke_builder=standin_stroke,
        live_factory=lambda s, t: start_live(
            s, t, source_factory=lambda: source, pipeline_factory=lambda frame: ScriptedPipeline()
        ),
    )


def _settings(tmp_path: Path) -> Settings:
    return Settings(
        source="scripted",
        db=tmp_path / "m.db",
        token=TOKEN,
        clip_before_s=0.3,
        clip_after_s=0.2,
        start_players="A,B",
    )


async def _collect(url: str, until: float) -> list[dict[str, Any]]:
    import websockets

    out: list[dict[str, Any]] = []
    async with websockets.connect(url) as ws:
        while time.monotonic() < until:
            try:
                out.append(json.loads(await asyncio.wait_for(ws.recv(), timeout=until - time.monotonic())))
            except TimeoutError:
                break
    return out


def test_live_feed_carries_positions_events_and_capture_times(tmp_path: Path, serve: Any) -> None:
    source = ScriptedSource([["ok"] * 60])
    with serve(_settings(tmp_path), _hooks(source)) as base:
        ws_url = base.replace("http", "ws") + "/ws/overlay"
        msgs = asyncio.run(_collect(ws_url, time.monotonic() + 3.0))
        reviews = httpx.get(f"{base}/api/reviews").json()
        deadline = time.monotonic() + 10
        while not (reviews and reviews[0]["clip"]) and time.monotonic() < deadline:
            time.sleep(0.2)
            reviews = httpx.get(f"{base}/api/reviews").json()
        clip = httpx.get(base + reviews[0]["clip"])
        state = httpx.get(f"{base}/api/state").json()
    assert msgs[0]["type"] == "state"
    frames = [m for m in msgs if m["type"] == "frame"]
    assert len(frames) >= 20
    assert frames[-1]["discs"][1] == [9, "striker", -100.0, 50.0]
    assert all(0 <= m["sent_at"] - m["captured_at"] < 1.0 for m in frames)
    assert {"callout", "ruling"} <= {m["type"] for m in msgs}
    assert state["rules"]["points"] == {"A": 1, "B": 0}
    assert clip.status_code == 200 and clip.headers["content-type"] == "video/mp4"
    path = tmp_path / "clip.mp4"
    path.write_bytes(clip.content)
    with av.open(str(path)) as f:
        n = sum(1 for _ in f.decode(video=0))
    assert n >= 10  # 0.5 s at 30 fps, give or take the ring's edges


def test_a_misbehaving_source_is_reported_and_reopened(tmp_path: Path, serve: Any) -> None:
    plans = [["refuse"], ["ok"] * 5 + ["corrupt"] * 40, ["ok"] * 5 + ["lost"], ["ok"] * 200]
    source = ScriptedSource(plans)
    with serve(_settings(tmp_path), _hooks(source)) as base:
        ws_url = base.replace("http", "ws") + "/ws/umpire?token=" + TOKEN
        msgs = asyncio.run(_collect(ws_url, time.monotonic() + 6.0))
        state = httpx.get(f"{base}/api/state").json()
    states = [m["state"] for m in msgs if m["type"] == "source"]
    details = " ".join(m["detail"] for m in msgs if m["type"] == "source")
    assert source.opens == 4
    assert "unusable frames" in details and "cable pulled" in details
    assert states.count("lost") >= 2 and states[-1] in ("ok", "tracking")
    assert state["source"]["state"] in ("ok", "tracking")
    assert sum(m["type"] == "frame" for m in msgs) > 30  # tracking resumed after the reconnects
