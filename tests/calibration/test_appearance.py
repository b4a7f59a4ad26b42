"""Coin colour models: defaults on common sets, learning from known discs."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.appearance import Appearance, learn_coin_colours
from tracker.specs import DiscKind


@pytest.mark.parametrize(
    ("lab", "kind"),
    [
        ([235, 128, 130], DiscKind.WHITE),
        ([180, 135, 160], DiscKind.WHITE),
        ([40, 128, 128], DiscKind.BLACK),
        ([75, 140, 150], DiscKind.BLACK),
        ([110, 185, 160], DiscKind.QUEEN),
    ],
    ids=["white-plastic", "natural-wood", "black", "dark-brown", "red-queen"],
)
def test_default_prototypes(lab: list[float], kind: DiscKind) -> None:
    app = Appearance(np.array([190.0, 132, 150]), 4.0)
    assert app.classify_coins(np.array([lab], float))[0] == kind


def test_no_queen_for_korona_sets() -> None:
    app = Appearance(np.array([190.0, 132, 150]), 4.0)
    assert app.classify_coins(np.array([[110.0, 185, 160]]), queen=False)[0] in (
        DiscKind.WHITE,
        DiscKind.BLACK,
    )


def test_learned_prototypes_follow_the_set() -> None:
    app = Appearance(np.array([190.0, 132, 150]), 4.0)
    # an unusual set: pale green "white" men, dark blue "black" men
    lab = np.array([[200.0, 110, 140], [205, 112, 138], [60, 140, 100], [62, 138, 98], [120, 180, 160]])
    kind = np.array([0, 0, 1, 1, 2])
    learned = learn_coin_colours(app, lab, kind)
    assert learned.learned
    np.testing.assert_array_equal(learned.classify_coins(lab), kind)
    d = Appearance.from_dict(learned.to_dict())
    np.testing.assert_allclose(d.coin_lab, learned.coin_lab)
