"""The striker's run: where it started, in which direction, how fast, and when it left its place.

The striker travels in a straight line until its first contact (no curving), so its first
observations in motion lie on one line from where it stood. It is often hidden under the flicking
hand at rest and until it is well on its way; then its origin is found by following that line back
to the placement line (carrom base line, korona rail zone).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = [
    "StrikerRun", "back_to_line", "distance_from_line", "fit_direction", "follow_line", "from_the_flick", "has_stood",
    "is_behind", "jumps_off_line", "line_gap", "motion_began", "on_placement_line", "start_on_line", "stood_at_first",
    "stood_behind", "striker_run", "where_it_stood",
]


@dataclass(frozen=True, slots=True)
class StrikerRun:
    """The straight first part of the striker's path.

    Attributes:
        origin_mm: (2,) where it stood (seen at rest, or its path followed back to the placement line), board mm.
        direction: (2,) unit vector of travel.
        speed_mm_s: speed along the line (measured, or assumed when seen only once).
        t_start_s: when it left `origin_mm`, s.
        straight_mm: distance from the origin of the last observation still on the line, mm.
        deviate_mm: distance along the line of the first observation off it (inf if none), mm.
        moving_obs: observations in motion on the line.
        measured_speed: True if `speed_mm_s` comes from two or more observations.
        first_mm: distance from the origin of the first observation in motion, mm.
        first_xy_mm: (2,) that observation, board mm.
        first_t_s: its time, s.
        seen_at_rest: True if the origin is where the striker was seen standing.
        straight_t_s: time of the last observation on the line, s.
        deviate_t_s: time of the first observation off it (inf if none), s.
    """

    origin_mm: np.ndarray
    direction: np.ndarray
    speed_mm_s: float
    t_start_s: float
    straight_mm: float
    deviate_mm: float
    moving_obs: int
    measured_speed: bool
    first_mm: float
    first_xy_mm: np.ndarray
    first_t_s: float
    seen_at_rest: bool
    straight_t_s: float
    deviate_t_s: float


def follow_line(origin: np.ndarray | None, xy: np.ndarray, *, tol_mm: float,
                blur_frac: float = 0.1, t_s: np.ndarray | None = None) -> tuple[np.ndarray, int]:
    """Longest prefix of `xy` on one straight line (through `origin` if given), moving forwards.

    The line is refitted to the prefix at every step (least squares), and each next observation
    must lie within `tol_mm` plus `blur_frac` of its step length (fast discs are blurred, their
    centres less certain) of it, a step over frames it was not seen in divided by the square root
    of their count (a frame's step is no more blurred for the frames missed; the root leaves room
    for the way's own wandering over the gap); a single one off it between two on it (the origin
    counts as on it) is passed over (in the prefix, not in the fit).

    Args:
        origin: (2,) a known point of the line (where the disc stood), or None, board mm.
        xy: (n, 2) observations in time order (n >= 1), board mm.
        tol_mm: distance from the line that noise explains, mm.
        blur_frac: extra tolerance per mm of step in a frame.
        t_s: (n,) the observations' times, s, if known (the frame being the shortest step in time;
            unknown: every step is a frame's).

    Returns:
        (unit direction of the line fitted through the prefix, prefix length).

    Examples:
        >>> u, n = follow_line(np.zeros(2), np.array([[0, 10.0], [0.5, 20], [0, 30], [15, 35]]), tol_mm=3.0)
        >>> n, np.round(u, 1).tolist()
        (3, [0.0, 1.0])
        >>> stray = np.array([[0, 10.0], [0, 20], [12, 30], [0, 40], [0, 50], [12, 55], [20, 58]])
        >>> follow_line(np.zeros(2), stray, tol_mm=3.0)[1]  # one sighting off the line is a misreading
        5
        >>> follow_line(np.zeros(2), np.array([[0, 10.0], [0, 20], [12, 30], [24, 40]]), tol_mm=3.0)[1]
        2
        >>> follow_line(np.zeros(2), np.array([[12, 10.0], [0, 20], [0, 30], [0, 40], [10, 45]]), tol_mm=3.0)[1]
        4
        >>> follow_line(np.zeros(2), np.array([[30, 0.0], [-10, 0], [-20, 0], [-30, 0]]), tol_mm=3.0)[1]  # (bounced)
        1
    """
    if origin is None and len(xy) < 2:
        return np.array([1.0, 0.0]), len(xy)
    hint = xy[0] - origin if origin is not None else xy[1] - xy[0]
    n = 1 if origin is not None else 2
    u = hint / max(float(np.hypot(*hint)), 1e-9)
    kept = list(range(n))  # the prefix's observations the line is fitted to
    frames = _frames_between(t_s, len(xy))
    while n < len(xy):  # a few dozen observations at most, once per shot
        on = xy[kept]
        pts = on if origin is None else _with_origin(origin, on, len(on))
        if len(pts) > 2 or origin is None:
            u, c = _fit(pts, u)
        else:
            c = pts.mean(axis=0)
        along = (pts - c) @ u
        span = float(along.max() - along.min())
        if not _on_line(xy[n], xy[kept[-1]], c, u, len(pts), span, tol_mm, blur_frac, frames[n] - frames[kept[-1]]):
            # one sighting off the line between two on it is a misreading (a shadow, a print the disc
            # crossed: carrom seed 1032 at 120 fps, 7.5 mm off, the run cut short before its contact)
            if (n + 1 < len(xy) and kept[-1] == n - 1
                    and _on_line(xy[n + 1], xy[n - 1], c, u, len(pts), span, tol_mm, blur_frac,
                                 frames[n + 1] - frames[n - 1])):
                n += 1
                continue
            break
        kept.append(n)
        n += 1
    if origin is not None and n == 1 and len(xy) >= 4:
        # ... so is the first one, off the line from the origin through the next ones, short of the
        # second (a finger's shadow on the striker as it left: carrom seed 1014 at 120 fps, its run cut
        # to one sighting; one beyond is the way to a cushion it bounced off: korona seed 1021 at 30 fps)
        u_on, n_on = follow_line(origin, xy[1:], tol_mm=tol_mm, blur_frac=blur_frac,
                                 t_s=None if t_s is None else t_s[1:])
        if n_on >= 3 and 0.0 < float((xy[0] - origin) @ u_on) < float((xy[1] - origin) @ u_on):
            return u_on, n_on + 1
    if n >= 2 or origin is not None:
        on = xy[kept]
        u = fit_direction(on if origin is None else _with_origin(origin, on, len(on)), u)
    return u, n


def _frames_between(t_s: np.ndarray | None, n: int) -> np.ndarray:
    """(n,) each observation's frame count from the first (times `t_s` (n,) s, the shortest step a
    frame; None: one frame each).

    Examples:
        >>> _frames_between(np.array([1.0, 1.02, 1.04, 1.1, 1.12]), 5).tolist()
        [0.0, 1.0, 2.0, 5.0, 6.0]
    """
    if t_s is None or n < 2:
        return np.arange(n, dtype=np.float64)
    steps = np.diff(np.asarray(t_s, np.float64))
    frame = float(steps[steps > 0].min()) if (steps > 0).any() else 1.0
    return np.concatenate([[0.0], np.cumsum(np.round(steps / frame))])


def _on_line(p: np.ndarray, prev: np.ndarray, c: np.ndarray, u: np.ndarray, n_pts: int, span: float,
             tol_mm: float, blur_frac: float, frames: float) -> bool:
    """Whether observation `p` (2,) goes on along the line through `c` (2,) in direction `u` (2,),
    fitted to `n_pts` points spanning `span` mm, from the last one on it, `prev` (2,), `frames`
    frames before (see `follow_line` for the blur allowed)."""
    blur_frac /= np.sqrt(max(float(frames), 1.0))
    d, step = p - c, p - prev
    perp = abs(float(d[0] * u[1] - d[1] * u[0]))
    # a direction fitted to few points over a short span is uncertain (least squares: angle error
    # ~ noise * sqrt(12 / n) / span); its error grows with the distance ahead (at 120 fps the first
    # observation in motion is often only ~15 mm from the origin)
    lever = tol_mm * np.sqrt(3.0 / n_pts) * max(float(d @ u), 0.0) / max(span, tol_mm)
    return perp <= tol_mm + blur_frac * float(np.hypot(*step)) + lever and float(step @ u) >= -tol_mm


def _with_origin(origin: np.ndarray, xy: np.ndarray, n: int) -> np.ndarray:
    """(2n, 2): `origin` n times (it weighs as much as the observations), then `xy[:n]`."""
    pts = np.empty((2 * n, 2), np.result_type(origin, xy))
    pts[:n] = origin
    pts[n:] = xy[:n]
    return pts


def fit_direction(xy: np.ndarray, hint: np.ndarray) -> np.ndarray:
    """Unit direction of the least-squares line through `xy` (n, 2), oriented like `hint`.

    Examples:
        >>> fit_direction(np.array([[0.0, 0.0], [1.0, 0.1], [2.0, -0.1], [3.0, 0.0]]), np.array([1.0, 0.0]))[0].round(2)
        np.float64(1.0)
    """
    return _fit(xy, hint)[0]


def _fit(xy: np.ndarray, hint: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`fit_direction` and the (2,) centroid of `xy` it was fitted around."""
    c = xy.mean(axis=0)
    _, _, vt = np.linalg.svd(xy - c, full_matrices=False)
    u: np.ndarray = vt[0]
    return (-u if float(u @ hint) < 0 else u), c


