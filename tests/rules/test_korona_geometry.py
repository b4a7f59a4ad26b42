"""Korona zones and put-back spots (korona §19.2, §20.17-§20.18, §21.2, §24.3, §25.1.4).

Board: 914 mm square (half 457), centre circle radius 80, rail zones 75 deep and 620 long, discs
radius 12.5 with a hole of radius 4, striker hole radius 11 (tracker/data/*.toml).
"""

from __future__ import annotations

import numpy as np
import pytest

from rules.korona_geometry import korona_geometry

G = korona_geometry()


@pytest.mark.parametrize(
    ("xy", "inside"),
    [
        ((0.0, 76.0), True),
        ((0.0, 76.5), False),
        ((53.0, 53.0), True),
        ((0.0, 0.0), True),
        ((0.0, 90.0), False),
    ],
    ids=[
        "korona-21.2-hole-touches-circle-line-from-inside-blocked",
        "korona-21.2-line-visible-in-hole-not-blocked",
        "korona-21.1-diagonal-inside",
        "korona-21.1-centre",
        "korona-21.1-outside",
    ],
)
def test_centre_circle_by_the_hole(xy: tuple[float, float], inside: bool) -> None:
    assert bool(G.in_centre_circle(np.array([xy]))[0]) is inside


@pytest.mark.parametrize(
    ("xy", "side", "inside"),
    [
        ((0.0, 457.0 - 71.0), "S", True),
        ((0.0, 457.0 - 72.0), "S", False),
        ((306.0, 440.0), "S", True),
        ((307.0, 440.0), "S", False),
        ((0.0, -440.0), "S", False),
        ((0.0, -440.0), "N", True),
        ((440.0, 0.0), "E", True),
        ((-440.0, 300.0), "W", True),
    ],
    ids=[
        "korona-21.1-zone-line-outside-hole",
        "korona-21.1-zone-line-in-hole",
        "korona-20.1-inside-end-line",
        "korona-20.1-end-line-in-hole",
        "korona-21.1-opposite-zone-is-not-own",
        "korona-21.1-north-zone",
        "korona-21.1-east-zone",
        "korona-21.1-west-zone-near-end",
    ],
)
def test_rail_zone_by_the_hole(xy: tuple[float, float], side: str, inside: bool) -> None:
    assert bool(G.in_rail_zone(np.array([xy]), side)[0]) is inside


def test_blocked_is_centre_or_own_zone() -> None:
    pts = np.array([[0.0, 0.0], [0.0, 440.0], [0.0, -440.0], [0.0, -200.0]])
    assert G.is_blocked(pts, "S").tolist() == [True, True, False, False]
    assert G.is_blocked(pts, "N").tolist() == [True, False, True, False]


@pytest.mark.parametrize(
    ("y", "beyond"),
    [(457.0 - 64.0, True), (457.0 - 65.0, False), (200.0, False)],
    ids=["korona-25.1.4-hole-past-line", "korona-25.1.4-line-in-hole", "korona-25.1.4-far-out"],
)
def test_striker_beyond_own_zone_line(y: float, beyond: bool) -> None:
    assert bool(G.striker_beyond_zone_line(np.array([[0.0, y]]), "S")[0]) is beyond


def test_initial_row_korona_19_2() -> None:
    row = G.initial_row("N")
    assert row.shape == (8, 2)
    np.testing.assert_allclose(row[:, 1], -457.0 + 12.5)  # against the rail
    assert int(np.sum(row[:, 0] > 0)) == 4 and int(np.sum(row[:, 0] < 0)) == 4  # four each side
    gaps = np.diff(np.sort(row[:, 0]))
    np.testing.assert_allclose(gaps, 25.0)  # touching each other


RAIL_N = -444.5  # y of a disc touching the N rail


