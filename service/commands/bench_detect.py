"""`boardtrack bench detect`: board-finding and disc-detection accuracy and speed.

Synthetic suite: seeded `render_still` frames across realism levels, layouts and hands; each
frame is calibrated from scratch (`find_board`) and detected (the still-image path). Video
suite: the same scenes as the second frame of a pair whose first frame (same camera and look,
other discs) taught the detector the board's background (the video path).
Real suite: the annotated photos in ../shared/real (when present). Speed: detection alone on
one core, once calibrated, over whole clips of simulated play at 1280x720 and 1920x1080, 30 and
60 fps: the change-driven still path the Pipeline uses ("reuse": mean fps, median /
95th-percentile / largest frame time), the video path ("full") and the still path on every
frame whole ("still") (CPU time, median of several passes).
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

__all__ = ["add_arguments", "run", "match_discs", "evaluate_synthetic", "evaluate_real", "summarise"]

KINDS = ("white", "black", "queen", "striker")
_REAL = Path(__file__).resolve().parents[2].parent / "shared" / "real"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--frames", type=int, default=300, help="synthetic frames (default 300)")
    parser.add_argument("--seed", type=int, default=0, help="first seed of the synthetic suite")
    parser.add_argument("--game", choices=["carrom", "korona"], default="carrom")
    parser.add_argument("--real", default=str(_REAL), help="folder of annotated real photos")
    parser.add_argument("--speed-runs", type=int, default=5)
    parser.add_argument("--no-video", action="store_true", help="skip the video-path suite")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")


def match_discs(det_xy: Any, truth_xy: Any, max_dist: float) -> tuple[Any, Any]:
    """Optimal one-to-one matching within `max_dist` -> (det indices, truth indices)."""
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    if len(det_xy) == 0 or len(truth_xy) == 0:
        return np.zeros(0, int), np.zeros(0, int)
    d = np.linalg.norm(np.asarray(det_xy)[:, None, :] - np.asarray(truth_xy)[None, :, :], axis=2)
    r, c = linear_sum_assignment(np.where(d <= max_dist, d, 1e6))
    ok = d[r, c] <= max_dist
    return r[ok], c[ok]


def score_discs(dets: Any, visible: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts and errors of detections (board mm) against the visible truth discs of one frame."""
    import numpy as np

    txy = np.array([[d["x_mm"], d["y_mm"]] for d in visible]).reshape(-1, 2)
    tkind = np.array([KINDS.index(d["kind"]) for d in visible], int)
    di, ti = match_discs(dets.xy_board, txy, 10.0)
    return {
        "tp": len(di),
        "n_det": len(dets),
        "kind_ok": int((dets.kind[di] == tkind[ti]).sum()),
        "err_mm": np.linalg.norm(dets.xy_board[di] - txy[ti], axis=1).tolist(),
    }


def evaluate_synthetic(image: Any, truth: dict[str, Any], *, game: str) -> dict[str, Any]:
    """Calibrate and detect one rendered frame; per-frame counts and errors against its truth."""
    import numpy as np

    from calibration import find_board
    from tracker.detect import Detector

    calib = find_board(image, game=game)
    visible = [d for d in truth["discs"] if d["where"] == "board" and d.get("visible", True)]
    out: dict[str, Any] = {
        "found": bool(calib),
        "n_truth": len(visible),
        "occluded": truth.get("occluded", 0.0),
    }
    if not calib:
        out.update(reason=calib.reason, tp=0, n_det=0, kind_ok=0, err_mm=[], corner_px=None)
        return out
    out["corner_px"] = float(
        np.mean(np.linalg.norm(calib.corners_px - np.asarray(truth["board_corners_px"]), axis=1))
    )
    out.update(score_discs(Detector(calib).detect(image).discs, visible))
    return out


