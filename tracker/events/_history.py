"""The shot buffer: every frame's observed track positions, kept cheaply and assembled at shot end.

Per frame the event detector appends one small row (time, frame, track ids, observed centres with
NaN for tracks not seen). Nothing is decided from it frame by frame; when the shot ends the rows are
assembled into one (tracks x frames) matrix and the shot is read off it as a whole.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

__all__ = ["FrameRow", "ShotHistory", "assemble", "median_xy", "seen_before"]

_END_S = 0.15  # a track seen this shortly before a shot's end is still there at its end, s


@dataclass(frozen=True, slots=True)
class FrameRow:
    """One frame of the buffer.

    Attributes:
        t_s: frame time, s.
        frame_idx: frame number.
        ids: (M,) int32 track ids alive in this frame.
        xy_mm: (M, 2) float64 observed centres (board mm), NaN for tracks not seen in this frame.
    """

    t_s: float
    frame_idx: int
    ids: np.ndarray
    xy_mm: np.ndarray


@dataclass(frozen=True, slots=True)
class ShotHistory:
    """A stretch of frames as one matrix.

    Attributes:
        ids: (M,) int32 sorted track ids.
        t_s: (K,) float64 frame times, s.
        frame_idx: (K,) int64 frame numbers.
        xy_mm: (M, K, 2) float64 observed centres, NaN where not seen.
    """

    ids: np.ndarray
    t_s: np.ndarray
    frame_idx: np.ndarray
    xy_mm: np.ndarray

    def row_of(self, track_id: int) -> int:
        """Row of `track_id`, or -1."""
        k = int(np.searchsorted(self.ids, track_id))
        return k if k < len(self.ids) and int(self.ids[k]) == track_id else -1

    def observations(self, row: int, *, since: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(frame columns, times (s), centres (mm)) where track `row` was seen, from column `since`."""
        cols = np.flatnonzero(np.isfinite(self.xy_mm[row, since:, 0])) + since
        return cols, self.t_s[cols], self.xy_mm[row, cols]

    def first_seen(self) -> np.ndarray:
        """(M,) int: each track's first column with an observation; -1 if none."""
        seen = np.isfinite(self.xy_mm[..., 0])
        return np.where(seen.any(axis=1), np.argmax(seen, axis=1), -1)

    def last_seen(self, *, since: int = 0) -> np.ndarray:
        """(M,) int: each track's last column with an observation, from column `since`; -1 if none."""
        seen = np.isfinite(self.xy_mm[:, since:, 0])
        last = seen.shape[1] - 1 - np.argmax(seen[:, ::-1], axis=1)
        return np.where(seen.any(axis=1), last + since, -1)

    def seen_at_end(self, t_end_s: float) -> np.ndarray:
        """(M,) bool: tracks seen within `_END_S` of the shot's end `t_end_s` (s): still there then."""
        last = self.last_seen()
        return np.asarray((last >= 0) & (self.t_s[np.maximum(last, 0)] >= t_end_s - _END_S))

    def frame_at(self, t_s: float) -> int:
        """The frame number at or just after `t_s` (the last frame if none)."""
        k = int(np.searchsorted(self.t_s, t_s - 1e-9))
        return int(self.frame_idx[min(k, len(self.frame_idx) - 1)])


def assemble(rows: deque[FrameRow] | list[FrameRow]) -> ShotHistory:
    """Stack buffered rows into a `ShotHistory` (one pass over the frames; run once per shot).

    Examples:
        >>> a = FrameRow(0.0, 0, np.array([2, 5], np.int32), np.array([[1.0, 1.0], [np.nan, np.nan]]))
        >>> b = FrameRow(0.1, 1, np.array([5], np.int32), np.array([[3.0, 4.0]]))
        >>> h = assemble([a, b])
        >>> h.ids.tolist(), h.xy_mm[1, 1].tolist(), bool(np.isnan(h.xy_mm[0, 1, 0]))
        ([2, 5], [3.0, 4.0], True)
    """
    rows = list(rows)
    if not rows:
        return ShotHistory(np.zeros(0, np.int32), np.zeros(0), np.zeros(0, np.int64), np.full((0, 0, 2), np.nan))
    all_ids = np.concatenate([r.ids for r in rows])
    ids = np.unique(all_ids)
    xy = np.full((len(ids), len(rows), 2), np.nan)
    # every observation into its (track, frame) cell at once (a track appears once in a frame)
    col = np.repeat(np.arange(len(rows)), [len(r.ids) for r in rows])
    xy[np.searchsorted(ids, all_ids), col] = np.concatenate([r.xy_mm for r in rows]).reshape(-1, 2)
    t = np.array([r.t_s for r in rows], np.float64)
    f = np.array([r.frame_idx for r in rows], np.int64)
    return ShotHistory(ids.astype(np.int32), t, f, xy)


def median_xy(xy: np.ndarray) -> np.ndarray:
    """(2,) median of a few (n, 2) points along axis 0: `np.median(xy, axis=0)` to the bit, faster.

    The middle point of the sorted coordinates, or the mean of the middle two (their sum halved,
    as `np.mean` does); NaNs and an empty input go to `np.median` itself.

    Examples:
        >>> median_xy(np.array([[1.0, 5.0], [3.0, 2.0], [2.0, 9.0], [7.0, 0.5]])).tolist()
        [2.5, 3.5]
    """
    n = len(xy)
    if n == 0 or np.isnan(xy).any():
        return np.asarray(np.median(xy, axis=0))
    s = np.sort(xy, axis=0)
    h = n // 2
    out: np.ndarray = s[h].copy() if n % 2 else (s[h - 1] + s[h]) / 2.0
    return out


# a disc the striker hits was on the board at least this long before the shot, s
STOOD_S = 0.5


def seen_before(t_s: np.ndarray, xy_mm: np.ndarray, t_shot_s: float) -> np.ndarray:
    """(M,) bool: tracks (centres (M, K, 2) board mm at times (K,) s, NaN where unseen) seen at least
    `STOOD_S` before the shot began at `t_shot_s`, or, with less history than twice that, in the
    first half of what there is before the shot.

    A disc the striker hits stood there before; a knuckle of the flicking hand or a cue's tip taken
    for a disc is seen only as the stroke is played (seed 1002, 120 fps: carrom, one in front of the
    striker, issue 4; korona, the cue's tip behind it, issue 7).

    Examples:
        >>> xy = np.full((2, 4, 2), np.nan); xy[0, :] = 0.0; xy[1, 3] = 5.0
        >>> seen_before(np.arange(4) * 0.25, xy, 0.75).tolist()
        [True, False]
        >>> xy[0, :2] = np.nan  # 0.75 s of history: the first half of it counts
        >>> seen_before(np.arange(4) * 0.25, xy, 0.75).tolist()
        [False, False]
    """
    t_first = float(t_s[0]) if len(t_s) else t_shot_s
    k = max(int(np.searchsorted(t_s, t_shot_s - STOOD_S)), int(np.searchsorted(t_s, 0.5 * (t_first + t_shot_s))), 1)
    return np.asarray(np.isfinite(xy_mm[:, :k, 0]).any(axis=1))
