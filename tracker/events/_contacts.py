"""The striker's first contact, by casting its straight run against where everything stood.

Before a shot every disc is at rest, and the striker travels straight until it first touches
something, so its first contact is geometry: the first disc whose centre comes within
r_striker + r_disc of the striker's line (and which then actually moved), or the first cushion
(|x| or |y| + r_striker reaching half the board), whichever comes first along the line, within the
distance the striker was seen to travel straight. After a cushion the line is reflected (or, better,
re-measured from the observations after the bounce) and followed on, so that a cushion before the
first disc is known too.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tracker.specs import BoardSpec

__all__ = ["Cast", "FirstContact", "cast_line", "hit_distances", "SIDE_OF_WALL"]

# wall index -> side: +x is E, -x is W, +y is S (image bottom), -y is N
SIDE_OF_WALL = ("E", "W", "S", "N")


@dataclass(frozen=True, slots=True)
class Cast:
    """What one straight segment runs into first.

    Attributes:
        what: "disc", "cushion", "pocket" or "none".
        s_mm: distance along the segment to the contact (striker centre), mm.
        disc: index of the disc hit (-1 otherwise).
        side: cushion side hit (None otherwise).
    """

    what: str
    s_mm: float
    disc: int = -1
    side: str | None = None


@dataclass(frozen=True, slots=True)
class FirstContact:
    """The striker's first contact in a shot.

    Attributes:
        disc: index (into the discs given) of the first disc touched, or -1.
        cushions: cushion sides touched before that disc (or before stopping), in order.
        t_disc_s: time of the first disc contact, s (None if no disc).
        t_cushions_s: times of the cushion contacts, s.
        pocketed_first: the striker ran into a pocket before touching anything.
    """

    disc: int
    cushions: tuple[str, ...]
    t_disc_s: float | None
    t_cushions_s: tuple[float, ...]
    pocketed_first: bool = False


def cast_line(origin: np.ndarray, u: np.ndarray, limit_mm: float, discs_xy: np.ndarray, reach_mm: np.ndarray,
              eligible: np.ndarray, board: BoardSpec, r_striker_mm: float, *, graze_mm: float) -> Cast:
    """The first thing a striker centre moving from `origin` along unit `u` touches within `limit_mm`.

    Args:
        origin: (2,) start, board mm.
        u: (2,) unit direction.
        limit_mm: how far the striker is known to have gone straight, mm.
        discs_xy: (N, 2) disc centres at rest, board mm.
        reach_mm: (N,) r_striker + r_disc per disc, mm.
        eligible: (N,) bool, discs that may be the contact (they moved during the shot).
        board: board geometry.
        r_striker_mm: striker radius, mm.
        graze_mm: tolerance on the touching distance (position noise), mm.

    Examples:
        >>> from tracker.specs import load_board
        >>> b = load_board("carrom")
        >>> c = cast_line(np.array([0.0, 250.0]), np.array([0.0, -1.0]), 1000.0, np.array([[10.0, 0.0]]),
        ...               np.array([36.0]), np.array([True]), b, 20.5, graze_mm=1.0)
        >>> c.what, c.disc, round(c.s_mm, 1)
        ('disc', 0, 215.4)
    """
    s_hit = hit_distances(origin, u, discs_xy, reach_mm, eligible, graze_mm=graze_mm)
    s_wall, wall = _wall_distance(origin, u, board.half_mm - r_striker_mm)
    s_pocket = _pocket_distance(origin, u, board)
    k = int(np.argmin(s_hit)) if len(s_hit) else -1
    s_disc = float(s_hit[k]) if k >= 0 else np.inf
    best = min(s_disc, s_wall, s_pocket)
    if best > limit_mm + graze_mm:
        return Cast("none", float(limit_mm))
    if best == s_disc:
        return Cast("disc", s_disc, disc=k)
    if best == s_pocket:
        return Cast("pocket", s_pocket)
    return Cast("cushion", s_wall, side=SIDE_OF_WALL[wall])


def hit_distances(origin: np.ndarray, u: np.ndarray, discs_xy: np.ndarray, reach_mm: np.ndarray,
                  eligible: np.ndarray, *, graze_mm: float) -> np.ndarray:
    """(N,) distance along the line at which a striker centre moving from `origin` along `u` touches each disc.

    Args:
        origin: (2,) start, board mm.
        u: (2,) unit direction.
        discs_xy: (N, 2) disc centres, board mm.
        reach_mm: (N,) touching distance (r_striker + r_disc) per disc, mm.
        eligible: (N,) bool, discs that may be touched.
        graze_mm: tolerance on the touching distance, mm.

    Returns:
        Distances in mm (inf for discs the line misses or that are not eligible).

    Examples:
        >>> hit_distances(np.zeros(2), np.array([0.0, 1.0]), np.array([[0.0, 100.0], [50.0, 100.0]]),
        ...               np.array([36.0, 36.0]), np.array([True, True]), graze_mm=1.0).tolist()
        [64.0, inf]
    """
    rel = discs_xy - origin
    along = rel @ u
    perp = np.abs(rel[:, 0] * u[1] - rel[:, 1] * u[0])
    # a disc behind the start is reached only if touching there already: moving on takes the
    # striker away from it (carrom seed 1022 at 60 fps: a black 7 mm behind the striker's place,
    # on the line drawn back, taken for the first contact)
    ahead = (along >= 0.0) | (np.hypot(rel[:, 0], rel[:, 1]) <= reach_mm + graze_mm)
    touch = eligible & (perp <= reach_mm + graze_mm) & (along > -reach_mm) & ahead
    s_hit = along - np.sqrt(np.maximum(reach_mm**2 - np.minimum(perp, reach_mm) ** 2, 0.0))
    return np.asarray(np.where(touch, s_hit, np.inf))


def _wall_distance(origin: np.ndarray, u: np.ndarray, lim: float) -> tuple[float, int]:
    """Distance along `u` until the centre reaches |x| = lim or |y| = lim, and which wall (index into SIDE_OF_WALL)."""
    best, wall = np.inf, 0
    for axis in (0, 1):
        if abs(u[axis]) < 1e-9:
            continue
        target = lim if u[axis] > 0 else -lim
        s = (target - origin[axis]) / u[axis]
        if s < best:
            best, wall = max(float(s), 0.0), (0 if u[axis] > 0 else 1) + 2 * axis
    return best, wall


def _pocket_distance(origin: np.ndarray, u: np.ndarray, board: BoardSpec) -> float:
    """Distance along `u` until the centre comes within the no-return radius of a pocket (inf if never)."""
    rel = board.pockets_mm - origin
    along = rel @ u
    perp2 = (rel * rel).sum(axis=1) - along**2
    r2 = board.pocket_no_return_mm**2
    ok = (perp2 <= r2) & (along > 0)
    s = along - np.sqrt(np.maximum(r2 - perp2, 0.0))
    return float(np.min(np.where(ok, s, np.inf)))


def reflect(u: np.ndarray, side: str) -> np.ndarray:
    """Direction after a mirror bounce off the cushion of `side`.

    Examples:
        >>> reflect(np.array([0.6, 0.8]), "S").tolist()
        [0.6, -0.8]
    """
    out = u.copy()
    out[0 if side in ("E", "W") else 1] *= -1.0
    return out
