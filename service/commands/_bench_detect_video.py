"""Video-path part of `boardtrack bench detect`: two frames of one camera view (same camera,
look, board texture and lighting, different discs and noise); the detector learns the board's
background from the first and is scored on the second."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

__all__ = ["evaluate_video", "render_pair", "speed"]


def render_pair(
    game: str,
    seed: int,
    *,
    level: str = "normal",
    layout: str = "scatter",
    hands: bool = False,
    resolution: tuple[int, int] = (1280, 720),
) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    """(first frame, second frame, truth of the second frame).

    The second frame shows what `render_still(game, seed, layout=layout, hands=hands)` shows
    (same camera, look and discs; layout "empty": no discs); the first shows the other layout
    (scatter for "empty") and no hands.
    """
    import cv2

    from fixtures._layouts import break_layout, random_hands, scatter_layout
    from fixtures.camera import sample_camera
    from fixtures.look import sample_look
    from fixtures.render import render_frames
    from fixtures.scene import CUE_FIELDS, HAND_FIELDS, DiscState, Timeline
    from tracker.specs import DiscKind, default_equipment, load_board

    board, eq = load_board(game), default_equipment(game)
    rngs = [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(5)]
    camera = sample_camera(rngs[0], resolution=resolution, board=board)
    look = sample_look(rngs[1], level, game=board.game.value)

    def empty_layout(*_: object) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros(0, np.int8), np.zeros((0, 2))

    layouts = {"break": break_layout, "scatter": scatter_layout, "empty": empty_layout}
    kinds_b, xy_b = layouts[layout](board, eq, rngs[2])
    hand_rows = random_hands(board, rngs[2], int(rngs[2].integers(1, 3))) if hands else None
    kinds_a, xy_a = layouts["break" if layout == "scatter" else "scatter"](board, eq, rngs[4])
    na, nb = len(kinds_a), len(kinds_b)
    kinds = np.concatenate([kinds_a, kinds_b]).astype(np.int8)
    ids = np.concatenate([np.arange(na) + 1000, np.arange(nb)])
    ids = np.where(kinds == DiscKind.STRIKER, np.where(np.arange(na + nb) < na, 1100, 100), ids)
    xy = np.concatenate([xy_a, xy_b]).astype(np.float32)
    on, off = DiscState.ON_BOARD, DiscState.POCKETED
    state = np.array([[on] * na + [off] * nb, [off] * na + [on] * nb], np.int8)
    hrows = np.zeros((0, len(HAND_FIELDS)), np.float32) if hand_rows is None else hand_rows
    tl = Timeline(
        board=board,
        equipment=eq,
        disc_id=ids.astype(np.int32),
        kind=kinds,
        t_s=np.array([0.0, 1.0 / 30.0]),
        xy_mm=np.stack([xy, xy]),
        angle_rad=np.zeros((2, na + nb), np.float32),
        state=state,
        hands=np.stack([np.zeros_like(hrows), hrows]).astype(np.float32),
        cue=np.zeros((2, len(CUE_FIELDS)), np.float32),
        meta={"scenario": "pair"},
    )
    frames = list(render_frames(tl, camera, look, fps=30.0, seed=int(rngs[3].integers(2**31))))
    images = [f.image for f in frames]
    if look.jpeg_quality is not None:
        q = [cv2.IMWRITE_JPEG_QUALITY, look.jpeg_quality]
        images = [cv2.imdecode(cv2.imencode(".jpg", im, q)[1], cv2.IMREAD_COLOR) for im in images]
    return images[0], images[1], dict(frames[1].truth)


def evaluate_video(
    first: np.ndarray, second: np.ndarray, truth: dict[str, Any], *, game: str
) -> dict[str, Any]:
    """Calibrate on the first frame, detect it (learning the background), score the second."""
    from calibration import find_board
    from service.commands.bench_detect import score_discs
    from tracker.detect import Detector, DetectorConfig

    calib = find_board(first, game=game)
    visible = [d for d in truth["discs"] if d["where"] == "board" and d.get("visible", True)]
    out: dict[str, Any] = {"found": bool(calib), "n_truth": len(visible), "corner_px": None}
    if not calib:
        out.update(reason=calib.reason, tp=0, n_det=0, kind_ok=0, err_mm=[])
        return out
    det = Detector(calib, config=DetectorConfig(background=True))
    det.detect(first)
    out.update(score_discs(det.detect(second).discs, visible))
    return out


def speed(game: str, runs: int) -> dict[str, float]:
    """Detection-only frames per second at 1280x720 and 1920x1080 for the video path (background
    learned from the first frame of a pair) and the still path."""
    from calibration import find_board
    from tracker.detect import Detector, DetectorConfig

    out = {}
    for res in ((1280, 720), (1920, 1080)):
        first, second, _ = render_pair(game, 12345, resolution=res, level="normal", layout="scatter")
        calib = find_board(first, game=game)
        if not calib:
            continue
        for name, cfg in (("video", DetectorConfig(background=True)), ("still", DetectorConfig())):
            det = Detector(calib, config=cfg)
            det.detect(first)
            det.detect(second)
            times = []
            for _ in range(runs):
                t0 = time.perf_counter()
                for _ in range(20):
                    det.detect(second)
                times.append((time.perf_counter() - t0) / 20)
            med = float(np.median(times))
            out[f"{name}_{res[0]}x{res[1]}_ms"] = 1000.0 * med
            out[f"{name}_{res[0]}x{res[1]}_fps"] = 1.0 / med
    return out
