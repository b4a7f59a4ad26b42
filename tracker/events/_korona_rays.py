"""The geometry of a korona striker's path before its first disc: its observed points, the legs
between the rails that turned it, and where a straight leg meets a rail or a disc.

All positions are board mm (origin at the board centre, x right, y down), times video seconds.
"""

from __future__ import annotations

import numpy as np

__all__ = ["fit_line", "legs", "path_points", "ray_to_discs", "ray_to_rail", "unit"]

_OUT: dict[str, tuple[float, float]] = {"N": (0.0, -1.0), "E": (1.0, 0.0), "S": (0.0, 1.0), "W": (-1.0, 0.0)}
_SEG_MM = 15.0  # path steps shorter than this give no usable direction
_SPIKE = 2.0  # a first step in motion this many times as fast as the next: from a misread


def ray_to_discs(p: np.ndarray, d: np.ndarray, centres: np.ndarray, reach_mm: float) -> np.ndarray:
    """(N,) distance (mm) along the unit ray p + s d at which it comes within `reach_mm` of each
    centre; +inf where it passes wide or the centre lies behind."""
    rel = centres - p[None, :]
    b = rel @ d
    c = np.einsum("ij,ij->i", rel, rel) - reach_mm**2
    disc = b * b - c
    s = b - np.sqrt(np.clip(disc, 0.0, None))
    ok = (disc >= 0.0) & (b > -reach_mm)
    return np.where(ok, np.maximum(s, 0.0), np.inf)


def ray_to_rail(p: np.ndarray, d: np.ndarray, line_mm: float) -> tuple[float, str | None]:
    """Distance (mm) along the unit ray p + s d to the first rail the striker centre meets
    (the rails are at |x|, |y| = `line_mm`), and that rail."""
    best, side = np.inf, None
    for name, (ox, oy) in _OUT.items():
        along = d[0] * ox + d[1] * oy
        if along <= 1e-9:
            continue
        s = (line_mm - (p[0] * ox + p[1] * oy)) / along
        if max(s, 0.0) < best:
            best, side = max(s, 0.0), name
    return float(best), side


def path_points(
    t_s: np.ndarray, xy: np.ndarray, start_xy: np.ndarray, t_start_s: float, t_until_s: float
) -> tuple[np.ndarray, np.ndarray]:
    """The striker's path from where it stood to `t_until_s`: its start, then its observations
    in motion, thinned so that consecutive points are at least `_SEG_MM` apart.

    Where it stood is `start_xy`, else the median of its last observations before the start.
    Observations from before the stroke (the striker's rest after the last stroke, the hand
    carrying it) are not part of the path.
    """
    seen = np.isfinite(xy[:, 0]) & (t_s <= t_until_s + 1e-9) & (t_s >= t_start_s - 0.3)
    pts, times = xy[seen], t_s[seen]
    moving = times > t_start_s - 0.02
    if not np.all(np.isfinite(start_xy)) and (~moving).any():
        start_xy = np.median(pts[~moving][-3:], axis=0)
    if np.all(np.isfinite(start_xy)):
        away = moving & (np.hypot(*(pts - start_xy).T) > 3.0)
        moved, t_moved = _without_a_misread_first(pts[away], times[away])
        pts = np.vstack([start_xy[None, :], moved])
        times = np.concatenate([[t_start_s], t_moved])
    else:
        pts, times = pts[moving], times[moving]
    keep = [0] if len(pts) else []
    for k in range(1, len(pts)):
        if np.hypot(*(pts[k] - pts[keep[-1]])) >= _SEG_MM:
            keep.append(k)
    return pts[keep], times[keep]


def _without_a_misread_first(pts: np.ndarray, times: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The striker's sightings `pts` (n, 2) in motion from rest, at `times` (n,), without the first
    if it is off the path. A striker only slows before its first contact, and the chord across a
    rail is shorter than the path: a first sighting that the next step leaves more than `_SPIKE`
    times as fast as the step after is a misread (korona seed 1005 at 120 fps: the striker and the
    cue's tip read as one, 40 mm behind the striker as the cue struck; the turn there was taken for
    the S rail)."""
    if len(pts) < 3:
        return pts, times
    v = np.hypot(*np.diff(pts[:3], axis=0).T) / np.maximum(np.diff(times[:3]), 1e-9)
    return (pts[1:], times[1:]) if v[0] > _SPIKE * v[1] else (pts, times)


def _first_turn(pts: np.ndarray, half_mm: float, line_mm: float) -> tuple[int, str] | None:
    """Where a rail first turned the path, as (index of the path point nearest to the bounce, rail);
    None if the path never reversed.

    Before the first disc contact only a rail can turn the striker, and a rail reverses the
    component of the motion towards it. The reversal is looked for between any two steps, not
    only neighbouring ones, since the bounce itself is often hidden or blurred.
    """
    if len(pts) < 3:
        return None
    steps = np.diff(pts, axis=0)
    u = steps / np.maximum(np.hypot(*steps.T), 1e-9)[:, None]
    found = []
    for axis, (neg, pos) in ((0, ("W", "E")), (1, ("N", "S"))):
        sig = np.flatnonzero(np.abs(u[:, axis]) > 0.1)
        if sig.size < 2:
            continue
        s0 = np.sign(u[sig[0], axis])
        later = sig[np.sign(u[sig, axis]) != s0]
        if later.size == 0:
            continue
        j = int(later[0])  # the first step going back: the bounce lies before pts[j + 1]
        rail = pos if s0 > 0 else neg
        gap = line_mm - float(np.max(s0 * pts[: j + 2, axis]))
        if gap <= float(np.max(np.hypot(*steps[max(j - 1, 0) : j + 1].T))) + 10.0:
            found.append((j, gap, rail))
    if not found:
        return None
    j, _, rail = min(found)
    return j, rail


def legs(pts: np.ndarray, half_mm: float, line_mm: float) -> list[tuple[np.ndarray, str | None]]:
    """Split a path (before any disc contact) at its rails: [(leg points, rail that ended it)].
    The last leg ends with None. Points right at a bounce belong to neither leg."""
    out: list[tuple[np.ndarray, str | None]] = []
    rest = pts
    while len(rest) >= 3:
        turn = _first_turn(rest, half_mm, line_mm)
        if turn is None:
            break
        j, rail = turn
        out.append((rest[: j + 1], rail))
        rest = rest[j + 1 :]
    out.append((rest, None))
    return out


def fit_line(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The straight path through (n,2) points (n >= 2), in time order: the last point moved onto
    the fitted line, and the unit direction of travel. Trailing points off the line (already
    deflected) are dropped first."""
    while True:
        c = pts.mean(axis=0)
        _, _, vt = np.linalg.svd(pts - c)
        d = vt[0] if float(vt[0] @ (pts[-1] - pts[0])) >= 0 else -vt[0]
        off = np.abs((pts - c) @ np.array([-d[1], d[0]]))
        if len(pts) <= 2 or off[-1] <= 4.0:
            return c + d * float((pts[-1] - c) @ d), d
        pts = pts[:-1]


def unit(v: np.ndarray) -> np.ndarray:
    """`v` (2,) scaled to length 1 (straight up the board, -y, if it has none)."""
    n = float(np.hypot(*v))
    return v / n if n > 1e-9 else np.array([0.0, -1.0])
