"""Frame sources behind one interface: video files, cameras, network streams, picamera, synthetic.

    source = open_source("rtsp://10.0.0.5/stream", game="carrom")
    source.open()
    while (item := source.read()) is not None:
        frame_bgr, t_s = item

`read()` returns `(frame (H, W, 3) uint8 BGR, t_s)` with `t_s` the capture time in seconds
from the start of the stream, or None at the end of a file. A camera or stream that stops
delivering raises `SourceLost`; the worker reports "camera lost" and reopens it with backoff.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from tracker.errors import InputError

__all__ = [
    "FrameSource",
    "OpenCVSource",
    "PiCameraSource",
    "SourceLost",
    "SyntheticSource",
    "is_frame",
    "open_source",
]

log = logging.getLogger(__name__)


class SourceLost(InputError):
    """The source cannot be opened or stopped delivering frames."""


class FrameSource(Protocol):
    """What the worker needs of a frame source.

    Attributes:
        name: for logs and the status line.
        live: True if frames arrive in real time (camera, stream, synthetic); False for a file,
            which the worker paces at `fps` unless told to go as fast as possible.
        fps: nominal frame rate, if known.
    """

    name: str
    live: bool
    fps: float | None

    def open(self) -> None: ...

    def read(self) -> tuple[np.ndarray, float] | None: ...

    def close(self) -> None: ...


def is_frame(frame: Any) -> bool:
    """True if `frame` is a usable BGR image: (H, W, 3) uint8 with H, W >= 16.

    Examples:
        >>> is_frame(np.zeros((480, 640, 3), np.uint8)), is_frame(np.zeros((4, 4), np.uint8)), is_frame(None)
        (True, False, False)
    """
    return (
        isinstance(frame, np.ndarray)
        and frame.dtype == np.uint8
        and frame.ndim == 3
        and frame.shape[2] == 3
        and frame.shape[0] >= 16
        and frame.shape[1] >= 16
    )


class OpenCVSource:
    """A video file, camera index (`0`), device (`/dev/video0`) or stream URL, read through OpenCV."""

    def __init__(self, target: str | int, *, live: bool) -> None:
        self.target = target
        self.name = str(target)
        self.live = live
        self.fps: float | None = None
        self._cap: Any = None
        self._t0 = 0.0
        self._n = 0

    def open(self) -> None:
        import cv2

        cap = cv2.VideoCapture(self.target)
        if not cap.isOpened():
            cap.release()
            raise SourceLost(f"cannot open video source {self.name}")
        fps = float(cap.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = fps if 1.0 <= fps <= 1000.0 else None
        self._cap, self._t0, self._n = cap, time.monotonic(), 0

    def read(self) -> tuple[np.ndarray, float] | None:
        import cv2

        if self._cap is None:
            raise SourceLost(f"{self.name} is not open")
        ok, frame = self._cap.read()
        if not ok:
            if self.live:
                raise SourceLost(f"{self.name} stopped delivering frames")
            return None
        self._n += 1
        if self.live:
            return frame, time.monotonic() - self._t0
        pos_ms = float(self._cap.get(cv2.CAP_PROP_POS_MSEC) or 0.0)
        t_s = (self._n - 1) / self.fps if self.fps else pos_ms / 1000.0
        return frame, t_s

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class PiCameraSource:
    """The Raspberry Pi camera through picamera2 (imported only when this source is opened)."""

    name = "picamera"
    live = True

    def __init__(self, *, size: tuple[int, int] = (1280, 720), fps: float = 60.0) -> None:
        self.size, self.fps = size, fps
        self._cam: Any = None
        self._t0 = 0.0

    def open(self) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError:
            raise SourceLost(
                "picamera2 is not installed (pip install 'boardtrack[pi]' on a Raspberry Pi)"
            ) from None
        cam = Picamera2()
        cam.configure(
            cam.create_video_configuration(
                main={"size": self.size, "format": "BGR888"}, controls={"FrameRate": self.fps}
            )
        )
        cam.start()
        self._cam, self._t0 = cam, time.monotonic()

    def read(self) -> tuple[np.ndarray, float] | None:
        if self._cam is None:
            raise SourceLost("picamera is not open")
        try:
            frame = self._cam.capture_array("main")
        except Exception as exc:  # noqa: BLE001 - any driver failure means the camera is lost
            raise SourceLost(f"picamera: {exc}") from None
        return np.ascontiguousarray(frame[:, :, :3]), time.monotonic() - self._t0

    def close(self) -> None:
        if self._cam is not None:
            self._cam.stop()
            self._cam.close()
            self._cam = None


class SyntheticSource:
    """The simulator playing live: physics, then rendered frames at `fps` (with ground truth).

    Attributes:
        truth: the ground-truth dict of the last frame read (contract 3 frame form).
    """

    live = True

    def __init__(
        self,
        *,
        game: str,
        seed: int,
        shots: int,
        fps: float = 60.0,
        resolution: tuple[int, int] = (1280, 720),
        level: str = "clean",
    ) -> None:
        self.game, self.seed, self.shots, self.fps = game, seed, shots, fps
        self.resolution, self.level = resolution, level
        self.name = f"synthetic({game}, seed {seed})"
        self.truth: dict[str, Any] | None = None
        self.events: tuple[dict[str, Any], ...] = ()
        self._frames: Iterator[Any] | None = None

    def open(self) -> None:
        from fixtures.camera import sample_camera
        from fixtures.look import sample_look
        from fixtures.play import simulate_play
        from fixtures.render import render_frames

        rng = np.random.default_rng(self.seed)
        timeline = simulate_play(self.game, shots=self.shots, seed=self.seed)
        camera = sample_camera(rng, resolution=self.resolution, board=timeline.board)
        look = sample_look(rng, self.level, game=self.game)
        self.events = tuple(timeline.events)
        self._frames = iter(render_frames(timeline, camera, look, fps=self.fps, seed=self.seed))

    def read(self) -> tuple[np.ndarray, float] | None:
        if self._frames is None:
            raise SourceLost("synthetic source is not open")
        rendered = next(self._frames, None)
        if rendered is None:
            return None
        self.truth = rendered.truth
        return rendered.image, float(rendered.t_s)

    def close(self) -> None:
        self._frames = None


def open_source(spec: str, *, game: str = "carrom", seed: int = 1, shots: int = 6) -> FrameSource:
    """The (not yet opened) source named by `spec`.

    Args:
        spec: a video file path, a camera index ("0"), a device ("/dev/video0"), a stream URL
            ("rtsp://...", "http://..."), "picamera" or "synthetic".
        game, seed, shots: what the synthetic source plays.

    Raises:
        InputError: `spec` names no file and no known kind of source.
    """
    makers: dict[str, Callable[[], FrameSource]] = {
        "picamera": PiCameraSource,
        "synthetic": lambda: SyntheticSource(game=game, seed=seed, shots=shots),
    }
    if spec in makers:
        return makers[spec]()
    if spec.isdigit():
        return OpenCVSource(int(spec), live=True)
    if "://" in spec or spec.startswith("/dev/"):
        return OpenCVSource(spec, live=True)
    if Path(spec).is_file():
        return OpenCVSource(spec, live=False)
    raise InputError(
        f"no video source {spec!r}: expected a video file, a camera index (0), a device (/dev/video0), "
        "a stream URL (rtsp://...), picamera, synthetic or none"
    )
