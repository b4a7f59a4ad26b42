"""`boardtrack bench serve`: capture-to-client latency of the table service under many overlay clients.

The simulator plays a match; its frames are fed live (paced at `--fps`) into the real service
(reader, ring buffer, tracker thread, match log, hub, uvicorn on 127.0.0.1) while `--clients`
WebSocket clients (in a separate process, so their parsing does not share the server's
interpreter) record, for every frame message, receive time minus the frame's capture time.

`--pipeline truth` (default) tracks from the simulator's ground truth, so the figures are those
of the service itself; `--pipeline vision` runs the real detector and tracker (on a small machine
it cannot keep up with 60 fps, and then drops frames whatever the clients do). Each run first
plays `--warmup` seconds without clients, so frames dropped with and without clients can be told
apart.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

__all__ = ["add_arguments", "run"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--clients", type=int, default=50, help="overlay WebSocket clients (default: %(default)s)"
    )
    parser.add_argument(
        "--seconds", type=float, default=10.0, help="measured seconds with clients (default: %(default)s)"
    )
    parser.add_argument(
        "--warmup", type=float, default=3.0, help="seconds without clients first (default: %(default)s)"
    )
    parser.add_argument("--fps", type=float, default=60.0, help="input frame rate (default: %(default)s)")
    parser.add_argument("--pipeline", choices=("truth", "vision"), default="truth")
    parser.add_argument("--game", choices=("carrom", "korona"), default="carrom")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--resolution", default="960x540", help="rendered frame size WxH (default: %(default)s)"
    )


class _BenchSource:
    """Pre-rendered JPEG frames played live at `fps`, looping; ground truth alongside."""

    live = True

    def __init__(self, jpegs: list[bytes], truths: list[dict[str, Any]], fps: float) -> None:
        self.jpegs, self.truths, self.fps = jpegs, truths, fps
        self.name = f"synthetic bench ({len(jpegs)} frames at {fps:g} fps)"
        self.i = 0
        self.t0 = 0.0
        self.truth: dict[str, Any] = {}

    def open(self) -> None:
        self.t0 = time.monotonic()

    def read(self) -> tuple[np.ndarray, float]:
        import cv2

        due = self.t0 + self.i / self.fps
        time.sleep(max(0.0, due - time.monotonic()))
        k = self.i % len(self.jpegs)
        frame = cv2.imdecode(np.frombuffer(self.jpegs[k], np.uint8), cv2.IMREAD_COLOR)
        self.truth = self.truths[k]
        self.i += 1
        return frame, self.i / self.fps

    def close(self) -> None:
        pass


class _TruthPipeline:
    """Detections and events from the simulator's ground truth (no vision)."""

    def __init__(self, source: _BenchSource, events: list[dict[str, Any]], period_s: float) -> None:
        self.source, self.events, self.period_s = source, events, period_s
        self.frame_idx = 0

    def process(self, frame: np.ndarray, t_s: float) -> Any:
        from tracker.detections import FrameDetections
        from tracker.specs import DiscKind

        discs = [d for d in self.source.truth.get("discs", []) if d.get("where") == "board"]
        n = len(discs)
        xy = np.array([[d["x_mm"], d["y_mm"]] for d in discs], np.float32).reshape(n, 2)
        kind = np.array([DiscKind.from_label(d["kind"]) for d in discs], np.int8)
        dets = FrameDetections(
            np.zeros((n, 2), np.float32),
            np.full(n, 10, np.float32),
            kind,
            np.ones(n, np.float32),
            xy_board=xy,
            track_id=np.array([d["id"] for d in discs], np.int32),
        )
        t_loop = (t_s - 1e-9) % self.period_s
        prev = t_loop - 1.0 / self.source.fps
        shift = t_s - t_loop  # events of this loop, in stream time (the ring's clock)
        out = tuple(
            {**e, "t": float(e["t"]) + shift} for e in self.events if prev < float(e.get("t", -1)) <= t_loop
        )
        self.frame_idx += 1
        return SimpleNamespace(frame_idx=self.frame_idx, t_s=t_s, detections=dets, events=out, board_ok=True)