def back_to_line(p: np.ndarray, u: np.ndarray, line_mm: float, extent_mm: float = np.inf) -> np.ndarray | None:
    """The point behind `p` (against direction `u`) where the path crosses a placement line.

    Placement lines are x = +-line_mm and y = +-line_mm, `extent_mm` either side of the middle;
    the crossing nearest behind `p` within a line's extent is used (if none is, within the square the
    lines make; a crossing beyond it is off the board, or nearly: carrom seed 1024 at 30 fps, a run
    fitted through a hand's sighting followed back to the W line 530 mm beyond its end, the shot
    dated 0.4 s early).

    Examples:
        >>> back_to_line(np.array([0.0, 100.0]), np.array([0.0, -1.0]), 250.0).tolist()
        [0.0, 250.0]
        >>> back_to_line(np.array([35.0, 251.0]), np.array([0.994, -0.11]), 250.0).tolist()
        [35.0, 251.0]
        >>> back_to_line(np.array([0.0, -300.0]), np.array([0.6, 0.8]), 252.6, 235.0) is None  # behind the line
        True
    """
    best, best_any = None, None
    for axis in (0, 1):
        if abs(u[axis]) < 1e-6:
            continue
        for sign in (-1.0, 1.0):
            off = p[axis] - sign * line_mm
            s = off / u[axis]  # distance back along -u
            # ahead of `p`, beyond noise: a few mm off the line (`p` itself on it), however
            # slantwise the path (a striker shot along its line: seed 1009, issue 4)
            if s < 0.0 and abs(off) > 5.0:
                continue
            s = max(s, 0.0)
            along = abs(float(p[1 - axis] - s * u[1 - axis]))
            if along <= line_mm and (best_any is None or s < best_any):
                best_any = s
            if along <= extent_mm and (best is None or s < best):
                best = s
    chosen = best if best is not None else best_any
    return None if chosen is None else p - chosen * u


