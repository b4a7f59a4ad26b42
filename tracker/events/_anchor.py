"""Where the striker stood before a shot, read off the buffered observations (once per shot).

Board mm (origin at the board centre), seconds.
"""

from __future__ import annotations

import numpy as np

from tracker.events._history import ShotHistory, median_xy
from tracker.events._start import line_gap
from tracker.specs import STILL_STEP_MM, DiscKind
from tracker.track import Tracks

__all__ = ["find_striker_rest", "last_still", "standing_place"]

_STRIKER = int(DiscKind.STRIKER)
_WAY_STEPS = 2  # a disc seen stepping off its place at most this often, frame after frame, before a shot stood there


def find_striker_rest(hist: ShotHistory, pre: np.ndarray, seen: np.ndarray, last: np.ndarray, tracks: Tracks, *,
                      t_trigger_s: float, frame_dt_s: float, line_mm: float, tol_mm: float = 30.0,
                      trigger_ids: frozenset[int] = frozenset()) -> tuple[float, float] | None:
    """The striker's placement (board mm), if it was seen standing there shortly before the shot.

    Args:
        hist: the buffered observations.
        pre: (M, k, 2) `hist.xy_mm` up to shortly before motion was noticed (board mm, NaN: not seen).
        seen: (M, k) bool, finite in `pre`.
        last: (M,) column of each row's last observation in `pre`.
        tracks: the tracks when the shot began.
        t_trigger_s: when motion was noticed, s.
        frame_dt_s: frame interval, s.
        line_mm: distance of the placement lines from the centre, mm.
        tol_mm: how far from a placement line a striker set for a shot may stand, mm (a sighting
            further off is the striker already on its way: seed 3008 at 120 fps, first seen 15 mm
            off the base line and taken for standing there, dated its shot from that sighting).
        trigger_ids: ids of the tracks whose motion started the shot: looked at first (a hand's false
            detection taken for a striker may stand on a line too; seed 1002 at 120 fps, issue 4).
    """
    rows = np.flatnonzero(tracks.kind == _STRIKER)
    if trigger_ids and rows.size > 1:
        rows = rows[np.argsort(~np.isin(tracks.ids[rows], list(trigger_ids)), kind="stable")]
    h_ids = hist.ids
    for i in tracks.ids[rows].tolist():
        r = int(np.searchsorted(h_ids, i))
        if r >= len(h_ids) or h_ids[r] != i or not seen[r].any():
            continue
        xy = pre[r, last[r]]
        t_seen = float(hist.t_s[last[r]])
        # still, not being slid along the line by hand: the observation before (if in the
        # previous frame or two) is at the same place
        prev = np.flatnonzero(seen[r, : last[r]])
        if prev.size == 0:
            # seen once before motion was noticed: coming out from under the hand already on its
            # way as likely as standing (a shot along the base line looks like either)
            continue
        # (in motion: off a sighting of the last few frames by more than a standing disc's jitter; a
        # slow striker at 120 fps steps less than that per frame: carrom seed 1044, its place read
        # from a sighting on its way, 40 ms late)
        recent = prev[hist.t_s[prev] >= t_seen - 3.5 * frame_dt_s]
        moving = bool(recent.size) and float(np.hypot(*(pre[r, recent] - xy).T).max()) > 5.0
        xy_still, t_still = last_still(hist.t_s, pre[r], seen[r], frame_dt_s)
        if moving or (t_seen - t_still <= 2.5 * frame_dt_s and t_still < t_seen):
            # already on its way when motion was noticed (a slow striker at a high frame rate
            # moves less than the noise per frame): where it last stood still, if seen there
            xy, t_seen = xy_still, t_still
        on_line = bool(np.isfinite(xy[0])) and float(line_gap(xy, line_mm)) < tol_mm
        if on_line and t_trigger_s - t_seen <= 1.0:
            return float(xy[0]), float(xy[1])
    return None


def last_still(t_s: np.ndarray, pre: np.ndarray, seen: np.ndarray, frame_dt_s: float, *,
               settled: bool = False) -> tuple[np.ndarray, float]:
    """The last place (board mm) and time (s) a track was seen standing (three observations in a row that agree).

    Args:
        t_s: (k,) frame times, s.
        pre: (k, 2) the track's observations, board mm (NaN: not seen).
        seen: (k,) bool, finite in `pre`.
        frame_dt_s: frame interval, s.
        settled: only three observations in a row count (not one as the hand let go).
    """
    cols = np.flatnonzero(seen)
    t = t_s[cols]
    p = pre[cols]
    if len(t) < 2:
        return np.full(2, np.nan), -np.inf
    step = (np.diff(t) <= 2.5 * frame_dt_s) & (np.hypot(*np.diff(p, axis=0).T) <= STILL_STEP_MM)
    two = (np.hypot(*(p[2:] - p[:-2]).T) <= STILL_STEP_MM) & step[1:] & step[:-1]
    if two.any():
        k = int(np.flatnonzero(two)[-1]) + 2
        return p[k], float(t[k])
    if settled:
        return np.full(2, np.nan), -np.inf
    # seen standing only once, as the hand that hid it let go: the first observation after it
    # came out from under the hand
    gaps = np.flatnonzero(np.diff(t) > 2.5 * frame_dt_s)
    k = int(gaps[-1]) + 1 if gaps.size else 0
    return (p[k], float(t[k])) if k < len(t) - 1 else (np.full(2, np.nan), -np.inf)


def standing_place(obs: np.ndarray, t_obs: np.ndarray, frame_dt_s: float) -> np.ndarray:
    """(2,) where a disc stood before a shot (board mm): the median of its last sightings `obs` (n, 2)
    mm (n >= 1, taken at `t_obs` (n,) s) near the last one it stood at.

    A disc already on its way when the shot was noticed, seen a step or two off its place in the
    last frames, stood where it was before them (carrom seed 1039 at 30 fps: a black the striker hit
    as it set off, its place taken 10 mm along its way, so the striker's line back missed it). A
    track that jumped about for longer is no disc set moving; its last sighting stands.

    Examples:
        >>> obs = np.array([[59.0, -214.5], [59.0, -215.0], [59.0, -214.6], [57.0, -207.0], [55.0, -199.0]])
        >>> standing_place(obs, np.arange(5) / 30, 1 / 30).tolist()
        [59.0, -214.6]
        >>> standing_place(obs[[0, 1, 2, 4]], np.array([0, 1, 2, 4]) / 30, 1 / 30).tolist()  # not frame after frame
        [55.0, -199.0]
    """
    # the last few steps, and how many of them at the end are longer than a standing disc's jitter
    long = np.hypot(*np.diff(obs[-_WAY_STEPS - 2:], axis=0).T) > STILL_STEP_MM
    off = len(long) - int(np.flatnonzero(~long)[-1]) - 1 if not long.all() else len(long)
    # (more steps than that, none short before them, or not frame after frame: it stands where last seen)
    if off > _WAY_STEPS or off == len(long) or float(t_obs[-1] - t_obs[-1 - off]) > (off + 0.5) * frame_dt_s:
        off = 0
    last = obs[: len(obs) - off][-6:]
    return median_xy(last[np.hypot(*(last - last[-1]).T) < STILL_STEP_MM])
