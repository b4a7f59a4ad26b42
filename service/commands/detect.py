"""`boardtrack detect IMAGE [--game carrom|korona] [--calibration calib.json] [--equipment NAME] --json`.

Finds the board (or uses a saved calibration) and every disc in one image; prints one JSON
object (see `detection_json`).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

__all__ = ["add_arguments", "run", "read_image", "detection_json"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", help="image file (JPEG, PNG, ...)")
    parser.add_argument("--game", choices=["carrom", "korona"], default="carrom")
    parser.add_argument("--calibration", help="calibration JSON from `boardtrack calibrate board`")
    parser.add_argument("--equipment", help="disc set: icf, home, korona (default: the game's)")
    parser.add_argument("--json", action="store_true", help="print one JSON object (the default output)")


def read_image(path: str | Path) -> Any:
    """Read an image as (H, W, 3) uint8 BGR. Raises InputError for anything unusable."""
    import cv2
    import numpy as np

    from tracker.errors import InputError

    p = Path(path)
    if not p.is_file():
        raise InputError(f"{p}: no such file")
    data = np.fromfile(str(p), dtype=np.uint8)
    if data.size == 0:
        raise InputError(f"{p}: empty file")
    img = cv2.imdecode(data, cv2.IMREAD_COLOR)
    if img is None or img.size == 0:
        raise InputError(f"{p}: not a readable image")
    if min(img.shape[:2]) < 16:
        raise InputError(f"{p}: image too small ({img.shape[1]}x{img.shape[0]})")
    return img


def detection_json(game: str, image_shape: tuple[int, ...], calib: Any, detection: Any) -> dict[str, Any]:
    """The stable `boardtrack detect --json` object for a calibration (or Failed) and a Detection."""
    h, w = image_shape[:2]
    out: dict[str, Any] = {"game": game, "image": {"width": int(w), "height": int(h)}}
    if not calib:
        out["board"] = {
            "found": False,
            "corners_px": None,
            "image_to_board": None,
            "score": 0.0,
            "reason": getattr(calib, "reason", "board not found"),
        }
        out["discs"] = []
        out["occluded_fraction"] = 0.0
        return out
    out["board"] = {
        "found": True,
        "corners_px": [[round(float(x), 2), round(float(y), 2)] for x, y in calib.corners_px],
        "image_to_board": [[float(v) for v in row] for row in calib.image_to_board],
        "score": round(float(min(max(calib.score, 0.0), 1.0)), 4),
        "reason": None,
    }
    d = detection.discs
    out["discs"] = [
        {
            "kind": ("white", "black", "queen", "striker")[int(k)],
            "x_mm": round(float(xy[0]), 2),
            "y_mm": round(float(xy[1]), 2),
            "u_px": round(float(uv[0]), 2),
            "v_px": round(float(uv[1]), 2),
            "score": round(float(s), 4),
            "flags": int(f),
        }
        for k, xy, uv, s, f in zip(d.kind, d.xy_board, d.xy_img, d.score, d.flags, strict=True)
    ]
    out["occluded_fraction"] = round(float(detection.occluded_fraction), 4)
    return out


def run(args: argparse.Namespace) -> int:
    from calibration import find_board, load_calibration
    from tracker.detect import Detector
    from tracker.errors import CalibrationError

    img = read_image(args.image)
    if args.calibration:
        calib = load_calibration(args.calibration)
        if calib.image_size != (img.shape[1], img.shape[0]):
            raise CalibrationError(
                f"calibration is for {calib.image_size[0]}x{calib.image_size[1]} images, "
                f"{args.image} is {img.shape[1]}x{img.shape[0]}"
            )
        game = calib.game
    else:
        game = args.game
        calib = find_board(img, game=game)
    detection = Detector(calib, equipment=args.equipment).detect(img) if calib else None
    print(json.dumps(detection_json(game, img.shape, calib, detection)))
    return 0
