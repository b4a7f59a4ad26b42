"""Review clips: the last seconds of frames in memory, and short MP4s cut from them.

`FrameRing` keeps downscaled JPEG frames for `seconds` of stream time (bounded memory: about
30 kB a frame at 640 px wide). `ClipWriter` (its own thread) waits until the frames after an
event have arrived, then writes `review-<id>.mp4` (H.264 through PyAV, written to a temporary
name and renamed, so a crash never leaves a half clip linked) and reports it.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

import numpy as np

__all__ = ["ClipWriter", "FrameRing", "write_mp4"]

log = logging.getLogger(__name__)


class FrameRing:
    """The last `seconds` of frames as (t_s, captured_at, JPEG bytes), thread-safe.

    Args:
        seconds: stream time kept (s).
        width_px: frames wider than this are downscaled to it first.
        quality: JPEG quality 1-100.
    """

    def __init__(self, seconds: float, *, width_px: int = 640, quality: int = 80) -> None:
        self.seconds, self.width_px, self.quality = seconds, width_px, quality
        self._frames: deque[tuple[float, float, bytes]] = deque()
        self._lock = threading.Lock()

    def add(self, t_s: float, captured_at: float, frame_bgr: np.ndarray) -> None:
        """Encode and keep one frame (H, W, 3) uint8 BGR taken at stream time `t_s` (s)."""
        import cv2

        h, w = frame_bgr.shape[:2]
        if w > self.width_px:
            frame_bgr = cv2.resize(
                frame_bgr, (self.width_px, max(2, round(h * self.width_px / w))), interpolation=cv2.INTER_AREA
            )
        ok, buf = cv2.imencode(".jpg", frame_bgr, [cv2.IMWRITE_JPEG_QUALITY, self.quality])
        if not ok:
            return
        with self._lock:
            if self._frames and t_s < self._frames[-1][0]:
                self._frames.clear()  # the stream restarted (a looping file): old frames are another take
            self._frames.append((t_s, captured_at, buf.tobytes()))
            while self._frames and self._frames[0][0] < t_s - self.seconds:
                self._frames.popleft()

    @property
    def latest_t(self) -> float | None:
        with self._lock:
            return self._frames[-1][0] if self._frames else None

    def span(self, t0_s: float, t1_s: float) -> list[tuple[float, bytes]]:
        """Frames with `t0_s <= t_s <= t1_s`, oldest first."""
        with self._lock:
            return [(t, jpg) for t, _, jpg in self._frames if t0_s <= t <= t1_s]

    def nbytes(self) -> int:
        with self._lock:
            return sum(len(f[2]) for f in self._frames)


def write_mp4(frames: list[tuple[float, bytes]], path: Path) -> None:
    """Write JPEG frames `(t_s, jpeg)` to an H.264 MP4 at their mean frame rate."""
    import av
    import cv2

    images = [cv2.imdecode(np.frombuffer(jpg, np.uint8), cv2.IMREAD_COLOR) for _, jpg in frames]
    images = [im for im in images if im is not None]
    if not images:
        return
    span = frames[-1][0] - frames[0][0]
    fps = max(1, min(120, round((len(frames) - 1) / span))) if span > 0 else 25
    h, w = (d - d % 2 for d in images[0].shape[:2])
    tmp = path.with_suffix(".part.mp4")
    with av.open(str(tmp), "w", options={"movflags": "faststart"}) as out:
        stream = out.add_stream("libx264", rate=fps)
        stream.width, stream.height, stream.pix_fmt = w, h, "yuv420p"
        stream.options = {"preset": "veryfast", "crf": "28"}
        for im in images:
            frame = av.VideoFrame.from_ndarray(np.ascontiguousarray(im[:h, :w]), format="bgr24")
            out.mux(stream.encode(frame))
        out.mux(stream.encode(None))
    tmp.replace(path)


class ClipWriter:
    """Writes a clip for each request `(review_id, t_s)` once its frames are in the ring.

    Args:
        ring: the frame ring.
        folder: where clips go.
        before_s, after_s: clip span around the event time (s).
        on_written: `(review_id, file name, t0_s, t1_s)` after a clip is written.
    """

    def __init__(
        self,
        ring: FrameRing,
        folder: Path,
        *,
        before_s: float,
        after_s: float,
        on_written: Callable[[int, str, float, float], None],
    ) -> None:
        self.ring, self.folder = ring, folder
        self.before_s, self.after_s = before_s, after_s
        self.on_written = on_written
        self._queue: queue.Queue[tuple[int, float] | None] = queue.Queue(maxsize=64)
        self._thread = threading.Thread(target=self._run, name="clip-writer", daemon=True)
        self.written = 0

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=10)

    def request(self, review_id: int, t_s: float) -> None:
        """Ask for a clip around stream time `t_s`; dropped (logged) if the writer is far behind."""
        try:
            self._queue.put_nowait((review_id, t_s))
        except queue.Full:
            log.warning("clip writer busy: no clip for review %d", review_id)

    def _run(self) -> None:
        while (job := self._queue.get()) is not None:
            review_id, t_s = job
            deadline = time.monotonic() + self.after_s + 3.0
            while (self.ring.latest_t or -1e9) < t_s + self.after_s and time.monotonic() < deadline:
                time.sleep(0.05)
            t0, t1 = t_s - self.before_s, t_s + self.after_s
            frames = self.ring.span(t0, t1)
            if len(frames) < 2:
                log.warning("no frames for the clip of review %d (t=%.2f s)", review_id, t_s)
                continue
            name = f"review-{review_id}.mp4"
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
                write_mp4(frames, self.folder / name)
            except Exception:  # noqa: BLE001 - a failed clip must not stop later clips
                log.exception("could not write the clip of review %d", review_id)
                continue
            self.written += 1
            self.on_written(review_id, name, frames[0][0], frames[-1][0])
