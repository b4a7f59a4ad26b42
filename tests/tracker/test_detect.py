"""Detection accuracy floors on a small seeded synthetic set, the Detection API, board_moved."""

from __future__ import annotations

import numpy as np
import pytest

from calibration import find_board
from tracker.detect import Detector
from tracker.detections import FrameDetections

fixtures_render = pytest.importorskip("fixtures.render")
bench = pytest.importorskip("service.commands.bench_detect")

# (seed, level, layout): small, seeded, no occlusion; floors as in `boardtrack bench detect`
_SET = [
    (s, lvl, lay)
    for s, lvl, lay in zip(
        range(500, 512),
        ["clean", "normal", "hard"] * 4,
        ["break", "break", "break", "scatter", "scatter", "scatter"] * 2,
        strict=True,
    )
]


@pytest.fixture(scope="module")
def rows() -> list[dict]:
    out = []
    for seed, level, layout in _SET:
        img, truth = fixtures_render.render_still("carrom", seed, level=level, layout=layout)
        out.append(bench.evaluate_synthetic(img, truth, game="carrom"))
    return out


def _check(rows: list[dict], metric: str, floor: float, higher_is_better: bool) -> None:
    value = bench.summarise(rows)[metric]
    assert value is not None
    assert (value >= floor) if higher_is_better else (value <= floor), f"{metric}={value}"


# Regression gate: what detection achieves today on this set (fails when accuracy drops).
# (kind: 2 of the set's 187 discs; seed 511's light striker, its faint outer rim read as printed
# lines, is found by its inner ring at a man's size and called a man)
@pytest.mark.slow
@pytest.mark.parametrize(
    ("metric", "floor", "higher_is_better"),
    [
        ("board_found", 1.0, True),
        ("recall", 0.98, True),
        ("precision", 0.965, True),
        ("kind_accuracy", 0.985, True),
        ("centre_err_mm_median", 1.0, False),
        ("centre_err_mm_p95", 2.5, False),
        ("corner_err_px_median", 1.5, False),
    ],
    ids=["found", "recall", "precision", "kind", "centre-median", "centre-p95", "corner-median"],
)
def test_accuracy_regression_gate(
    rows: list[dict], metric: str, floor: float, higher_is_better: bool
) -> None:
    _check(rows, metric, floor, higher_is_better)


# The issue's floors not reached yet: strict xfail, so meeting one turns this red and the floor
# moves into the gate above.
@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason="detection floor not reached yet (see `boardtrack bench detect`)")
@pytest.mark.parametrize(
    ("metric", "floor"),
    [("recall", 0.995), ("precision", 0.995)],
    ids=["recall-99.5", "precision-99.5"],
)
def test_accuracy_issue_floor_pending(rows: list[dict], metric: str, floor: float) -> None:
    _check(rows, metric, floor, True)


def test_detection_api_shapes_and_occlusion() -> None:
    img, truth = fixtures_render.render_still("carrom", 42, level="clean", layout="scatter", hands=True)
    calib = find_board(img)
    assert calib
    det = Detector(calib).detect(img, t_s=1.5, frame_idx=45)
    d = det.discs
    assert isinstance(d, FrameDetections) and d.xy_board is not None and d.flags is not None
    assert d.t_s == 1.5 and d.frame_idx == 45
    assert 0.0 <= det.occluded_fraction <= 1.0
    assert det.is_occluded(np.zeros((3, 2))).shape == (3,)
    # occlusion follows the truth's occluded fraction roughly (hands present -> something hidden)
    if truth.get("occluded", 0.0) > 0.03:
        assert det.occluded_fraction > 0.01


def test_detect_rejects_wrong_frame_size() -> None:
    img, _ = fixtures_render.render_still("carrom", 43, level="clean")
    calib = find_board(img)
    assert calib
    with pytest.raises(ValueError, match="calibrated for"):
        Detector(calib).detect(img[:-10])


def test_board_moved_notices_a_bump() -> None:
    img, _ = fixtures_render.render_still("carrom", 44, level="normal")
    calib = find_board(img)
    assert calib
    det = Detector(calib)
    assert det.board_moved(img) is False  # first call stores the reference
    assert det.board_moved(img) is False
    shifted = np.roll(img, (18, 25), axis=(0, 1))
    assert det.board_moved(shifted) is True


def test_learn_colours_from_starting_formation() -> None:
    from calibration.learn import learn_from_formation

    img, truth = fixtures_render.render_still("carrom", 45, level="normal", layout="break")
    calib = find_board(img)
    assert calib
    learned = learn_from_formation(calib, img)
    assert learned.appearance is not None and learned.appearance.learned
    dets = Detector(learned).detect(img).discs
    visible = [d for d in truth["discs"] if d["where"] == "board"]
    txy = np.array([[d["x_mm"], d["y_mm"]] for d in visible])
    di, ti = bench.match_discs(dets.xy_board, txy, 10.0)
    kinds = np.array([bench.KINDS.index(d["kind"]) for d in visible])
    assert len(di) >= 18 and (dets.kind[di] == kinds[ti]).mean() >= 0.95


