"""Printed features are not discs: the centre circle versus a queen on it, pocket holes."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import find_board
from tracker.detect import Detector
from tracker.specs import DiscKind

fixtures_render = pytest.importorskip("fixtures.render")

_REAL = Path(__file__).resolve().parents[3] / "shared" / "real"


# break layouts put the queen exactly on the centre circle; seeds 50 and 68 (hard) draw a queen
# in nearly the circle's ink, the case the printed-circle test must not take for the print;
# seeds 6 and 102 (issue #3): the striker's outline also fitted at a man's size, read as a second
# queen, made the real queen the print
@pytest.mark.parametrize(
    ("seed", "level"),
    [(0, "clean"), (1, "normal"), (2, "hard"), (50, "hard"), (68, "hard"), (6, "clean"), (102, "clean")],
    ids=[
        "s0-clean",
        "s1-normal",
        "s2-hard",
        "s50-ink-queen",
        "s68-ink-queen",
        "s6-striker-rival",
        "s102-striker-rival",
    ],
)
def test_queen_on_centre_circle_is_found(seed: int, level: str) -> None:
    img, _ = fixtures_render.render_still("carrom", seed, level=level, layout="break")
    calib = find_board(img)
    assert calib
    discs = Detector(calib).detect(img).discs
    at_centre = np.linalg.norm(discs.xy_board, axis=1) < 5.0
    assert at_centre.sum() == 1 and discs.kind[at_centre][0] == DiscKind.QUEEN


def _real(image_id: str) -> np.ndarray:
    if not (_REAL / "annotations.json").exists():
        pytest.skip("no annotated real photos")
    ann = json.loads((_REAL / "annotations.json").read_text(encoding="utf-8"))
    entry = next(e for e in ann["images"] if e["id"] == image_id)
    assert entry["discs"] == []  # an empty board: every detection is a false positive
    img = cv2.imread(str(_REAL / entry["file"]))
    assert img is not None
    return img


@pytest.mark.parametrize("image_id", ["udi", "ud1"], ids=["udi", "ud1"])
def test_no_disc_on_real_pocket_holes(image_id: str) -> None:
    """Empty real boards whose dark pocket nets (striker-sized) came back as strikers."""
    img = _real(image_id)
    calib = find_board(img)
    assert calib
    det = Detector(calib)
    discs = det.detect(img).discs
    d = np.linalg.norm(discs.xy_board[:, None, :] - det.geom.pockets_mm[None], axis=2).min(axis=1)
    on_hole = (d < det.geom.pocket_r_mm + det.geom.striker_r) & (discs.kind == DiscKind.STRIKER)
    assert not on_hole.any(), discs.xy_board[on_hole]


# false detections on the empty real boards (printed text, the centre's design, the red base
# circles, pocket nets); 23 before faces that differ from ray to ray were refused, 7 after
@pytest.mark.parametrize(("image_id", "most"), [("nic", 1), ("mai", 0), ("udi", 4), ("ud1", 2)])
def test_few_discs_on_empty_real_boards(image_id: str, most: int) -> None:
    img = _real(image_id)
    calib = find_board(img)
    assert calib
    assert len(Detector(calib).detect(img).discs.kind) <= most
