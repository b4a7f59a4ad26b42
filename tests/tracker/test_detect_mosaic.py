"""The parts of a box packed into one image (`tracker._detect_mosaic`): the packing round-trips
pixel positions, and the still path finds the same discs in the packed parts as in the box."""

from __future__ import annotations

import numpy as np
import pytest

from calibration import find_board
from tracker._detect_mosaic import Mosaic, split_box
from tracker._detect_region import box_rect
from tracker.detect import Detector, DetectorConfig

video = pytest.importorskip("service.commands._bench_detect_video")


def test_split_box_merges_overlapping_parts_and_keeps_a_box_mostly_covered() -> None:
    redo = np.zeros((120, 120), np.uint8)
    redo[10:14, 10:14] = redo[16:20, 20:24] = 255  # two pieces whose padded parts overlap
    redo[100:104, 100:104] = 255
    box = (slice(0, 120), slice(0, 120))
    parts = [box_rect(p, redo.shape) for p in split_box(redo, box, 4)]
    assert parts == [(6, 6, 28, 24), (96, 96, 108, 108)]
    # one part (all merged into one) or parts that cover most of the box: the box itself
    assert split_box(redo, (slice(0, 30), slice(0, 30)), 4) == [(slice(0, 30), slice(0, 30))]
    redo[20:100, 20:100] = 255
    assert split_box(redo, box, 4) == [box]


def test_mosaic_stacks_parts_and_maps_back() -> None:
    rng = np.random.default_rng(3)
    image = rng.integers(0, 255, (90, 100), dtype=np.uint8)
    parts = [(slice(0, 20), slice(70, 100)), (slice(50, 61), slice(5, 25))]  # one at the image's corner
    m = Mosaic.of(parts, image.shape, gap_px=7)
    stacked, inner = m.stack(image, fill=0), m.inner()
    assert inner.sum() == 20 * 30 + 11 * 20
    v, u = np.nonzero(inner)
    board = m.to_board(np.stack([u, v], axis=1))
    assert np.array_equal(stacked[v, u], image[board[:, 1], board[:, 0]])
    # the aprons: the image's own pixels, or its edge reflected beyond it
    top = int(m.top[1])
    assert np.array_equal(stacked[top - 1, 1:21], image[49, 5:25])
    assert np.array_equal(stacked[m.top[0] - 1, 1:31], image[1, 70:100])


def test_still_path_in_parts_finds_what_the_box_finds() -> None:
    """Two separate changes far apart: detected in the packed parts, the discs are those the
    whole box gives (the same positions, kinds and scores)."""
    first, second, truth = video.render_pair("carrom", 11, level="normal", layout="scatter")
    calib = find_board(first)
    assert calib
    det = Detector(calib, config=DetectorConfig(reuse=True))
    core = det._core if hasattr(det, "_core") else det
    det.detect(second)
    board = core.maps.rectify(second)
    xy = np.array(
        [[d["x_mm"], d["y_mm"]] for d in truth["discs"] if d["where"] == "board" and d.get("visible", True)]
    )
    xy = xy[np.abs(xy).max(axis=1) < 250]  # (away from the pockets and cushions)
    # the redo mask round two discs far apart
    far_apart = np.argsort(xy[:, 0])[[0, -1]]
    uv = np.rint(core.maps.to_px(xy[far_apart])).astype(int)
    redo = np.zeros(core.geom.shape, np.uint8)
    for u, v in uv:
        redo[v - 8 : v + 9, u - 8 : u + 9] = 255
    x0, y0 = uv.min(axis=0) - 20
    x1, y1 = uv.max(axis=0) + 21
    box = (slice(max(y0, 0), y1), slice(max(x0, 0), x1))
    parts = split_box(redo, box, 12)
    assert len(parts) == 2
    whole = core._detect_still(second, board, (redo, box))
    packed = core._detect_still(second, board, (redo, box), parts)
    assert len(whole.xy_mm) == len(packed.xy_mm) >= 2
    order_w, order_p = np.lexsort(whole.xy_mm.T), np.lexsort(packed.xy_mm.T)
    assert np.allclose(whole.xy_mm[order_w], packed.xy_mm[order_p], atol=1e-6)
    assert np.array_equal(whole.kind[order_w], packed.kind[order_p])
    assert np.allclose(whole.score[order_w], packed.score[order_p])


def test_followed_discs_planes_are_refreshed_unless_a_part_holds_them() -> None:
    """Where discs were followed, the still path's planes are brought up to date, once: by the
    still path when one of its parts holds that place, else there and then."""
    import cv2

    first, second, _ = video.render_pair("carrom", 12, level="normal", layout="scatter")
    det = Detector(find_board(first), config=DetectorConfig(reuse=True))
    det.detect(first)
    board = det.maps.rectify(second)
    lab = cv2.cvtColor(board, cv2.COLOR_BGR2LAB)
    stale = (40, 50, 70, 90)  # (x0, y0, x1, y1)
    rect = (slice(50, 90), slice(40, 70))
    for parts, refreshed in (([(slice(0, 40), slice(0, 40))], True), ([(slice(45, 100), slice(30, 80))], False)):
        det._planes.lab[rect] = 0
        det._stale = stale
        det._refresh(board, parts)
        assert det._stale is None
        assert np.array_equal(det._planes.lab[rect], lab[rect]) is refreshed