def start_on_line(xy: np.ndarray, u: np.ndarray, line_mm: float, extent_mm: float) -> np.ndarray | None:
    """Where the line fitted through sightings `xy` (n, 2), in direction `u` (2,), crosses a placement
    line behind the first of them (`back_to_line`, each line taken 20 mm longer than `extent_mm`
    either side: a striker may stand over a line's end), or None."""
    c = xy.mean(axis=0)
    return back_to_line(c + float((xy[0] - c) @ u) * u, u, line_mm, extent_mm + 20.0)


def on_placement_line(xy: np.ndarray, line_mm: float, extent_mm: float, band_mm: float) -> np.ndarray:
    """(n,) bool: points (n, 2) board mm within `band_mm` of a placement line (x or y = +-`line_mm`,
    `extent_mm` either side of the middle, the band beyond its ends too).

    Examples:
        >>> on_placement_line(np.array([[0.0, 240.0], [0.0, 100.0], [240.0, -260.0]]), 250.0, 200.0, 30.0).tolist()
        [True, False, False]
    """
    xy = np.asarray(xy, np.float64).reshape(-1, 2)
    on = np.zeros(len(xy), bool)
    for axis in (0, 1):
        near = (np.abs(xy[:, axis] - line_mm) <= band_mm) | (np.abs(xy[:, axis] + line_mm) <= band_mm)
        on |= near & (np.abs(xy[:, 1 - axis]) <= extent_mm + band_mm)
    return on


def distance_from_line(xy: np.ndarray, vel: np.ndarray, line_mm: float, extent_mm: float,
                       band_mm: float, *, stood: np.ndarray | None = None) -> np.ndarray:
    """(n,) distance each disc travelled from a placement line, followed back against its velocity.

    Placement lines are x = +-line_mm and y = +-line_mm, `extent_mm` either side of the middle. A
    disc within `band_mm` of a line (inside its extent) is on it (0); a disc whose path, followed
    back, crosses no line within its extent (it moves away from the middle towards a line, or
    comes in from beyond one) did not leave from a line (inf).

    Args:
        xy: (n, 2) centres, board mm.
        vel: (n, 2) velocities, mm/s (direction only).
        line_mm: distance of the lines from the centre, mm.
        extent_mm: half the length of a line, mm.
        band_mm: distance from a line that counts as on it, mm.
        stood: (n,) True where the disc was seen standing at `xy`: a striker that stood off every
            line was not struck from a line (it is being picked up or moved by hand), whatever line
            its path crosses behind it (inf).

    Examples:
        >>> distance_from_line(np.array([[0.0, 100.0], [0.0, -330.0]]), np.array([[0.0, -1.0], [0.0, 1.0]]),
        ...                    250.0, 200.0, 30.0).tolist()
        [150.0, inf]
    """
    xy, vel = np.asarray(xy, np.float64).reshape(-1, 2), np.asarray(vel, np.float64).reshape(-1, 2)
    u = vel / np.maximum(np.hypot(vel[:, 0], vel[:, 1]), 1e-9)[:, None]
    best = np.where(on_placement_line(xy, line_mm, extent_mm, band_mm), 0.0, np.inf)
    for axis in (0, 1):  # four lines, each over all discs at once
        other = xy[:, 1 - axis]
        for sign in (-1.0, 1.0):
            ua = np.where(np.abs(u[:, axis]) > 1e-6, u[:, axis], 1.0)
            s = (xy[:, axis] - sign * line_mm) / ua  # distance back along -u
            along = np.abs(other - s * u[:, 1 - axis])
            ok = (np.abs(u[:, axis]) > 1e-6) & (s >= 0.0) & (along <= extent_mm + band_mm)
            best = np.where(ok, np.minimum(best, s), best)
    if stood is not None:
        best = np.where(np.asarray(stood, bool) & (best > 0.0), np.inf, best)
    return best


