"""Lens model round trips, radial estimation, calibration files and their version check."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import numpy as np
import pytest

from calibration import BoardCalibration, Failed, LensModel, estimate_radial_from_lines, load_calibration
from calibration.appearance import Appearance
from calibration.lens import guess_camera_matrix
from tracker.errors import CalibrationError


@pytest.mark.parametrize(
    "k1", [-0.25, -0.05, 0.0, 0.08], ids=["strong-barrel", "barrel", "none", "pincushion"]
)
def test_distort_undistort_round_trip(k1: float) -> None:
    rng = np.random.default_rng(7)
    lens = LensModel(guess_camera_matrix(1280, 720), np.array([k1, 0.01, 0.0005, -0.0003, 0.0]))
    px = rng.uniform([0, 0], [1279, 719], (200, 2))
    np.testing.assert_allclose(lens.distort_points(lens.undistort_points(px)), px, atol=1e-3)


@pytest.mark.parametrize("k1", [-0.2, -0.08, 0.1], ids=["strong-barrel", "barrel", "pincushion"])
def test_radial_estimate_straightens_lines(k1: float) -> None:
    curved = _board_sides(k1)
    est = estimate_radial_from_lines(curved, (1280, 720))
    assert est is not None
    assert est.dist[0] == pytest.approx(k1, abs=0.01)


def _board_sides(k1: float, rng: np.random.Generator | None = None, noise_px: float = 0.0) -> list[np.ndarray]:
    """Four board edges seen through a lens with radial coefficient `k1` (guessed `K`)."""
    lens = LensModel(guess_camera_matrix(1280, 720), np.array([k1, 0, 0, 0, 0]))
    t = np.linspace(0.05, 0.95, 64)[:, None]
    sides = [
        np.array([[200, 80]]) + t * np.array([[880, 20]]),
        np.array([[1080, 100]]) + t * np.array([[-20, 560]]),
        np.array([[1060, 660]]) + t * np.array([[-860, -10]]),
        np.array([[190, 650]]) + t * np.array([[10, -570]]),
    ]
    out = [lens.distort_points(s) for s in sides]
    if rng is not None:
        out = [s + rng.normal(0.0, noise_px, s.shape) for s in out]
    return out


def test_radial_estimate_sees_past_points_off_the_edge() -> None:
    """A few points of each edge a pixel or more off it (a pocket cut into the corner, a disc,
    the cue across the edge) must not hide a strong barrel distortion: with a plain
    least-squares cost they did (korona seed 1017: no lens found, corners 10 px off)."""
    rng = np.random.default_rng(3)
    sides = _board_sides(-0.2, rng, 0.08)
    for s in sides:  # the last eighth of every edge 2-5 px to one side of it, as round a pocket
        n = len(s) // 8
        normal = np.array([s[0, 1] - s[-1, 1], s[-1, 0] - s[0, 0]]) / np.linalg.norm(s[-1] - s[0])
        s[-n:] += normal * rng.uniform(2.0, 5.0, (n, 1))
    est = estimate_radial_from_lines(sides, (1280, 720))
    assert est is not None
    assert est.dist[0] == pytest.approx(-0.2, abs=0.03)


def test_radial_estimate_finds_a_slight_bend_on_clean_edges() -> None:
    """Clean edges bent by a tenth of a pixel of RMS: a lens (the corners they meet are pixels
    off without it)."""
    sides = _board_sides(-0.02, np.random.default_rng(5), 0.05)
    est = estimate_radial_from_lines(sides, (1280, 720))
    assert est is not None
    assert est.dist[0] == pytest.approx(-0.02, abs=0.005)


def test_radial_estimate_none_for_noisy_straight_edges() -> None:
    """Noise is not a lens: one coefficient cannot fit it away."""
    for seed in range(5):
        assert estimate_radial_from_lines(_board_sides(0.0, np.random.default_rng(seed), 0.3), (1280, 720)) is None


def test_radial_estimate_none_for_straight_lines() -> None:
    t = np.linspace(0, 1, 30)[:, None]
    lines = [
        np.array([[100, 100]]) + t * np.array([[800, 5]]),
        np.array([[900, 100]]) + t * np.array([[5, 500]]),
    ]
    assert estimate_radial_from_lines(lines, (1280, 720)) is None


def _calib(**kw: object) -> BoardCalibration:
    base = dict(
        game="carrom",
        image_size=(1280, 720),
        corners_px=np.array([[400.0, 150], [880, 150], [880, 630], [400, 630]]),
        image_to_board=np.array(
            [[740 / 480, 0, -740 / 480 * 640], [0, 740 / 480, -740 / 480 * 390], [0, 0, 1]]
        ),
        lens=LensModel(guess_camera_matrix(1280, 720), np.array([-0.05, 0, 0, 0, 0])),
        appearance=Appearance(np.array([190.0, 130, 150]), 3.0),
    )
    base.update(kw)
    return BoardCalibration(**base)  # type: ignore[arg-type]


def test_calibration_save_load_round_trip(tmp_path: Path) -> None:
    c = _calib()
    c.save(tmp_path / "c.json")
    back = load_calibration(tmp_path / "c.json")
    np.testing.assert_allclose(back.image_to_board, c.image_to_board)
    np.testing.assert_allclose(back.corners_px, c.corners_px)
    assert back.lens is not None and np.allclose(back.lens.dist, c.lens.dist)  # type: ignore[union-attr]
    assert back.appearance is not None and np.allclose(back.appearance.surface_lab, [190, 130, 150])


@pytest.mark.parametrize(
    ("edit", "expect"),
    [
        (lambda d: d, contextlib.nullcontext()),
        (lambda d: {**d, "version": 99}, pytest.raises(CalibrationError, match="version 99")),
        (
            lambda d: {k: v for k, v in d.items() if k != "version"},
            pytest.raises(CalibrationError, match="version"),
        ),
        (lambda d: {**d, "corners_px": [[1, 2]]}, pytest.raises((CalibrationError, ValueError))),
        (lambda d: {**d, "game": "chess"}, pytest.raises((CalibrationError, ValueError))),
    ],
    ids=["ok", "version-mismatch", "version-missing", "bad-corners", "bad-game"],
)
def test_calibration_file_validation(tmp_path: Path, edit, expect) -> None:  # type: ignore[no-untyped-def]
    p = tmp_path / "c.json"
    p.write_text(json.dumps(edit(_calib().to_dict())))
    with expect:
        load_calibration(p)


def test_load_calibration_not_json(tmp_path: Path) -> None:
    p = tmp_path / "c.json"
    p.write_text("{nope")
    with pytest.raises(CalibrationError, match="not JSON"):
        load_calibration(p)


def test_board_to_original_inverts_original_to_board() -> None:
    c = _calib()
    xy = np.random.default_rng(3).uniform(-370, 370, (50, 2))
    np.testing.assert_allclose(c.original_to_board(c.board_to_original(xy)), xy, atol=1e-4)


def test_failed_is_falsy_with_reason() -> None:
    f = Failed("no board")
    assert not f and f.reason == "no board"
