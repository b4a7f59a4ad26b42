"""Where the queen and jumped coins go back (ICF §38, §66-67)."""

from __future__ import annotations

import numpy as np
import pytest

from rules.placement import centre_spots, nearest_free_point
from tests.rules.carrom_builders import assess, position, stroke

R = 15.5  # ICF man radius in the default equipment (31 mm diameter)


def _free(spots, discs):  # noqa: ANN001, ANN202
    pts = [np.array(s) for s in spots] + [np.array([x, y]) for _, x, y in discs]
    for i in range(len(spots)):
        for j in range(len(pts)):
            if i != j:
                assert np.linalg.norm(pts[i] - pts[j]) >= 2 * R - 1e-3


CASES = [
    ("ICF-38a-empty-centre", ["queen"], [], "S", [(0.0, 0.0)]),
    ("ICF-38b-second-touches-away-from-S", ["queen", "white"], [], "S", [(0.0, 0.0), (0.0, -31.0)]),
    ("ICF-38b-second-touches-away-from-N", ["queen", "black"], [], "N", [(0.0, 0.0), (0.0, 31.0)]),
    ("ICF-38c-away-from-E", ["white", "black"], [], "E", [(0.0, 0.0), (-31.0, 0.0)]),
    ("ICF-67-centre-covered-nearest-spot", ["queen"], [("white", 0.0, 0.0)], "S", [(0.0, -31.0)]),
    ("ICF-67-partly-covered", ["queen"], [("black", 20.0, 0.0)], "S", [(-11.0, 0.0)]),
]


@pytest.mark.parametrize(("kinds", "discs", "side", "want"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_centre_spots(kinds, discs, side, want):
    got = centre_spots(kinds, discs, player_side=side)
    np.testing.assert_allclose(np.array(got), np.array(want), atol=1e-3)
    _free(got, discs)


def test_crowded_centre_never_overlaps():
    rng = np.random.default_rng(5)
    discs = [("white", float(x), float(y)) for x, y in rng.uniform(-60, 60, size=(12, 2))]
    # keep a legal board: drop discs overlapping an earlier one
    kept: list[tuple[str, float, float]] = []
    for d in discs:
        if all(np.hypot(d[1] - k[1], d[2] - k[2]) >= 2 * R for k in kept):
            kept.append(d)
    spots = centre_spots(["queen", "white", "black", "white"], kept, player_side="S")
    _free(spots, kept)
    # the first spot is the nearest free point: no free point on a fine grid is nearer
    xy = np.array([[x, y] for _, x, y in kept])
    g = np.stack(np.meshgrid(np.linspace(-80, 80, 321), np.linspace(-80, 80, 321)), -1).reshape(-1, 2)
    free = np.all(np.linalg.norm(g[:, None] - xy[None], axis=2) >= 2 * R, axis=1)
    assert np.linalg.norm(spots[0]) <= np.linalg.norm(g[free], axis=1).min() + 1e-6


def test_nearest_free_point_between_two_discs():
    xy = np.array([[-20.0, 0.0], [20.0, 0.0]])
    x, y = nearest_free_point(xy, np.array([R, R]), R)
    assert abs(x) < 1e-6 and abs(y) == pytest.approx(np.sqrt(31.0**2 - 20.0**2), abs=1e-3)


def test_ruling_carries_spots_for_jumped_coins():
    """ICF §38b: queen and a coin off the board; the queen at the centre, the coin away from B (N)."""
    line = stroke(off=("queen", "white"), after=[{"kind": "black", "x_mm": 100.0, "y_mm": 100.0}])
    step = assess(position(), line)
    spots = [(p.kind, p.spot_mm, p.placed_by) for p in step.returns]
    assert spots == [("queen", (0.0, 0.0), "umpire"), ("white", (0.0, 31.0), "umpire")]


def test_ruling_returns_queen_to_centre_after_failed_cover():
    """ICF §69, §67: the failed cover puts the queen back; a coin on the centre moves it aside."""
    line = stroke(after=[{"kind": "black", "x_mm": 0.0, "y_mm": 0.0}])
    step = assess(position(white=8, queen="pending_cover", queen_by="A"), line)
    (p,) = step.returns
    assert p.kind == "queen" and p.placed_by == "umpire"
    assert np.hypot(*p.spot_mm) == pytest.approx(31.0, abs=1e-3)
