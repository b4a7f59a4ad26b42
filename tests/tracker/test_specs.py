"""Board and equipment specs: the numbers the laws give, and clear errors for unknown names."""

from __future__ import annotations

import contextlib

import numpy as np
import pytest

from tracker.errors import ConfigError
from tracker.specs import DiscKind, Game, load_board, load_equipment


@pytest.mark.parametrize(
    ("game", "size", "pocket_d"),
    [("carrom", 740.0, 44.5), ("korona", 914.0, 60.0)],
    ids=["carrom-icf", "korona"],
)
def test_board_dimensions(game: str, size: float, pocket_d: float) -> None:
    b = load_board(game)
    assert b.size_mm == size
    assert b.pocket_diameter_mm == pocket_d
    # Corners in NW, NE, SE, SW order: x grows to the east, y to the south.
    np.testing.assert_allclose(b.corners_mm[0], [-size / 2, -size / 2])
    np.testing.assert_allclose(b.corners_mm[2], [size / 2, size / 2])
    # Each pocket circle touches both edges at its corner.
    inset = size / 2 - np.abs(b.pockets_mm)
    np.testing.assert_allclose(inset, b.pocket_radius_mm)


def test_carrom_markings_follow_icf() -> None:
    b = load_board("carrom")
    assert b.base_line_length_mm == 470.0
    assert b.base_line_outer_from_edge_mm == 101.5
    assert b.base_line_gap_mm == 31.8
    assert b.centre_circle_diameter_mm == 31.8
    assert b.outer_circle_diameter_mm == 170.0
    assert b.rail_zone_depth_mm == 0.0
    assert not b.rows_at_rails  # the men start in the centre


def test_korona_has_rail_zones() -> None:
    b = load_board("korona")
    assert b.rail_zone_depth_mm > 0 and b.rail_zone_length_mm < b.size_mm
    assert b.rows_at_rails  # §19: the men start in rows against the rails


@pytest.mark.parametrize(
    ("name", "striker_d", "men", "hole"),
    [("icf", 41.0, 9, 0.0), ("home", 60.0, 9, 0.0), ("korona", 50.0, 8, 22.0)],
    ids=["icf", "home-oversized-striker", "korona-ring"],
)
def test_equipment(name: str, striker_d: float, men: int, hole: float) -> None:
    e = load_equipment(name)
    assert e.striker_diameter_mm == striker_d
    assert e.men_per_colour == men
    assert e.striker_hole_diameter_mm == hole
    assert e.light_like_surface is (name == "korona")  # natural wood discs on a birch board
    assert e.radius_mm(DiscKind.STRIKER) == striker_d / 2
    radii = e.radii_mm(np.array([DiscKind.WHITE, DiscKind.STRIKER], np.int8))
    np.testing.assert_allclose(radii, [e.man_diameter_mm / 2, striker_d / 2])


def test_icf_striker_within_law() -> None:
    e = load_equipment("icf")
    assert e.striker_diameter_mm <= 41.3
    assert 30.2 <= e.man_diameter_mm <= 31.8


@pytest.mark.parametrize(
    ("call", "expect"),
    [
        (lambda: load_board("chess"), pytest.raises(ConfigError, match="unknown game 'chess'")),
        (lambda: load_equipment("tiny"), pytest.raises(ConfigError, match="unknown equipment 'tiny'")),
        (lambda: DiscKind.from_label("king"), pytest.raises(ConfigError, match="unknown disc kind")),
        (lambda: DiscKind.from_label("Queen"), contextlib.nullcontext()),
        (lambda: load_board(Game.KORONA), contextlib.nullcontext()),
    ],
    ids=["bad-game", "bad-equipment", "bad-kind", "kind-case-insensitive", "enum-game"],
)
def test_lookup_errors(call, expect) -> None:
    with expect:
        call()


def test_disc_kind_labels_round_trip() -> None:
    for k in DiscKind:
        assert DiscKind.from_label(k.label) is k
    assert [k.is_coin() for k in DiscKind] == [True, True, True, False]
