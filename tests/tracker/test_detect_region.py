"""Helpers of the change-driven still path (`tracker._detect_region`) against what they stand for."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration import BoardMaps
from tracker._detect_region import StillPlanes, in_mask, near_mask


def _maps(width: int, height: int, px_per_mm: float) -> BoardMaps:
    """Maps with only the board image's scale and size (all `in_mask` and `near_mask` use)."""
    none = np.zeros(0)
    return BoardMaps(px_per_mm, 0.0, (width, height), none, none, (width, height), none, (0, 0, width, height))


@pytest.mark.parametrize("reach", [1, 4, 10])
def test_near_mask_is_in_mask_of_the_dilated_mask(reach: int) -> None:
    """Looked up round the centres alone, `near_mask` answers as dilating the whole mask with the
    elliptic element and looking at the centres: at the image's edges, beyond them (clipped to
    the edge pixel) and for points just in and out of reach."""
    rng = np.random.default_rng(reach)
    maps = _maps(90, 70, 0.4)
    mask = np.zeros((70, 90), bool)
    for x, y in rng.integers(0, (90, 70), size=(6, 2)):
        mask[max(y - 3, 0) : y + 3, max(x - 5, 0) : x + 2] = True
    mask[0, 30] = mask[69, 89] = True
    k = 2 * reach + 1
    dilated = cv2.dilate(mask.view(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    xy = maps.to_mm(rng.uniform(-10.0, 100.0, size=(4000, 2)))
    want = in_mask(xy, dilated, maps)
    assert 0.1 < want.mean() < 0.9
    np.testing.assert_array_equal(near_mask(xy, mask, reach, maps), want)
    assert not near_mask(xy, np.zeros_like(mask), reach, maps).any()


def _planes_over(bare_bgr: np.ndarray, covered: np.ndarray) -> StillPlanes:
    """`StillPlanes` of a board image, its bare board learned from `bare_bgr` with `covered`
    ((H, W) uint8 0/255) filled in."""
    planes = StillPlanes.empty(bare_bgr.shape[:2])
    planes.learn_bare(bare_bgr, covered, alpha=1.0)
    return planes


def test_a_bare_board_learned_again_keeps_the_old_one_under_a_hand() -> None:
    """Learned afresh (the light changed) with a hand on the board, the bare board under the hand
    is the old one in the new light, not filled in from round the hand (of the hand's colour:
    found as a hand there long after it had gone)."""
    h, w = 60, 90
    board = np.full((h, w, 3), (120, 170, 200), np.uint8)
    board[:, :30] = (60, 90, 110)  # a dim stretch
    planes = _planes_over(board, np.zeros((h, w), np.uint8))
    brighter = np.clip(board.astype(np.float64) * 1.1, 0, 255).astype(np.uint8)
    now = brighter.copy()
    now[10:50, 20:40] = (110, 130, 210)  # a hand across the dim stretch's edge
    hand = np.zeros((h, w), np.uint8)
    hand[8:52, 18:42] = 255
    planes.learn_bare(now, hand, alpha=1.0)
    assert planes.bare is not None
    err = np.abs(planes.bare.image.astype(int) - brighter.astype(int)).max(axis=2)
    assert err[hand > 0].max() <= 3  # the old bare board, brought to the new light
    assert (planes.bare.known[hand > 0] == 255).all()
    fresh = _planes_over(now, hand)  # (learned from nothing, the fill is far off there)
    assert fresh.bare is not None
    assert np.abs(fresh.bare.image.astype(int) - brighter.astype(int)).max(axis=2)[hand > 0].max() > 20