def is_behind(origin: np.ndarray, xy: np.ndarray, vel: np.ndarray, *, tol_mm: float = 30.0) -> np.ndarray:
    """(n,) bool: `origin` lies behind `xy` on its path (against `vel`), within `tol_mm` of the line.

    A place where a track stood is where it set off from only if the disc came from there; the
    striker seen standing, then picked up and put down elsewhere, sets off from somewhere else.

    Args:
        origin: (n, 2) where each track stood, board mm.
        xy: (n, 2) where it is now, board mm.
        vel: (n, 2) its velocity, mm/s (direction only).
        tol_mm: distance from the line (and ahead of `xy`) still taken as on it, mm.

    Examples:
        >>> is_behind(np.array([[0.0, 250.0], [0.0, -13.0]]), np.array([[0.0, 200.0], [0.0, 214.0]]),
        ...           np.array([[0.0, -1.0], [0.0, -1.0]])).tolist()
        [True, False]
    """
    xy, origin = np.asarray(xy, np.float64).reshape(-1, 2), np.asarray(origin, np.float64).reshape(-1, 2)
    vel = np.asarray(vel, np.float64).reshape(-1, 2)
    u = vel / np.maximum(np.hypot(vel[:, 0], vel[:, 1]), 1e-9)[:, None]
    rel = xy - origin
    along = rel[:, 0] * u[:, 0] + rel[:, 1] * u[:, 1]
    perp = np.abs(rel[:, 0] * u[:, 1] - rel[:, 1] * u[:, 0])
    return np.asarray((along > -tol_mm) & (perp <= tol_mm + 0.1 * np.maximum(along, 0.0)))


def has_stood(hist_xy: np.ndarray, *, still_mm: float = 4.0, span: int = 1) -> np.ndarray:
    """(M,) bool: tracks seen standing lately (two observations `span` frames apart within `still_mm`).

    Args:
        hist_xy: (M, K, 2) observed centres in the last K frames, oldest first, NaN where not seen.
        still_mm: largest step between two observations of a disc at rest, mm.
        span: frames between the two observations.

    Examples:
        >>> h = np.array([[[0.0, 250.0], [0.0, 250.5], [0.0, 230.0]], [[0.0, 330.0], [0.0, 300.0], [0.0, 270.0]]])
        >>> has_stood(h).tolist()
        [True, False]
    """
    return np.asarray(_still(hist_xy, still_mm, span).any(axis=1))


def stood_behind(hist_xy: np.ndarray, xy: np.ndarray, vel: np.ndarray, *, span: int = 1) -> np.ndarray:
    """(M,) bool: tracks seen standing lately (`has_stood`) at a place their path comes from (`is_behind`).

    A disc set moving by a hit stood there before; a detection of a hand is moving from its first sight.

    Args:
        hist_xy: (M, K, 2) observed centres in the last K frames, oldest first, NaN where not seen, board mm.
        xy: (M, 2) current centres, board mm.
        vel: (M, 2) velocities, mm/s.
        span: frames between two observations of a disc standing.
    """
    origin = where_it_stood(hist_xy, xy, span=span)
    return np.asarray(has_stood(hist_xy, span=span) & is_behind(origin, xy, vel))


