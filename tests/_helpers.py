"""Plain builder functions shared by the tests (fixtures only for resources with teardown)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from tracker.detections import FrameDetections

REPO = Path(__file__).resolve().parents[1]
REAL_DIR = REPO.parent / "shared" / "real"


def real_dir() -> Path:
    """The annotated real photos, or skip the calling test when they are absent."""
    if not (REAL_DIR / "annotations.json").is_file():
        pytest.skip(f"real photos not available: {REAL_DIR} is absent")
    return REAL_DIR


def make_dets(
    xy: Sequence[Sequence[float]],
    *,
    kind: Sequence[int] | None = None,
    score: Sequence[float] | None = None,
    radius: float = 15.5,
    board: bool = True,
) -> FrameDetections:
    """FrameDetections from plain lists; `xy` doubles as image and board coordinates."""
    pts = np.asarray(xy, dtype=np.float32).reshape(-1, 2)
    n = len(pts)
    return FrameDetections(
        xy_img=pts.copy(),
        radius_px=np.full(n, radius, np.float32),
        kind=np.asarray(kind if kind is not None else [0] * n, dtype=np.int8),
        score=np.asarray(score if score is not None else [1.0] * n, dtype=np.float32),
        xy_board=pts.copy() if board else None,
    )
