"""The tracker's per-track arrays (struct of arrays, one row per track) and their history ring."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import NamedTuple

import numpy as np

from tracker._track_assign import point_distance, point_segment_distance
from tracker.specs import DiscKind

__all__ = [
    "Motion", "TrackArrays", "N_KINDS", "misread_coins", "misread_men", "misread_strikers",
    "striker_doubles", "striker_followed", "struck_strikers", "vote_kinds",
]

N_KINDS = 4  # DiscKind values 0..3
_STRIKER = int(DiscKind.STRIKER)  # a plain int: array comparisons with it stay cheap
# a man whose own-kind sightings found him standing this long (s) stands there, or one seen by them
# this lately is where he is (see `misread_men`)
_MAN_STOOD_S = 0.5
_MAN_SEEN_S = 0.25


class Motion(NamedTuple):
    """Some tracks' arrays as the association reads them (fields as in `TrackArrays`, same rows)."""

    xy: np.ndarray
    vel: np.ndarray
    last_t: np.ndarray
    prev_speed: np.ndarray
    kind: np.ndarray
    share: np.ndarray
    missed: np.ndarray
    confirmed: np.ndarray
    votes: np.ndarray
    hits: np.ndarray


@dataclass(slots=True)
class TrackArrays:
    """Mutable working state, private to one `Tracker` (never handed out: snapshots are copies).

    Attributes:
        ids: (M,) int32 track ids.
        xy: (M, 2) float64 last observed centre, board mm.
        vel: (M, 2) float64 velocity at the last observation, mm/s.
        last_t: (M,) float64 time of the last observation, s.
        hits: (M,) int32 frames in which the track was observed.
        missed: (M,) int32 consecutive frames without an observation.
        votes: (M, 4) float64 score-weighted votes for each `DiscKind`.
        confirmed: (M,) bool seen often enough to be a disc, not a false detection.
        hist: (M, K, 2) float64 observed centres in the last K frames (NaN = not seen), a ring:
            column `head` of the owning tracker is the newest (no per-frame shifting of the history).
        kind: (M,) int8 `DiscKind` by vote (kept in step with `votes` by `refresh_kinds`).
        share: (M,) float64 share of the votes behind `kind`.
        recent: (M, 4) float64 votes for each `DiscKind` fading with every observation (the kind of
            the disc the track follows now, after an identity mix-up in a crowd).
        prev_speed: (M,) float64 speed (mm/s) the track had before its last observation: a track
            that was at rest then and moves now was set in motion during the last frame interval,
            so its velocity (displacement over the whole interval) is an underestimate.
        since: (M,) float64 time (s) since which the track has been followed without a break
            longer than coasting (its birth, or when it was last taken up again).
        stood: (M,) float64 how long (s) the detections that vote on its kind have found it where
            it is (within `specs.STILL_STEP_MM` from one sighting to the next; 0: it moved, or only guesses
            found it there).
        voted_t: (M,) float64 time (s) of the last sighting that voted on its kind.
    """

    ids: np.ndarray
    xy: np.ndarray
    vel: np.ndarray
    last_t: np.ndarray
    hits: np.ndarray
    missed: np.ndarray
    votes: np.ndarray
    confirmed: np.ndarray
    hist: np.ndarray
    kind: np.ndarray
    share: np.ndarray
    recent: np.ndarray
    prev_speed: np.ndarray
    since: np.ndarray
    stood: np.ndarray
    voted_t: np.ndarray

    @classmethod
    def empty(cls, history: int) -> TrackArrays:
        return cls(
            ids=np.zeros(0, np.int32), xy=np.zeros((0, 2)), vel=np.zeros((0, 2)), last_t=np.zeros(0),
            hits=np.zeros(0, np.int32), missed=np.zeros(0, np.int32), votes=np.zeros((0, N_KINDS)),
            confirmed=np.zeros(0, bool), hist=np.zeros((0, history, 2)), kind=np.zeros(0, np.int8),
            share=np.zeros(0), recent=np.zeros((0, N_KINDS)), prev_speed=np.zeros(0), since=np.zeros(0),
            stood=np.zeros(0), voted_t=np.zeros(0),
        )

    def __len__(self) -> int:
        return int(self.ids.shape[0])

    def select(self, keep: np.ndarray) -> TrackArrays:
        """Rows where `keep` (bool (M,) or index array) selects."""
        return TrackArrays(*[getattr(self, name)[keep] for name in _NAMES])

    def motion(self, rows: np.ndarray | None = None) -> Motion:
        """The arrays the association reads, of `rows` (copies) or of every track (the arrays themselves)."""
        if rows is None:
            return Motion(self.xy, self.vel, self.last_t, self.prev_speed, self.kind, self.share, self.missed,
                          self.confirmed, self.votes, self.hits)
        return Motion(self.xy.take(rows, axis=0), self.vel.take(rows, axis=0), self.last_t[rows], self.prev_speed[rows],
                      self.kind[rows], self.share[rows], self.missed[rows], self.confirmed[rows],
                      self.votes.take(rows, axis=0), self.hits[rows])

    def append(self, other: TrackArrays) -> TrackArrays:
        return TrackArrays(*[np.concatenate([getattr(self, name), getattr(other, name)]) for name in _NAMES])

    def kinds(self) -> tuple[np.ndarray, np.ndarray]:
        """(kind (M,) int8 by vote, confidence (M,) in [0, 1] = winning share of the votes)."""
        return self.kind, self.share

    def refresh_kinds(self) -> None:
        """Recompute `kind` and `share` from `votes` (after the votes changed)."""
        self.kind, self.share = vote_kinds(self.votes)


