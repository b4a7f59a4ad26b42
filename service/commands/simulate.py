"""`boardtrack simulate`: synthetic footage of simulated play with exact ground truth.

Example:
    boardtrack simulate --game carrom --shots 10 --seed 7 --resolution 1280x720 --fps 30 --out runs/c7

writes `runs/c7/video.mp4` (or `frames/*.png` with `--format png`), `truth.jsonl` and
`events.jsonl`. The same seed gives the same truth and the same frames before compression.
"""

from __future__ import annotations

import argparse
import sys

from tracker.errors import ConfigError

__all__ = ["add_arguments", "run", "parse_resolution"]


def parse_resolution(text: str) -> tuple[int, int]:
    """ "1280x720" -> (1280, 720); raises `ConfigError` on anything else."""
    parts = text.lower().split("x")
    try:
        w, h = (int(p) for p in parts)
    except ValueError:
        raise ConfigError(f"resolution must look like 1280x720, got {text!r}") from None
    return w, h


def _number(text: str, name: str, kind: type) -> float:
    try:
        return kind(text)  # type: ignore[no-any-return]
    except ValueError:
        raise ConfigError(f"{name} must be a number, got {text!r}") from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default="carrom", help="carrom or korona (default: carrom)")
    parser.add_argument("--shots", default="3", help="number of strokes to play (default: 3)")
    parser.add_argument(
        "--seed", default="0", help="random seed; the same seed gives the same run (default: 0)"
    )
    parser.add_argument(
        "--resolution", default="1280x720", help="WIDTHxHEIGHT, e.g. 1280x720, 1536x864, 1920x1080"
    )
    parser.add_argument("--fps", default="30", help="frames per second, e.g. 30, 60, 120 (default: 30)")
    parser.add_argument("--level", default="normal", help="realism: clean, normal or hard (default: normal)")
    parser.add_argument(
        "--format", dest="fmt", default="mp4", help="mp4 (H.264) or png frames (default: mp4)"
    )
    parser.add_argument(
        "--preset",
        default="ultrafast",
        help="x264 preset: ultrafast (fastest, default) .. veryfast (smaller files) .. slow",
    )
    parser.add_argument("--no-hands", action="store_true", help="play without hands over the board")
    parser.add_argument("--out", required=True, help="output directory")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from fixtures.run import check_args, simulate_to_dir

    shots = int(_number(args.shots, "--shots", int))
    seed = int(_number(args.seed, "--seed", int))
    fps = float(_number(args.fps, "--fps", float))
    resolution = parse_resolution(args.resolution)
    check_args(args.game, shots, resolution, fps, args.level, args.fmt, args.preset)
    bar = tqdm(desc="simulating", unit="frame", file=sys.stderr, disable=args.quiet, leave=False)

    def on_timeline(tl: object) -> None:
        bar.set_description("rendering")
        bar.total = int(getattr(tl, "duration_s", 0.0) * fps) + 1
        bar.refresh()

    try:
        res = simulate_to_dir(
            args.out,
            game=args.game,
            shots=shots,
            seed=seed,
            resolution=resolution,
            fps=fps,
            level=args.level,
            fmt=args.fmt,
            hands=not args.no_hands,
            preset=args.preset,
            progress=bar.update,
            on_timeline=on_timeline,
        )
    finally:
        bar.close()
    print(f"clip:   {res.clip_path}")
    print(f"truth:  {res.truth_path}")
    print(f"events: {res.events_path}")
    print(f"{res.n_frames} frames, {res.duration_s:.1f} s at {fps:g} fps")
    return 0
