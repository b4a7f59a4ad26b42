"""Hands and arms reaching in over the edge of the playing surface: a disc on them needs a clear
outline nearly all round (knuckles and fingertips look like discs), and they are occluded."""

from __future__ import annotations

import numpy as np
import pytest

from calibration import find_board
from tracker.detect import Detector, DetectorConfig

fixtures_render = pytest.importorskip("fixtures.render")
bench = pytest.importorskip("service.commands.bench_detect")

# hands frames of the detection suite where knuckles and fingertips were taken for discs
_SEEDS = ((111, "clean"), (67, "normal"), (199, "normal"), (11, "hard"), (75, "clean"), (27, "clean"))
_OFF = DetectorConfig(hand_min_contact_mm=0.0)


@pytest.fixture(scope="module")
def scores() -> list[tuple[dict, dict, float, float]]:
    """Per frame: (scores with hands masked, scores without, occluded fraction with, without)."""
    out = []
    for seed, level in _SEEDS:
        layout = ("break", "scatter")[(seed // 3) % 2]
        img, truth = fixtures_render.render_still("carrom", seed, level=level, layout=layout, hands=True)
        calib = find_board(img)
        assert calib, calib
        visible = [d for d in truth["discs"] if d["where"] == "board" and d.get("visible", True)]
        on, off = Detector(calib).detect(img), Detector(calib, config=_OFF).detect(img)
        out.append(
            (
                bench.score_discs(on.discs, visible),
                bench.score_discs(off.discs, visible),
                on.occluded_fraction,
                off.occluded_fraction,
            )
        )
    return out


def test_false_discs_on_hands_go(scores: list[tuple[dict, dict, float, float]]) -> None:
    """Most false discs on the hands go; the real discs stay, also those resting against a
    fingertip (seed 75)."""
    fp_on = sum(a["n_det"] - a["tp"] for a, _, _, _ in scores)
    fp_off = sum(b["n_det"] - b["tp"] for _, b, _, _ in scores)
    assert fp_off >= 8
    assert fp_on <= fp_off // 2
    lost = [b["tp"] - a["tp"] for a, b, _, _ in scores]
    assert max(lost) <= 0


def test_hands_are_occluded(scores: list[tuple[dict, dict, float, float]]) -> None:
    """A hand reaching in is hidden as a whole (its fingers too), so the occluded share grows."""
    grew = [on >= off for _, _, on, off in scores]
    assert all(grew)
    assert np.mean([on for _, _, on, _ in scores]) > np.mean([off for _, _, _, off in scores])


def test_a_row_of_discs_against_the_cushion_is_no_arm() -> None:
    """A region crossing the surface's edge is an arm only if it is wider somewhere than any
    disc: a row of touching discs against the cushion (korona's set-up, §19) crosses the edge
    along its whole length, one disc wide; a palm and its arm are wider."""
    import cv2

    from tracker.occlusion import reaching_in

    surface = np.zeros((120, 200), np.uint8)
    surface[10:110, 10:190] = 255
    rim = cv2.bitwise_and(surface, cv2.bitwise_not(cv2.erode(surface, np.ones((7, 7), np.uint8))))
    row, arm = np.zeros_like(surface), np.zeros_like(surface)
    for x in range(40, 160, 11):  # discs of radius 6 px, touching, over the top edge
        cv2.circle(row, (x, 13), 6, 255, -1)
    cv2.rectangle(arm, (80, 0), (100, 40), 255, -1)  # an arm 20 px wide ...
    cv2.circle(arm, (90, 50), 16, 255, -1)  # ... and a palm
    kw = {"rim_px": 3, "min_area_px": 300, "min_contact_px": 6.0, "min_half_width_px": 9.0}
    assert not reaching_in(row, surface, rim, **kw).any()
    assert reaching_in(arm, surface, rim, **kw)[50, 90]
    assert reaching_in(row, surface, rim, **{**kw, "min_half_width_px": 0.0})[13, 95]  # (width not asked)
