"""Parts of the service on their own: sources, the client queue, the frame ring, clips, the CLI."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from pathlib import Path
from typing import Any

import av
import numpy as np
import pytest

from service.clips import FrameRing, write_mp4
from service.commands.demo import demo_clip
from service.hub import Client
from service.sources import OpenCVSource, PiCameraSource, SourceLost, SyntheticSource, open_source
from tracker.errors import InputError

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "fixtures" / "demo" / "video.mp4"


@pytest.mark.parametrize(
    ("spec", "kind", "live", "raises"),
    [
        ("0", OpenCVSource, True, contextlib.nullcontext()),
        ("/dev/video7", OpenCVSource, True, contextlib.nullcontext()),
        ("rtsp://10.0.0.5:554/stream", OpenCVSource, True, contextlib.nullcontext()),
        ("picamera", PiCameraSource, True, contextlib.nullcontext()),
        ("synthetic", SyntheticSource, True, contextlib.nullcontext()),
        (str(DEMO), OpenCVSource, False, contextlib.nullcontext()),
        ("no-such-video.mp4", None, None, pytest.raises(InputError, match="no video source")),
    ],
    ids=["camera-index", "device", "rtsp", "picamera", "synthetic", "file", "missing-file"],
)
def test_open_source_picks_the_kind_of_source(
    spec: str, kind: type | None, live: bool | None, raises: Any
) -> None:
    with raises:
        source = open_source(spec)
        assert isinstance(source, kind) and source.live is live  # type: ignore[arg-type]


def test_a_video_file_gives_frames_with_their_own_times() -> None:
    if not DEMO.exists():
        pytest.skip(f"demo clip not available: {DEMO}")
    source = open_source(str(DEMO))
    source.open()
    try:
        frames = [source.read() for _ in range(3)]
    finally:
        source.close()
    assert all(f is not None and f[0].shape == (720, 1280, 3) for f in frames)
    assert [round(f[1], 4) for f in frames if f] == [0.0, round(1 / 30, 4), round(2 / 30, 4)]


def test_missing_camera_and_picamera_report_lost() -> None:
    with pytest.raises(SourceLost, match="cannot open"):
        OpenCVSource("/dev/video-none", live=True).open()
    try:
        import picamera2  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        with pytest.raises(SourceLost, match="picamera2 is not installed"):
            PiCameraSource().open()


@pytest.mark.parametrize(
    ("queued", "expect_len", "expect_skipped", "closed"),
    [
        ([True] * 4, 4, 1, False),  # full of frames: the oldest frame goes
        ([False, True, False, True], 4, 1, False),  # events stay, the oldest frame goes
        ([False] * 4, 5, 0, False),  # only events: kept (up to 4x the bound)
        ([False] * 16, 17, 0, True),  # far behind on events: the client is dropped
    ],
    ids=["frames", "mixed", "events", "far-behind"],
)
def test_a_slow_client_loses_old_frames_not_events(
    queued: list[bool], expect_len: int, expect_skipped: int, closed: bool
) -> None:
    client = Client("overlay", max_queue=4)
    client.queue.extend((0.0, is_frame, f"m{i}") for i, is_frame in enumerate(queued))
    client.push(0.0, True, "new")
    assert len(client.queue) == expect_len and client.skipped == expect_skipped and client.closed is closed
    assert client.queue[-1][2] == "new"
    kept = [text for _, _, text in client.queue]
    assert all(f"m{i}" in kept for i, is_frame in enumerate(queued) if not is_frame)


def test_the_ring_keeps_only_its_seconds_and_clips_decode(tmp_path: Path) -> None:
    ring = FrameRing(1.0, width_px=160)
    rng = np.random.default_rng(4)
    for i in range(90):  # 3 s at 30 fps
        ring.add(i / 30, 0.0, rng.integers(0, 255, (240, 320, 3), dtype=np.uint8))
    frames = ring.span(0.0, 10.0)
    assert 29 <= len(frames) <= 31 and frames[0][0] >= 2.0 - 1e-9
    write_mp4(frames, tmp_path / "c.mp4")
    with av.open(str(tmp_path / "c.mp4")) as f:
        decoded = [fr.to_ndarray(format="bgr24") for fr in f.decode(video=0)]
    assert len(decoded) == len(frames) and decoded[0].shape == (120, 160, 3)
    ring.add(0.0, 0.0, np.zeros((240, 320, 3), np.uint8))  # a looping file starts again
    assert len(ring.span(0.0, 10.0)) == 1


def test_serve_with_an_unknown_source_is_a_one_line_error(tmp_path: Path) -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "service.cli",
            "serve",
            "--source",
            "nope.mp4",
            "--db",
            str(tmp_path / "m.db"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
    )
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [
        "boardtrack serve: error: no video source 'nope.mp4': expected a video file, a camera index (0), "
        "a device (/dev/video0), a stream URL (rtsp://...), picamera, synthetic or none"
    ]


def test_the_demo_finds_the_bundled_clip() -> None:
    video, _, game = demo_clip()
    if not DEMO.exists():
        assert video is None
        return
    assert video == DEMO and game == "carrom"
