"""FrameDetections: validation, read-only arrays, selection, concat."""

from __future__ import annotations

import contextlib

import numpy as np
import pytest

from tests._helpers import make_dets
from tracker.detections import FrameDetections


def _arrays(n: int = 3) -> dict:
    return dict(
        xy_img=np.zeros((n, 2), np.float32),
        radius_px=np.ones(n, np.float32),
        kind=np.zeros(n, np.int8),
        score=np.ones(n, np.float32),
    )


@pytest.mark.parametrize(
    ("change", "expect"),
    [
        ({}, contextlib.nullcontext()),
        (
            {"xy_img": np.zeros((3, 3), np.float32)},
            pytest.raises(ValueError, match=r"xy_img: expected shape \(N, 2\), got \(3, 3\)"),
        ),
        ({"radius_px": np.ones(2, np.float32)}, pytest.raises(ValueError, match=r"radius_px: expected shape \(3\)")),
        ({"kind": np.zeros(3, np.int64)}, pytest.raises(ValueError, match="kind: expected dtype int8, got int64")),
        ({"score": np.ones(3, np.float64)}, pytest.raises(ValueError, match="score: expected dtype float32")),
        ({"xy_board": np.zeros((2, 2), np.float32)}, pytest.raises(ValueError, match="xy_board")),
        ({"track_id": np.zeros(3, np.int32)}, contextlib.nullcontext()),
    ],
    ids=["valid", "xy-wrong-cols", "radius-wrong-len", "kind-dtype", "score-dtype", "board-wrong-len", "track-ids"],
)
def test_validation(change: dict, expect) -> None:
    with expect:
        FrameDetections(**{**_arrays(), **change})


def test_arrays_are_read_only() -> None:
    d = make_dets([[1, 2], [3, 4]])
    with pytest.raises(ValueError):
        d.xy_img[0, 0] = 5.0
    with pytest.raises(ValueError):
        d.score[:] = 0.0


def test_selection_returns_new_object_and_leaves_original() -> None:
    d = make_dets([[1, 2], [3, 4], [5, 6]], score=[0.9, 0.1, 0.8], kind=[0, 1, 3])
    hi = d[d.score > 0.5]
    assert len(hi) == 2 and len(d) == 3
    np.testing.assert_array_equal(hi.kind, [0, 3])
    np.testing.assert_array_equal(hi.xy_board, [[1, 2], [5, 6]])
    assert not hi.xy_img.flags.writeable


def test_empty_and_concat() -> None:
    e = FrameDetections.empty(t_s=1.5, frame_idx=3)
    assert len(e) == 0 and e.t_s == 1.5
    a, b = make_dets([[0, 0]]), make_dets([[1, 1], [2, 2]])
    c = FrameDetections.concat([a, b])
    assert len(c) == 3
    np.testing.assert_array_equal(c.xy_img[:, 0], [0, 1, 2])
    # An optional array missing from one part is dropped rather than invented.
    assert FrameDetections.concat([a, make_dets([[1, 1]], board=False)]).xy_board is None
    assert len(FrameDetections.concat([])) == 0
