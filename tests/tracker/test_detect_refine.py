"""The outline fit of `tracker._detect_refine` on outlines drawn by hand."""

from __future__ import annotations

import numpy as np
import pytest

from tracker._detect_refine import _FINE, _fit, _stretch


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
