"""The camera side of the service: a reader thread and a tracker thread, off the event loop.

    reader:  source.read() -> pace (files) -> ring buffer (JPEG) -> hand-over slot
    tracker: slot -> Pipeline.process(frame, t_s) -> positions to clients, events to the match log

The hand-over holds at most two frames; if the tracker falls behind a live source, the oldest
frame is dropped and counted (`LiveStats.dropped`); a video file is never dropped from (it
plays late instead), so a recorded match always gives the same log. Clients never appear on this path: the
tracker hands messages to the hub (`publish_threadsafe`) and events to the log thread, both
without waiting. A source that fails to open, stops, or serves corrupt frames is reported
("camera lost") and reopened with backoff; the service keeps running.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from service.clips import ClipWriter, FrameRing
from service.settings import Settings
from service.sources import FrameSource, is_frame, open_source
from service.table import Table

__all__ = ["Live", "LiveStats", "default_pipeline_factory", "frame_message", "start_live"]

log = logging.getLogger(__name__)

_LABELS = np.array(["white", "black", "queen", "striker"], dtype=object)
_RESET = object()
MAX_BAD_FRAMES = 30  # consecutive unusable frames before the source counts as lost

PipelineFactory = Callable[[np.ndarray], Any]  # first frame -> pipeline, or None (board not found)


@dataclass
class LiveStats:
    """Counters of the camera side (read by `boardtrack bench serve` and the status line)."""

    read: int = 0
    processed: int = 0
    dropped: int = 0
    corrupt: int = 0
    errors: int = 0
    reconnects: int = 0
    process_s: float = 0.0


def frame_message(result: Any, captured_at: float) -> dict[str, Any]:
    """The per-frame client message: positions `[[track id, kind, x_mm, y_mm], ...]` in board mm."""
    dets = result.detections
    discs: list[list[Any]] = []
    if dets is not None and dets.xy_board is not None and len(dets.kind):
        ok = np.isfinite(dets.xy_board).all(axis=1)
        xy = np.round(dets.xy_board[ok].astype(np.float64), 1)
        ids = dets.track_id[ok] if dets.track_id is not None else np.full(int(ok.sum()), -1)
        kinds = _LABELS[np.clip(dets.kind[ok].astype(np.int64), 0, 3)]
        discs = [
            list(d)
            for d in zip(ids.tolist(), kinds.tolist(), xy[:, 0].tolist(), xy[:, 1].tolist(), strict=True)
        ]
    return {
        "type": "frame",
        "frame": int(result.frame_idx),
        "t": round(float(result.t_s), 4),
        "captured_at": captured_at,
        "board_ok": bool(getattr(result, "board_ok", True)),
        "discs": discs,
    }


def default_pipeline_factory(settings: Settings) -> PipelineFactory:
    """Pipelines from the saved calibration, or from `find_board` on the first good frame."""
    calib = None
    if settings.calibration is not None:
        from calibration import load_calibration

        calib = load_calibration(settings.calibration)

    def make(frame: np.ndarray) -> Any:
        from tracker.pipeline import Pipeline

        c = calib
        if c is None:
            from calibration import find_board

            c = find_board(frame, game=settings.game)
            if not c:
                log.info("board not found yet: %s", getattr(c, "reason", c))
                return None
        return Pipeline(c, game=settings.game)

    return make


class Live:
    """Reader and tracker threads for one source, feeding one `Table`."""

    def __init__(
        self,
        settings: Settings,
        table: Table,
        *,
        source_factory: Callable[[], FrameSource],
        pipeline_factory: PipelineFactory,
    ) -> None:
        self.settings, self.table = settings, table
        self.source_factory, self.pipeline_factory = source_factory, pipeline_factory
        self.stats = LiveStats()
        self.ring = FrameRing(settings.ring_s, width_px=settings.ring_width_px)
        self.clips = ClipWriter(
            self.ring,
            settings.clips_path(),
            before_s=settings.clip_before_s,
            after_s=settings.clip_after_s,
            on_written=self._clip_written,
        )
        self._slot: queue.Queue[Any] = queue.Queue(maxsize=2)
        self._stop = threading.Event()
        self._threads = [
            threading.Thread(target=self._read_loop, name="frame-reader", daemon=True),
            threading.Thread(target=self._track_loop, name="tracker", daemon=True),
        ]

    def start(self) -> Live:
        self.table.request_clip = self.clips.request
        self.clips.start()
        for t in self._threads:
            t.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(timeout=5)
        self.clips.stop()

    def _status(self, state: str, detail: str) -> None:
        log.info("source %s: %s", state, detail)
        self.table.on_source({"state": state, "detail": detail})

    # -- reader --------------------------------------------------------------------------------
    def _read_loop(self) -> None:
        backoff = 0.5
        while not self._stop.is_set():
            try:
                source = self.source_factory()
                source.open()
            except Exception as exc:  # noqa: BLE001 - any failure to open: report and retry
                self._status("lost", f"{exc}; retrying in {backoff:.1f} s")
                self._stop.wait(backoff)
                backoff = min(backoff * 2, 10.0)
                self.stats.reconnects += 1
                continue
            self._status("ok", f"{source.name} opened")
            backoff = 0.5
            ended = self._pump(source)
            try:
                source.close()
            except Exception:  # noqa: BLE001 - a failing close must not stop the reader
                log.warning("could not close %s", source.name, exc_info=True)
            if ended and not self.settings.loop:
                self._status("ended", f"{source.name} ended")
                return
            if ended:
                self._put(_RESET, block=True)

    def _pump(self, source: FrameSource) -> bool:
        """Read until the source ends (True) or is lost / the service stops (False)."""
        pace = not source.live and not self.settings.fast
        t_first: float | None = None
        wall0 = time.monotonic()
        bad = 0
        while not self._stop.is_set():
            try:
                item = source.read()
            except Exception as exc:  # noqa: BLE001 - driver errors mean the camera is lost
                self._status("lost", f"{source.name}: {exc}")
                return False
            if item is None:
                return True
            frame, t_s = item
            if not is_frame(frame) or not np.isfinite(t_s):
                bad += 1
                self.stats.corrupt += 1
                if bad >= MAX_BAD_FRAMES:
                    self._status("lost", f"{source.name}: {bad} unusable frames in a row")
                    return False
                continue
            bad = 0
            if pace:
                t_first = t_s if t_first is None else t_first
                self._stop.wait(max(0.0, wall0 + (t_s - t_first) - time.monotonic()))
            captured_at = time.time()
            self.stats.read += 1
            self.ring.add(t_s, captured_at, frame)
            # A file never loses frames (paced or not, the same file gives the same match log);
            # a live source drops the oldest frame when the tracker falls behind.
            self._put((frame, float(t_s), captured_at), block=not source.live)
        return False

    def _put(self, item: Any, *, block: bool) -> None:
        while not self._stop.is_set():
            try:
                self._slot.put(item, timeout=0.2) if block else self._slot.put_nowait(item)
                return
            except queue.Full:
                if block:
                    continue
                try:
                    self._slot.get_nowait()
                    self.stats.dropped += 1
                except queue.Empty:
                    pass

    # -- tracker -------------------------------------------------------------------------------
    def _track_loop(self) -> None:
        pipeline: Any = None
        next_try = 0.0
        while not self._stop.is_set():
            try:
                item = self._slot.get(timeout=0.2)
            except queue.Empty:
                continue
            if item is _RESET:
                pipeline = None
                self.table.shots.reset()
                continue
            frame, t_s, captured_at = item
            if pipeline is None:
                if time.monotonic() < next_try:
                    continue
                pipeline = self._make_pipeline(frame)
                next_try = time.monotonic() + 0.5
                if pipeline is None:
                    continue
            self._track_one(pipeline, frame, t_s, captured_at)

    def _make_pipeline(self, frame: np.ndarray) -> Any:
        try:
            pipeline = self.pipeline_factory(frame)
        except Exception as exc:  # noqa: BLE001 - a bad calibration is reported, not fatal
            self._status("error", f"cannot start tracking: {exc}")
            return None
        if pipeline is None:
            self._status("searching", "looking for the board")
        else:
            self._status("tracking", "board found, tracking")
        return pipeline

    def _track_one(self, pipeline: Any, frame: np.ndarray, t_s: float, captured_at: float) -> None:
        t0 = time.perf_counter()
        try:
            result = pipeline.process(frame, t_s)
        except Exception:  # noqa: BLE001 - one bad frame must not stop tracking
            self.stats.errors += 1
            if self.stats.errors <= 3:
                log.exception("tracking failed on a frame at t=%.3f s", t_s)
            return
        self.stats.process_s += time.perf_counter() - t0
        self.stats.processed += 1
        self.table.on_frame(frame_message(result, captured_at))
        if result.events:
            self.table.on_events(
                [e.to_json() if hasattr(e, "to_json") else dict(e) for e in result.events], captured_at
            )

    def _clip_written(self, review_id: int, name: str, t0_s: float, t1_s: float) -> None:
        self.table.store.add_clip(review_id, name, t0_s, t1_s)
        self.table.publish(
            {"type": "clip", "review": review_id, "clip": f"/clips/{name}", "captured_at": time.time()},
            umpire_only=True,
        )


def start_live(
    settings: Settings,
    table: Table,
    *,
    source_factory: Callable[[], FrameSource] | None = None,
    pipeline_factory: PipelineFactory | None = None,
) -> Live:
    """Start the camera side for `settings.source` (not "none")."""
    factory = source_factory or (
        lambda: open_source(
            settings.source, game=settings.game, seed=settings.synthetic_seed, shots=settings.synthetic_shots
        )
    )
    if source_factory is None:
        factory()  # a source spec that names nothing fails now, as a one-line error
    return Live(
        settings,
        table,
        source_factory=factory,
        pipeline_factory=pipeline_factory or default_pipeline_factory(settings),
    ).start()
