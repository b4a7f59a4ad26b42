"""Homography application, its horizon guard, and corner ordering."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.geometry import apply_homography, invert_homography, order_corners


def _random_homography(rng: np.random.Generator) -> np.ndarray:
    H = np.eye(3) + rng.normal(0, 0.05, (3, 3))
    H[2, :2] = rng.normal(0, 1e-4, 2)
    H[:2, 2] = rng.uniform(-300, 300, 2)
    return H


@pytest.mark.parametrize("seed", [0, 1, 2, 3], ids=lambda s: f"seed{s}")
def test_round_trip(seed: int) -> None:
    rng = np.random.default_rng(seed)
    H = _random_homography(rng)
    pts = rng.uniform(-400, 400, (50, 2))
    back = apply_homography(invert_homography(H), apply_homography(H, pts))
    np.testing.assert_allclose(back, pts, atol=1e-6)


def test_points_at_horizon_become_nan_not_huge() -> None:
    H = np.array([[1.0, 0, 0], [0, 1, 0], [1, 0, 0]])  # w = x: the line x = 0 maps to infinity
    out = apply_homography(H, np.array([[0.0, 3.0], [1e-12, 3.0], [2.0, 3.0]]))
    assert np.isnan(out[0]).all() and np.isnan(out[1]).all()
    np.testing.assert_allclose(out[2], [1.0, 1.5])


def test_shape_misuse_raises() -> None:
    with pytest.raises(ValueError, match=r"xy: expected shape \(N, 2\)"):
        apply_homography(np.eye(3), np.zeros((3, 3)))
    with pytest.raises(ValueError, match=r"H: expected shape \(3, 3\)"):
        apply_homography(np.eye(2), np.zeros((3, 2)))


@pytest.mark.parametrize("rot", [0, 1, 2, 3], ids=lambda r: f"roll{r}")
def test_order_corners_any_input_order(rot: int) -> None:
    # A slightly rotated, perspective-like quad, NW first.
    quad = np.array([[100.0, 80.0], [1150.0, 60.0], [1200.0, 690.0], [60.0, 700.0]])
    shuffled = np.roll(quad, rot, axis=0)[::-1]
    np.testing.assert_allclose(order_corners(shuffled), quad)
