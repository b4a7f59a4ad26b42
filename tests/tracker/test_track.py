"""The tracker on hand-made detections: identities through collisions, fast strikers, hiding."""

from __future__ import annotations

import contextlib

import numpy as np
import pytest

from tracker.detections import FrameDetections
from tracker.errors import ConfigError
from tracker.track import Tracker, TrackerConfig

RADII = np.array([15.5, 15.5, 15.5, 20.5])


def _dets(xy: list[tuple[float, float]], kinds: list[int], t: float) -> FrameDetections:
    a = np.array(xy, np.float32).reshape(-1, 2)
    n = len(a)
    return FrameDetections(a.copy(), np.full(n, 10, np.float32), np.array(kinds, np.int8),
                           np.full(n, 0.9, np.float32), xy_board=a, t_s=t)


def _id_at(tracks, xy: tuple[float, float]) -> int:  # type: ignore[no-untyped-def]
    d = np.linalg.norm(tracks.xy_mm - np.array(xy), axis=1)
    return int(tracks.ids[np.argmin(d)])


@pytest.mark.parametrize(
    ("kwargs", "expect"),
    [({"base_gate_mm": 0.0}, pytest.raises(ConfigError)), ({"confirm_hits": 0}, pytest.raises(ConfigError)),
     ({"history": 2}, pytest.raises(ConfigError)), ({}, contextlib.nullcontext())],
    ids=["gate", "confirm", "history", "defaults"],
)
def test_config_ranges(kwargs: dict, expect) -> None:  # type: ignore[no-untyped-def]
    with expect:
        TrackerConfig(**kwargs)


def test_bad_radii_rejected() -> None:
    with pytest.raises(ConfigError):
        Tracker(np.array([1.0, 2.0]))


@pytest.mark.parametrize("fps", [30.0, 60.0, 120.0], ids=["30fps", "60fps", "120fps"])
def test_fast_striker_hits_coin_identities_kept(fps: float) -> None:
    """A striker at 4 m/s hits a coin head-on, stops, the coin moves off: no identity swap."""
    tr = Tracker(RADII)
    coin, striker = (0.0, 0.0), (0.0, 250.0)
    t, v = 0.0, 4000.0
    for _ in range(5):
        tracks = tr.update(_dets([coin, striker], [0, 3], t))
        t += 1 / fps
    coin_id, striker_id = _id_at(tracks, coin), _id_at(tracks, striker)
    y_s, y_c = 250.0, 0.0
    for _ in range(int(0.3 * fps)):
        if y_s - 36.0 > y_c:  # striker still travelling
            y_s = max(y_s - v / fps, y_c + 36.0)
        else:
            y_c -= 3000.0 / fps
        tracks = tr.update(_dets([(0.0, y_c), (0.0, y_s)], [0, 3], t))
        t += 1 / fps
    assert _id_at(tracks, (0.0, y_c)) == coin_id
    assert _id_at(tracks, (0.0, y_s)) == striker_id


def test_hidden_disc_keeps_its_id() -> None:
    tr = Tracker(RADII)
    t = 0.0
    for _ in range(5):
        tracks = tr.update(_dets([(100.0, 100.0), (-50.0, 0.0)], [0, 1], t))
        t += 1 / 60
    hidden_id = _id_at(tracks, (100.0, 100.0))
    for _ in range(30):  # under a hand for half a second
        tracks = tr.update(_dets([(-50.0, 0.0)], [1], t))
        t += 1 / 60
    tracks = tr.update(_dets([(-50.0, 0.0), (101.0, 99.0)], [1, 0], t))
    assert _id_at(tracks, (101.0, 99.0)) == hidden_id
    assert len(set(tracks.ids.tolist())) == len(tracks)


def test_ids_are_per_tracker_and_reset_restarts() -> None:
    a, b = Tracker(RADII), Tracker(RADII)
    d = _dets([(0.0, 0.0)], [0], 0.0)
    assert a.update(d).ids.tolist() == b.update(d).ids.tolist() == [1]
    a.reset()
    assert a.update(d).ids.tolist() == [1]


def test_time_must_advance_and_inputs_untouched() -> None:
    tr = Tracker(RADII)
    d = _dets([(0.0, 0.0)], [0], 1.0)
    before = d.xy_board.copy()
    tr.update(d)
    assert np.array_equal(d.xy_board, before)
    with pytest.raises(ValueError):
        tr.update(_dets([(0.0, 0.0)], [0], 1.0))


def test_kind_decided_by_vote() -> None:
    tr = Tracker(RADII)
    for k in range(10):
        tracks = tr.update(_dets([(0.0, 0.0)], [1 if k == 4 else 0], k / 60))
    assert tracks.kind.tolist() == [0]
