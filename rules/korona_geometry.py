"""Korona board geometry for the rules: zones, blocked discs and where discs are put back.

All coordinates are board millimetres (origin at the centre of the playing surface, x to the image
right, y to the image bottom; side N is y < 0). A player sits at a side ("seat"); the own rail zone
("omapoolse poordi tsoon") is the rail zone on that side and the opposite rail zone is the one across
the board. A disc is "in" a zone when the zone's boundary line cannot be seen through the disc's hole
(korona §21.2: a disc through whose hole the line is visible is not blocked), i.e. when the hole lies
wholly inside the zone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tracker._validate import check_shape
from tracker.specs import DiscKind, default_equipment, load_board, load_equipment

__all__ = [
    "KoronaGeometry",
    "OPPOSITE",
    "korona_geometry",
]

OPPOSITE: dict[str, str] = {"N": "S", "S": "N", "E": "W", "W": "E"}
# Unit vector from the centre towards each side or corner, board frame.
_OUT: dict[str, tuple[float, float]] = {"N": (0.0, -1.0), "E": (1.0, 0.0), "S": (0.0, 1.0), "W": (-1.0, 0.0)}
_DIAG = {c: (np.array(_OUT[c[1]]) + np.array(_OUT[c[0]])) / np.sqrt(2.0) for c in ("NW", "NE", "SE", "SW")}
_CLOCKWISE = ("N", "E", "S", "W")
_FREE_TOL_MM = 0.01  # two discs may touch; overlap beyond this is "not free"
_STEP_MM = 0.5  # search step for the "between other discs" placement of §20.18


def _along(side: str) -> np.ndarray:
    """Unit vector along the rail of `side`, pointing to the right of a player seated there."""
    ox, oy = _OUT[side]
    return np.array([-oy, ox], dtype=np.float64) * -1.0


@dataclass(frozen=True, slots=True)
class KoronaGeometry:
    """Board and disc sizes the korona rules need, in mm (see module docstring for the frame)."""

    half_mm: float
    centre_radius_mm: float
    zone_depth_mm: float
    zone_length_mm: float
    disc_radius_mm: float
    hole_radius_mm: float
    striker_hole_radius_mm: float

    def in_centre_circle(self, xy_mm: np.ndarray) -> np.ndarray:
        """(N,) bool: the disc hole lies inside the centre circle ("keskring").

        Examples:
            >>> g = korona_geometry()
            >>> g.in_centre_circle(np.array([[0.0, 0.0], [0.0, 200.0]])).tolist()
            [True, False]
        """
        xy = _as_xy(xy_mm)
        inside: np.ndarray = np.hypot(xy[:, 0], xy[:, 1]) + self.hole_radius_mm <= self.centre_radius_mm
        return inside

    def rail_local(self, xy_mm: np.ndarray, side: str) -> tuple[np.ndarray, np.ndarray]:
        """Distance from the rail of `side` (u, mm) and position along it (v, mm, + to the right of
        a player seated at `side`) for (N,2) board-mm points."""
        xy = _as_xy(xy_mm)
        out = np.array(_OUT[side])
        u = self.half_mm - xy @ out
        v = xy @ _along(side)
        return u, v

    def in_rail_zone(
        self, xy_mm: np.ndarray, side: str, *, hole_radius_mm: float | None = None
    ) -> np.ndarray:
        """(N,) bool: the hole (disc hole unless given) lies inside the rail zone of `side`."""
        h = self.hole_radius_mm if hole_radius_mm is None else hole_radius_mm
        u, v = self.rail_local(xy_mm, side)
        inside: np.ndarray = (u + h <= self.zone_depth_mm) & (np.abs(v) + h <= self.zone_length_mm / 2.0)
        return inside

    def is_blocked(self, xy_mm: np.ndarray, seat: str) -> np.ndarray:
        """(N,) bool: a disc of the player at `seat` here is a blocked disc ("suluseib", §21.1)."""
        blocked: np.ndarray = self.in_centre_circle(xy_mm) | self.in_rail_zone(xy_mm, seat)
        return blocked

    def striker_beyond_zone_line(self, xy_mm: np.ndarray, seat: str) -> np.ndarray:
        """(N,) bool: the striker hole has crossed back over the own zone line (§25.1.4): the
        line is no longer visible through the hole, which lies wholly on the rail side of it."""
        u, _ = self.rail_local(xy_mm, seat)
        return u + self.striker_hole_radius_mm <= self.zone_depth_mm

    def free_mask(self, xy_mm: np.ndarray, obstacles_mm: np.ndarray) -> np.ndarray:
        """(N,) bool: a disc centred at each point overlaps none of the (M,2) obstacle discs."""
        xy, obs = _as_xy(xy_mm), _as_xy(obstacles_mm)
        if len(obs) == 0:
            return np.ones(len(xy), dtype=bool)
        d = np.linalg.norm(xy[:, None, :] - obs[None, :, :], axis=2)
        free: np.ndarray = np.all(d >= 2.0 * self.disc_radius_mm - _FREE_TOL_MM, axis=1)
        return free

    def initial_row(self, side: str) -> np.ndarray:
        """(8,2) set-up spots of one player's discs against the rail of `side` (§19.2): touching
        each other and the rail, four each side of the centre line, ordered along the rail."""
        r = self.disc_radius_mm
        v = np.array([-7, -5, -3, -1, 1, 3, 5, 7], dtype=np.float64) * r
        return self._rail_point(side, r, v)

    def _rail_point(self, side: str, u: float, v: np.ndarray) -> np.ndarray:
        out, along = np.array(_OUT[side]), _along(side)
        # "+ 0.0" turns -0.0 into 0.0 so spots print cleanly.
        pts: np.ndarray = (self.half_mm - u) * out[None, :] + v[:, None] * along[None, :] + 0.0
        return pts

    def penalty_spot(
        self,
        zone: str,
        obstacles_mm: np.ndarray,
        *,
        owner_mask: np.ndarray | None = None,
    ) -> np.ndarray | None:
        """Spot of one penalty disc ("trahviseib") in the rail zone of side `zone` (§24.3).

        Against the rail, on the zone's centre line; if discs are in the way, as near the centre
        line as it fits without moving them. At equal distances both ways: the side with fewer of
        the penalised player's discs in that zone (`owner_mask` marks them among the obstacles),
        then fewer discs in all, then (not prescribed) the penalised player's right as he faces
        the zone from his seat across the board.

        Args:
            zone: side whose rail zone takes the disc (the penalised player's opposite side).
            obstacles_mm: (M,2) board-mm centres of the discs on the board (not the striker).
            owner_mask: (M,) bool, True for the penalised player's discs.

        Returns:
            (2,) board-mm spot, or None when the zone has no room.

        Examples:
            >>> g = korona_geometry()
            >>> g.penalty_spot("N", np.zeros((0, 2))).tolist()
            [0.0, -444.5]
        """
        obs = _as_xy(obstacles_mm)
        mask = np.zeros(len(obs), bool) if owner_mask is None else np.asarray(owner_mask, bool)
        r = self.disc_radius_mm
        u, v = self.rail_local(obs, zone)
        gap = np.clip((2 * r) ** 2 - (u - r) ** 2, 0.0, None)
        near = (u - r) ** 2 < (2 * r) ** 2 - _FREE_TOL_MM
        lo, hi = v[near] - np.sqrt(gap[near]), v[near] + np.sqrt(gap[near])
        limit = self.zone_length_mm / 2.0 - r
        right = _nearest_free(lo, hi, limit)
        left = _nearest_free(-hi, -lo, limit)
        if right is None and left is None:
            return None
        if right is None or (left is not None and left < right - _FREE_TOL_MM):
            chosen = -float(left)  # type: ignore[arg-type]
        elif left is None or right < left - _FREE_TOL_MM:
            chosen = float(right)
        else:
            in_zone = self.in_rail_zone(obs, zone)
            chosen = float(right) if _prefer_right(v, in_zone, mask) else -float(left)
        spot: np.ndarray = self._rail_point(zone, r, np.array([chosen]))[0]
        return spot

    def penalty_spots(
        self,
        count: int,
        zone: str,
        obstacles_mm: np.ndarray,
        *,
        owner_mask: np.ndarray | None = None,
    ) -> list[np.ndarray | None]:
        """Spots of `count` penalty discs placed together (§24.3, §24.7): the first as
        `penalty_spot`, each next one with the earlier ones as further obstacles (they count as the
        penalised player's discs)."""
        obs = _as_xy(obstacles_mm)
        mask = np.zeros(len(obs), bool) if owner_mask is None else np.asarray(owner_mask, bool)
        spots: list[np.ndarray | None] = []
        for _ in range(count):
            spot = self.penalty_spot(zone, obs, owner_mask=mask)
            spots.append(spot)
            if spot is not None:
                obs, mask = np.vstack([obs, spot[None, :]]), np.append(mask, True)
        return spots

    def off_board_spot(self, rail: str | None, obstacles_mm: np.ndarray) -> np.ndarray | None:
        """Where a disc that went off the board over `rail` is put back (§20.17, §20.18).

        The centre of the centre circle; else the point of the diameter line on the side it went
        over, touching the circle from inside; else the other such points, nearest that side first
        (the clockwise neighbour before the anticlockwise one at equal distance); else on a
        diameter line between the other discs, as far from them as it fits, that side first.
        `rail` may be a corner ("NE") when only the diagonal is known, or None (§20.18 note);
        then the diagonal points come first (for None: NE, SE, SW, NW, an arbitrary fixed order).

        Args:
            rail: "N", "E", "S", "W", a corner, or None.
            obstacles_mm: (M,2) board-mm centres of the discs on the board.

        Returns:
            (2,) board-mm spot, or None when the centre circle is full.

        Examples:
            >>> g = korona_geometry()
            >>> g.off_board_spot("N", np.array([[0.0, 0.0]])).tolist()
            [0.0, -67.5]
        """
        obs = _as_xy(obstacles_mm)
        dirs = self._spot_directions(rail)
        reach = self.centre_radius_mm - self.disc_radius_mm
        points = np.vstack([np.zeros((1, 2)), reach * np.array(dirs)])
        free = self.free_mask(points, obs)
        if free.any():
            first: np.ndarray = points[int(np.argmax(free))]
            return first
        return self._between_discs(dirs, obs, reach)

    def _spot_directions(self, rail: str | None) -> list[np.ndarray]:
        if rail in _OUT:
            i = _CLOCKWISE.index(rail)
            order = [rail, _CLOCKWISE[(i + 1) % 4], _CLOCKWISE[(i + 3) % 4], _CLOCKWISE[(i + 2) % 4]]
            return [np.array(_OUT[s]) for s in order]
        if rail in _DIAG:
            return [_DIAG[rail], *(np.array(_OUT[s]) for s in (rail[0], rail[1]))]
        return [_DIAG[c] for c in ("NE", "SE", "SW", "NW")]

    def _between_discs(self, dirs: list[np.ndarray], obs: np.ndarray, reach: float) -> np.ndarray | None:
        t = np.arange(0.0, reach + 1e-9, _STEP_MM)
        for d in dirs:
            pts = t[:, None] * d[None, :]
            free = self.free_mask(pts, obs)
            if not free.any():
                continue
            clearance = np.min(np.linalg.norm(pts[:, None, :] - obs[None, :, :], axis=2), axis=1)
            # Equal gaps to the neighbours = the free point farthest from every disc; ties go to
            # the point nearer the side it went over (the larger t).
            score = np.where(free, clearance, -1.0)
            best = np.flatnonzero(score >= score.max() - 1e-9)[-1]
            spot: np.ndarray = pts[best]
            return spot
        return None


def _nearest_free(lo: np.ndarray, hi: np.ndarray, limit: float) -> float | None:
    """Smallest t >= 0, t <= limit, outside every open interval (lo, hi); None if none."""
    cands = np.concatenate([[0.0], hi[hi >= 0.0], lo[lo >= 0.0]])
    cands = np.sort(cands[cands <= limit + 1e-9])
    for t in cands:
        if not np.any((lo < t - _FREE_TOL_MM) & (t + _FREE_TOL_MM < hi)):
            return float(t)
    return None


def _prefer_right(v: np.ndarray, in_zone: np.ndarray, owner: np.ndarray) -> bool:
    """§24.3 tie-break: fewer of the penalised player's discs, then fewer discs, then v < 0 (the
    right of the penalised player, who sits across from the zone)."""
    right, left = in_zone & (v > 0), in_zone & (v < 0)
    own_r, own_l = int(np.sum(right & owner)), int(np.sum(left & owner))
    if own_r != own_l:
        return own_r < own_l
    all_r, all_l = int(np.sum(right)), int(np.sum(left))
    return all_r < all_l


def _as_xy(xy_mm: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
    arr = np.asarray(xy_mm, dtype=np.float64)
    if arr.size == 0:
        return arr.reshape(0, 2)
    check_shape(arr, (None, 2), "xy_mm")
    return arr


def korona_geometry(*, equipment: str | None = None) -> KoronaGeometry:
    """The rules geometry from `load_board("korona")` and the korona disc set (or `equipment`)."""
    board = load_board("korona")
    eq = default_equipment("korona") if equipment is None else load_equipment(equipment)
    return KoronaGeometry(
        half_mm=board.half_mm,
        centre_radius_mm=board.centre_circle_diameter_mm / 2.0,
        zone_depth_mm=board.rail_zone_depth_mm,
        zone_length_mm=board.rail_zone_length_mm,
        disc_radius_mm=eq.radius_mm(DiscKind.WHITE),
        hole_radius_mm=eq.man_hole_diameter_mm / 2.0,
        striker_hole_radius_mm=eq.striker_hole_diameter_mm / 2.0,
    )