def motion_began(t_s: np.ndarray, xy: np.ndarray, *, t_noticed: float, min_speed_mm_s: float,
                 max_gap_s: float) -> float:
    """When the glide a track is in at `t_noticed` began: its first observation in motion in its
    unbroken run of steps that a struck disc makes (`t_noticed` if it is not gliding then).

    Unbroken: every step faster than `min_speed_mm_s` and heading the way the next one does, no
    slower than most of the next one's speed (friction only slows a struck disc; a hand carrying
    it speeds up and turns), observations at most `max_gap_s` apart, the run's last step ending
    within `max_gap_s` of `t_noticed` (a slow striker is noticed only when the coin it hits moves,
    and it slows on that contact; carrom seed 1005 at 120 fps). A track born gliding (the striker
    hidden under the flicking hand until well on its way) begins its run at its first observation.

    Args:
        t_s: (n,) observation times in order, s.
        xy: (n, 2) observed centres, board mm.
        t_noticed: when motion was noticed, s.
        min_speed_mm_s: slowest step in motion, mm/s.
        max_gap_s: longest gap within the run, s.

    Examples:
        >>> t = np.array([0.0, 0.1, 0.2, 0.3, 0.4])
        >>> xy = np.array([[0.0, 0.0], [0.0, 0.5], [0.0, 60.0], [0.0, 118.0], [0.0, 175.0]])
        >>> motion_began(t, xy, t_noticed=0.45, min_speed_mm_s=200.0, max_gap_s=0.15)
        0.2
        >>> motion_began(t, xy, t_noticed=0.9, min_speed_mm_s=200.0, max_gap_s=0.15)
        0.9
        >>> carried = np.array([[0.0, 0.0], [30.0, 0.0], [40.0, 10.0], [40.0, 70.0], [40.0, 128.0]])
        >>> motion_began(t, carried, t_noticed=0.45, min_speed_mm_s=200.0, max_gap_s=0.15)
        0.3
        >>> motion_began(t[2:], xy[2:], t_noticed=0.45, min_speed_mm_s=200.0, max_gap_s=0.15)
        0.2
        >>> slowed = np.concatenate([xy, [[0.0, 185.0]]])  # the last step slow: it hit something
        >>> motion_began(np.append(t, 0.5), slowed, t_noticed=0.5, min_speed_mm_s=200.0, max_gap_s=0.15)
        0.2
    """
    keep = t_s <= t_noticed + 1e-9
    t_s, xy = t_s[keep], xy[keep]
    if len(t_s) < 2 or t_noticed - t_s[-1] > max_gap_s:
        return t_noticed
    dt = np.diff(t_s)
    d = np.diff(xy, axis=0)
    length = np.hypot(d[:, 0], d[:, 1])
    speed = length / np.maximum(dt, 1e-9)
    gliding = (speed > min_speed_mm_s) & (dt <= max_gap_s)
    # each step against the next: the same heading, not much slower (or, for steps of a few mm,
    # whose heading the centres' noise alone turns by 25 degrees, the sighting between them no
    # further off the line through its neighbours than that noise: carrom seed 1005 at 120 fps, a
    # striker at 0.45 m/s taken to set off three frames late)
    dot = (d[:-1] * d[1:]).sum(axis=1)
    along = dot / np.maximum(length[:-1] * length[1:], 1e-9)
    chord = d[:-1] + d[1:]
    astray = np.abs(chord[:, 0] * d[:-1, 1] - chord[:, 1] * d[:-1, 0]) / np.maximum(np.hypot(*chord.T), 1e-9)
    same = (along > _SAME_HEADING) | ((dot > 0) & (astray <= _HEADING_NOISE_MM))
    gliding[:-1] &= same & (speed[:-1] >= _SLOWER * speed[1:])
    ended = np.flatnonzero(gliding & (t_s[1:] >= t_noticed - max_gap_s - 1e-9))
    if ended.size == 0:
        return t_noticed
    # the first observation in motion: the one after the last step not gliding before the run
    # ended, or the first of all (born moving)
    broken = np.flatnonzero(~gliding[: ended[-1] + 1])
    first = int(broken[-1]) + 2 if broken.size else 0
    return float(min(t_s[first], t_noticed))


_SAME_HEADING = 0.9  # cosine between two steps of one glide (a struck disc runs straight until it hits)
def stood_at_first(t_s: np.ndarray, xy: np.ndarray, *, line_mm: float, tol_mm: float) -> np.ndarray | None:
    """The first of the striker's sightings in a run (times `t_s` (n,) s, centres `xy` (n, 2) mm),
    if it stood there, within `tol_mm` of a placement line (`line_mm` from the centre): its step
    from there is slower than the next (struck, it is at once as fast as it will go, then only
    slows: it set off from that sighting in between). Carrom seed 1010 at 60 fps: seen once under
    the flicking fingers, then 70 mm on, the shot dated 36 ms early from that sighting taken as
    on its way.

    Examples:
        >>> t = np.array([0.0, 3.0, 4.0]) / 60.0
        >>> stood_at_first(t, np.array([[17.0, 246.0], [17.0, 172.0], [17.0, 100.0]]), line_mm=252.6, tol_mm=21.5)
        array([ 17., 246.])
        >>> stood_at_first(t, np.array([[17.0, 246.0], [17.0, 30.0], [17.0, -42.0]]), line_mm=252.6, tol_mm=21.5)
    """
    if len(t_s) < 3 or float(line_gap(xy[0], line_mm)) > tol_mm:
        return None
    step = np.hypot(*np.diff(xy[:3], axis=0).T) / np.maximum(np.diff(t_s[:3]), 1e-9)
    return xy[0].copy() if step[0] < _SLOWER * step[1] else None