def test_refind_after_bump_keeps_board_positions() -> None:
    img, truth = fixtures_render.render_still("carrom", 46, level="clean", layout="scatter")
    calib = find_board(img)
    assert calib
    det = Detector(calib)
    before = det.detect(img).discs
    bumped = np.ascontiguousarray(np.roll(img, (12, -9), axis=(0, 1)))
    det.board_moved(img)
    assert det.board_moved(bumped)
    assert det.refind(bumped)
    after = det.detect(bumped).discs
    di, ti = bench.match_discs(after.xy_board, before.xy_board, 3.0)
    assert len(di) >= 0.9 * len(before)


# issue #3: light men of nearly the surface colour, their thin dark rim only a faint edge (the
# outer men of the starting formation, and scattered men on a pale board)
@pytest.mark.parametrize(
    ("seed", "level", "layout", "xy_mm"),
    [
        (78, "clean", "break", (-62.0, 6.0)),
        (62, "hard", "break", (-11.0, 61.0)),
        (46, "normal", "scatter", (-55.0, -27.0)),
    ],
    ids=["s78-formation", "s62-formation-hard", "s46-pale-scatter"],
)
def test_faint_light_man_is_found(seed: int, level: str, layout: str, xy_mm: tuple[float, float]) -> None:
    _white_found("carrom", seed, level, layout, xy_mm)


def _white_found(game: str, seed: int, level: str, layout: str, xy_mm: tuple[float, float]) -> None:
    """The white of a rendered still nearest `xy_mm` (within 3 mm of it) is detected as a white."""
    img, truth = fixtures_render.render_still(game, seed, level=level, layout=layout)
    calib = find_board(img, game=game)
    assert calib
    t = min(
        (d for d in truth["discs"] if d["where"] == "board"),
        key=lambda d: np.hypot(d["x_mm"] - xy_mm[0], d["y_mm"] - xy_mm[1]),
    )
    assert t["kind"] == "white" and np.hypot(t["x_mm"] - xy_mm[0], t["y_mm"] - xy_mm[1]) < 3.0
    discs = Detector(calib).detect(img).discs
    d = np.linalg.norm(discs.xy_board - np.array([t["x_mm"], t["y_mm"]]), axis=1)
    assert d.min() < 3.0 and discs.kind[np.argmin(d)] == 0


# issue #7: korona's light discs are the board's own colour; only an outline and a rim a shade darker
# than the face show them (seeds 33 and 69 of `boardtrack bench detect --game korona`)
@pytest.mark.parametrize(
    ("seed", "xy_mm"),
    [(33, (388.0, 78.0)), (33, (-414.0, -242.0)), (33, (145.0, 347.0)), (69, (-165.0, -257.0)), (69, (400.5, -404.0))],
    ids=["s33-free", "s33-rail", "s33-far", "s69-free", "s69-corner"],
)
def test_korona_light_disc_is_found(seed: int, xy_mm: tuple[float, float]) -> None:
    _white_found("korona", seed, "clean", "scatter", xy_mm)


def test_no_disc_centre_closer_to_the_frame_than_its_radius() -> None:
    img, _ = fixtures_render.render_still("carrom", 43, level="clean")
    calib = find_board(img)
    assert calib
    geom = Detector(calib).geom
    h, r = geom.half_mm, geom.man_r
    xy = np.array([[0.0, h - r], [h - 0.5 * r, 0.0], [0.0, -h - 1.0], [h - 5.0, h - 5.0]])
    got = geom.inside(xy, np.full(4, r))
    # resting against the frame; half over it; out on the frame; hanging over a pocket
    assert got.tolist() == [True, False, False, True]
    assert geom.inside(xy).tolist() == [True, True, True, True]


def test_cushion_and_print_geometry() -> None:
    """`against_cushion`: touching the cushion or a few mm off it; `on_print`: how much of a circle's
    outline runs over the printed lines and markings (a base line, the centre's design)."""
    img, _ = fixtures_render.render_still("carrom", 43, level="clean")
    calib = find_board(img)
    assert calib
    geom = Detector(calib).geom
    h, r = geom.half_mm, geom.man_r
    xy = np.array([[0.0, h - r], [0.0, h - r - 4.0], [h - r - 10.0, 0.0], [0.0, 0.0]])
    assert geom.against_cushion(xy, np.full(4, r)).tolist() == [True, True, False, False]
    on = geom.on_print(xy, np.full(4, r))
    assert on[3] == 1.0  # the centre circle's design
    assert on[0] < 0.2  # bare surface by the cushion
    assert geom.on_print(np.zeros((0, 2)), np.zeros(0)).shape == (0,)
