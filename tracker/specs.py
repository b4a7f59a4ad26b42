"""Board and equipment specifications, loaded from the TOML files in `tracker/data/`.

Board frame (used everywhere): millimetres, origin at the centre of the playing surface,
x towards the side that appears on the right of the image, y towards the side at the bottom.
Sides are N (top, y < 0), E, S (bottom), W; corners and pockets NW, NE, SE, SW.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from tracker.errors import ConfigError

__all__ = [
    "CORNERS",
    "PRINT_SPOT_MM",
    "SIDES",
    "BoardSpec",
    "DiscKind",
    "EquipmentSpec",
    "Game",
    "SPEC_VERSION",
    "load_board",
    "load_equipment",
    "default_equipment",
]

SPEC_VERSION = 1
CORNERS: tuple[str, ...] = ("NW", "NE", "SE", "SW")
SIDES: tuple[str, ...] = ("N", "E", "S", "W")
PRINT_SPOT_MM = 5.0  # a printed base circle read as a disc is seen this close to the circle's centre
PLACEMENT_ERR_MM = 4.0  # the detection error of a standing striker's centre, mm
STILL_STEP_MM = 3.0  # two sightings in a row of a disc standing still lie this close (detection noise), mm


class Game(StrEnum):
    CARROM = "carrom"
    KORONA = "korona"


class DiscKind(IntEnum):
    """Disc kinds as stored in `FrameDetections.kind` (int8). Korona: WHITE = light, BLACK = dark."""

    WHITE = 0
    BLACK = 1
    QUEEN = 2
    STRIKER = 3

    @property
    def label(self) -> str:
        """The lower-case name used in JSON (`"white"`, `"striker"`, ...)."""
        return self.name.lower()

    @classmethod
    def from_label(cls, label: str) -> DiscKind:
        try:
            return cls[label.upper()]
        except KeyError:
            raise ConfigError(f"unknown disc kind {label!r}; expected one of white, black, queen, striker") from None

    def is_coin(self) -> bool:
        """True for the carrom men and the queen (everything but the striker)."""
        return self is not DiscKind.STRIKER


@dataclass(frozen=True, slots=True)
class BoardSpec:
    """Geometry of one game's board, in board millimetres."""

    game: Game
    size_mm: float
    frame_width_mm: float
    pocket_diameter_mm: float
    pocket_inset_mm: float
    pocket_no_return_mm: float
    base_line_length_mm: float
    base_line_outer_from_edge_mm: float
    base_line_gap_mm: float
    base_circle_diameter_mm: float
    centre_circle_diameter_mm: float
    outer_circle_diameter_mm: float
    arrow_length_mm: float
    arrow_start_from_pocket_mm: float
    rail_zone_depth_mm: float
    rail_zone_length_mm: float
    # the men start in rows against the rails (korona §19), not in the centre
    rows_at_rails: bool = False

    @property
    def half_mm(self) -> float:
        return self.size_mm / 2.0

    @property
    def corners_mm(self) -> np.ndarray:
        """(4, 2) float64 playing-surface corners NW, NE, SE, SW in board mm."""
        h = self.half_mm
        return np.array([[-h, -h], [h, -h], [h, h], [-h, h]], dtype=np.float64)

    @property
    def pockets_mm(self) -> np.ndarray:
        """(4, 2) float64 pocket centres NW, NE, SE, SW in board mm."""
        c = self.half_mm - self.pocket_inset_mm
        return np.array([[-c, -c], [c, -c], [c, c], [-c, c]], dtype=np.float64)

    @property
    def pocket_radius_mm(self) -> float:
        return self.pocket_diameter_mm / 2.0

    @property
    def base_circle_centre_mm(self) -> tuple[float, float]:
        """(along, across) of the S side's right base circle, board mm: it sits inside the end of
        the base lines and touches both; the other seven are its mirror and quarter-turn images.

        >>> tuple(round(v, 1) for v in load_board("carrom").base_circle_centre_mm)
        (219.1, 252.6)
        """
        r = self.base_circle_diameter_mm / 2.0
        return self.base_line_length_mm / 2.0 - r, self.half_mm - self.base_line_outer_from_edge_mm - r

    @property
    def base_circle_centres_mm(self) -> np.ndarray:
        """(8, 2) the base circles' centres, board mm, in `base_circle_pattern` order; (0, 2) on a
        board without them.

        >>> load_board("carrom").base_circle_centres_mm[:2].round(1).tolist()
        [[-219.1, -252.6], [219.1, -252.6]]
        >>> load_board("korona").base_circle_centres_mm.shape
        (0, 2)
        """
        if self.base_circle_diameter_mm <= 0:
            return np.zeros((0, 2))
        return base_circle_pattern(*self.base_circle_centre_mm)

    @property
    def placement_line_mm(self) -> float:
        """Distance (mm) from the centre of the lines on which the striker is set for a shot: the
        middle of the base lines (carrom), of the rail zones (korona).

        >>> load_board("carrom").placement_line_mm
        252.6
        """
        if self.base_line_length_mm > 0:
            return self.half_mm - self.base_line_outer_from_edge_mm - self.base_line_gap_mm / 2
        return self.half_mm - self.rail_zone_depth_mm / 2

    @property
    def placement_extent_mm(self) -> float:
        """Half the length of a placement line, mm."""
        return (self.base_line_length_mm if self.base_line_length_mm > 0 else self.rail_zone_length_mm) / 2

    def placement_tol_mm(self, striker_diameter_mm: float) -> float:
        """How far (mm) from `placement_line_mm` a striker set for a shot may stand: on base lines
        (carrom) it touches both, so its centre is within its radius less half their gap of the
        middle (ICF: 4.75 mm), detection error added; in a rail zone (korona), anywhere in it."""
        if self.base_line_length_mm > 0:
            return striker_diameter_mm / 2 - self.base_line_gap_mm / 2 + PLACEMENT_ERR_MM
        return self.rail_zone_depth_mm / 2 + PLACEMENT_ERR_MM

    def on_placement_line(self, xy_mm: np.ndarray, striker_diameter_mm: float) -> np.ndarray:
        """(N,) bool: points (N, 2) board mm where a striker may stand set for a shot (within
        `placement_tol_mm` of a placement line, along its length).

        >>> load_board("carrom").on_placement_line(np.array([[-26.0, 251.9], [0.0, 200.0]]), 41.0).tolist()
        [True, False]
        """
        xy = np.abs(np.asarray(xy_mm, np.float64).reshape(-1, 2))
        line, tol, extent = self.placement_line_mm, self.placement_tol_mm(striker_diameter_mm), self.placement_extent_mm
        across_y = (np.abs(xy[:, 1] - line) <= tol) & (xy[:, 0] <= extent)
        across_x = (np.abs(xy[:, 0] - line) <= tol) & (xy[:, 1] <= extent)
        return np.asarray(across_y | across_x)

    def on_base_circle(self, xy_mm: np.ndarray, within_mm: float = PRINT_SPOT_MM) -> np.ndarray:
        """(N,) bool: points (N, 2) board mm within `within_mm` of a base circle's centre (where a
        printed circle read as a disc is seen).

        >>> load_board("carrom").on_base_circle(np.array([[219.0, 250.0], [0.0, 0.0]])).tolist()
        [True, False]
        """
        centres = self.base_circle_centres_mm
        xy = np.asarray(xy_mm, np.float64).reshape(-1, 2)
        if len(centres) == 0 or len(xy) == 0:
            return np.zeros(len(xy), bool)
        return np.asarray(np.linalg.norm(xy[:, None, :] - centres[None], axis=2).min(axis=1) <= within_mm)