_HEADING_NOISE_MM = 2.0  # how far a glide's sighting may lie off the line through its neighbours (noise)
_SLOWER = 0.7  # a glide's step is at least this share of the next one's speed (noise; friction slows it)


def line_gap(xy: np.ndarray, line_mm: float) -> np.ndarray:
    """(...,) distance (mm) of points (..., 2) board mm from the nearest placement line (x or y =
    +-`line_mm`, each taken along its whole length).

    Examples:
        >>> line_gap(np.array([[0.0, -350.0], [248.0, 10.0]]), 250.0).tolist()
        [100.0, 2.0]
    """
    gap = np.abs(np.abs(np.asarray(xy, np.float64)) - line_mm)
    return np.asarray(np.minimum(gap[..., 0], gap[..., 1]))


def jumps_off_line(t_s: np.ndarray, xy: np.ndarray, *, line_mm: float, off_mm: float, still_mm: float = 4.0,
                   steps: int = 3) -> np.ndarray:
    """Indices i of the steps `xy[i]` -> `xy[i + 1]` no struck striker makes: out of standing (the step
    before within `still_mm`) further than `off_mm` from every placement line, onto one, faster than
    `_JUMP` times the median speed of the next `steps` steps.

    The striker is struck from its placement line, at once as fast as it will go, and then only
    slows; a track seen standing elsewhere, then next seen further off than its glide allows,
    followed something else before the striker (a hand's false detection taken for it: carrom seed
    1008 at 120 fps, shot 4, a run fitted through both dated 53 ms early).

    Args:
        t_s: (n,) observation times in order, s.
        xy: (n, 2) observed centres, board mm.
        line_mm: distance of the placement lines from the centre, mm.
        off_mm: distance from a placement line beyond which a striker does not stand to be struck, mm.
        still_mm: largest step between two observations of a disc at rest, mm.
        steps: steps after the jump whose speed is the glide's.

    Examples:
        >>> t = np.arange(6) / 120.0
        >>> xy = np.array([[0.0, -350.0], [0.0, -350.5], [0.0, -250.0], [0.0, -230.0], [0.0, -209.0], [0.0, -190.0]])
        >>> jumps_off_line(t, xy, line_mm=250.0, off_mm=41.0).tolist()
        [1]
        >>> jumps_off_line(t, xy + [0.0, 100.0], line_mm=250.0, off_mm=41.0).tolist()  # standing on its line
        []
        >>> jitter = np.array([[300.0, -330.0], [300.2, -330.1], [300.5, -329.6], [300.5, -329.6], [300.5, -329.6]])
        >>> jumps_off_line(t[:5], jitter, line_mm=250.0, off_mm=41.0).tolist()  # at rest off the lines
        []
    """
    d = np.diff(xy, axis=0)
    length = np.hypot(d[:, 0], d[:, 1])
    speed = length / np.maximum(np.diff(t_s), 1e-9)
    off = line_gap(xy, line_mm) > off_mm
    # (standing off the lines, then one step, not jitter, onto a line)
    out = np.flatnonzero((length[:-2] <= still_mm) & off[1:-2] & ~off[2:-1] & (length[1:-1] > still_mm)) + 1
    if out.size == 0:
        return out
    # (the glide's speed: the median of the steps after, as many as there are)
    after = np.lib.stride_tricks.sliding_window_view(np.concatenate([speed[1:], np.full(steps, np.nan)]), steps)
    return np.asarray(out[speed[out] > _JUMP * np.nanmedian(after[out], axis=1)])


_JUMP = 2.0  # a struck striker's first step is at most this many times faster than its glide after (noise)


def _still(hist_xy: np.ndarray, still_mm: float, span: int) -> np.ndarray:
    """(M, K) bool: column k within `still_mm` of column k - `span` (both seen)."""
    m, k = hist_xy.shape[:2]
    span = min(max(int(span), 1), max(k - 1, 1))
    d = hist_xy[:, span:] - hist_xy[:, :-span]
    step = np.nan_to_num(np.hypot(d[..., 0], d[..., 1]), nan=np.inf)
    return np.concatenate([np.zeros((m, span), bool), np.asarray(step < still_mm, bool)], axis=1)


