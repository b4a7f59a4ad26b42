"""Printed base circles as landmarks: slot layout, pattern fit under perspective and
board-specific circle spacing, mirroring through the board centre."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration._landmarks import circles_homography, mirror_side
from calibration.geometry import apply_homography
from tracker.specs import base_circle_pattern, load_board

SPEC = load_board("carrom")
SURFACE_LAB = np.array([200.0, 133.0, 150.0])


def _picture(board_to_img: np.ndarray, circles_mm: np.ndarray, size: int = 640) -> np.ndarray:
    """Lab picture of a plain surface with red filled circles (10 mm radius) at `circles_mm`."""
    lab = np.empty((size, size, 3), np.uint8)
    lab[:] = SURFACE_LAB.astype(np.uint8)
    ring = 10.0 * np.stack([np.cos(np.linspace(0, 2 * np.pi, 40)), np.sin(np.linspace(0, 2 * np.pi, 40))], 1)
    for c in circles_mm:
        poly = apply_homography(board_to_img, c + ring)
        cv2.fillPoly(lab, [np.rint(poly).astype(np.int32)], (150, 180, 160))
    return lab


def _view(tilt: float) -> np.ndarray:
    """Board mm -> px: the board spans most of a 640 px picture, with some perspective."""
    src = SPEC.corners_mm.astype(np.float32)
    dst = np.array([[20, 10 + tilt], [620, 10], [625, 630], [15, 625 - tilt]], np.float32)
    return cv2.getPerspectiveTransform(src, dst).astype(np.float64)


def test_slots_are_symmetric() -> None:
    slots = SPEC.base_circle_centres_mm
    assert np.allclose(slots.sum(axis=0), 0.0)
    assert np.allclose(np.sort(np.abs(slots[:, ::-1]), axis=0), np.sort(np.abs(slots), axis=0))


@pytest.mark.parametrize(
    ("tilt", "a", "b", "hidden"),
    [(0.0, 219.1, 252.6, None), (25.0, 219.1, 252.6, 3), (10.0, 200.0, 265.0, 6)],
    ids=["square-on", "tilted-one-hidden", "other-spacing"],
)
def test_pattern_gives_centre_and_mirror(tilt: float, a: float, b: float, hidden: int | None) -> None:
    true = _view(tilt)
    circles = base_circle_pattern(a, b)
    if hidden is not None:
        circles = np.delete(circles, hidden, axis=0)
    lab = _picture(true, circles)
    H = circles_homography(lab, SURFACE_LAB, SPEC, np.array([15.0, 10.0, 625.0, 630.0]))
    assert H is not None
    centre = apply_homography(H, np.zeros((1, 2)))[0]
    assert np.linalg.norm(centre - apply_homography(true, np.zeros((1, 2)))[0]) < 1.0
    # the W edge mirrored is the E edge
    west = apply_homography(true, np.array([[-370.0, -300.0], [-370.0, 0.0], [-370.0, 300.0]]))
    east = apply_homography(true, np.array([[370.0, -300.0], [370.0, 0.0], [370.0, 300.0]]))
    mirrored = mirror_side(west, H, axis=0)
    # the same line (points may slide along it)
    d = (east[2] - east[0]) / np.linalg.norm(east[2] - east[0])
    off = (mirrored - east[0]) @ np.array([-d[1], d[0]])
    assert np.abs(off).max() < 1.5


def test_too_few_circles_is_none() -> None:
    lab = _picture(_view(0.0), base_circle_pattern(219.1, 252.6)[:4])
    assert circles_homography(lab, SURFACE_LAB, SPEC, np.array([15.0, 10.0, 625.0, 630.0])) is None
