"""The tracker's vectorised geometry and bookkeeping helpers give the numbers of their plain reference
forms to the bit (identities and event times depend on them), on seeded random inputs."""

from __future__ import annotations

import numpy as np
import pytest

from tracker._track_assign import (
    closest_approach,
    point_distance,
    point_segment_distance,
    segment_and_point_distance,
    untangle,
)
from tracker._track_state import vote_kinds
from tracker.detections import FrameDetections
from tracker.events._history import FrameRow, assemble, median_xy
from tracker.track import Tracker

SCALES = [1e-3, 1.0, 300.0, 1e5]


def _reference_segment(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    ab = (b - a)[:, None, :]
    ap = p[None, :, :] - a[:, None, :]
    s = np.clip((ap * ab).sum(-1) / np.maximum((ab * ab).sum(-1), 1e-12), 0.0, 1.0)
    return np.asarray(np.linalg.norm(ap - s[..., None] * ab, axis=-1))


@pytest.mark.parametrize("scale", SCALES, ids=["um", "mm", "board", "far"])
def test_distances_match_their_reference(scale: float) -> None:
    rng = np.random.default_rng(11)
    for _ in range(200):
        m, n = rng.integers(1, 25, 2)
        a = rng.normal(0.0, scale, (m, 2))
        b = a + rng.normal(0.0, scale / 5, (m, 2)) * (rng.random((m, 1)) < 0.7)  # some segments are points
        p = rng.normal(0.0, scale, (n, 2))
        p[: min(m, n)] = a[: min(m, n)]  # points on segment starts
        seg, dist = segment_and_point_distance(p, a, b)
        assert np.array_equal(seg, _reference_segment(p, a, b))
        assert np.array_equal(point_segment_distance(p, a, b), seg)
        assert np.array_equal(dist, np.linalg.norm(p[None] - a[:, None], axis=-1))
        assert np.array_equal(point_distance(p, a), _reference_segment(p, a, a))


@pytest.mark.parametrize("step_mm", [0.5, 20.0, 80.0], ids=["at-rest", "moving", "break"])
def test_untangle_matches_pairwise_closest_approach(step_mm: float) -> None:
    rng = np.random.default_rng(12)
    for _ in range(300):
        k = int(rng.integers(2, 20))
        p0 = rng.uniform(-100.0, 100.0, (k, 2))
        p1 = p0 + rng.normal(0.0, step_mm, (k, 2))
        touch = np.full((k, k), 31.0)
        near = closest_approach(p0[:, None], p1[:, None], p0[None, :], p1[None, :])
        crossing = np.triu(near < 0.5 * touch, 1)
        out = untangle(p0, p1, np.arange(k), touch, np.ones((k, k), bool))
        # a swap only between tracks whose paths crossed; never more than one swap per track
        moved = np.flatnonzero(out != np.arange(k))
        assert all(crossing[min(i, j), max(i, j)] for i in moved for j in moved if out[i] == j)
        assert sorted(out.tolist()) == list(range(k))


def test_vote_kinds_matches_argmax_and_share() -> None:
    rng = np.random.default_rng(13)
    votes = np.round(rng.uniform(0.0, 3.0, (400, 4)), 1) * (rng.random((400, 4)) < 0.6)
    kind, share = vote_kinds(votes)
    total = votes.sum(axis=1)
    expect = np.where(total > 0, votes.max(axis=1) / np.maximum(total, 1e-9), 0.0)
    assert kind.dtype == np.int8 and np.array_equal(kind, np.argmax(votes, axis=1))
    assert np.array_equal(share, expect)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6], ids=lambda n: f"{n}-points")
def test_median_xy_is_numpy_median(n: int) -> None:
    rng = np.random.default_rng(14)
    for _ in range(300):
        xy = np.round(rng.normal(0.0, 200.0, (n, 2)), int(rng.integers(0, 3)))
        assert np.array_equal(median_xy(xy), np.median(xy, axis=0))


def test_assemble_puts_every_observation_in_its_cell() -> None:
    rng = np.random.default_rng(15)
    rows = []
    for k in range(30):
        ids = np.sort(rng.choice(40, int(rng.integers(0, 12)), replace=False)).astype(np.int32)
        xy = rng.normal(0.0, 100.0, (len(ids), 2))
        xy[rng.random(len(ids)) < 0.3] = np.nan
        rows.append(FrameRow(0.1 * k, k, ids, xy))
    hist = assemble(rows)
    assert hist.xy_mm.shape == (len(hist.ids), 30, 2) and hist.ids.dtype == np.int32
    for k, row in enumerate(rows):
        for i, xy in zip(row.ids.tolist(), row.xy_mm, strict=True):
            assert np.array_equal(hist.xy_mm[hist.row_of(i), k], xy, equal_nan=True)
    assert int(np.isfinite(hist.xy_mm[..., 0]).sum()) == sum(int(np.isfinite(r.xy_mm[:, 0]).sum()) for r in rows)
    assert assemble([]).xy_mm.shape == (0, 0, 2)


def test_tracker_state_is_private_between_snapshots() -> None:
    """The working state is updated in place: a snapshot handed out earlier must not change."""
    tr = Tracker(np.array([15.5, 15.5, 15.5, 20.5]), half_mm=370.0)
    xy = np.array([[0.0, 0.0], [100.0, 50.0]], np.float32)

    def dets(shift: float, t: float) -> FrameDetections:
        a = xy + np.float32(shift)
        return FrameDetections(a.copy(), np.ones(2, np.float32), np.zeros(2, np.int8), np.ones(2, np.float32),
                               xy_board=a, t_s=t)

    first = tr.update(dets(0.0, 0.0))
    kept = (first.xy_mm.copy(), first.vel_mm_s.copy(), first.hist_xy_mm.copy(), first.missed.copy())
    for k in range(1, 6):
        tr.update(dets(3.0 * k, k / 30))
    assert np.array_equal(first.xy_mm, kept[0]) and np.array_equal(first.vel_mm_s, kept[1])
    assert np.array_equal(first.hist_xy_mm, kept[2], equal_nan=True) and np.array_equal(first.missed, kept[3])