def vote_kinds(votes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(kind (M,) int8 by vote, share (M,) in [0, 1] of the votes behind it) from (M, 4) votes.

    Examples:
        >>> k, s = vote_kinds(np.array([[0.0, 3.0, 1.0, 0.0]]))
        >>> k.tolist(), s.tolist()
        ([1], [0.75])
    """
    total = votes.sum(axis=1)
    kind = votes.argmax(axis=1)
    best = votes[np.arange(len(votes)), kind]
    share = best / np.maximum(total, 1e-9)
    if not (total > 0).all():  # (no votes at all: no share)
        share[total <= 0] = 0.0
    return kind.astype(np.int8), share


def striker_doubles(st: TrackArrays, radius_mm: float, *, confidence: float) -> np.ndarray:
    """(M,) bool: striker tracks not seen this frame lying where a striker track was seen (there is one striker).

    Two striker tracks on one spot took its detection in turn, each seen only every other frame, so
    neither was ever seen standing (seed 1003 at 30 fps: three tracks on the striker at rest, issue 4).

    Args:
        st: the tracks after this frame's observations (`missed` 0: seen this frame).
        radius_mm: the striker's radius, mm.
        confidence: share of the kind votes that makes a track a striker.
    """
    striker = (st.kind == _STRIKER) & (st.share >= confidence)
    out = np.zeros(len(st), bool)
    if np.count_nonzero(striker) < 2:  # (nearly every frame)
        return out
    seen = striker & (st.missed == 0)
    rows = np.flatnonzero(striker & (st.missed > 0))
    if seen.any() and rows.size:
        d = np.hypot(st.xy[rows, None, 0] - st.xy[None, seen, 0], st.xy[rows, None, 1] - st.xy[None, seen, 1])
        out[rows] = (d < radius_mm).any(axis=1)
    return out


def _sure_strikers(st: TrackArrays, confidence: float) -> np.ndarray:
    """(M,) bool: confirmed tracks of confident striker kind."""
    return np.asarray((st.kind == _STRIKER) & (st.share >= confidence) & st.confirmed)


def _moving_strikers(st: TrackArrays, confidence: float, min_speed_mm_s: float, coast_frames: int) -> np.ndarray:
    """(M,) bool: sure strikers (`_sure_strikers`) seen within `coast_frames` frames, last moving at
    `min_speed_mm_s` or faster."""
    live = st.missed <= coast_frames
    return np.asarray(_sure_strikers(st, confidence) & live & (np.hypot(st.vel[:, 0], st.vel[:, 1]) >= min_speed_mm_s))


def _where_now(st: TrackArrays, t: float) -> np.ndarray:
    """(M, 2) where each track is at time `t` s, by its velocity from its last sighting, board mm."""
    return np.asarray(st.xy + st.vel * (t - st.last_t)[:, None])


def misread_strikers(
    st: TrackArrays, z: np.ndarray, det_kind: np.ndarray, t: float, *, radius_mm: float, confidence: float
) -> np.ndarray | None:
    """(N,) bool over detections (centres `z` (N, 2) board mm, kinds `det_kind` (N,), time `t` s):
    those of the striker's kind more than two striker diameters off the path of the striker
    followed until the last frame (a confirmed track of confident striker kind seen then, from
    there to where its velocity takes it); None if there are none.

    There is one striker: such a detection is a coin whose size was misread (a man hanging over
    a pocket hole, part of its outline lost against the hole, read as the striker in every other
    frame split its track in hundreds, seed 2007; a fast white drawn out by its motion).

    Args:
        st: the tracks before this frame.
        radius_mm: the striker's radius, mm.
        confidence: share of the kind votes that makes a track a striker.
    """
    cand = det_kind == _STRIKER
    if len(st) == 0 or not cand.any():
        return None
    followed = _sure_strikers(st, confidence) & (st.missed == 0)
    if not followed.any():
        return None
    a, b = st.xy[followed], _where_now(st, t)[followed]
    misread = np.zeros(len(z), bool)
    misread[np.flatnonzero(cand)[point_segment_distance(z[cand], a, b).min(axis=0) > 4.0 * radius_mm]] = True
    return misread if misread.any() else None


def misread_coins(
    st: TrackArrays, z: np.ndarray, det_kind: np.ndarray, t: float, *, radius_mm: float, reach_mm: float,
    confidence: float, min_speed_mm_s: float, coast_frames: int = 2,
) -> np.ndarray | None:
    """(N,) bool over detections (centres `z` (N, 2) board mm, kinds `det_kind` (N,), time `t` s):
    coins on the path of the moving striker followed until a frame or two ago (from its last
    sighting to where its velocity takes it, within its radius), with no striker seen there and no
    other confirmed track within `reach_mm` of them; None if there are none.

    Such a detection is the striker read as a coin: drawn out by its motion, or part of its outline
    lost against a pocket hole, its size is misread in every other frame (seed 1008 at 120 fps,
    hard look: its track split in a dozen, striker and white in turn, two of them "pocketed" at
    once; issue 4). A coin it is about to hit has a track of its own there.

    Args:
        st: the tracks before this frame.
        radius_mm: the striker's radius, mm.
        reach_mm: the largest coin's and the striker's radii together, mm.
        confidence: share of the kind votes that makes a track a striker.
        min_speed_mm_s: slowest striker taken to be moving (one at rest is never misread so: a coin
            taken for a striker once would keep that kind for good).
        coast_frames: frames the striker may have gone unseen (read as a coin).
    """
    cand = det_kind != _STRIKER
    if len(st) == 0 or not cand.any():
        return None
    live = st.missed <= coast_frames
    striker = _moving_strikers(st, confidence, min_speed_mm_s, coast_frames)
    if not striker.any():
        return None
    now = _where_now(st, t)
    b = now[striker]
    on_path = cand & (point_segment_distance(z, st.xy[striker], b).min(axis=0) <= radius_mm)
    if not on_path.any():
        return None
    strikers = z[det_kind == _STRIKER]
    if len(strikers) and (point_distance(strikers, b) <= 2.0 * radius_mm).any():
        return None  # the striker is seen where it is going
    return _alone(on_path, z, now[~striker & st.confirmed & live], reach_mm)


def _alone(cand: np.ndarray, z: np.ndarray, others: np.ndarray, reach_mm: float) -> np.ndarray | None:
    """`cand` ((N,) bool over the detections at `z` (N, 2) mm) without those within `reach_mm` of
    any of the places `others` (K, 2) mm (a disc there, of its own); None if none are left."""
    rows = np.flatnonzero(cand)
    if len(rows) and len(others):
        cand = cand.copy()
        cand[rows[(point_distance(z[rows], others) <= reach_mm).any(axis=0)]] = False
    return cand if cand.any() else None


def struck_strikers(
    st: TrackArrays, z: np.ndarray, det_kind: np.ndarray, clear: np.ndarray, *, radius_mm: float, reach_mm: float,
    jump_mm: float, confidence: float, still_mm_s: float,
) -> np.ndarray | None:
    """(N,) bool over detections (centres `z` (N, 2) board mm, kinds `det_kind` (N,)): coins seen
    clearly (`clear` (N,) bool) within `jump_mm` of the striker standing until the last frame (a sure
    striker seen then, slower than `still_mm_s`) when no striker is seen where it stood (within its
    radius `radius_mm`), with no other confirmed track (seen lately or not) within `reach_mm` of
    them; None if none.

    Such a detection is the striker just struck, its size misread in motion (korona seed 1046 at 60
    fps: the ring striker flicked at 3.3 m/s read as a light man in its first moving frame; a
    tentative track on the flicking finger's blur took it up, and the shot was never seen to start).
    A coin beside the striker has a track of its own there, whether seen in the last frame or not
    (korona seed 1015 at 30 fps: a light man by the rail, hidden for a frame by the hand that came
    for the striker, was taken for the striker struck, "off the board" over the rail). `clear`: seen
    sharp and sure, as the striker is (a knuckle of a hand come for it, the striker under the hand,
    is seen less sure: korona seed 1026 at 120 fps, 0.58 where the striker struck in 1046 was 0.88).
    """
    cand = clear & (det_kind != _STRIKER)
    if len(st) == 0 or not cand.any():
        return None
    standing = _sure_strikers(st, confidence) & (st.missed == 0)
    standing &= np.hypot(st.vel[:, 0], st.vel[:, 1]) < still_mm_s
    if not standing.any():
        return None
    at = st.xy[standing]
    strikers = z[det_kind == _STRIKER]
    if len(strikers):  # (one still there has not been struck)
        at = at[~(point_distance(strikers, at) <= radius_mm).any(axis=1)]
        if len(at) == 0:
            return None
    near = point_distance(z, at)
    out = cand & (near <= jump_mm).any(axis=0) & (near > radius_mm).all(axis=0)
    # (seen now or not: a man a hand hides for a frame is still there)
    return _alone(out, z, st.xy[~standing & st.confirmed], reach_mm)


def misread_men(
    st: TrackArrays, z: np.ndarray, det_kind: np.ndarray, t: float, *, reach_mm: float, radius_mm: float,
    confidence: float, still_mm_s: float, coast_frames: int = 2,
) -> tuple[np.ndarray, np.ndarray] | None:
    """Detections of the striker's kind (centres `z` (N, 2) board mm, kinds `det_kind` (N,), time `t`
    s) within `reach_mm` of where a man is (a confirmed track of a confident coin kind, last seen
    slower than `still_mm_s`, seen now or hidden since; found standing there by his own kind's
    sightings for `_MAN_STOOD_S`, or seen by them within `_MAN_SEEN_S`), and not on the path of the
    moving striker followed until a frame or two ago (within two of its radii `radius_mm`): ((N,)
    bool over the detections, (M,) bool over the tracks of those men), or None if there are none.

    A man at rest does not grow: such a detection is the man, his size misread (a light man on a
    lighter surface, fitted at a striker's size, finds the outer edge of his dark rim; a hand's
    shadow beside him draws his outline out). Read as the striker, it started a second striker's
    track where he stood, which then took the real striker's first move (carrom seed 1028 at 60 fps).
    The striker running over the place a man was struck from is the striker (carrom seed 1034 at 60
    fps: the man's track taken up there again, a white at rest in the pack's place for good).
    """
    cand = np.flatnonzero(det_kind == _STRIKER)
    if len(st) == 0 or cand.size == 0:
        return None
    striker = _moving_strikers(st, confidence, still_mm_s, coast_frames)
    if striker.any():
        on_path = point_segment_distance(z[cand], st.xy[striker], _where_now(st, t)[striker]).min(axis=0)
        cand = cand[on_path > 2.0 * radius_mm]
        if cand.size == 0:
            return None
    men = (st.kind != _STRIKER) & (st.share >= confidence) & st.confirmed
    # ... who stood there, or was there a moment ago, found so by his own kind's sightings: a track
    # that came to a stop on a false detection on the print and was kept there only by misreads is no
    # man (carrom seed 1034 at 60 fps: a white's track, in the pack's place for good)
    men &= np.hypot(st.vel[:, 0], st.vel[:, 1]) < still_mm_s
    men &= (st.stood >= _MAN_STOOD_S) | (t - st.voted_t <= _MAN_SEEN_S)
    if not men.any():
        return None
    rows = np.flatnonzero(men)
    near = point_distance(z[cand], st.xy[rows]) <= reach_mm  # (men, candidates)
    if not near.any():
        return None
    dets = np.zeros(len(z), bool)
    dets[cand[near.any(axis=0)]] = True
    tracks = np.zeros(len(st), bool)
    tracks[rows[near.any(axis=1)]] = True
    return dets, tracks


def striker_followed(st: TrackArrays, track_of_det: np.ndarray, *, coast_frames: int, confidence: float) -> bool:
    """True if a confirmed striker track was matched in this frame (`track_of_det`: (N,) row of each
    detection, -1 none) or is coasting (missed at most `coast_frames` frames)."""
    live = st.missed <= coast_frames
    live[track_of_det[track_of_det >= 0]] = True
    return bool((live & _sure_strikers(st, confidence)).any())


_NAMES = tuple(f.name for f in fields(TrackArrays))
