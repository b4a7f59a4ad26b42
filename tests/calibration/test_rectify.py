"""Rectification maps: board mm <-> board-image px, and lookup of original pixels."""

from __future__ import annotations

import numpy as np
import pytest

from calibration import BoardCalibration, LensModel, build_board_maps
from calibration.lens import guess_camera_matrix


def _calib(k1: float) -> BoardCalibration:
    H = np.array([[1.5, 0.05, -960.0], [-0.02, 1.55, -560.0], [0.00002, 0.00003, 1.0]])
    return BoardCalibration(
        game="carrom",
        image_size=(1280, 720),
        corners_px=np.zeros((4, 2)),
        image_to_board=H,
        lens=LensModel(guess_camera_matrix(1280, 720), np.array([k1, 0, 0, 0, 0])),
    )


@pytest.mark.parametrize("k1", [0.0, -0.12], ids=["no-distortion", "barrel"])
@pytest.mark.parametrize("px_per_mm", [0.4, 1.0], ids=["coarse", "fine"])
def test_map_lookup_matches_exact_projection(k1: float, px_per_mm: float) -> None:
    calib = _calib(k1)
    maps = build_board_maps(calib, px_per_mm=px_per_mm)
    xy = np.random.default_rng(11).uniform(-360, 360, (200, 2))
    exact = calib.board_to_original(xy)
    np.testing.assert_allclose(maps.board_mm_to_original(xy), exact, atol=0.05)


def test_board_px_mm_round_trip() -> None:
    maps = build_board_maps(_calib(0.0), px_per_mm=0.5, margin_mm=20)
    xy = np.array([[0.0, 0.0], [-370.0, 370.0], [12.3, -45.6]])
    np.testing.assert_allclose(maps.to_mm(maps.to_px(xy)), xy)
    assert maps.size == (int(round(780 * 0.5)),) * 2
    np.testing.assert_allclose(maps.to_px(np.zeros((1, 2)))[0], maps.centre_px)


def test_rectify_checks_frame_size() -> None:
    maps = build_board_maps(_calib(0.0))
    with pytest.raises(ValueError, match="expected a 1280x720 frame"):
        maps.rectify(np.zeros((100, 100, 3), np.uint8))


def test_bad_scale_rejected() -> None:
    with pytest.raises(ValueError, match="px_per_mm"):
        build_board_maps(_calib(0.0), px_per_mm=0.0)
