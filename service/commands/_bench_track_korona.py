"""Korona figures of `boardtrack bench track --game korona`.

Three parts, all seeded:

- `run_korona`: the carrom figures (pockets, discs off the board, shot segmentation, first contact)
  on a suite of simulated korona play, through the full `Pipeline` (rendered frames or detections
  synthesised from truth), plus the korona stroke classification on the matched shots: direct or
  rebound, the first cushion of a rebound, the first disc's kind.
- `facts_suite`: the korona stroke analysis alone (tracker/events/_korona.py) on strokes sampled
  from the simulator's truth at 30/60/120 fps with detection noise and dropouts; separates its
  accuracy from the tracker's.
- `measure_speed_game`: full-pipeline frames per second on korona footage, compared with carrom's.

Floors (issue 7): pockets and discs off the board >= 99.5 % precision and recall, direct/rebound
and first disc >= 97 %, korona speed within 20 % of carrom's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "KORONA_FLOORS",
    "KoronaScore",
    "facts_suite",
    "korona_report",
    "measure_speed_game",
    "run_korona",
    "score_korona",
    "shot_arrays",
]

KORONA_FLOORS = {
    "pocket_precision": 0.995,
    "pocket_recall": 0.995,
    "off_board_precision": 0.995,
    "off_board_recall": 0.995,
    "direct_rebound": 0.97,
    "first_disc": 0.97,
    "speed_vs_carrom": 0.8,
}
_FPS = (30.0, 60.0, 120.0)
_LEVELS = ("clean", "normal", "hard")


@dataclass
class KoronaScore:
    """Korona stroke classification counts, summed over runs (shots matched by start time)."""

    shots_true: int = 0
    matched: int = 0
    type_ok: int = 0
    disc_ok: int = 0
    cushion_ok: int = 0
    rebounds_true: int = 0
    rebound_missed: int = 0
    rebound_false: int = 0
    cases: list[tuple[str, str]] = field(default_factory=list)

    def add(self, other: KoronaScore) -> None:
        for k, v in vars(other).items():
            if k == "cases":
                self.cases.extend(v)
            else:
                setattr(self, k, getattr(self, k) + v)

    def ratios(self) -> dict[str, float]:
        def r(a: int, b: int) -> float:
            return a / b if b else 1.0

        return {
            "direct_rebound": r(self.type_ok, self.shots_true),
            "first_disc": r(self.disc_ok, self.shots_true),
            "direct_rebound_matched": r(self.type_ok, self.matched),
            "first_disc_matched": r(self.disc_ok, self.matched),
            "first_cushion_matched": r(self.cushion_ok, self.matched),
            "rebounds_missed": r(self.rebound_missed, self.rebounds_true) if self.rebounds_true else 0.0,
            "rebounds_false": float(self.rebound_false),
        }


def score_korona(
    truth: Sequence[dict[str, Any]], pred: Sequence[dict[str, Any]], *, fps: float, label: str = ""
) -> KoronaScore:
    """Compare the korona keys of predicted and true shot_end events of one run (contract-1 dicts)."""
    sc = KoronaScore()
    tol = 3.0 / fps + 1e-6
    p_start = {e["shot"]: e["t"] for e in pred if e["type"] == "shot_start"}
    p_end = {e["shot"]: e for e in pred if e["type"] == "shot_end"}
    used: set[int] = set()
    for start in (e for e in truth if e["type"] == "shot_start"):
        end = next((e for e in truth if e["type"] == "shot_end" and e["shot"] == start["shot"]), None)
        if end is None:
            continue
        sc.shots_true += 1
        sc.rebounds_true += end.get("stroke") == "rebound"
        cands = [n for n, t in p_start.items() if n not in used and abs(t - start["t"]) <= tol and n in p_end]
        if not cands:
            continue
        used.add(cands[0])
        got = p_end[cands[0]]
        sc.matched += 1
        sc.type_ok += got.get("stroke") == end.get("stroke")
        sc.disc_ok += got.get("first_disc") == end.get("first_disc")
        sc.cushion_ok += got.get("first_cushion") == end.get("first_cushion")
        sc.rebound_missed += end.get("stroke") == "rebound" and got.get("stroke") == "direct"
        sc.rebound_false += end.get("stroke") == "direct" and got.get("stroke") == "rebound"
        if got.get("stroke") != end.get("stroke") or got.get("first_disc") != end.get("first_disc"):
            sc.cases.append((
                "stroke wrong",
                f"{label} shot {start['shot']}: truth {end.get('stroke')} {end.get('first_cushion')} "
                f"{end.get('first_disc')} pred {got.get('stroke')} {got.get('first_cushion')} "
                f"{got.get('first_disc')}",
            ))
    return sc


_MINOR_CASES = ("rest wrong", "placed false", "placed missed")


def floors_first(cases: list[tuple[str, str]]) -> dict[str, list[str]]:
    """Failure cases (category, text) by category: the categories behind the floors first, then
    rest lists and placed discs (no floors, and so many they would crowd the others out of a
    short list); largest first within each.

    Examples:
        >>> floors_first([("rest wrong", "a"), ("stroke wrong", "b"), ("pocketed missed", "c"),
        ...               ("rest wrong", "d"), ("pocketed missed", "e")])
        {'pocketed missed': ['c', 'e'], 'stroke wrong': ['b'], 'rest wrong': ['a', 'd']}
    """
    out: dict[str, list[str]] = {}
    for cat, text in cases:
        out.setdefault(cat, []).append(text)
    return dict(sorted(out.items(), key=lambda kv: (kv[0] in _MINOR_CASES, -len(kv[1]))))


def run_korona(
    *,
    shots: int,
    seed: int,
    detections: str,
    shots_per_run: int = 4,
    progress: bool = False,
    detector: str | None = None,
    cache: str | None = None,
    only_fps: tuple[float, ...] = (),
    only_seeds: tuple[int, ...] = (),
) -> tuple[Any, KoronaScore, int]:
    """The accuracy suite on korona play; returns (carrom `Score`, `KoronaScore`, runs).
    `detector` names the detector path of rendered runs (`bench_track.DETECTOR_PATHS`; None:
    the Pipeline's default for korona); `cache`, a folder where simulated play is kept;
    `only_fps` skips runs at other frame rates, `only_seeds` runs of other seeds (as for carrom,
    `bench_track.run_suite`)."""
    from service.commands._bench_track_score import Score, count_id_switches, score_events
    from service.commands.bench_track import _play, _run_rendered, _run_truth

    total, kor = Score(), KoronaScore()
    n_runs = max(1, -(-shots // shots_per_run))
    done = 0
    for k in range(n_runs):
        s = seed + k
        fps, level = _FPS[k % 3], _LEVELS[(k // 3) % 3]
        if (only_fps and fps not in only_fps) or (only_seeds and s not in only_seeds):
            continue
        tl = _play("korona", min(shots_per_run, shots - k * shots_per_run), s, cache)
        if detections == "truth":
            pred, pairs = _run_truth(tl, fps, s)
        else:
            pred, pairs = _run_rendered(tl, fps, s, level, detector=detector)
        label = f"seed {s} {fps:.0f}fps {level}"
        sc = score_events(list(tl.events), pred, fps=fps, label=label)
        sc.id_switches = count_id_switches(pairs)
        total.add(sc)
        kor.add(score_korona(list(tl.events), pred, fps=fps, label=label))
        done += 1
        if progress:
            print(
                f"  run {k + 1}/{n_runs} seed {s} {fps:.0f} fps {level}: shots {sc.shots_true}",
                file=sys.stderr,
            )
    return total, kor, done


def shot_arrays(
    tl: Any,
    start: dict[str, Any],
    end: dict[str, Any],
    *,
    fps: float,
    rng: Any,
    noise_mm: float = 0.7,
    p_drop: float = 0.02,
) -> dict[str, Any]:
    """One stroke of a simulator `Timeline` sampled at `fps` as the tracker hands it over: the
    keyword arguments of `tracker.events._korona.korona_facts` (track ids = the simulator's ids).

    Positions get Gaussian noise (`noise_mm`), detections are lost at random (`p_drop`) and to
    motion blur; the window runs from 0.3 s before the stroke's start to its end.
    """
    import numpy as np

    from fixtures.scene import DiscState

    t0, t1 = float(start["t"]), float(end["t"])
    t_s = np.arange(np.ceil((t0 - 0.3) * fps), np.floor(t1 * fps) + 1) / fps
    rows = np.clip(np.round(t_s * tl.rate_hz).astype(int), 0, len(tl.t_s) - 1)
    xy = tl.xy_mm[rows].astype(np.float64).transpose(1, 0, 2).copy()
    xy[tl.state[rows].T != DiscState.ON_BOARD] = np.nan
    prev = np.clip(rows - int(round(tl.rate_hz / fps)), 0, None)
    blur = np.hypot(*(tl.xy_mm[rows] - tl.xy_mm[prev]).astype(np.float64).transpose(2, 1, 0))
    drop = p_drop + 0.3 * np.clip(blur / (2 * tl.equipment.radii_mm(tl.kind)[:, None]) - 1.0, 0.0, 1.0)
    xy[rng.random(drop.shape) < drop] = np.nan
    xy += rng.normal(0.0, noise_mm, xy.shape)

    def at(t: float) -> np.ndarray:
        row = min(int(round(t * tl.rate_hz)), len(tl.t_s) - 1)
        out = tl.xy_mm[row].astype(np.float64) + rng.normal(0.0, 0.3, (len(tl.disc_id), 2))
        out[tl.state[row] != DiscState.ON_BOARD] = np.nan
        return out

    before, after = at(t0 - 0.05), at(t1)
    last = tl.state[min(int(round(t1 * tl.rate_hz)), len(tl.t_s) - 1)]
    fate = np.array(["board", "pocketed", "off_board", "board"])[last]
    keep = np.isfinite(before[:, 0]) | np.isfinite(xy[..., 0]).any(axis=1)
    return {
        "ids": tl.disc_id[keep],
        "kinds": tl.kind[keep],
        "t_s": t_s,
        "xy_mm": xy[keep],
        "before_mm": before[keep],
        "after_mm": after[keep],
        "fate": tuple(fate[keep].tolist()),
        "side": str(start["side"]),
        "t_start_s": t0,
    }


def facts_suite(*, shots: int, seed: int) -> dict[str, float]:
    """Accuracy of the korona stroke analysis alone, on truth-sampled strokes (6-shot runs at
    30, 60, 120 fps in turn): direct/rebound, first disc kind, first disc id."""
    import numpy as np

    from fixtures.play import simulate_play
    from tracker.events._korona import korona_facts

    n = ok_type = ok_kind = ok_id = 0
    for k in range(max(1, -(-shots // 6))):
        tl = simulate_play("korona", shots=min(6, shots - 6 * k), seed=seed + k, hands=False)
        rng = np.random.default_rng(seed + k)
        starts = {e["shot"]: e for e in tl.events if e["type"] == "shot_start"}
        for end in (e for e in tl.events if e["type"] == "shot_end"):
            start = starts[end["shot"]]
            out = korona_facts(
                **shot_arrays(tl, start, end, fps=_FPS[k % 3], rng=rng),
                board=tl.board,
                equipment=tl.equipment,
            )
            first = next(
                (
                    int(e["b"]["id"])
                    for e in tl.events
                    if e["type"] == "contact"
                    and e.get("shot") == end["shot"]
                    and e["a"]["kind"] == "striker"
                    and "id" in e["b"]
                ),
                None,
            )
            n += 1
            ok_type += out["stroke"] == end["stroke"]
            ok_kind += out["first_disc"] == end["first_disc"]
            ok_id += (first in out["first_disc_ids"]) if first is not None else not out["first_disc_ids"]
    return {
        "facts_shots": float(n),
        "facts_direct_rebound": ok_type / max(n, 1),
        "facts_first_disc": ok_kind / max(n, 1),
        "facts_first_disc_id": ok_id / max(n, 1),
    }


def measure_speed_game(
    game: str, resolution: tuple[int, int], *, frames: int = 90, repeats: int = 3, seed: int = 7
) -> float:
    """Full pipeline frames per second on one core on `game` footage (median of `repeats` passes)."""
    import cv2
    import numpy as np

    from calibration import find_board
    from fixtures.camera import sample_camera
    from fixtures.look import sample_look
    from fixtures.play import simulate_play
    from fixtures.render import render_frames
    from tracker.pipeline import Pipeline

    cv2.setNumThreads(1)
    tl = simulate_play(game, shots=1, seed=seed)
    rng = np.random.default_rng(seed)
    cam, look = sample_camera(rng, resolution=resolution), sample_look(rng, "normal", game=game)
    t_shot = next(e["t"] for e in tl.events if e["type"] == "shot_start")
    imgs = []
    for fr in render_frames(tl, cam, look, fps=60.0, seed=seed):
        if fr.t_s >= t_shot - 0.1:  # the shot itself, not the still start
            imgs.append((fr.image, fr.t_s))
        if len(imgs) >= frames:
            break
    calib = find_board(imgs[0][0], game=game)
    if not calib:
        raise RuntimeError(f"{game} speed run: board not found ({calib})")
    rates = []
    for _ in range(repeats):
        pipe = Pipeline(calib, game=game)
        t0 = time.perf_counter()
        for img, t in imgs:
            pipe.process(img, t)
        rates.append(len(imgs) / (time.perf_counter() - t0))
    return statistics.median(rates)


def korona_report(args: argparse.Namespace) -> dict[str, Any]:
    """Every korona figure for `bench track` arguments (see `service.commands.bench_track`)."""
    shots = 12 if args.quick else args.shots
    t0 = time.time()
    score, kor, n_runs = run_korona(
        shots=shots,
        seed=args.seed,
        detections=args.detections,
        shots_per_run=args.shots_per_run,
        progress=not args.json,
        detector=args.detector,
        cache=args.cache,
        only_fps=tuple(args.fps or ()),
        only_seeds=tuple(args.only or ()),
    )
    out: dict[str, Any] = {
        "game": "korona",
        "shots": score.shots_true,
        "runs": n_runs,
        "detections": args.detections,
    }
    out |= {k: round(v, 4) for k, v in score.ratios().items() if k not in ("direct_rebound", "first_disc")}
    out |= {k: round(v, 4) for k, v in kor.ratios().items()}
    out |= {k: round(v, 4) for k, v in facts_suite(shots=min(shots, 60), seed=args.seed).items()}
    out["accuracy_s"] = round(time.time() - t0, 1)
    if not args.no_speed:
        reps = 1 if args.quick else 3
        korona, carrom = (measure_speed_game(g, (1280, 720), repeats=reps) for g in ("korona", "carrom"))
        out |= {
            "fps_1280x720": round(korona, 1),
            "carrom_fps_1280x720": round(carrom, 1),
            "speed_vs_carrom": round(korona / carrom, 3),
        }
    out["below_floor"] = [k for k, floor in KORONA_FLOORS.items() if k in out and out[k] < floor]
    out["cases"] = floors_first(kor.cases + score.cases)
    out["failures"] = {cat: len(lines) for cat, lines in out["cases"].items()}
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m service.commands._bench_track_korona [bench track options]`."""
    from service.commands.bench_track import add_arguments, print_report

    parser = argparse.ArgumentParser(prog="bench track --game korona")
    add_arguments(parser)
    args = parser.parse_args(argv)
    return print_report(korona_report(args), args)


if __name__ == "__main__":
    raise SystemExit(main())
