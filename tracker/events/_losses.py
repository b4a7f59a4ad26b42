"""Where did a disc that is no longer seen go? Into a pocket, off the board, or nowhere (hidden).

Decided once, when the shot is over, from the disc's last observed motion. A disc last seen on the
brink of a pocket went in. Otherwise it is followed on from its last observation, bouncing off the
cushions, for a few frames: its centre entering a pocket's point-of-no-return circle is a pocket
(dated at that crossing); a hard cushion hit (normal speed at least `min_off_speed_mm_s`) is leaving
the board over that cushion (dated at the cushion), unless the bounce leads straight into a pocket;
a disc heading for a nearby pocket went in. Anything else is hidden or was simply missed: it stays
on the board. A disc that vanished under a hand is never lost.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tracker.events._contacts import SIDE_OF_WALL
from tracker.specs import CORNERS, BoardSpec

__all__ = ["Loss", "classify_loss", "entry_time"]

_CUSHION_RESTITUTION = 0.6  # share of the normal speed a disc keeps at a cushion (0.5-0.75)
_BRINK_FOLLOW_S = 0.2  # a disc on a pocket's brink went in; its path is followed this long to date it
_HEADING_COS = 0.7  # a vanished disc moving within ~45 degrees of a pocket's direction heads for it


@dataclass(frozen=True, slots=True)
class Loss:
    """A disc that left play: into `pocket` (corner name), or off the board over `side`, at `t_s`."""

    pocket: str | None
    side: str | None
    t_s: float


def classify_loss(p_mm: np.ndarray, v_mm_s: np.ndarray | None, t_last_s: float, radius_mm: float,
                  board: BoardSpec, *, horizon_s: float, pocket_reach_mm: float,
                  min_off_speed_mm_s: float, v_steady_mm_s: np.ndarray | None = None) -> Loss | None:
    """Pocket, off the board, or None for one vanished disc.

    Args:
        p_mm: (2,) last observed centre, board mm.
        v_mm_s: (2,) velocity at the last observation (None if unknown: seen only once in a row).
        t_last_s: time of the last observation, s.
        radius_mm: the disc's radius, mm.
        board: the board.
        horizon_s: how far past the last observation the straight path is followed, s.
        pocket_reach_mm: a disc last seen this close to a point of no return went in, however it moved.
        min_off_speed_mm_s: slowest normal speed at a cushion with which a disc leaves the board.
        v_steady_mm_s: (2,) its velocity over its last few observations, if steady (dates a disc
            last seen on the brink of a pocket better than `v_mm_s`, from two noisy centres).

    Examples:
        >>> from tracker.specs import load_board
        >>> b = load_board("carrom")
        >>> classify_loss(np.array([300.0, 300.0]), np.array([2000.0, 2000.0]), 1.0, 15.5, b,
        ...               horizon_s=0.1, pocket_reach_mm=20.0, min_off_speed_mm_s=1500.0)
        Loss(pocket='SE', side=None, t_s=1.0189)
    """
    r_nr = board.pocket_no_return_mm
    rel = board.pockets_mm - p_mm
    dist = np.hypot(rel[:, 0], rel[:, 1])
    j = int(np.argmin(dist))
    if v_mm_s is not None:
        speed = float(np.hypot(*v_mm_s))
        if dist[j] <= r_nr + pocket_reach_mm:  # last seen on the brink (velocities are noisy there)
            v_in = v_mm_s if v_steady_mm_s is None else v_steady_mm_s
            return Loss(CORNERS[j], None, round(t_last_s + _time_in(p_mm, v_in, j, radius_mm, board), 4))
        loss = _follow(p_mm, v_mm_s, radius_mm, board, horizon_s, min_off_speed_mm_s)
        if loss is not None:
            return Loss(loss.pocket, loss.side, round(t_last_s + loss.t_s, 4))
        # never seen again, heading for a pocket it reaches within the horizon: the last bounces off
        # the cushions near a corner lead into the pocket (issue 4: discs missed at 30 fps)
        heading = float(rel[j] @ v_mm_s) / max(speed * dist[j], 1e-9)
        t_reach = (dist[j] - r_nr) / max(speed, 1.0)
        if heading >= _HEADING_COS and t_reach <= horizon_s:
            return Loss(CORNERS[j], None, round(t_last_s + t_reach, 4))
        return None
    if dist[j] <= r_nr + pocket_reach_mm:
        return Loss(CORNERS[j], None, round(t_last_s, 4))
    return None


def _time_in(p_mm: np.ndarray, v_mm_s: np.ndarray, j: int, radius_mm: float, board: BoardSpec) -> float:
    """When a disc at `p_mm` (2,), moving at `v_mm_s` (2,), on the brink of pocket `j`, comes within
    its point of no return, s: where its straight path enters that circle (a disc sliding along the
    cushion into the pocket's mouth comes at it slantwise: korona seed 1008), or its path off the
    cushion beside the pocket does (korona seed 1017 at 120 fps: a man glancing past the SE pocket
    went in off the S rail, 60 ms later than had it headed straight in), else as if it headed
    straight in (0 if it is within already). A centre seen beyond the cushion's reach is its noise:
    the disc slides along the cushion (`_along_cushion`; korona seed 1007 at 60 fps: a black along
    the S rail seen 1.3 mm beyond it, its path passing the point of no return by 0.5 mm, dated
    after a bounce it never made, 6 frames late)."""
    p_mm, v_mm_s = _along_cushion(p_mm, v_mm_s, board.half_mm - radius_mm)
    rel, r_nr = board.pockets_mm[j] - p_mm, board.pocket_no_return_mm
    t = entry_time(rel, v_mm_s, r_nr)
    if t is None:
        after = _follow(p_mm, v_mm_s, radius_mm, board, _BRINK_FOLLOW_S, np.inf)
        t = after.t_s if after is not None and after.pocket == CORNERS[j] else None
    return t if t is not None else (float(np.hypot(*rel)) - r_nr) / max(float(np.hypot(*v_mm_s)), 1.0)


def _along_cushion(p_mm: np.ndarray, v_mm_s: np.ndarray, lim_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """A centre `p_mm` (2,) beyond `lim_mm` of the board's centre on an axis (where a disc touches
    the cushion) put back on that line, its velocity `v_mm_s` (2,) into the cushion taken away: a
    disc seen there slides along it.

    Examples:
        >>> p, v = _along_cushion(np.array([-415.0, 445.8]), np.array([-500.0, 15.0]), 444.5)
        >>> p.tolist(), v.tolist()
        ([-415.0, 444.5], [-500.0, 0.0])
    """
    p = np.asarray(p_mm, np.float64)
    v = np.asarray(v_mm_s, np.float64)
    out = np.abs(p) >= lim_mm
    if not out.any():
        return p, v
    into = out & (v * p > 0.0)
    return np.clip(p, -lim_mm, lim_mm), np.where(into, 0.0, v)


def entry_time(rel_mm: np.ndarray, v_mm_s: np.ndarray, r_mm: float) -> float | None:
    """When a point at `rel_mm` (2,) from a circle's centre, moving at `v_mm_s` (2,), comes within
    `r_mm` of it, s (0 if it is within already; None if its straight path never does).

    Examples:
        >>> entry_time(np.array([0.0, 30.0]), np.array([0.0, 100.0]), 10.0)
        0.2
    """
    if float(np.hypot(*rel_mm)) <= r_mm:
        return 0.0
    return _circle_time(rel_mm, v_mm_s, r_mm)


def _follow(p_mm: np.ndarray, v_mm_s: np.ndarray, radius_mm: float, board: BoardSpec, horizon_s: float,
            min_off_speed_mm_s: float, *, capture_mm: float | None = None) -> Loss | None:
    """Follow a vanished disc on from its last observation, bouncing off the cushions, for `horizon_s`.

    The centre entering a pocket's point-of-no-return circle (or, given, a circle of `capture_mm`)
    is a pocket; reaching a cushion with a normal speed of at least `min_off_speed_mm_s` is leaving
    the board over it (a disc that merely bounced would be seen again), unless its bounce runs its
    rim into that circle: beside a pocket the jaw turns a disc hit so hard into the hole (carrom
    seed 1044 at 120 fps: a white out of the break hit the N cushion 34 mm from the NW pocket and
    went in; the bounce cast from its blurred sightings passed 25 mm from the pocket's centre, and
    it was called off over the N cushion). Times in the result are from the last observation, s.
    """
    p = np.asarray(p_mm, np.float64).copy()
    v = np.asarray(v_mm_s, np.float64).copy()
    t_used = 0.0
    r_nr = board.pocket_no_return_mm if capture_mm is None else capture_mm
    for _ in range(3):  # a straight run and up to two bounces (a corner)
        rel = board.pockets_mm - p
        dist = np.hypot(rel[:, 0], rel[:, 1])
        j = int(np.argmin(dist))
        tp = _circle_time(rel[j], v, r_nr) if dist[j] > r_nr else 0.0
        tw, wall = _wall_time(p, v, board.half_mm - radius_mm)
        if tp is not None and tp <= tw + 1e-9:
            return Loss(CORNERS[j], None, t_used + tp) if t_used + tp <= horizon_s else None
        if not np.isfinite(tw) or t_used + tw > horizon_s:
            return None
        axis = 0 if wall < 2 else 1
        p = p + v * tw
        v[axis] *= -_CUSHION_RESTITUTION
        if abs(float(v[axis])) >= min_off_speed_mm_s * _CUSHION_RESTITUTION:
            # a hard hit: most discs bounce, some fly off; one never seen again went off, unless
            # the bounce took it straight into a pocket
            off = Loss(None, SIDE_OF_WALL[wall], t_used + tw)
            after = _follow(p, v, radius_mm, board, horizon_s - t_used - tw, np.inf,
                            capture_mm=board.pocket_no_return_mm + radius_mm)
            return Loss(after.pocket, None, t_used + tw + after.t_s) if after and after.pocket else off
        t_used += tw
    return None


def _circle_time(rel: np.ndarray, v: np.ndarray, r: float) -> float | None:
    """First time >= 0 at which a point moving with `v` from the origin is within `r` of `rel` (None if never)."""
    a = float(v @ v)
    if a < 1e-9:
        return None
    b = float(rel @ v)
    c = float(rel @ rel) - r * r
    disc = b * b - a * c
    if disc < 0:
        return None
    t = (b - np.sqrt(disc)) / a
    return float(t) if t >= 0 else None


def _wall_time(p: np.ndarray, v: np.ndarray, lim: float) -> tuple[float, int]:
    """Time until |x| or |y| reaches `lim` moving with `v` (0 if already there), and the wall index."""
    best, wall = np.inf, 0
    for axis in (0, 1):
        if abs(v[axis]) < 1e-9:
            continue
        target = lim if v[axis] > 0 else -lim
        t = max((target - p[axis]) / v[axis], 0.0)
        if t < best:
            best, wall = float(t), (0 if v[axis] > 0 else 1) + 2 * axis
    return best, wall
