"""`boardtrack bench track`: tracking and event accuracy against simulator ground truth, and speed.

Accuracy runs a seeded suite of simulated play (`fixtures.play.simulate_play`) split into runs of a
few shots, across 30/60/120 fps, realism levels and hands. With `--detections rendered` (the
default) every frame is rendered (`fixtures.render`) and goes through the full `Pipeline` (real
detector); with `--detections truth` the detections are synthesised from the truth (noise,
dropouts, hands, false detections), which measures the tracker and event detector alone, fast.
Speed is the full pipeline (detect + track + events) on one core at 1280x720 and 1920x1080 during a
shot (the break: every disc moves), and at 1280x720 over whole clips of play (hands placing and
flicking the striker, discs at rest between shots); memory is the peak resident size of a separate
process running the pipeline over a 1920x1080 MP4.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import replace
from typing import Any

__all__ = ["add_arguments", "measure_memory", "run", "run_suite", "FLOORS"]

FLOORS = {
    "pocket_precision": 0.995, "pocket_recall": 0.995, "off_board_precision": 0.995, "off_board_recall": 0.995,
    "exact_shots": 0.98, "first_contact": 0.97, "hand_false_events": 0.0, "pipeline_peak_rss_mb_1920x1080": 400.0,
}
_CEILINGS = ("hand_false_events", "pipeline_peak_rss_mb_1920x1080")  # floors that are upper bounds
_FPS = (30.0, 60.0, 120.0)
# detector paths `--detector` chooses from: `DetectorConfig` keyword arguments
DETECTOR_PATHS: dict[str, dict[str, bool]] = {
    "still": {},
    "video": {"background": True},
    "reuse": {"reuse": True},
    "reuse-unfollowed": {"reuse": True, "reuse_follow": False},  # every change searched
}
_LEVELS = ("clean", "normal", "hard")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=["carrom", "korona"], default="carrom")
    parser.add_argument("--shots", type=int, default=200, help="shots in the accuracy suite (default 200)")
    parser.add_argument("--quick", action="store_true", help="a small suite (12 shots) and one speed run")
    parser.add_argument("--seed", type=int, default=1000, help="first seed of the suite")
    parser.add_argument("--detections", choices=["rendered", "truth"], default="rendered",
                        help="rendered frames through the real detector, or detections synthesised from truth")
    parser.add_argument("--shots-per-run", type=int, default=4)
    parser.add_argument("--no-speed", action="store_true", help="skip the speed measurement")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.add_argument("--fps", type=float, action="append", choices=list(_FPS),
                        help="only runs at this frame rate (repeatable; default all)")
    parser.add_argument("--only", type=int, nargs="+", metavar="SEED",
                        help="only the runs with these seeds (the suite's frame rate and level for each)")
    parser.add_argument("--cache", metavar="DIR", help="keep simulated play here (pickles) and reuse it")
    parser.add_argument("--cases", type=int, default=6, help="failure cases listed per category (default 6)")
    parser.add_argument("--detector", choices=sorted(DETECTOR_PATHS), default=None,
                        help="detector path of the rendered runs and the speed runs (default: the Pipeline's)")


def _run_truth(tl: Any, fps: float, seed: int) -> tuple[list[dict[str, Any]], list[tuple[Any, Any]]]:
    from service.commands._bench_track_synth import synth_frames
    from tracker.pipeline import Pipeline

    pipe = Pipeline(None, game=tl.board.game.value, equipment=tl.equipment)
    events, pairs = [], []
    for f in synth_frames(tl, fps=fps, seed=seed):
        res = pipe.process_detection(_SynthDetection(f.dets, f.is_occluded), f.dets.t_s)
        events += res.events
        pairs.append((f.truth_id, res.detections.track_id))
    events += pipe.finish()
    return [e.to_json() for e in events], pairs


class _SynthDetection:
    occluded_fraction = 0.0

    def __init__(self, discs: Any, occ: Any) -> None:
        self.discs, self.is_occluded = discs, occ


def pipeline_config(detector: str | None) -> Any:
    """`PipelineConfig` with the named detector path (None: the default config)."""
    from tracker.detect import DetectorConfig
    from tracker.pipeline import PipelineConfig

    if detector is None:
        return PipelineConfig()
    return PipelineConfig(detector=DetectorConfig(**DETECTOR_PATHS[detector]))


def _run_rendered(tl: Any, fps: float, seed: int, level: str, resolution: tuple[int, int] = (1280, 720),
                  detector: str | None = None) -> tuple[list[dict[str, Any]], list[tuple[Any, Any]]]:
    import numpy as np

    from calibration import find_board
    from fixtures.camera import sample_camera
    from fixtures.look import sample_look
    from fixtures.render import render_frames
    from tracker.pipeline import Pipeline

    rng = np.random.default_rng(seed)
    camera = sample_camera(rng, resolution=resolution)
    look = sample_look(rng, level, game=tl.board.game.value)
    pipe: Pipeline | None = None
    events, pairs = [], []
    for fr in render_frames(tl, camera, look, fps=fps, seed=seed):
        if pipe is None:
            calib = find_board(fr.image, game=tl.board.game.value)
            if not calib:
                raise RuntimeError(f"seed {seed}: board not found ({calib})")
            pipe = Pipeline(calib, game=tl.board.game.value, equipment=tl.equipment,
                            config=pipeline_config(detector))
        res = pipe.process(fr.image, fr.t_s)
        events += res.events
        pairs.append((_truth_ids(res.detections, fr.truth), res.detections.track_id))
    if pipe is not None:
        events += pipe.finish()
    return [e.to_json() for e in events], pairs


def _truth_ids(dets: Any, truth: dict[str, Any]) -> Any:
    """Nearest visible truth disc (within 12 mm) of every detection, -1 if none."""
    import numpy as np

    vis = [d for d in truth["discs"] if d["visible"] and d["x_mm"] is not None]
    if not vis or dets.xy_board is None or len(dets) == 0:
        return np.full(len(dets), -1)
    xy = np.array([[d["x_mm"], d["y_mm"]] for d in vis])
    dist = np.linalg.norm(dets.xy_board[:, None, :] - xy[None], axis=-1)
    k = dist.argmin(axis=1)
    ids = np.array([d["id"] for d in vis])[k]
    return np.where(dist[np.arange(len(k)), k] < 12.0, ids, -1)


def run_suite(*, game: str, shots: int, seed: int, detections: str, shots_per_run: int = 4,
              progress: bool = False, per_fps: dict[float, Any] | None = None,
              only_fps: tuple[float, ...] = (), cache: str | None = None,
              only_seeds: tuple[int, ...] = (), detector: str | None = None) -> tuple[Any, int]:
    """Run the accuracy suite; returns (summed `Score`, runs done).

    Run k uses seed `seed + k`, frame rate `_FPS[k % 3]` and level `_LEVELS[(k // 3) % 3]`, so a
    suite is a fixed, reproducible set of runs. `per_fps` (if given) receives a `Score` per frame
    rate; `only_fps` skips runs at other frame rates, `only_seeds` runs of other seeds; `detector`
    names the detector path of rendered runs (`DETECTOR_PATHS`; None: the Pipeline's default).
    """
    from service.commands._bench_track_score import Score, count_id_switches, score_events

    total = Score()
    n_runs = max(1, -(-shots // shots_per_run))
    done = 0
    for k in range(n_runs):
        s = seed + k
        fps, level = _FPS[k % 3], _LEVELS[(k // 3) % 3]
        if (only_fps and fps not in only_fps) or (only_seeds and s not in only_seeds):
            continue
        n = min(shots_per_run, shots - k * shots_per_run)
        tl = _play(game, n, s, cache)
        if detections == "truth":
            pred, pairs = _run_truth(tl, fps, s)
        else:
            pred, pairs = _run_rendered(tl, fps, s, level, detector=detector)
        sc = score_events(list(tl.events), pred, fps=fps, label=f"seed {s} {fps:.0f}fps {level}")
        sc.id_switches = count_id_switches(pairs)
        total.add(sc)
        done += 1
        if per_fps is not None:
            per_fps.setdefault(fps, Score()).add(sc)
        if progress:
            print(f"  run {k + 1}/{n_runs} seed {s} {fps:.0f} fps {level}: shots {sc.shots_true}, "
                  f"exact {sc.exact}, id switches {sc.id_switches}", file=sys.stderr)
    return total, done


def _play(game: str, shots: int, seed: int, cache: str | None) -> Any:
    """Simulated play (seeded), from the cache directory if it is there."""
    import pickle
    from pathlib import Path

    from fixtures.play import simulate_play
    from tracker.specs import load_equipment

    if cache is None:
        return simulate_play(game, shots=shots, seed=seed)
    path = Path(cache) / f"{game}-{shots}-{seed}.pickle"
    if path.is_file():
        with path.open("rb") as fh:
            tl = pickle.load(fh)
        # the disc set as the current data has it (a cache outlives changes to the equipment spec)
        return replace(tl, equipment=load_equipment(tl.equipment.name))
    tl = simulate_play(game, shots=shots, seed=seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:
        pickle.dump(tl, fh)
    return tl


def measure_speed(resolution: tuple[int, int], *, frames: int = 90, repeats: int = 3, seed: int = 7,
                  detector: str | None = None) -> float:
    """Full pipeline frames per second on one core during a shot: `frames` rendered frames of the
    break at 60 fps (every disc moves), CPU time of this process, median of `repeats` passes."""
    import cv2
    import numpy as np

    from calibration import find_board
    from fixtures.camera import sample_camera
    from fixtures.look import sample_look
    from fixtures.play import simulate_play
    from fixtures.render import render_frames
    from tracker.pipeline import Pipeline

    cv2.setNumThreads(1)
    tl = simulate_play("carrom", shots=1, seed=seed)
    rng = np.random.default_rng(seed)
    cam, look = sample_camera(rng, resolution=resolution), sample_look(rng, "normal")
    imgs = []
    for fr in render_frames(tl, cam, look, fps=60.0, seed=seed):
        if fr.t_s >= 0.9:  # the shot itself, not the still start
            imgs.append((fr.image, fr.t_s))
        if len(imgs) >= frames:
            break
    calib = find_board(imgs[0][0], game="carrom")
    rates = []
    for _ in range(repeats):
        pipe = Pipeline(calib, game="carrom", config=pipeline_config(detector))
        t0 = time.process_time()
        for img, t in imgs:
            pipe.process(img, t)
        rates.append(len(imgs) / (time.process_time() - t0))
    return statistics.median(rates)


def measure_play_speed(resolution: tuple[int, int], *, runs: int = 3, detector: str | None = None) -> float:
    """Full pipeline frames per second on one core over whole clips of simulated play (2 shots
    with the hands placing and flicking the striker, 30 fps; the clip `bench detect` times): the
    mean rate a live match needs, where `measure_speed` gives the rate during a shot. CPU time of
    this process, the median of `runs` passes, frames decoded outside the timed part."""
    import cv2
    import numpy as np

    from calibration import find_board
    from service.commands._bench_detect_video import render_clip
    from tracker.pipeline import Pipeline

    cv2.setNumThreads(1)
    frames = [cv2.imdecode(np.frombuffer(f, np.uint8), cv2.IMREAD_COLOR)
              for f in render_clip("carrom", 12345, resolution=resolution, fps=30.0)]
    calib = find_board(frames[0], game="carrom")
    if not calib:
        raise RuntimeError(f"play clip: board not found ({calib})")
    rates = []
    for _ in range(max(1, runs)):
        pipe = Pipeline(calib, game="carrom", config=pipeline_config(detector))
        t0 = time.process_time()
        for i, img in enumerate(frames):
            pipe.process(img, i / 30.0)
        rates.append(len(frames) / (time.process_time() - t0))
    return statistics.median(rates)


_MEMORY_CHILD = """
import sys
from calibration import load_calibration
from service.commands.track import iter_video
from tracker.pipeline import Pipeline
pipe = Pipeline(load_calibration(sys.argv[2]), game="carrom")
n = 0
for img, t in iter_video(sys.argv[1]):
    pipe.process(img, t)
    n += 1
pipe.finish()
# VmHWM: this process's own peak (getrusage's ru_maxrss keeps the forking parent's size across exec)
hwm = [line for line in open("/proc/self/status") if line.startswith("VmHWM:")]
print(n, int(hwm[0].split()[1]) if hwm else -1)
"""


def measure_memory(resolution: tuple[int, int], *, frames: int = 90, seed: int = 7) -> float:
    """Peak resident memory (MB) of a process that runs the pipeline over a video file.

    A clip of `frames` rendered frames is written to an MP4 in a temporary folder; a fresh Python
    process decodes it frame by frame and runs the full pipeline (detect, track, events) as
    `boardtrack track` does, and reports its own peak RSS (VmHWM, Linux). That figure includes the
    interpreter, numpy/OpenCV/PyAV and the decoder, but not the benchmark's own frame buffers.
    """
    import subprocess
    import tempfile
    from pathlib import Path

    import numpy as np

    from calibration import find_board
    from fixtures.camera import sample_camera
    from fixtures.look import sample_look
    from fixtures.play import simulate_play
    from fixtures.render import render_frames
    from fixtures.video import Mp4Writer

    tl = simulate_play("carrom", shots=1, seed=seed)
    rng = np.random.default_rng(seed)
    cam, look = sample_camera(rng, resolution=resolution), sample_look(rng, "normal")
    with tempfile.TemporaryDirectory() as tmp:
        video, calib_path = Path(tmp) / "clip.mp4", Path(tmp) / "calib.json"
        with Mp4Writer(video, fps=60.0, width=resolution[0], height=resolution[1]) as out:
            for k, fr in enumerate(render_frames(tl, cam, look, fps=60.0, seed=seed)):
                if k == 0:
                    calib = find_board(fr.image, game="carrom")
                    if not calib:
                        raise RuntimeError(f"memory clip: board not found ({calib})")
                    calib.save(calib_path)
                out.write(fr.image)
                if k + 1 >= frames:
                    break
        done = subprocess.run([sys.executable, "-c", _MEMORY_CHILD, str(video), str(calib_path)],
                              capture_output=True, text=True, check=True)
    return int(done.stdout.split()[-1]) / 1024.0  # VmHWM is in KiB


def run(args: argparse.Namespace) -> int:
    if args.game == "korona":
        return _run_korona(args)
    shots = 12 if args.quick else args.shots
    t0 = time.time()
    per_fps: dict[float, Any] = {}
    score, n_runs = run_suite(game=args.game, shots=shots, seed=args.seed, detections=args.detections,
                              shots_per_run=args.shots_per_run, progress=not args.json, per_fps=per_fps,
                              only_fps=tuple(args.fps or ()), cache=args.cache,
                              only_seeds=tuple(args.only or ()), detector=args.detector)
    out: dict[str, Any] = {"game": args.game, "shots": score.shots_true, "runs": n_runs,
                           "detections": args.detections, "detector": args.detector or "default",
                           **{k: round(v, 4) for k, v in score.ratios().items()}}
    if args.game != "korona":
        out.pop("direct_rebound")
        out.pop("first_disc")
    out["accuracy_s"] = round(time.time() - t0, 1)
    if not args.no_speed:
        reps = 1 if args.quick else 3
        out["fps_1280x720"] = round(measure_speed((1280, 720), repeats=reps, detector=args.detector), 1)
        out["fps_1920x1080"] = round(measure_speed((1920, 1080), repeats=reps, detector=args.detector), 1)
        out["fps_play_1280x720"] = round(measure_play_speed((1280, 720), runs=reps, detector=args.detector), 1)
    if not args.no_speed:
        # the pipeline's own peak memory: a separate process decoding a 1920x1080 MP4 (this process
        # holds pre-rendered frames for the speed runs, so its own peak says nothing about the pipeline)
        out["pipeline_peak_rss_mb_1920x1080"] = round(measure_memory((1920, 1080)), 1)
    below = [
        k for k, floor in FLOORS.items()
        if k in out and (out[k] > floor if k in _CEILINGS else out[k] < floor)
    ]
    out["below_floor"] = below
    out["by_fps"] = {f"{fps:.0f}": {k: round(v, 4) for k, v in sc.ratios().items() if k in _BREAKDOWN} | {
        "shots": sc.shots_true} for fps, sc in sorted(per_fps.items())}
    out["cases"] = score.buckets()
    out["failures"] = {cat: len(cases) for cat, cases in out["cases"].items()}
    return print_report(out, args)


def print_report(out: dict[str, Any], args: argparse.Namespace) -> int:
    """Print a `bench track` report: as one JSON object with `--json` (the failure counts by
    category, not the cases), else a figure a line, the figures by frame rate, and the failure
    categories, each with its first `--cases` cases."""
    cases: dict[str, list[str]] = out.pop("cases")
    if args.json:
        print(json.dumps(out))
        return 0
    for k, v in out.items():
        if k not in ("by_fps", "failures"):
            print(f"{k:24s} {v}")
    if "by_fps" in out:
        print("by frame rate:")
        for fps, row in out["by_fps"].items():
            print(f"  {fps:>4s} fps  " + "  ".join(f"{k}={v}" for k, v in row.items()))
    print("failures by category (cases behind the floors first, then largest first):" if args.game == "korona"
          else "failures by category (largest first):")
    for cat, lines in cases.items():
        print(f"  {cat}: {len(lines)}")
        for line in lines[: args.cases]:
            print("      " + line)
    return 0


_BREAKDOWN = ("pocket_precision", "pocket_recall", "off_board_precision", "off_board_recall", "segmentation",
              "first_contact", "exact_shots", "hand_false_events", "rest_right")


def _run_korona(args: argparse.Namespace) -> int:
    """The korona figures (`service.commands._bench_track_korona.korona_report`)."""
    from service.commands._bench_track_korona import korona_report

    return print_report(korona_report(args), args)