"""`boardtrack calibrate lens|board`.

    boardtrack calibrate lens --images 'chess/*.jpg' [--pattern 9x6] --out lens.json
    boardtrack calibrate board --source VIDEO_OR_IMAGE --game carrom [--lens lens.json]
        [--equipment icf] [--learn-colours] --out calib.json

`board` finds the board in the first usable frame of the source; with `--learn-colours` the
frame must show the starting formation and the coin colours are measured on it.
"""

from __future__ import annotations

import argparse
import glob
import json
from pathlib import Path
from typing import Any

__all__ = ["add_arguments", "run", "first_frame"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="what", metavar="WHAT", required=True)
    lens = sub.add_parser("lens", help="lens intrinsics from chessboard photos (OpenCV calibration)")
    lens.add_argument("--images", required=True, help="glob of chessboard photos")
    lens.add_argument("--pattern", default="9x6", help="inner corners per row x column (default 9x6)")
    lens.add_argument("--square-mm", type=float, default=25.0)
    lens.add_argument("--out", required=True)
    board = sub.add_parser("board", help="find the board and save everything the tracker needs")
    board.add_argument("--source", required=True, help="image or video")
    board.add_argument("--game", choices=["carrom", "korona"], default="carrom")
    board.add_argument("--lens", help="lens JSON from `calibrate lens` (default: estimate from the board)")
    board.add_argument("--equipment", help="disc set: icf, home, korona")
    board.add_argument(
        "--learn-colours",
        action="store_true",
        help="measure coin colours on the starting formation shown in the frame",
    )
    board.add_argument("--out", required=True)


def first_frame(source: str) -> Any:
    """The image, or the first frame of a video, as (H, W, 3) uint8 BGR. Raises InputError."""
    from service.commands.detect import read_image
    from tracker.errors import InputError

    p = Path(source)
    if not p.is_file():
        raise InputError(f"{p}: no such file")
    if p.suffix.lower() in {".mp4", ".mov", ".avi", ".mkv", ".webm", ".m4v"}:
        import av

        try:
            with av.open(str(p)) as container:
                for frame in container.decode(video=0):
                    return frame.to_ndarray(format="bgr24")
        except (av.error.FFmpegError, ValueError) as exc:  # type: ignore[attr-defined]
            raise InputError(f"{p}: cannot decode video: {exc}") from None
        raise InputError(f"{p}: video has no frames")
    return read_image(p)


def _run_lens(args: argparse.Namespace) -> int:
    import cv2

    from calibration import calibrate_lens_from_chessboards
    from tracker.errors import InputError

    try:
        cols, rows = (int(v) for v in args.pattern.lower().split("x"))
    except ValueError:
        raise InputError(f"--pattern must look like 9x6, got {args.pattern!r}") from None
    files = sorted(glob.glob(args.images))
    if not files:
        raise InputError(f"no files match {args.images!r}")
    images = [img for img in (cv2.imread(f) for f in files) if img is not None]
    lens, rms = calibrate_lens_from_chessboards(images, pattern=(cols, rows), square_mm=args.square_mm)
    Path(args.out).write_text(
        json.dumps({"version": 1, "kind": "lens", "rms_px": rms, **lens.to_dict()}, indent=1)
    )
    print(json.dumps({"out": args.out, "rms_px": round(rms, 4), "images_used": len(images)}))
    return 0


def _load_lens(path: str) -> Any:
    from calibration import LensModel
    from tracker.errors import CalibrationError

    try:
        d = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise CalibrationError(f"cannot read lens file {path}: {exc}") from None
    if d.get("version") != 1 or d.get("kind") != "lens":
        raise CalibrationError(f"{path}: not a version-1 lens file from `boardtrack calibrate lens`")
    return LensModel.from_dict(d)


def _run_board(args: argparse.Namespace) -> int:
    from calibration import find_board
    from calibration.learn import learn_from_formation
    from tracker.errors import CalibrationError

    frame = first_frame(args.source)
    lens = _load_lens(args.lens) if args.lens else None
    calib = find_board(frame, game=args.game, lens=lens)
    if not calib:
        raise CalibrationError(f"board not found in {args.source}: {calib.reason}")
    calib = calib.with_(equipment=args.equipment)
    if args.learn_colours:
        calib = learn_from_formation(calib, frame)
    calib.save(args.out)
    print(
        json.dumps(
            {
                "out": args.out,
                "corners_px": calib.corners_px.round(2).tolist(),
                "score": round(calib.score, 3),
                "lens": calib.lens is not None,
                "notes": list(calib.notes),
            }
        )
    )
    return 0


def run(args: argparse.Namespace) -> int:
    return _run_lens(args) if args.what == "lens" else _run_board(args)