def where_it_stood(hist_xy: np.ndarray, xy: np.ndarray, *, still_mm: float = 4.0, span: int = 1) -> np.ndarray:
    """(M, 2) where each track was last seen standing, else where it was first seen lately, board mm.

    Standing: two observations `span` frames apart within `still_mm` (at a high frame rate a slow
    striker moves less than that in one frame: `span` makes the test one of time). A striker set down is
    seen standing on its line before it is struck, unless the hand hides it; a detection of a hand
    is seen in motion from the start.

    Args:
        hist_xy: (M, K, 2) observed centres in the last K frames, oldest first, NaN where not seen.
        xy: (M, 2) last observed centres (used when the history is empty).
        still_mm: largest step between two observations of a disc at rest, mm.

    Examples:
        >>> h = np.array([[[np.nan, np.nan], [0.0, 250.0], [0.0, 250.5], [0.0, 230.0]],
        ...               [[np.nan, np.nan], [0.0, 330.0], [0.0, 300.0], [0.0, 270.0]]])
        >>> where_it_stood(h, h[:, -1]).tolist()
        [[0.0, 250.5], [0.0, 330.0]]
    """
    m = len(hist_xy)
    rows = np.arange(m)
    seen = np.isfinite(hist_xy[:, :, 0])
    still = _still(hist_xy, still_mm, span)
    last_still = hist_xy.shape[1] - 1 - np.argmax(still[:, ::-1], axis=1)
    first = np.argmax(seen, axis=1)
    origin = np.where(still.any(axis=1, keepdims=True), hist_xy[rows, last_still], hist_xy[rows, first])
    return np.where(np.isfinite(origin), origin, xy)


# the striker's own run may start this far (mm) from where it was taken to stand: a knuckle of the
# hand that set it, beside it
_KNUCKLE_MM = 45.0
_FLICK_S = 0.5  # the flick is among the striker's sightings over this long from the first (see `from_the_flick`)
_SPEED_UP = 2.0  # a step this many times faster than the one before ...
_SPEED_UP_MM_S = 300.0  # ... and this much faster (above the noise of a disc at rest at 120 fps) is a flick