def base_circle_pattern(a: float, b: float) -> np.ndarray:
    """(8, 2) base-circle centres, board mm, of circles `a` along and `b` across from the centre
    (see `BoardSpec.base_circle_centre_mm`): N side left, right; E side top, bottom; S right, left;
    W bottom, top."""
    return np.array([[-a, -b], [a, -b], [b, -a], [b, a], [a, b], [-a, b], [-b, a], [-b, -a]])


@dataclass(frozen=True, slots=True)
class EquipmentSpec:
    """One set of discs. Lengths in mm, masses in g."""

    name: str
    game: Game
    description: str
    man_diameter_mm: float
    man_mass_g: float
    striker_diameter_mm: float
    striker_mass_g: float
    striker_hole_diameter_mm: float
    man_hole_diameter_mm: float
    men_per_colour: int
    queens: int
    # the light discs are the surface's colour (natural wood on a birch board): only their outline
    # and a rim a shade darker than the face tell them from bare board
    light_like_surface: bool = False

    def radius_mm(self, kind: DiscKind) -> float:
        d = self.striker_diameter_mm if kind is DiscKind.STRIKER else self.man_diameter_mm
        return d / 2.0

    def mass_g(self, kind: DiscKind) -> float:
        return self.striker_mass_g if kind is DiscKind.STRIKER else self.man_mass_g

    def radii_mm(self, kinds: np.ndarray) -> np.ndarray:
        """Radius in mm for each entry of an int8 `kinds` array."""
        return np.where(kinds == DiscKind.STRIKER, self.striker_diameter_mm / 2, self.man_diameter_mm / 2)


