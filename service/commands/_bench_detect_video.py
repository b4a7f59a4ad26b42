"""Video-path part of `boardtrack bench detect`: two frames of one camera view (same camera,
look, board texture and lighting, different discs and noise); the detector learns the board's
background from the first and is scored on the second."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

__all__ = ["SPEED_CLIPS", "evaluate_video", "render_clip", "render_pair", "speed", "time_clip"]


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


# (resolution, frame rate) of the speed clips
SPEED_CLIPS = (((1280, 720), 30.0), ((1280, 720), 60.0), ((1920, 1080), 30.0), ((1920, 1080), 60.0))


def render_clip(
    game: str, seed: int, *, resolution: tuple[int, int], fps: float, shots: int = 2, max_frames: int = 800
) -> list[bytes]:
    """Frames of seeded simulated play (with hands), JPEG-encoded (quality 95) to keep memory
    small: a 1080p frame is 6 MB raw, about 0.3 MB encoded."""
    import cv2

    from fixtures.camera import sample_camera
    from fixtures.look import sample_look
    from fixtures.play import simulate_play
    from fixtures.render import render_frames
    from tracker.specs import load_board

    tl = simulate_play(game, shots=shots, seed=seed, hands=True)
    rng = np.random.default_rng(seed)
    camera = sample_camera(rng, resolution=resolution, board=load_board(game))
    look = sample_look(rng, "normal", game=game)
    out = []
    for fr in render_frames(tl, camera, look, fps=fps, seed=seed):
        out.append(cv2.imencode(".jpg", fr.image, [cv2.IMWRITE_JPEG_QUALITY, 95])[1].tobytes())
        if len(out) >= max_frames:
            break
    return out


def time_clip(frames: list[bytes], calib: Any, config: Any, *, fps: float = 30.0) -> np.ndarray:
    """CPU seconds of `Detector.detect` on every frame after the first (one fresh detector,
    calibrated on the clip's first frame; frames decoded outside the timed part)."""
    import cv2

    from tracker.detect import Detector

    det = Detector(calib, config=config)
    out = np.zeros(len(frames))
    for i, data in enumerate(frames):
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        t0 = time.process_time()
        det.detect(image, t_s=i / fps, frame_idx=i)
        out[i] = time.process_time() - t0
    return out[1:]


def speed(
    game: str, runs: int, *, clips: tuple[tuple[tuple[int, int], float], ...] = SPEED_CLIPS
) -> dict[str, dict[str, float]]:
    """Detection-only speed on one core over whole clips of simulated play (2 shots, hands).

    Per clip (resolution, frame rate) and path: the change-driven still path the Pipeline uses
    ("reuse": mean frames per second over the clip, and the median, 95th-percentile and
    largest single-frame time), the video path ("full", every frame detected whole against the
    learned background) and the still path on every frame whole ("still"). Times are CPU time
    of this single-threaded process (on a busy machine wall time counts other processes too),
    the median over `runs` passes, each with a fresh detector.
    """
    import cv2

    from calibration import find_board
    from tracker.detect import DetectorConfig

    paths = {
        "reuse": DetectorConfig(reuse=True),
        "full": DetectorConfig(background=True),
        "still": DetectorConfig(),
    }
    out: dict[str, dict[str, float]] = {}
    for res, fps in clips:
        frames = render_clip(game, 12345, resolution=res, fps=fps)
        calib = find_board(cv2.imdecode(np.frombuffer(frames[0], np.uint8), cv2.IMREAD_COLOR), game=game)
        if not calib:
            continue
        row: dict[str, float] = {"frames": float(len(frames))}
        for name, cfg in paths.items():
            passes = [time_clip(frames, calib, cfg, fps=fps) for _ in range(max(1, runs if name != "still" else 1))]
            t = passes[int(np.argsort([p.sum() for p in passes])[len(passes) // 2])]
            row[f"{name}_fps"] = len(t) / t.sum()
            if name == "reuse":
                row.update(reuse_p50_ms=1e3 * float(np.median(t)), reuse_p95_ms=1e3 * float(np.percentile(t, 95)))
                row["reuse_max_ms"] = 1e3 * float(t.max())
        out[f"{res[0]}x{res[1]} {fps:.0f}fps"] = row
    return out
