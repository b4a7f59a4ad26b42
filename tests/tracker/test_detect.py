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


# Regression gate: what detection achieves today on this set, less one disc's worth (fails when
# accuracy drops). Today: recall and precision 0.9947 (of 189 discs: seed 503's black centred over
# the SE pocket is missed; seed 505 has an extra white by the SE pocket), kinds all right.
@pytest.mark.slow
@pytest.mark.parametrize(
    ("metric", "floor", "higher_is_better"),
    [
        ("board_found", 1.0, True),
        ("recall", 0.985, True),
        ("precision", 0.985, True),
        ("kind_accuracy", 0.995, True),
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
        # packed men whose neighbours' edges draw a free fit out to a larger circle off centre:
        # held to a man's size (86), and looked at again from where that fit ended (258), the
        # fit finds them; the plain face of 248's, its rim half hidden by its neighbours, has an
        # outline on most rays (no pair of printed lines)
        (86, "hard", "break", (-8.0, -62.0)),
        (258, "clean", "break", (-55.0, -30.0)),
        (248, "hard", "break", (-42.0, 46.0)),
    ],
    ids=[
        "s78-formation",
        "s62-formation-hard",
        "s46-pale-scatter",
        "s86-held",
        "s258-second-round",
        "s248-plain-packed",
    ],
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


# issue #3: the surface between the two base lines beside a base circle: the lines and the
# circle's outline make a man's outline there, but no ray that meets no print finds a clear edge
# (the truth of these stills has no disc within a man's diameter of these points)
@pytest.mark.parametrize(
    ("seed", "level", "layout", "xy_mm"),
    [
        (58, "normal", "scatter", (251.0, 191.0)),
        (230, "hard", "break", (253.0, -190.0)),
        (269, "hard", "scatter", (191.0, 252.0)),
    ],
    ids=["s58", "s230", "s269"],
)
def test_no_disc_between_the_base_lines(seed: int, level: str, layout: str, xy_mm: tuple[float, float]) -> None:
    img, truth = fixtures_render.render_still("carrom", seed, level=level, layout=layout)
    on_board = np.array([[d["x_mm"], d["y_mm"]] for d in truth["discs"] if d["where"] == "board"])
    assert np.linalg.norm(on_board - xy_mm, axis=1).min() > 30.0
    calib = find_board(img, game="carrom")
    assert calib
    discs = Detector(calib).detect(img).discs
    assert np.linalg.norm(discs.xy_board - xy_mm, axis=1).min() > 10.0


# issue #3: a striker-sized circle drawn between the arms of the centre's printed star (hard
# renders: its arms' edges make most of an outline); the face inside differs from ray to ray, as
# no disc's does (`RefineResult.asymmetry`)
@pytest.mark.parametrize("seed", [10, 11, 511])
def test_no_disc_between_the_centre_stars_arms(seed: int) -> None:
    img, truth = fixtures_render.render_still("carrom", seed, level="hard", layout="scatter")
    on_board = np.array([[d["x_mm"], d["y_mm"]] for d in truth["discs"] if d["where"] == "board"])
    calib = find_board(img, game="carrom")
    assert calib
    discs = Detector(calib).detect(img).discs
    central = discs.xy_board[np.linalg.norm(discs.xy_board, axis=1) < 45.0]
    assert all(np.linalg.norm(on_board - xy, axis=1).min() < 5.0 for xy in central), central


# issue #7: korona's light discs are the board's own colour; only an outline and a rim a shade darker
# than the face show them (seeds 33 and 69 of `boardtrack bench detect --game korona`)
@pytest.mark.parametrize(
    ("seed", "xy_mm"),
    [(33, (388.0, 78.0)), (33, (-414.0, -242.0)), (33, (145.0, 347.0)), (69, (-165.0, -257.0)), (69, (400.5, -404.0))],
    ids=["s33-free", "s33-rail", "s33-far", "s69-free", "s69-corner"],
)
def test_korona_light_disc_is_found(seed: int, xy_mm: tuple[float, float]) -> None:
    _white_found("korona", seed, "clean", "scatter", xy_mm)


@pytest.mark.parametrize("t_s", [17.5, 18.0])
def test_korona_light_man_darker_than_the_board_is_found(t_s: float) -> None:
    """Issue #7 (korona seed 1037 at 60 fps, clean look): a light man at rest in the open looks a
    shade darker than the board there, no longer of its colour, his contrast as low (8 Lab units)
    though his outline and rim run all round. He is found as a white (he was not, and the white
    the striker hit first was unknown)."""
    from fixtures.camera import sample_camera
    from fixtures.look import sample_look
    from fixtures.play import simulate_play
    from fixtures.render import render_frames

    tl = simulate_play("korona", shots=4, seed=1037)
    rng = np.random.default_rng(1037)
    camera, look = sample_camera(rng, resolution=(1280, 720)), sample_look(rng, "clean", game="korona")
    fr = next(iter(render_frames(tl, camera, look, fps=60.0, seed=1037, start_s=t_s)))
    man = next(d for d in fr.truth["discs"] if d["id"] == 4)
    assert man["kind"] == "white" and man["visible"]
    discs = Detector(find_board(fr.image, game="korona")).detect(fr.image).discs
    d = np.hypot(discs.xy_board[:, 0] - man["x_mm"], discs.xy_board[:, 1] - man["y_mm"])
    assert d.min() < 3.0 and discs.kind[np.argmin(d)] == 0, d.min()


# issue #7: korona's men start touching, in a row against each rail (§19); the cushion and the
# neighbours hide most of each man's outline, the light men's rims too (seeds 0 and 5: a light man
# with a neighbour on either side shows his outline in five octants only; seeds 8, 36, 49 and 50: the
# votes of a light man between two neighbours lie off his centre and the fit from there grows to the
# pair's outline, one of the row missed; the next man of a row is looked for where he would touch his
# neighbour)
@pytest.mark.parametrize(("seed", "level"), [(66, "clean"), (205, "normal"), (278, "hard"), (0, "clean"), (5, "clean"),
                                             (8, "hard"), (36, "clean"), (49, "normal"), (50, "hard")])
def test_korona_rows_against_the_rails_are_found(seed: int, level: str) -> None:
    img, truth = fixtures_render.render_still("korona", seed, level=level, layout="break")
    calib = find_board(img, game="korona")
    assert calib
    on_board = [d for d in truth["discs"] if d["where"] == "board"]
    xy = np.array([[d["x_mm"], d["y_mm"]] for d in on_board])
    men = np.array([d["kind"] in ("white", "black") for d in on_board])
    assert (np.abs(xy[men]).max(axis=1) > 420.0).sum() == 16  # two rows of eight against the rails
    discs = Detector(calib).detect(img).discs
    di, ti = bench.match_discs(discs.xy_board, xy, 5.0)
    assert men[ti].sum() == men.sum()  # every man found ...
    assert len(di) == len(discs)  # ... and nothing that is not there
    want = {"white": 0, "black": 1, "striker": 3}
    assert [int(discs.kind[i]) for i in di] == [want[on_board[j]["kind"]] for j in ti]


def test_korona_no_light_man_beyond_a_dark_rows_end() -> None:
    """Korona seed 1007 at 60 fps, hard look: beyond the end of the dark row against the S rail the
    cushion's edge and the grain read as a light man where the next of the row would lie. The next
    man of a row is of his neighbour's kind; nothing is found there (a white was, on every frame
    from the first, with the change-driven detector completing rows)."""
    import itertools

    from fixtures.camera import sample_camera
    from fixtures.look import sample_look
    from fixtures.play import simulate_play
    from fixtures.render import render_frames
    from tracker._detect_types import DetectorConfig

    tl = simulate_play("korona", shots=4, seed=1007)
    rng = np.random.default_rng(1007)
    camera, look = sample_camera(rng, resolution=(1280, 720)), sample_look(rng, "hard", game="korona")
    det = None
    for fr in itertools.islice(render_frames(tl, camera, look, fps=60.0, seed=1007), 2):
        det = det or Detector(find_board(fr.image, game="korona"), config=DetectorConfig(reuse=True))
        xy = det.detect(fr.image, t_s=fr.t_s).discs.xy_board
        there = np.array([[d["x_mm"], d["y_mm"]] for d in fr.truth["discs"] if d["visible"]])
        off = np.hypot(*(xy[:, None] - there[None]).transpose(2, 0, 1)).min(axis=1)
        assert len(xy) == len(there) and off.max() < 5.0, xy[off >= 5.0]


def _render_discs(game: str, seed: int, level: str, kinds: list[int], xy_mm: list[tuple[float, float]]) -> np.ndarray:
    """A rendered still of the board of seed `seed` (camera and look as `render_still` draws them)
    with just these discs on it."""
    from fixtures.camera import sample_camera
    from fixtures.look import sample_look
    from fixtures.render import render_frames
    from fixtures.scene import CUE_FIELDS, HAND_FIELDS, DiscState, Timeline
    from tracker.specs import default_equipment, load_board

    board, n = load_board(game), len(kinds)
    rng = np.random.default_rng(seed)
    camera = sample_camera(rng, resolution=(1280, 720), board=board)
    look = sample_look(rng, level, game=game)
    tl = Timeline(board=board, equipment=default_equipment(game), disc_id=np.arange(n, dtype=np.int32),
                  kind=np.array(kinds, np.int8), t_s=np.zeros(1), xy_mm=np.array([xy_mm], np.float32),
                  angle_rad=np.zeros((1, n), np.float32), state=np.full((1, n), DiscState.ON_BOARD, np.int8),
                  hands=np.zeros((1, 0, len(HAND_FIELDS)), np.float32), cue=np.zeros((1, len(CUE_FIELDS)), np.float32),
                  meta={"scenario": "still"})
    return next(iter(render_frames(tl, camera, look, fps=30.0, seed=seed))).image


# issue #7 (korona seed 1008 at 120 fps): a dark disc sliding along a cushion into a pocket's mouth;
# the hole and the dark cushion beside it hide half its outline, and it was lost for a dozen frames
# (and, come to rest there, for good). The dark corner beyond the hole is no disc.
@pytest.mark.parametrize(("seed", "which"), [(1001, 1), (1002, 0)], ids=["s1001-SW", "s1002-SE"])
def test_dark_disc_in_a_pocket_mouth_is_found(seed: int, which: int) -> None:
    from tracker.specs import DiscKind, default_equipment, load_board

    half, r = load_board("korona").half_mm, default_equipment("korona").man_diameter_mm / 2
    y = half - r - 0.2  # against the cushion, 23-31 mm from the pocket's edge
    xy = [(half - 54.0, y), (-(half - 58.0), y), (y, -(half - 62.0)), (-(half - 50.0), -y)]
    img = _render_discs("korona", seed, "normal", [int(DiscKind.BLACK)] * 4, xy)
    calib = find_board(img, game="korona")
    assert calib
    discs = Detector(calib).detect(img).discs
    d = np.linalg.norm(discs.xy_board[:, None, :] - np.array(xy)[None], axis=2)
    assert d[:, which].min() < 4.0 and discs.kind[np.argmin(d[:, which])] == DiscKind.BLACK
    corners = np.array([(sx * (half - r), sy * (half - r)) for sx in (-1, 1) for sy in (-1, 1)])
    assert np.linalg.norm(discs.xy_board[:, None, :] - corners[None], axis=2).min() > 8.0


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
    # `in_mouth`: against one cushion beside a pocket, over its hole's edge but the centre not far over
    c = float(geom.pockets_mm[2, 0])  # the SE pocket's centre is at (c, c)
    y = h - r - 0.5
    xy = np.array([[c - geom.pocket_r_mm - 5.0, y], [y, c - geom.pocket_r_mm], [c - 6.0, y], [h - r, h - r],
                   [0.0, y], [c - geom.pocket_r_mm - 5.0, y - 12.0]])
    assert geom.in_mouth(xy, np.full(6, r)).tolist() == [True, True, False, False, False, False]
    assert geom.in_mouth(np.zeros((0, 2)), np.zeros(0)).shape == (0,)


@pytest.mark.parametrize(
    ("game", "xy_mm", "behind"),
    [
        ("korona", (446.6, -447.1), True),  # seed 1024: the corner behind the NE hole, read as a black
        ("korona", (-441.0, 440.0), True),
        ("korona", (400.0, -444.5), False),  # in the NE pocket's mouth, against the N rail
        ("korona", (444.5, -400.0), False),  # ... against the E rail
        ("carrom", (360.0, -360.0), True),
        ("carrom", (330.0, -357.5), False),
    ],
)
def test_no_disc_behind_a_pocket_hole(game: str, xy_mm: tuple[float, float], behind: bool) -> None:
    """A round centred over a pocket's hole on the corner's side of its centre is the hole, the
    cushions and the net there (no disc rests on nothing); one in the pocket's mouth may be a disc."""
    img, _ = fixtures_render.render_still(game, 7, level="clean")
    calib = find_board(img, game=game)
    assert calib, getattr(calib, "reason", "")
    geom = Detector(calib).geom
    got = geom.is_pocket_hole(np.array([xy_mm]), np.array([geom.man_r]))
    assert got.tolist() == [behind]


# issue #3 (carrom seed 1028 at 60 fps): a white 5 mm from a black is fitted at the striker's size,
# the dark beyond his outline drawing the fit out. In a video the white's track gives a man-sized
# fit there too, which now wins (`test_striker_sized_fit_ranks_below_a_ringed_mans_fit`); a still
# has no man-sized fit there to choose.
@pytest.mark.parametrize("black", [
    pytest.param(True, marks=pytest.mark.xfail(strict=True, reason="a still has no man-sized fit beside the black")),
    False,
], ids=["beside-a-black", "alone"])
def test_white_beside_a_black_is_no_striker(black: bool) -> None:
    from tracker.specs import DiscKind

    xy = [(28.99, -149.2), (4.88, -176.6)][: 2 if black else 1]
    kinds = [int(DiscKind.WHITE), int(DiscKind.BLACK)][: len(xy)]
    img = _render_discs("carrom", 1028, "clean", kinds, xy)
    calib = find_board(img, game="carrom")
    assert calib
    discs = Detector(calib).detect(img).discs
    d = np.linalg.norm(discs.xy_board - np.array(xy[0]), axis=1)
    assert d.min() < 2.0 and discs.kind[np.argmin(d)] == DiscKind.WHITE, (discs.xy_board, discs.kind)


def test_striker_sized_fit_ranks_below_a_ringed_mans_fit() -> None:
    """Issue #3 (carrom seed 1028 at 60 fps): a white beside a black had two fits, his own (man-sized,
    his rim all round, score 0.27) and a striker-sized one the black drew out (no rim, 0.53); the
    striker-sized one won, and as "the striker" for seconds it made the real striker's sightings
    false detections: shot 4 was found 0.14 s late. One disc: the ringed man's fit ranks first. A
    striker-sized fit with no ringed man inside it, or a ringed one, keeps its rank."""
    from types import SimpleNamespace

    from tracker._detect_core import DetectorCore
    from tracker.specs import DiscKind

    core = SimpleNamespace(geom=SimpleNamespace(man_r=15.9), equipment=SimpleNamespace(striker_hole_diameter_mm=0.0))
    xy = np.array([(30.0, -150.8), (28.0, -149.4), (200.0, 0.0), (100.0, 100.0), (101.0, 99.0)])
    kind = np.array([DiscKind.WHITE, DiscKind.STRIKER, DiscKind.STRIKER, DiscKind.STRIKER, DiscKind.WHITE])
    nominal = np.array([15.9, 20.6, 20.6, 20.6, 15.9])
    ringed = np.array([True, False, False, True, True])
    rank = np.array([0.27, 0.53, 0.6, 0.9, 0.3])
    out = DetectorCore._below_ringed_men(core, xy, kind, nominal, ringed, np.ones(5, bool), rank)  # type: ignore[arg-type]
    assert out[1] < out[0]
    assert out[[0, 2, 3, 4]].tolist() == rank[[0, 2, 3, 4]].tolist()
    core.equipment.striker_hole_diameter_mm = 20.0  # a ring striker: no such ranking
    ring = DetectorCore._below_ringed_men(core, xy, kind, nominal, ringed, np.ones(5, bool), rank)  # type: ignore[arg-type]
    assert ring.tolist() == rank.tolist()
