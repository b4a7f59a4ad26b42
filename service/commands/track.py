"""`boardtrack track VIDEO [--game carrom|korona] [--calibration calib.json] --jsonl [--tracks FILE]`.

Decodes the video with PyAV, runs every frame through `tracker.pipeline.Pipeline` and prints one
JSON object per event line (contract 1), in time order. `t` is seconds from the start of the
video by the frames' time stamps; `frame` counts decoded frames from 0.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

__all__ = ["add_arguments", "run", "iter_video", "track_json"]

_FIND_BOARD_FRAMES = 30  # frames tried when looking for the board without a calibration
_PROGRESS_MIN_S = 5.0    # videos longer than this get a progress bar on standard error


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("video", help="video file (MP4, MKV, ...; anything FFmpeg decodes)")
    parser.add_argument("--game", choices=["carrom", "korona"], default="carrom")
    parser.add_argument("--calibration", help="calibration JSON from `boardtrack calibrate board`")
    parser.add_argument("--equipment", help="disc set: icf, home, korona (default: the game's)")
    parser.add_argument("--jsonl", action="store_true", help="one JSON object per event line (contract 1)")
    parser.add_argument("--tracks", metavar="FILE", help="also write every disc's position per frame (JSON lines)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def iter_video(path: str | Path) -> Iterator[tuple[Any, float]]:
    """Decoded frames of a video as (BGR image or None if the frame is corrupt, time in s).

    Raises:
        InputError: not a file, not a video, or a codec FFmpeg cannot decode.
    """
    import av

    from tracker.errors import InputError

    p = Path(path)
    if not p.is_file():
        raise InputError(f"{p}: no such file")
    try:
        container = av.open(str(p))
    except av.error.FFmpegError as exc:
        raise InputError(f"{p}: not a readable video ({exc.strerror or type(exc).__name__})") from None
    with container:
        if not container.streams.video:
            raise InputError(f"{p}: no video stream")
        stream = container.streams.video[0]
        if stream.codec_context is None or stream.codec_context.name is None:
            raise InputError(f"{p}: unsupported video codec")
        rate = float(stream.average_rate or 30)
        n = 0
        for packet in container.demux(stream):
            try:
                frames = packet.decode()
            except av.error.FFmpegError:
                if n == 0:
                    raise InputError(f"{p}: cannot decode the video ({stream.codec_context.name})") from None
                yield None, n / rate  # a corrupt packet: the pipeline skips it
                n += 1
                continue
            for frame in frames:
                t = float(frame.time) if frame.time is not None else n / rate
                yield frame.to_ndarray(format="bgr24"), t
                n += 1


def _video_duration(path: str | Path) -> float:
    import av

    try:
        with av.open(str(path)) as c:
            return float(c.duration / 1e6) if c.duration else 0.0
    except av.error.FFmpegError:
        return 0.0


def _calibrate(args: argparse.Namespace, frames: Iterator[tuple[Any, float]]) -> tuple[Any, list[tuple[Any, float]]]:
    """The calibration (loaded or found on the first frames) and the frames read while finding it."""
    from calibration import find_board, load_calibration
    from tracker.errors import CalibrationError

    if args.calibration:
        return load_calibration(args.calibration), []
    seen: list[tuple[Any, float]] = []
    reason = "no frames"
    for img, t in frames:
        seen.append((img, t))
        if img is not None:
            found = find_board(img, game=args.game)
            if found:
                return found, seen
            reason = getattr(found, "reason", "board not found")
        if len(seen) >= _FIND_BOARD_FRAMES:
            break
    raise CalibrationError(f"{args.video}: no board found in the first {len(seen)} frames ({reason})")


def track_json(result: Any) -> dict[str, Any]:
    """One `--tracks` line: every track's position in this frame."""
    from tracker.specs import DiscKind

    tr = result.tracks
    discs = [] if tr is None else [
        {"id": int(i), "kind": DiscKind(int(k)).label, "x_mm": round(float(x), 1), "y_mm": round(float(y), 1),
         "seen": bool(s)}
        for i, k, (x, y), s, c in zip(tr.ids, tr.kind, tr.xy_mm, tr.seen, tr.confirmed, strict=True) if c]
    return {"frame": result.frame_idx, "t": round(result.t_s, 4), "board_ok": result.board_ok, "discs": discs}


def _emit(events: Any, out: TextIO, jsonl: bool) -> None:
    for ev in events:
        line = ev.to_json()
        out.write((json.dumps(line) if jsonl else _human(line)) + "\n")
    out.flush()


def _human(line: dict[str, Any]) -> str:
    extra = {k: v for k, v in line.items() if k not in ("type", "t", "frame", "rest")}
    return f"{line['t']:9.3f}s  #{line['frame']:<6d} {line['type']:<10s} {json.dumps(extra)}"


def run(args: argparse.Namespace) -> int:
    import cv2
    from tqdm import tqdm

    from tracker.pipeline import Pipeline, PipelineConfig

    cv2.setNumThreads(1)
    frames = iter_video(args.video)
    calib, first = _calibrate(args, frames)
    # a longer re-ordering window than live use: a file has no latency budget
    pipe = Pipeline(calib, game=args.game, equipment=args.equipment, config=PipelineConfig(reorder_s=1.5))
    duration = _video_duration(args.video)
    bar = tqdm(total=duration, unit="s", file=sys.stderr, disable=args.no_progress or duration <= _PROGRESS_MIN_S,
               bar_format="{l_bar}{bar}| {n:.1f}/{total:.1f} s [{elapsed}<{remaining}]")
    tracks_out = open(args.tracks, "w", encoding="utf-8") if args.tracks else None  # noqa: SIM115
    try:
        for img, t in _chain(first, frames):
            result = pipe.process(img, t)
            _emit(result.events, sys.stdout, args.jsonl)
            if tracks_out is not None:
                tracks_out.write(json.dumps(track_json(result)) + "\n")
            bar.update(max(0.0, t - bar.n))
        _emit(pipe.finish(), sys.stdout, args.jsonl)
    finally:
        bar.close()
        if tracks_out is not None:
            tracks_out.close()
    return 0


def _chain(first: list[tuple[Any, float]], rest: Iterator[tuple[Any, float]]) -> Iterator[tuple[Any, float]]:
    yield from first
    yield from rest
