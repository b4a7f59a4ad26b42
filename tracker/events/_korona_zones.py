"""Korona zones in board millimetres: the centre circle, the rail zones, the striker's zone line.

Board frame: origin at the board centre, x to the image right, y to the image bottom; side N is
y < 0. A disc is "in" a zone when its hole lies wholly inside it, i.e. the zone's boundary line
cannot be seen through the hole (korona §21.2); the striker is past its own zone line when its hole
lies wholly on the rail side of it (§25.1.4). The same definitions as `rules.korona_geometry`,
computed here from `tracker.specs` so the tracker does not depend on the rules (the tests check
that the two agree).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tracker.specs import BoardSpec, EquipmentSpec

__all__ = ["SIDE_OUT", "KoronaZones"]

# unit vector from the board centre out through each side
SIDE_OUT: dict[str, tuple[float, float]] = {
    "N": (0.0, -1.0),
    "E": (1.0, 0.0),
    "S": (0.0, 1.0),
    "W": (-1.0, 0.0),
}


@dataclass(frozen=True, slots=True)
class KoronaZones:
    """Korona zones in board mm (origin at the board centre, x right, y down; N is y < 0).

    A disc is "in" a zone when its hole lies wholly inside it, i.e. the zone's boundary line cannot
    be seen through the hole (korona §21.2); the striker is past its own zone line when its hole
    lies wholly on the rail side of it (§25.1.4).
    """

    half_mm: float
    centre_radius_mm: float
    zone_depth_mm: float
    zone_length_mm: float
    hole_radius_mm: float
    striker_hole_radius_mm: float

    @classmethod
    def from_specs(cls, board: BoardSpec, equipment: EquipmentSpec) -> KoronaZones:
        """Zones of a korona board for a disc set."""
        return cls(
            board.half_mm,
            board.centre_circle_diameter_mm / 2.0,
            board.rail_zone_depth_mm,
            board.rail_zone_length_mm,
            equipment.man_hole_diameter_mm / 2.0,
            equipment.striker_hole_diameter_mm / 2.0,
        )

    def rail_distance(self, xy_mm: np.ndarray, side: str) -> tuple[np.ndarray, np.ndarray]:
        """(N,) distance from the rail of `side` (mm, inwards) and (N,) position along it (mm)."""
        xy = np.asarray(xy_mm, np.float64).reshape(-1, 2)
        ox, oy = SIDE_OUT[side]
        u = self.half_mm - (xy[:, 0] * ox + xy[:, 1] * oy)
        v = xy[:, 0] * -oy + xy[:, 1] * ox
        return u, v

    def in_centre_circle(self, xy_mm: np.ndarray) -> np.ndarray:
        """(N,) bool: the disc's hole lies inside the centre circle.

        Examples:
            >>> z = KoronaZones(457.0, 80.0, 75.0, 620.0, 4.0, 11.0)
            >>> z.in_centre_circle(np.array([[0.0, 0.0], [0.0, 77.0]])).tolist()
            [True, False]
        """
        xy = np.asarray(xy_mm, np.float64).reshape(-1, 2)
        inside: np.ndarray = np.hypot(xy[:, 0], xy[:, 1]) + self.hole_radius_mm <= self.centre_radius_mm
        return inside

    def in_rail_zone(self, xy_mm: np.ndarray, side: str) -> np.ndarray:
        """(N,) bool: the disc's hole lies inside the rail zone of `side` (between its end lines)."""
        u, v = self.rail_distance(xy_mm, side)
        h = self.hole_radius_mm
        inside: np.ndarray = (u + h <= self.zone_depth_mm) & (np.abs(v) + h <= self.zone_length_mm / 2.0)
        return inside

    def is_blocked(self, xy_mm: np.ndarray, seat: str) -> np.ndarray:
        """(N,) bool: a disc of the player seated at `seat` here is blocked (korona §21.1)."""
        blocked: np.ndarray = self.in_centre_circle(xy_mm) | self.in_rail_zone(xy_mm, seat)
        return blocked

    def is_beyond_zone_line(self, xy_mm: np.ndarray, seat: str) -> np.ndarray:
        """(N,) bool: a striker here has its hole wholly on the rail side of `seat`'s zone line.

        Examples:
            >>> z = KoronaZones(457.0, 80.0, 75.0, 620.0, 4.0, 11.0)
            >>> z.is_beyond_zone_line(np.array([[0.0, 430.0], [0.0, 380.0]]), "S").tolist()
            [True, False]
        """
        u, _ = self.rail_distance(xy_mm, seat)
        beyond: np.ndarray = u + self.striker_hole_radius_mm <= self.zone_depth_mm
        return beyond