def from_the_flick(t_s: np.ndarray, xy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The striker's sightings (times `t_s` (n,) s, centres `xy` (n, 2) mm) from the step it was
    struck in: struck, it is at once as fast as it will go, then only slows. The fastest of its steps
    over `_FLICK_S` from its first sighting follows the flick; the last step up to it that is
    `_SPEED_UP` times faster than the one before (and `_SPEED_UP_MM_S` more) is the flick itself, and
    the sightings before it were the hand's, or the striker standing or pushed into place (carrom seed
    1024 at 30 fps: a hand's sighting behind the N base line taken for the striker, then the striker
    standing on the line under the fingers, then struck: a run fitted through all of them was dated
    0.4 s early). All of them when there is no such step.

    Examples:
        >>> t = np.array([10.467, 10.533, 10.567, 10.6, 10.633, 10.667])
        >>> xy = np.array([[11.0, -353.0], [73.0, -253.0], [75.0, -249.0], [50.0, -245.0], [-27.0, -217.0],
        ...                [-103.0, -188.0]])
        >>> from_the_flick(t, xy)[1][0].tolist()
        [50.0, -245.0]
        >>> from_the_flick(t[3:], xy[3:])[1][0].tolist()  # seen first in flight
        [50.0, -245.0]
    """
    if len(t_s) < 3:
        return t_s, xy
    speed = np.hypot(*np.diff(xy, axis=0).T) / np.maximum(np.diff(t_s), 1e-9)
    early = np.flatnonzero(t_s[:-1] <= t_s[0] + _FLICK_S)
    fastest = int(early[np.argmax(speed[early])])
    up = np.flatnonzero(speed[1 : fastest + 1] > _SPEED_UP * speed[:fastest] + _SPEED_UP_MM_S) + 1
    if up.size == 0:
        return t_s, xy
    return t_s[up[-1]:], xy[up[-1]:]


def striker_run(t_s: np.ndarray, xy: np.ndarray, *, rest_xy: np.ndarray | None, line_mm: float,
                assumed_speed_mm_s: float, tol_mm: float, move_mm: float,
                decel_mm_s2: float = 250.0, extent_mm: float = np.inf) -> StrikerRun | None:
    """The striker's straight run from its observations during the shot.

    Args:
        t_s: (n,) observation times from shortly before the shot, s.
        xy: (n, 2) centres, board mm.
        rest_xy: (2,) where it stood before the shot, if seen there.
        line_mm: distance of the placement lines from the centre, mm.
        assumed_speed_mm_s: speed used when the striker is seen in motion only once.
        tol_mm: distance from the line within which observations count as on it.
        move_mm: an observation this far from `rest_xy` is in motion.
        decel_mm_s2: sliding friction deceleration (powdered boards: 150-350 mm/s^2).
        extent_mm: half the length of a placement line, mm.

    Returns:
        The run, or None if the striker was not seen in motion.
    """
    if rest_xy is not None:
        # in motion: off its place and not back there in the next sighting (one sighting under the
        # flicking fingers is drawn a few mm off: carrom seed 1044 at 120 fps, the run taken from it,
        # the shot dated 30 ms early)
        off = np.hypot(*(xy - rest_xy).T) > move_mm
        moving = np.flatnonzero(off & np.append(off[1:], True))
        if moving.size == 0:
            return None
        # its run fitted on its own, from its sightings in motion (those at its place bend the fit),
        # three at least (any two make a line; carrom seed 1033 at 30 fps, the break: seen twice
        # before it hit a man, 27 mm off its place followed back)
        free = striker_run(t_s[moving[0]:], xy[moving[0]:], rest_xy=None, line_mm=line_mm,
                           assumed_speed_mm_s=assumed_speed_mm_s, tol_mm=tol_mm, move_mm=move_mm,
                           decel_mm_s2=decel_mm_s2, extent_mm=extent_mm)
        if free is not None and free.moving_obs >= 3:
            rel = rest_xy - free.origin_mm
            off_line = abs(float(rel[0] * free.direction[1] - rel[1] * free.direction[0])) > 4 * tol_mm
            if off_line and float(np.hypot(*rel)) <= _KNUCKLE_MM:
                # the striker did not leave from where it was last seen standing (carrom seed 1033 at
                # 30 fps: a knuckle of the hand that set it, taken for it standing 22 mm away); a run
                # followed back far from there is its way on after a contact (carrom seed 1007 at 60
                # fps, the break: seen first in the pack, then pushing it slowly aside)
                return free
        t, p = t_s[moving[0]:], xy[moving[0]:]
        t_still = float(t_s[moving[0] - 1]) if moving[0] > 0 else -np.inf  # last seen standing
        u, n = follow_line(rest_xy, p, tol_mm=tol_mm, t_s=t)
        origin = rest_xy
    else:
        t_still = -np.inf
        if len(xy) == 0:
            return None
        t, p = from_the_flick(t_s, xy)
        u, n = follow_line(None, p, tol_mm=tol_mm, t_s=t)
        if n < 2 or float(np.hypot(*(p[n - 1] - p[0]))) < move_mm:
            return _single(t_s, xy, line_mm, assumed_speed_mm_s)
        start = start_on_line(p[:n], u, line_mm, extent_mm)
        if start is None:
            return _single(t_s, xy, line_mm, assumed_speed_mm_s)
        origin = start
    along = (p - origin) @ u
    dev = float(along[n]) if n < len(p) else np.inf
    dev_t = float(t[n]) if n < len(p) else np.inf
    # speed from the first few observations only: friction slows a slow striker noticeably
    k = int(np.searchsorted(t[:n], t[0] + 0.1, side="right")) - 1
    k = max(min(k, n - 1), 1) if n >= 2 else 0
    if k >= 2:  # ... and before a contact in that time slowed it at once (carrom seed 1010 at 60 fps, the break)
        step = np.diff(along[: k + 1]) / np.maximum(np.diff(t[: k + 1]), 1e-9)
        hit = np.flatnonzero(step[1:] < _SLOWER * step[:-1])
        k = int(hit[0]) + 1 if hit.size else k
    measured = k >= 1 and t[k] > t[0]
    speed = float((along[k] - along[0]) / (t[k] - t[0])) + 0.5 * decel_mm_s2 * float(t[k] - t[0]) if measured else 0.0
    speed = speed if speed > 1.0 else assumed_speed_mm_s
    if np.isfinite(t_still) and t[0] > t_still:
        # it left after it was last seen standing: a slower measured speed was taken after a contact
        speed = max(speed, float(along[0]) / float(t[0] - t_still))
    if rest_xy is None and not (measured and n >= 3):
        # never seen standing: the first observations are often already past a contact (a break at
        # 30 fps), which makes the measured speed far too low and the start far too early; a speed
        # measured along a straight run of several observations is the striker's own (it came out
        # from under the hand already moving)
        speed = max(speed, assumed_speed_mm_s)
    back = float(along[0]) / speed
    t0 = float(t[0] - back + 0.5 * decel_mm_s2 * back * back / speed)  # it was a little faster before t[0]
    return StrikerRun(np.asarray(origin, np.float64), u, speed, t0, float(along[n - 1]), dev, n, measured,
                      float(along[0]), p[0].copy(), float(t[0]), rest_xy is not None, float(t[n - 1]), dev_t)


def _single(t_s: np.ndarray, xy: np.ndarray, line_mm: float, speed: float) -> StrikerRun:
    """Seen in motion once, origin unknown: assume it came straight from the nearest placement line."""
    p = xy[0]
    axis = 0 if abs(p[0]) > abs(p[1]) else 1
    origin = p.copy()
    origin[axis] = np.copysign(line_mm, p[axis]) if p[axis] != 0 else line_mm
    d = p - origin
    dist = float(np.hypot(*d))
    u = d / dist if dist > 1e-6 else np.array([0.0, -1.0])
    return StrikerRun(origin, u, speed, float(t_s[0] - dist / speed), dist, np.inf, 1, False, dist, p.copy(),
                      float(t_s[0]), False, float(t_s[0]), np.inf)