def evaluate_real(folder: Path) -> list[dict[str, Any]]:
    """Board and disc results per annotated real photo."""
    import cv2
    import numpy as np

    from calibration import find_board
    from tracker.detect import Detector

    ann = json.loads((folder / "annotations.json").read_text(encoding="utf-8"))
    rows = []
    for e in ann["images"]:
        img = cv2.imread(str(folder / e["file"]))
        calib = find_board(img)
        row: dict[str, Any] = {
            "id": e["id"],
            "corners_in_image": e.get("corners_in_image", 0),
            "found": bool(calib),
        }
        truth = e["discs"]
        row["n_truth"] = len(truth)
        if not calib:
            row.update(reason=calib.reason, tp=0, n_det=0, kind_ok=0, corner_px=None)
            rows.append(row)
            continue
        gt = [c for c in e["board_corners_px"]]
        errs = [
            float(np.linalg.norm(np.asarray(g) - c)) for g, c in zip(gt, calib.corners_px, strict=True) if g
        ]
        row["corner_px"] = errs
        equipment = "home" if e["id"] == "t01" else None
        dets = Detector(calib, equipment=equipment).detect(img).discs
        txy = np.array([d["px"] for d in truth]).reshape(-1, 2)
        tol = max([d["r_px"] for d in truth], default=20.0) * 0.6
        di, ti = match_discs(dets.xy_img, txy, tol)
        tkind = np.array([KINDS.index(d["kind"]) for d in truth], int)
        row.update(
            tp=len(di),
            n_det=len(dets),
            kind_ok=int((dets.kind[di] == tkind[ti]).sum()),
            misses=[truth[i]["kind"] for i in sorted(set(range(len(truth))) - set(ti.tolist()))],
        )
        rows.append(row)
    return rows


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Found rate, corner error, recall, precision, kind accuracy and centre error of frame rows."""
    import numpy as np

    n = len(rows)
    found = [r for r in rows if r["found"]]
    tp = sum(r["tp"] for r in rows)
    n_truth = sum(r["n_truth"] for r in rows)
    n_det = sum(r["n_det"] for r in rows)
    errs = np.array([e for r in rows for e in r.get("err_mm", [])])
    corners = np.array([r["corner_px"] for r in found if r.get("corner_px") is not None])
    return {
        "frames": n,
        "board_found": len(found) / max(n, 1),
        "corner_err_px_median": float(np.median(corners)) if len(corners) else None,
        "corner_err_px_p95": float(np.percentile(corners, 95)) if len(corners) else None,
        "recall": tp / max(n_truth, 1),
        "precision": tp / max(n_det, 1),
        "kind_accuracy": sum(r["kind_ok"] for r in rows) / max(tp, 1),
        "centre_err_mm_median": float(np.median(errs)) if len(errs) else None,
        "centre_err_mm_p95": float(np.percentile(errs, 95)) if len(errs) else None,
    }


def _suite(n: int, seed0: int) -> list[tuple[int, str, str, bool]]:
    """(seed, level, layout, hands) for each synthetic frame: levels and layouts cycle, every
    fourth frame has hands."""
    levels, layouts = ("clean", "normal", "hard"), ("break", "scatter")
    return [(seed0 + i, levels[i % 3], layouts[(i // 3) % 2], i % 4 == 3) for i in range(n)]


def _print_summary(title: str, s: dict[str, Any]) -> None:
    parts = [f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in s.items()]
    print(f"{title}: " + " ".join(parts))


def run(args: argparse.Namespace) -> int:
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = "1"
    import cv2

    from fixtures.render import render_still
    from service.commands._bench_detect_video import evaluate_video, render_pair, speed

    cv2.setNumThreads(1)
    rows: dict[str, list[dict[str, Any]]] = {}
    vrows: dict[str, list[dict[str, Any]]] = {}
    for seed, level, layout, hands in _suite(args.frames, args.seed):
        keys = (f"level={level}", f"layout={layout}", "hands" if hands else "no_occlusion", "all")
        img, truth = render_still(args.game, seed, level=level, layout=layout, hands=hands)
        row = evaluate_synthetic(img, truth, game=args.game)
        row.update(seed=seed)
        for key in keys:
            rows.setdefault(key, []).append(row)
        if not args.no_video:
            first, second, vtruth = render_pair(args.game, seed, level=level, layout=layout, hands=hands)
            vrow = evaluate_video(first, second, vtruth, game=args.game)
            vrow.update(seed=seed)
            for key in keys:
                vrows.setdefault(key, []).append(vrow)
    summary: dict[str, Any] = {"synthetic": {k: summarise(v) for k, v in rows.items()}}
    summary["video"] = {k: summarise(v) for k, v in vrows.items()}
    failed = [(r["seed"], r.get("reason")) for r in rows.get("all", []) if not r["found"]]
    summary["synthetic_board_failures"] = failed
    real = Path(args.real)
    if (real / "annotations.json").is_file():
        rr = evaluate_real(real)
        summary["real"] = rr
        summary["real_summary"] = summarise(
            [
                {
                    **r,
                    "corner_px": (sum(r["corner_px"]) / len(r["corner_px"])) if r.get("corner_px") else None,
                }
                for r in rr
            ]
        )
    summary["speed_detect_only"] = speed(args.game, args.speed_runs)
    if args.json:
        print(json.dumps(summary, indent=1))
        return 0
    for k, s in summary["synthetic"].items():
        _print_summary(f"synthetic[{k}]", s)
    print(f"synthetic board failures: {failed}")
    for k, s in summary["video"].items():
        _print_summary(f"video[{k}]", s)
    for r in summary.get("real", []):
        print(f"real[{r['id']}]: " + json.dumps({k: v for k, v in r.items() if k != "id"}))
    if "real_summary" in summary:
        _print_summary("real[all]", summary["real_summary"])
    for clip, row in summary["speed_detect_only"].items():
        _print_summary(f"speed[{clip}] (detection only, 1 thread, CPU time)", row)
    return 0