def _read_toml(name: str) -> dict[str, Any]:
    text = resources.files("tracker").joinpath("data").joinpath(name).read_text(encoding="utf-8")
    data = tomllib.loads(text)
    if data.get("version") != SPEC_VERSION:
        raise ConfigError(f"{name}: spec version {data.get('version')!r}, this boardtrack reads {SPEC_VERSION}")
    return data


@cache
def load_board(game: str | Game) -> BoardSpec:
    """Load the board spec of `game` ("carrom" or "korona")."""
    try:
        game = Game(game)
    except ValueError:
        raise ConfigError(f"unknown game {game!r}; expected carrom or korona") from None
    d = _read_toml(f"{game.value}.toml")
    s, p, m, z = d["surface"], d["pockets"], d["markings"], d["rail_zone"]
    return BoardSpec(
        game=game,
        size_mm=s["size_mm"],
        frame_width_mm=s["frame_width_mm"],
        pocket_diameter_mm=p["diameter_mm"],
        pocket_inset_mm=p["inset_mm"],
        pocket_no_return_mm=p["no_return_mm"],
        rail_zone_depth_mm=z["depth_mm"],
        rail_zone_length_mm=z["length_mm"],
        rows_at_rails=bool(d.get("setup", {}).get("rows_at_rails", False)),
        **{k: m[k] for k in (
            "base_line_length_mm", "base_line_outer_from_edge_mm", "base_line_gap_mm",
            "base_circle_diameter_mm", "centre_circle_diameter_mm", "outer_circle_diameter_mm",
            "arrow_length_mm", "arrow_start_from_pocket_mm")},
    )


@cache
def load_equipment(name: str) -> EquipmentSpec:
    """Load an equipment profile by name ("icf", "home", "korona")."""
    d = _read_toml("equipment.toml")
    if name not in d or name == "version":
        names = ", ".join(k for k in d if k != "version")
        raise ConfigError(f"unknown equipment {name!r}; expected one of {names}")
    e = d[name]
    return EquipmentSpec(
        name=name,
        game=Game(e["game"]),
        description=e["description"],
        man_diameter_mm=e["man_diameter_mm"],
        man_mass_g=e["man_mass_g"],
        striker_diameter_mm=e["striker_diameter_mm"],
        striker_mass_g=e["striker_mass_g"],
        striker_hole_diameter_mm=e["striker_hole_diameter_mm"],
        man_hole_diameter_mm=e["man_hole_diameter_mm"],
        men_per_colour=e["men_per_colour"],
        queens=e["queens"],
        light_like_surface=bool(e.get("light_like_surface", False)),
    )


def default_equipment(game: str | Game) -> EquipmentSpec:
    """The equipment a game uses unless told otherwise: ICF for carrom, the korona set for korona."""
    return load_equipment("icf" if Game(game) is Game.CARROM else "korona")
