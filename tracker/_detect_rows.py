"""Where the next man of a row against a rail would lie (korona's men start so, korona §19).

Men touching one another in a row against a rail hide each other's outlines and the cushion
hides more: the circle votes of a man between two neighbours are drawn off his centre, and a fit
from there grows to the pair's outline. Beside a man found against a rail, the next man of his
row can only lie one diameter along the rail, a radius off it: the still path looks there.
"""

from __future__ import annotations

import numpy as np

from tracker._track_assign import point_distance

__all__ = ["along_rail", "clear_of", "next_in_row"]

# men set side by side in a row are this far apart beyond touching, mm (a hair's gap)
_ROW_SPACING_MM = 0.4
# a man looked for, or found, may overlap a disc found by this much (its fit's error), mm
_OVERLAP_MM = 2.0


def next_in_row(men_mm: np.ndarray, man_r_mm: float, half_mm: float, taken_mm: np.ndarray,
                taken_r_mm: np.ndarray, *, at_rail_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """Where a man touching one of the men at `men_mm` along the rail he lies against would lie.

    Args:
        men_mm: (N, 2) centres of men found, board mm.
        man_r_mm: a man's radius, mm.
        half_mm: half the playing surface's side, mm.
        taken_mm, taken_r_mm: (M, 2) centres and (M,) radii of the discs already there: no man is
            looked for where he would overlap one by more than a few millimetres.
        at_rail_mm: a man whose edge is this close to the rail lies against it.

    Returns:
        (P, 2) board mm: the places one diameter either side of each such man along his rail, a
        radius off the rail, on the surface and clear of the discs there, each place once; and
        (P,) int, the man (index into `men_mm`) each place is beside (of two, the first).

    Examples:
        >>> men = np.array([[0.0, -438.0], [100.0, 0.0]])  # against the N rail, and in the open
        >>> xy, beside = next_in_row(men, 12.5, 452.5, men, np.full(2, 12.5), at_rail_mm=5.0)
        >>> xy.tolist(), beside.tolist()
        ([[-25.4, -440.0], [25.4, -440.0]], [0, 0])
    """
    p = np.asarray(men_mm, np.float64).reshape(-1, 2)
    gap = half_mm - man_r_mm - np.abs(p)
    axis = np.argmin(gap, axis=1)  # the coordinate across the nearest rail
    src = np.flatnonzero(gap.min(axis=1) <= at_rail_mm)
    p, axis = p[src], axis[src]
    rows = np.arange(len(p))
    on_rail = p.copy()
    on_rail[rows, axis] = np.sign(p[rows, axis]) * (half_mm - man_r_mm)
    step = np.zeros_like(p)
    step[rows, 1 - axis] = 2.0 * man_r_mm + _ROW_SPACING_MM
    out, src = np.concatenate([on_rail - step, on_rail + step]), np.concatenate([src, src])
    keep = (np.abs(out) <= half_mm - man_r_mm + 1e-6).all(axis=1)
    keep &= clear_of(out, man_r_mm, taken_mm, taken_r_mm)
    out, src = out[keep], src[keep]
    # (two men one place apart propose the place between them twice)
    if len(out) > 1:
        d = point_distance(out, out)
        once = ~np.triu(d < man_r_mm, 1).any(axis=0)
        out, src = out[once], src[once]
    return np.asarray(np.round(out, 4)).reshape(-1, 2), src


def clear_of(xy_mm: np.ndarray, r_mm: float, taken_mm: np.ndarray, taken_r_mm: np.ndarray) -> np.ndarray:
    """(P,) bool: a man of radius `r_mm` at each of the places (P, 2) board mm would overlap none
    of the discs at `taken_mm` (M, 2) of radii `taken_r_mm` (M,) by more than a fit's error.

    Examples:
        >>> clear_of(np.array([[0.0, 0.0], [25.0, 0.0]]), 12.5, np.array([[47.0, 0.0]]), np.array([12.5])).tolist()
        [True, False]
    """
    p = np.asarray(xy_mm, np.float64).reshape(-1, 2)
    q = np.asarray(taken_mm, np.float64).reshape(-1, 2)
    if len(p) == 0 or len(q) == 0:
        return np.ones(len(p), bool)
    d = point_distance(q, p)  # (P, M)
    return np.asarray((d >= np.asarray(taken_r_mm)[None, :] + r_mm - _OVERLAP_MM).all(axis=1))


def along_rail(xy_mm: np.ndarray, offsets_mm: tuple[float, ...]) -> np.ndarray:
    """(P K, 2): each of the places (P, 2) board mm next to a rail (`next_in_row`'s) moved along
    that rail by each of the K offsets (mm), the offsets of a place together.

    Examples:
        >>> along_rail(np.array([[10.0, -440.0], [440.0, 5.0]]), (-2.0, 2.0)).tolist()
        [[8.0, -440.0], [12.0, -440.0], [440.0, 3.0], [440.0, 7.0]]
    """
    p = np.asarray(xy_mm, np.float64).reshape(-1, 2)
    along = 1 - np.argmax(np.abs(p), axis=1)  # (the other coordinate lies a radius off the rail)
    out = np.repeat(p, len(offsets_mm), axis=0)
    out[np.arange(len(out)), np.repeat(along, len(offsets_mm))] += np.tile(np.asarray(offsets_mm), len(p))
    return out
