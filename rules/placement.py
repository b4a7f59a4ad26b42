"""Where the umpire puts the queen and coins back on a carrom board (ICF §38, §66-67).

- The first disc goes on the centre circle; if other discs are in the way, as near to the centre
  as it can go without moving any disc, which is the position covering as much of the centre
  circle as possible (§38a, §67: the overlap with the circle shrinks as the distance grows).
  The queen always comes first (§38b), then a coin of the player who played the stroke (§38c).
- The second disc touches the first on the side away from the player on turn (§38b-c).
- Further discs touch the ones already placed, as near to the centre as possible (§38d).

Penalty and returned coins are placed by a player anywhere inside the outer circle (§57, §62):
no spot is prescribed for them, so none is computed.

All positions are board mm (origin at the board centre, y towards the S side). The nearest free
point is exact: it is the centre, the nearest point of one "keep-out" circle (radius = sum of the
two radii around each disc on the board), or a crossing of two keep-out circles. Touching
positions are searched at `ANGLE_STEP_DEG` around the disc touched.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tracker.specs import DiscKind, default_equipment, load_equipment

__all__ = ["ANGLE_STEP_DEG", "AWAY_FROM_SIDE", "centre_spots", "nearest_free_point"]

ANGLE_STEP_DEG = 0.5
_TOL_MM = 1e-6
# Unit vector pointing away from a player seated at each side (board frame: y grows towards S).
AWAY_FROM_SIDE: dict[str, tuple[float, float]] = {
    "S": (0.0, -1.0), "N": (0.0, 1.0), "E": (-1.0, 0.0), "W": (1.0, 0.0),
}


def _is_free(points: np.ndarray, discs_xy: np.ndarray, keep_out_mm: np.ndarray) -> np.ndarray:
    """(M,) bool: each point is at least its keep-out distance from every disc."""
    if len(discs_xy) == 0:
        return np.ones(len(points), dtype=bool)
    d = np.linalg.norm(points[:, None, :] - discs_xy[None, :, :], axis=2)
    free: np.ndarray = np.all(d >= keep_out_mm[None, :] - _TOL_MM, axis=1)
    return free


def _best(points: np.ndarray, away: np.ndarray, target: np.ndarray) -> np.ndarray:
    """The point nearest `target`, ties broken towards `away` (rounded to 1 µm for determinism)."""
    dist = np.round(np.linalg.norm(points - target, axis=1), 6)
    along = np.round(points @ away, 6)
    order = np.lexsort((-along, dist))
    best: np.ndarray = points[order[0]]
    return best


def _candidates(discs_xy: np.ndarray, keep_out_mm: np.ndarray, away: np.ndarray) -> np.ndarray:
    cands = [np.zeros((1, 2))]
    norms = np.linalg.norm(discs_xy, axis=1)
    dirs = np.where(norms[:, None] > _TOL_MM, -discs_xy / np.maximum(norms, _TOL_MM)[:, None], away[None, :])
    cands.append(discs_xy + dirs * keep_out_mm[:, None])  # nearest point of each keep-out circle
    i, j = np.triu_indices(len(discs_xy), k=1)
    if len(i):
        c1, c2, r1, r2 = discs_xy[i], discs_xy[j], keep_out_mm[i], keep_out_mm[j]
        d = np.linalg.norm(c2 - c1, axis=1)
        ok = (d > _TOL_MM) & (d <= r1 + r2) & (d >= np.abs(r1 - r2))
        c1, c2, r1, r2, d = c1[ok], c2[ok], r1[ok], r2[ok], d[ok]
        a = (r1**2 - r2**2 + d**2) / (2 * d)
        h = np.sqrt(np.maximum(r1**2 - a**2, 0.0))
        u = (c2 - c1) / d[:, None]
        mid = c1 + a[:, None] * u
        perp = np.stack([-u[:, 1], u[:, 0]], axis=1)
        cands += [mid + h[:, None] * perp, mid - h[:, None] * perp]
    return np.concatenate(cands)


def nearest_free_point(discs_xy: np.ndarray, disc_r_mm: np.ndarray, r_mm: float, *,
                       away: tuple[float, float] = (0.0, -1.0)) -> tuple[float, float]:
    """The point nearest the board centre where a disc of radius `r_mm` touches no other disc.

    Args:
        discs_xy: (N, 2) float centres of the discs on the board, board mm.
        disc_r_mm: (N,) their radii, mm.
        r_mm: radius of the disc to place, mm.
        away: unit vector used to break ties (away from the player on turn).

    Examples:
        >>> nearest_free_point(np.zeros((0, 2)), np.zeros(0), 15.5)
        (0.0, 0.0)
        >>> nearest_free_point(np.array([[0.0, 0.0]]), np.array([15.5]), 15.5)
        (0.0, -31.0)
    """
    discs_xy = np.asarray(discs_xy, dtype=np.float64).reshape(-1, 2)
    keep = np.asarray(disc_r_mm, dtype=np.float64).reshape(-1) + r_mm
    aw = np.asarray(away, dtype=np.float64)
    cands = _candidates(discs_xy, keep, aw)
    free = cands[_is_free(cands, discs_xy, keep)]
    x, y = _best(free, aw, np.zeros(2))
    return float(round(x, 3)) + 0.0, float(round(y, 3)) + 0.0


def _touching(anchor_xy: np.ndarray, anchor_r: float, r_mm: float, discs_xy: np.ndarray,
              disc_r: np.ndarray, away: np.ndarray, *, prefer_away: bool) -> np.ndarray | None:
    """A free spot touching the disc at `anchor_xy`, towards `away` or nearest the centre."""
    angles = np.deg2rad(np.arange(0.0, 360.0, ANGLE_STEP_DEG))
    ring = anchor_xy + (anchor_r + r_mm) * np.stack([np.cos(angles), np.sin(angles)], axis=1)
    free = ring[_is_free(ring, discs_xy, disc_r + r_mm)]
    if len(free) == 0:
        return None
    if prefer_away:
        return _best(free, away, anchor_xy + (anchor_r + r_mm) * away)
    return _best(free, away, np.zeros(2))


def centre_spots(kinds: Sequence[str], discs: Sequence[tuple[str, float, float]], *,
                 player_side: str = "S", equipment: str | None = None) -> list[tuple[float, float]]:
    """Spots for discs the umpire puts back at the centre, in the order given (queen first).

    Args:
        kinds: kinds to place ("queen", "white", "black"), already in placing order.
        discs: (kind, x_mm, y_mm) of every disc resting on the board (board mm); the striker is
            ignored (it is taken off before placing, ICF §84).
        player_side: side of the player on turn after the stroke (§38b: the second disc goes on
            the far side from him).
        equipment: equipment profile name (default: the carrom default, ICF).

    Returns:
        One (x_mm, y_mm) per entry of `kinds`, rounded to 0.001 mm.

    Examples:
        >>> centre_spots(["queen", "white"], [], player_side="S")
        [(0.0, 0.0), (0.0, -31.0)]
    """
    eq = default_equipment("carrom") if equipment is None else load_equipment(equipment)
    r_coin = eq.radius_mm(DiscKind.WHITE)
    kept = [(x, y, eq.radius_mm(DiscKind.from_label(k))) for k, x, y in discs if k != "striker"]
    xy = np.array([[x, y] for x, y, _ in kept], dtype=np.float64).reshape(-1, 2)
    rr = np.array([r for _, _, r in kept], dtype=np.float64)
    away = np.asarray(AWAY_FROM_SIDE.get(player_side, (0.0, -1.0)))
    placed: list[np.ndarray] = []
    for i, _kind in enumerate(kinds):
        spot = None
        if i == 1:
            spot = _touching(placed[0], r_coin, r_coin, xy, rr, away, prefer_away=True)
        elif i > 1:
            touching = (_touching(p, r_coin, r_coin, xy, rr, away, prefer_away=False) for p in placed)
            opts = [s for s in touching if s is not None]
            spot = _best(np.array(opts), away, np.zeros(2)) if opts else None
        if spot is None:
            spot = np.array(nearest_free_point(xy, rr, r_coin, away=(float(away[0]), float(away[1]))))
        placed.append(spot)
        xy, rr = np.vstack([xy, spot[None, :]]), np.append(rr, r_coin)
    return [(float(round(p[0], 3)) + 0.0, float(round(p[1], 3)) + 0.0) for p in placed]