def _render(
    game: str, seed: int, fps: float, size: tuple[int, int]
) -> tuple[list[bytes], list[dict[str, Any]], list[dict[str, Any]]]:
    """Simulate two shots and render them; frames as JPEG (bounded memory), truth, events."""
    import cv2

    from fixtures.camera import sample_camera
    from fixtures.look import sample_look
    from fixtures.play import simulate_play
    from fixtures.render import render_frames

    rng = np.random.default_rng(seed)
    timeline = simulate_play(game, shots=2, seed=seed)
    camera = sample_camera(rng, resolution=size, board=timeline.board)
    look = sample_look(rng, "clean", game=game)
    jpegs, truths = [], []
    for rendered in render_frames(timeline, camera, look, fps=fps, seed=seed):
        jpegs.append(cv2.imencode(".jpg", rendered.image, [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes())
        truths.append(rendered.truth)
    return jpegs, truths, [dict(e) for e in timeline.events]


class _FeedProtocol(asyncio.Protocol):
    """A minimal WebSocket client for the bench: handshake, then unmasked server text frames.

    Kept deliberately cheap (no JSON parsing of the whole message) so that 50 clients in one
    process measure the server, not the client library.
    """

    def __init__(self, host: str, path: str, lat: list[float], server: list[float]) -> None:
        self.host, self.path, self.lat, self.server = host, path, lat, server
        self.buf = b""
        self.upgraded = False
        self.frames = 0

    def connection_made(self, transport: Any) -> None:
        import base64
        import os

        key = base64.b64encode(os.urandom(16)).decode()
        transport.write(
            (
                f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )

    def data_received(self, data: bytes) -> None:
        now = time.time()
        self.buf += data
        if not self.upgraded:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            self.upgraded, self.buf = True, self.buf[end + 4 :]
        while len(self.buf) >= 2:
            n, head = self.buf[1] & 0x7F, 2
            if n == 126:
                if len(self.buf) < 4:
                    return
                n, head = int.from_bytes(self.buf[2:4], "big"), 4
            elif n == 127:
                if len(self.buf) < 10:
                    return
                n, head = int.from_bytes(self.buf[2:10], "big"), 10
            if len(self.buf) < head + n:
                return
            payload, self.buf = self.buf[head : head + n], self.buf[head + n :]
            if payload.startswith(b'{"type":"frame"'):
                self.frames += 1
                cap = float(payload[payload.find(b'"captured_at":') + 14 :].split(b",", 1)[0])
                sent = float(payload[payload.rfind(b'"sent_at":') + 10 : -1])
                self.lat.append(now - cap)
                self.server.append(sent - cap)


def _clients_main(url: str, n: int, seconds: float, out: Any) -> None:
    """Client process: `n` overlay sockets for `seconds`; sends back latencies (s) and counts."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    lat: list[float] = []
    server: list[float] = []
    counts = {"frames": 0, "failed": 0}

    async def main() -> None:
        loop = asyncio.get_running_loop()
        conns = []
        for _ in range(n):
            try:
                conns.append(
                    await loop.create_connection(
                        lambda: _FeedProtocol(parts.netloc, parts.path, lat, server),
                        parts.hostname,
                        parts.port,
                    )
                )
            except OSError:
                counts["failed"] += 1
        await asyncio.sleep(seconds)
        for transport, proto in conns:
            counts["frames"] += proto.frames
            transport.close()

    asyncio.run(main())
    out.send((lat, server, counts))


def _rss_mb() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _percentiles_ms(values: list[float]) -> str:
    if not values:
        return "no samples"
    p = np.percentile(np.asarray(values) * 1000.0, [50, 95, 99])
    worst = max(values) * 1000
    return f"p50 {p[0]:.1f} ms, p95 {p[1]:.1f} ms, p99 {p[2]:.1f} ms (max {worst:.1f} ms, n={len(values)})"


def run(args: argparse.Namespace) -> int:
    import tempfile
    import threading

    import uvicorn

    from service.app import Hooks, create_app
    from service.settings import Settings
    from service.worker import Live, default_pipeline_factory, start_live
    from tracker.errors import ConfigError

    if not (1 <= args.clients <= 500 and 0 < args.seconds <= 300 and 1 <= args.fps <= 240):
        raise ConfigError("bench serve: --clients 1..500, --seconds 0..300, --fps 1..240")
    try:
        w, h = (int(v) for v in args.resolution.lower().split("x"))
    except ValueError:
        raise ConfigError(f"bench serve: --resolution must be WxH, got {args.resolution!r}") from None
    print(
        f"rendering the simulated match ({args.game}, seed {args.seed}, {w}x{h}, {args.fps:g} fps)...",
        flush=True,
    )
    jpegs, truths, events = _render(args.game, args.seed, args.fps, (w, h))
    source = _BenchSource(jpegs, truths, args.fps)
    live: list[Live] = []

    def live_factory(settings: Any, table: Any) -> Live:
        make = (
            (lambda frame: _TruthPipeline(source, events, len(jpegs) / args.fps))
            if args.pipeline == "truth"
            else default_pipeline_factory(settings)
        )
        live.append(start_live(settings, table, source_factory=lambda: source, pipeline_factory=make))
        return live[0]

    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            source="bench",
            game=args.game,
            db=Path(tmp) / "bench.db",
            port=port,
            token="bench",
            start_players="A,B",
            review_fouls=False,
        )
        app = create_app(settings, hooks=Hooks(live_factory=live_factory))
        server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", ws="websockets-sansio")
        )
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.02)
        try:
            return _measure(args, live[0], app, f"ws://127.0.0.1:{port}/ws/overlay")
        finally:
            server.should_exit = True
            thread.join(timeout=10)


def _measure(args: argparse.Namespace, live: Any, app: Any, url: str) -> int:
    """Warm-up without clients, then the clients' run; print the figures."""
    time.sleep(args.warmup)
    receiver, sender = mp.Pipe(duplex=False)
    proc = mp.get_context("spawn").Process(
        target=_clients_main, args=(url, args.clients, args.seconds, sender)
    )
    t_start = time.monotonic()
    proc.start()
    time.sleep(1.0)  # clients connecting
    s1 = _snapshot(live)
    t1 = time.monotonic()
    lat, server_lat, counts = (
        receiver.recv()
        if receiver.poll(args.seconds + 60)
        else ([], [], {"frames": 0, "messages": 0, "failed": -1})
    )
    s2 = _snapshot(live)
    t2 = time.monotonic()
    proc.join(timeout=10)
    hub = app.state.hub
    skipped = hub.skipped
    warm_s = max(1e-9, t1 - t_start + args.warmup)
    run_s = max(1e-9, t2 - t1)
    print(
        f"bench serve: {args.clients} overlay clients, {args.fps:g} fps input, pipeline {args.pipeline}, "
        f"{args.seconds:g} s with clients"
    )
    print(f"  capture-to-client latency: {_percentiles_ms(lat)}")
    print(f"  of which capture-to-send (server side): {_percentiles_ms(server_lat)}")
    print(
        f"  frames processed: {(s2['processed'] - s1['processed']) / run_s:.1f}/s with clients, "
        f"{s1['processed'] / warm_s:.1f}/s before"
    )
    print(
        f"  frames dropped by the tracker: {s2['dropped'] - s1['dropped']} with clients, "
        f"{s1['dropped']} before (warm-up and connection)"
    )
    print(
        f"  frame messages received: {counts['frames']} "
        f"({counts['frames'] / max(1, args.clients):.0f} per client), "
        f"failed clients: {counts['failed']}, updates skipped for slow clients: {skipped}"
    )
    print(
        f"  memory: RSS {_rss_mb():.0f} MB, ring buffer {live.ring.nbytes() / 1e6:.1f} MB "
        f"({args.fps:g} fps x {live.settings.ring_s:g} s)"
    )
    return 0


def _snapshot(live: Any) -> dict[str, int]:
    return {"processed": live.stats.processed, "dropped": live.stats.dropped}