@pytest.mark.parametrize(
    ("obstacles", "own", "expected"),
    [
        ([], [], [0.0, RAIL_N]),
        ([[0.0, RAIL_N]], [], [25.0, RAIL_N]),
        ([[5.0, RAIL_N]], [], [-20.0, RAIL_N]),
        ([[0.0, -420.0]], [], [4.97, RAIL_N]),
        ([[0.0, RAIL_N], [-100.0, -440.0], [100.0, -440.0], [150.0, -440.0]], [1], [25.0, RAIL_N]),
        ([[0.0, RAIL_N], [-100.0, -440.0], [100.0, -440.0], [150.0, -440.0]], [], [-25.0, RAIL_N]),
        ([[0.0, RAIL_N], [0.0, -300.0]], [], [25.0, RAIL_N]),
    ],
    ids=[
        "korona-24.3-empty-zone-centre-line-against-rail",
        "korona-24.3-centre-taken-tie-goes-to-penalised-players-right",
        "korona-24.3-nearest-free-side",
        "korona-24.3-disc-off-the-rail-blocks-a-little",
        "korona-24.3-tie-fewer-own-discs-wins",
        "korona-24.3-tie-fewer-discs-wins",
        "korona-24.3-discs-outside-the-zone-do-not-count",
    ],
)
def test_penalty_spot(obstacles: list[list[float]], own: list[int], expected: list[float]) -> None:
    obs = np.array(obstacles, dtype=float).reshape(-1, 2)
    mask = np.zeros(len(obs), bool)
    mask[own] = True
    spot = G.penalty_spot("N", obs, owner_mask=mask)
    assert spot is not None
    np.testing.assert_allclose(spot, expected, atol=0.01)


def test_penalty_spots_several_korona_24_7() -> None:
    spots = G.penalty_spots(3, "S", np.zeros((0, 2)))
    xy = np.array(spots, dtype=float)
    # First on the centre line, the next ones as near to it as they fit, against the S rail.
    np.testing.assert_allclose(xy[:, 1], 444.5)
    np.testing.assert_allclose(sorted(np.abs(xy[:, 0])), [0.0, 25.0, 25.0])


def test_penalty_spot_full_zone_is_none() -> None:
    xs = np.arange(-310.0 + 12.5, 310.0, 24.0)
    row = np.stack([xs, np.full_like(xs, RAIL_N)], axis=1)
    assert G.penalty_spot("N", row) is None


REACH = 80.0 - 12.5


@pytest.mark.parametrize(
    ("rail", "obstacles", "expected"),
    [
        ("N", [], [0.0, 0.0]),
        ("N", [[0.0, 0.0]], [0.0, -REACH]),
        ("E", [[0.0, 0.0]], [REACH, 0.0]),
        ("N", [[0.0, 0.0], [0.0, -REACH]], [REACH, 0.0]),
        ("N", [[0.0, 0.0], [0.0, -REACH], [REACH, 0.0]], [-REACH, 0.0]),
        ("N", [[0.0, 0.0], [0.0, -REACH], [REACH, 0.0], [-REACH, 0.0]], [0.0, REACH]),
        ("N", [[0.0, 0.0], [0.0, -REACH], [REACH, 0.0], [-REACH, 0.0], [0.0, REACH]], [0.0, -REACH / 2]),
        ("NE", [[0.0, 0.0]], [REACH / np.sqrt(2), -REACH / np.sqrt(2)]),
        (None, [[0.0, 0.0]], [REACH / np.sqrt(2), -REACH / np.sqrt(2)]),
    ],
    ids=[
        "korona-20.17-centre",
        "korona-20.17-own-side-diameter-point",
        "korona-20.17-east-side",
        "korona-20.18-clockwise-neighbour-first",
        "korona-20.18-then-the-other-neighbour",
        "korona-20.18-then-the-opposite-point",
        "korona-20.18-between-discs-equal-gaps-own-side",
        "korona-20.18-note-diagonal-when-corner-known",
        "korona-20.18-note-unknown-side-fixed-diagonal-order",
    ],
)
def test_off_board_spot(rail: str | None, obstacles: list[list[float]], expected: list[float]) -> None:
    spot = G.off_board_spot(rail, np.array(obstacles, dtype=float).reshape(-1, 2))
    assert spot is not None
    np.testing.assert_allclose(spot, expected, atol=0.26)  # the between-discs search steps 0.5 mm


def test_off_board_spot_full_circle_is_none() -> None:
    ang = np.linspace(0, 2 * np.pi, 13)[:-1]
    ring = np.concatenate(
        [[[0.0, 0.0]], 26 * np.c_[np.cos(ang), np.sin(ang)], 55 * np.c_[np.cos(ang), np.sin(ang)]]
    )
    pts = np.array([[x, y] for x in np.arange(-80, 81, 20.0) for y in np.arange(-80, 81, 20.0)])
    assert G.off_board_spot("N", np.vstack([ring, pts])) is None


def test_bad_shape_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="xy_mm"):
        G.in_centre_circle(np.zeros((3, 3)))
