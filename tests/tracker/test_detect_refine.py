"""The outline fit of `tracker._detect_refine` on outlines drawn by hand, and what it reads off
the rays of discs drawn in a frame."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration import BoardCalibration, BoardMaps, LensModel, build_board_maps
from calibration.lens import guess_camera_matrix
from tracker._detect_refine import _FINE, _SCREEN, _distance, _fit, _Plan, _ray_points, _stretch, refine_discs


def _fit_outline(edge_r: np.ndarray) -> tuple[float, float]:
    """(fitted radius, second-harmonic amplitude) of one outline given along `_FINE`'s rays."""
    weight = np.ones((1, _FINE.n_rays))
    radius, _, res = _fit(edge_r[None, :], weight, _FINE)
    return float(radius[0]), float(_stretch(res, weight, _FINE)[0])


@pytest.mark.parametrize("heading", [0.0, 0.6, 2.0])
def test_blurred_outline_gives_back_the_disc_radius(heading: float) -> None:
    """A white (radius 15.5 mm) smeared 4 mm each way along its motion: its outline is
    R + L |cos(t - heading)|, the fitted radius 18 mm, nearer the striker's 20.5 than the man's; the
    radius less 1.5 times the second harmonic is the man's again (issue 4, seed 2007)."""
    ang = np.linspace(0.0, 2 * np.pi, _FINE.n_rays, endpoint=False)
    radius, stretch = _fit_outline(15.5 + 4.0 * np.abs(np.cos(ang - heading)))
    assert abs(radius - 20.5) < abs(radius - 15.5)
    assert stretch == pytest.approx(4.0 * 4.0 / (3 * np.pi), rel=0.05)
    assert radius - 1.5 * stretch == pytest.approx(15.5, abs=0.3)


def test_round_outline_has_no_stretch() -> None:
    """A disc at rest, its outline found with 0.3 mm of noise and off-centre by 2 mm: the shift is
    the first harmonic, not a stretch."""
    ang = np.linspace(0.0, 2 * np.pi, _FINE.n_rays, endpoint=False)
    noise = np.random.default_rng(3).normal(0.0, 0.3, _FINE.n_rays)
    radius, stretch = _fit_outline(20.5 + 2.0 * np.cos(ang) + noise)
    assert radius == pytest.approx(20.5, abs=0.2)
    assert stretch < 0.2


def _top_down_maps() -> BoardMaps:
    """Maps of an 800x800 frame seen straight from above at 1 px per mm, the board's centre at
    pixel (400, 400)."""
    calib = BoardCalibration(
        game="carrom",
        image_size=(800, 800),
        corners_px=np.zeros((4, 2)),
        image_to_board=np.array([[1.0, 0.0, -400.0], [0.0, 1.0, -400.0], [0.0, 0.0, 1.0]]),
        lens=LensModel(guess_camera_matrix(800, 800), np.zeros(5)),
    )
    return build_board_maps(calib, px_per_mm=0.4)


def test_groove_tells_an_engraved_ring_from_a_line_across() -> None:
    """Two light men of the surface's own colour with a thin darker rim: one with an engraved
    ring at 0.62 R (a man's), one plain with a printed line across it. The ring shows on
    nearly every ray; the line crosses only the few rays along it."""
    surface, face, rim = (160, 195, 220), (166, 200, 224), (95, 120, 145)
    frame = np.full((800, 800, 3), surface, np.uint8)
    centres = np.array([[-100.0, 0.0], [100.0, 0.0]])
    for (x, y), ring in zip(centres, (True, False), strict=True):
        c = (int(x) + 400, int(y) + 400)
        cv2.circle(frame, c, 15, rim, -1, cv2.LINE_AA)
        cv2.circle(frame, c, 14, face, -1, cv2.LINE_AA)
        if ring:
            cv2.circle(frame, c, 10, rim, 1, cv2.LINE_AA)
    cv2.line(frame, (450, 411), (550, 397), rim, 1, cv2.LINE_AA)
    got = refine_discs(frame, _top_down_maps(), centres, np.full(2, 15.5))
    assert len(got.xy_mm) == 2
    np.testing.assert_allclose(got.xy_mm, centres, atol=0.5)
    assert got.groove[0] >= 0.9
    assert got.groove[1] <= 0.2


@pytest.mark.parametrize("plan", [_FINE, _SCREEN], ids=["fine", "screen"])
def test_rays_and_colour_distances_are_laid_out_per_disc(plan: _Plan) -> None:
    """The ray samples of each disc lie at its centre plus its radius times the plan's offsets,
    ray by ray and radius by radius; the colour distance of each sample is its own disc's."""
    rng = np.random.default_rng(5)
    centres, radii = rng.uniform(0.0, 300.0, (7, 2)), rng.uniform(5.0, 9.0, 7)
    pts = _ray_points(centres, radii, plan)
    want = centres[:, None, None, :] + radii[:, None, None, None] * plan.offsets
    np.testing.assert_allclose(pts, want, atol=1e-3)
    samples = rng.uniform(0.0, 255.0, (*pts.shape[:3], 3)).astype(np.float32)
    colour = rng.uniform(0.0, 255.0, (7, 3))
    np.testing.assert_allclose(
        _distance(samples, colour), np.linalg.norm(samples - colour[:, None, None, :], axis=3), rtol=1e-6
    )


def test_asymmetry_is_the_median_over_the_faces_radii_of_the_rays_90th_percentile() -> None:
    """`RefineResult.asymmetry` by its definition (numpy's percentile and median), for discs with
    no hole, a small one and a wide one, and a face that is the same all round (zero)."""
    from tracker._detect_refine import _FINE, _asymmetry

    rng = np.random.default_rng(4)
    hole = np.array([0.0, 0.0, 0.27, 0.44, 0.7])
    samples = rng.normal(size=(len(hole), _FINE.n_rays, _FINE.n_samples, 3)).astype(np.float32) * 10
    samples[1] = samples[1, :1]  # every ray the same
    r = _FINE.r_frac[None, :]
    lo = np.where(hole > 0, hole + 0.1, 0.2)[:, None]
    hi = np.where(hole > 0, np.maximum(hole + 0.3, 0.6), 0.6)[:, None]
    spread = np.linalg.norm(samples - samples.mean(axis=1, keepdims=True), axis=3)
    per_radius = np.percentile(spread, 90, axis=1)
    expected = [np.median(row[band]) for row, band in zip(per_radius, (r >= lo) & (r <= hi), strict=True)]
    got = _asymmetry(samples, _FINE, hole)
    assert np.allclose(got, expected, atol=1e-4)
    assert got[1] < 1e-4 < got[0]
