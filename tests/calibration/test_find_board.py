"""Board finding on seeded renders (corner error) and on the annotated real photos."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from calibration import Failed, find_board
from calibration.geometry import order_corners
from tests._helpers import real_dir

fixtures_render = pytest.importorskip("fixtures.render")


@pytest.mark.parametrize(
    ("seed", "level", "layout"),
    [
        (101, "clean", "break"),
        (102, "normal", "scatter"),
        (103, "hard", "break"),
        (104, "normal", "break"),
        (105, "hard", "scatter"),
    ],
    ids=["clean-break", "normal-scatter", "hard-break", "normal-break", "hard-scatter"],
)
def test_corners_on_renders(seed: int, level: str, layout: str) -> None:
    img, truth = fixtures_render.render_still("carrom", seed, level=level, layout=layout)
    calib = find_board(img)
    assert calib, getattr(calib, "reason", "")
    err = np.linalg.norm(calib.corners_px - np.asarray(truth["board_corners_px"]), axis=1)
    assert np.median(err) <= 1.5 and err.max() <= 4.0, err
    np.testing.assert_allclose(order_corners(calib.corners_px), calib.corners_px)
    # the homography sends the corners (undistorted) to the board's corners
    back = calib.original_to_board(calib.corners_px)
    np.testing.assert_allclose(np.abs(back), 370.0, atol=0.5)


@pytest.mark.parametrize(("seed", "level"), [(13, "normal"), (86, "hard"), (104, "hard")])
def test_korona_rows_against_the_rails(seed: int, level: str) -> None:
    """Korona's set-up (§19) lines each player's discs up against a rail: the surface colour
    ends at their inner edge along a quarter of that side, and the side is still placed on the
    rail (these frames were 18-22 px out when the first line fit took every edge point in)."""
    img, truth = fixtures_render.render_still("korona", seed, level=level, layout="break")
    calib = find_board(img, game="korona")
    assert calib, getattr(calib, "reason", "")
    err = np.linalg.norm(calib.corners_px - np.asarray(truth["board_corners_px"]), axis=1)
    assert err.max() <= 4.0, err


@pytest.mark.parametrize(("seed", "level"), [(24, "clean"), (44, "hard")], ids=["clean-24", "hard-44"])
def test_korona_rail_zone_lines(seed: int, level: str) -> None:
    """Korona's rail-zone line runs 75 mm inside each rail, within the band searched around a
    coarse edge: the profile rises at the line and falls back to the surface colour. Taken for
    the edge, it lost that side, and the square placed from the other three was 50-90 px off."""
    img, truth = fixtures_render.render_still("korona", seed, level=level, layout="break")
    calib = find_board(img, game="korona")
    assert calib, getattr(calib, "reason", "")
    err = np.linalg.norm(calib.corners_px - np.asarray(truth["board_corners_px"]), axis=1)
    assert err.max() <= 3.0, err


@pytest.mark.parametrize(
    "image",
    [
        np.zeros((200, 300, 3), np.uint8),
        np.full((200, 300, 3), 128, np.uint8),
        np.random.default_rng(5).integers(0, 255, (240, 320, 3), dtype=np.uint8),
    ],
    ids=["black", "grey", "noise"],
)
def test_no_board_is_a_reasoned_failure(image: np.ndarray) -> None:
    out = find_board(image)
    assert isinstance(out, Failed) and out.reason


@pytest.mark.parametrize(
    "bad", [np.zeros((10, 10), np.uint8), np.zeros((10, 10, 3), np.float32)], ids=["grey", "float"]
)
def test_misuse_raises(bad: np.ndarray) -> None:
    with pytest.raises(ValueError):
        find_board(bad)


@pytest.mark.parametrize(
    ("seed", "level"),
    [(31, "clean"), (11, "hard"), (25, "hard"), (12, "hard"), (15, "hard")],
    ids=["clean-31", "hard-11", "hard-25", "hard-12", "hard-15"],
)
def test_korona_barrel_distortion_from_its_edges(seed: int, level: str) -> None:
    """Wide lenses bend the board's edges; the bend is estimated from the edges themselves. Edge
    points round a pocket cut into the corner, or by a disc against the rail, lie off the edge:
    measured with them, the bend went unseen, and these corners were 6-7 px off. The fit that
    models the bend is then judged by its bent outline: by the straight quad between its
    corners the board bulged out of every side, and a straight fit 5 px off won (12, 15)."""
    img, truth = fixtures_render.render_still("korona", seed, level=level, layout="break")
    calib = find_board(img, game="korona")
    assert calib, getattr(calib, "reason", "")
    assert calib.lens is not None
    err = np.linalg.norm(calib.corners_px - np.asarray(truth["board_corners_px"]), axis=1)
    assert err.max() <= 1.5, err


@pytest.mark.real
@pytest.mark.parametrize("photo", ["nic", "mai", "s35", "t01"], ids=["nic", "mai", "s35", "t01"])
def test_real_whole_board_photos(photo: str) -> None:
    folder = real_dir()
    entry = next(e for e in json.loads((folder / "annotations.json").read_text())["images"] if e["id"] == photo)
    img = cv2.imread(str(folder / entry["file"]))
    calib = find_board(img)
    assert calib, getattr(calib, "reason", "")
    tol = 0.02 * max(img.shape[:2])
    for truth, found in zip(entry["board_corners_px"], calib.corners_px, strict=True):
        if truth is not None:
            assert np.linalg.norm(np.asarray(truth) - found) <= tol


@pytest.mark.real
@pytest.mark.parametrize("photo", ["s11", "s59", "ud1"], ids=["s11", "s59", "ud1"])
def test_real_cropped_photos(photo: str) -> None:
    """Boards cut by the picture border (s11: three corners outside, found from two edges and
    the printed base circles): corners in the picture within 2.5 % of its size (ud1's right edge
    is ambiguous by ~9 px in the annotation: a shadowed band), extrapolated ones within 3 %."""
    folder = real_dir()
    entry = next(e for e in json.loads((folder / "annotations.json").read_text())["images"] if e["id"] == photo)
    img = cv2.imread(str(folder / entry["file"]))
    calib = find_board(img)
    assert calib, getattr(calib, "reason", "")
    size = max(img.shape[:2])
    extrapolated = entry.get("board_corners_extrapolated_px") or [None] * 4
    for seen, guessed, found in zip(entry["board_corners_px"], extrapolated, calib.corners_px, strict=True):
        if seen is not None:
            assert np.linalg.norm(np.asarray(seen) - found) <= 0.025 * size
        elif guessed is not None:
            assert np.linalg.norm(np.asarray(guessed) - found) <= 0.03 * size
