"""Rectification maps: board mm <-> board-image px, and lookup of original pixels."""

from __future__ import annotations

import cv2
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


@pytest.mark.parametrize("shift", [0.0, 600.0, -600.0], ids=["in-frame", "past-the-left-edge", "past-the-right-edge"])
@pytest.mark.parametrize("channels", [3, 1], ids=["colour", "grey"])
def test_rectify_is_a_remap_of_the_whole_frame(shift: float, channels: int) -> None:
    """Sampling only the board's part of the frame (as four channels) changes no pixel, also where
    the board reaches past the frame's edge (there the edge pixels are repeated)."""
    calib = _calib(-0.12)
    if shift:  # the board moved sideways in the picture: a part of it falls outside the frame
        H = calib.image_to_board @ np.array([[1.0, 0.0, shift], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
        calib = BoardCalibration(calib.game, calib.image_size, calib.corners_px, H, calib.lens)
    maps = build_board_maps(calib, px_per_mm=0.4)
    frame = np.random.default_rng(3).integers(0, 256, (720, 1280, channels), dtype=np.uint8).squeeze()
    x = maps.map_float[..., 0]
    assert bool((x < 0).any() or (x > 1279).any()) == bool(shift)
    whole = cv2.remap(frame, *cv2.convertMaps(maps.map_float, None, cv2.CV_16SC2), cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_REPLICATE)
    out = maps.rectify(frame)
    assert out.shape == whole.shape and out.dtype == np.uint8
    np.testing.assert_array_equal(out, whole)
