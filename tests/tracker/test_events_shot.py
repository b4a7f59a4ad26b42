"""End-of-shot analysis pieces: losses, the striker's run, first contact by ray casting, the shot record hook."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.events._contacts import cast_line, reflect
from tracker.events._losses import classify_loss
from tracker.events._shot_record import ShotRecord, shot_extras
from tracker.events._start import back_to_line, distance_from_line, striker_run, where_it_stood
from tracker.specs import DiscKind, load_board, load_equipment

BOARD = load_board("carrom")
EQUIP = load_equipment("icf")
KW = {"horizon_s": 0.12, "pocket_reach_mm": 16.0, "min_off_speed_mm_s": 2000.0}


@pytest.mark.parametrize(
    ("p", "v", "expect"),
    [
        ((320.0, 320.0), (1500.0, 1500.0), ("SE", None)),
        ((-330.0, -300.0), (-400.0, -1600.0), ("NW", None)),
        ((0.0, 330.0), (0.0, 3000.0), (None, "S")),
        ((-330.0, 0.0), (-2600.0, 100.0), (None, "W")),
        ((0.0, 330.0), (0.0, 900.0), None),          # too slow to leave the board: hidden or missed
        ((0.0, 0.0), (2000.0, 0.0), None),           # vanished mid-board: not lost
        ((340.0, 338.0), None, ("SE", None)),        # last seen at the pocket's lip, motion unknown
    ],
    ids=["into-SE", "into-NW", "off-S", "off-W", "slow-at-cushion", "mid-board", "at-lip"],
)
def test_classify_loss(p: tuple[float, float], v: tuple[float, float] | None, expect: tuple | None) -> None:
    loss = classify_loss(np.array(p), None if v is None else np.array(v), 2.0, 15.5, BOARD, **KW)
    if expect is None:
        assert loss is None
    else:
        assert loss is not None and (loss.pocket, loss.side) == expect
        assert 2.0 <= loss.t_s <= 2.12


@pytest.mark.parametrize(
    ("discs", "eligible", "what", "disc"),
    [
        ([(10.0, 0.0)], [True], "disc", 0),
        ([(10.0, 0.0), (0.0, 100.0)], [True, True], "disc", 1),      # the nearer one along the line
        ([(10.0, 0.0), (0.0, 100.0)], [True, False], "disc", 0),     # a disc that never moved was not hit
        ([(60.0, 0.0)], [True], "cushion", -1),                      # passes by, reaches the N cushion
    ],
    ids=["one", "nearest-first", "unmoved-skipped", "miss-then-cushion"],
)
def test_cast_line(discs: list, eligible: list, what: str, disc: int) -> None:
    xy = np.array(discs, float)
    reach = np.full(len(xy), EQUIP.radius_mm(DiscKind.STRIKER) + EQUIP.radius_mm(DiscKind.WHITE))
    cast = cast_line(np.array([0.0, 252.6]), np.array([0.0, -1.0]), 2000.0, xy, reach, np.array(eligible), BOARD,
                     EQUIP.radius_mm(DiscKind.STRIKER), graze_mm=1.0)
    assert (cast.what, cast.disc) == (what, disc)
    if what == "cushion":
        assert cast.side == "N"
        assert reflect(np.array([0.0, -1.0]), cast.side).tolist() == [0.0, 1.0]


@pytest.mark.parametrize("fps", [30.0, 60.0, 120.0], ids=["30fps", "60fps", "120fps"])
def test_striker_run_is_dated_back_to_the_base_line(fps: float) -> None:
    """First seen 80 mm out (hidden under the hand before), 3 m/s, angled: start time within a frame."""
    t0, speed, u = 1.0, 3000.0, np.array([0.3, -1.0]) / np.hypot(0.3, 1.0)
    origin = np.array([-50.0, 252.6])
    ts = t0 + 80.0 / speed + np.arange(4) / fps
    xy = origin + np.outer((ts - t0) * speed, u) + np.random.default_rng(4).normal(0.0, 0.5, (4, 2))
    run = striker_run(ts, xy, rest_xy=None, line_mm=252.6, assumed_speed_mm_s=3500.0, tol_mm=4.0, move_mm=5.0,
                      decel_mm_s2=0.0, extent_mm=235.0)
    assert run is not None and run.moving_obs == 4
    assert abs(run.t_start_s - t0) < 1.0 / fps
    assert np.hypot(*(run.origin_mm - origin)) < 5.0
    assert back_to_line(np.array([0.0, 0.0]), np.array([0.0, -1.0]), 252.6).tolist() == [0.0, 252.6]


def _record(game: str) -> ShotRecord:
    ids = np.array([1, 2], np.int32)
    return ShotRecord(
        game=game, shot=1, board=load_board(game), equipment=EQUIP, t_start_s=1.0, t_end_s=3.0, side="S", ids=ids,
        kinds=np.array([DiscKind.STRIKER, DiscKind.WHITE], np.int8), t_s=np.array([1.0, 2.0, 3.0]),
        xy_mm=np.zeros((2, 3, 2)), before_mm=np.zeros((2, 2)), after_mm=np.zeros((2, 2)), fate=("board", "board"),
        striker_id=1, first_contact="white", first_disc_id=2, first_cushion=None, cushion_before_contact=False,
    )


def test_shot_record_validates_and_is_read_only() -> None:
    rec = _record("carrom")
    assert rec.striker_row() == 0 and rec.row_of(2) == 1 and rec.coins().tolist() == [False, True]
    with pytest.raises(ValueError):
        rec.xy_mm[0, 0, 0] = 1.0
    with pytest.raises(ValueError, match="xy_mm"):
        ShotRecord(**{**{f: getattr(rec, f) for f in rec.__slots__}, "xy_mm": np.zeros((2, 2, 2))})  # type: ignore[arg-type]


def test_shot_extras_hook() -> None:
    """Carrom adds nothing; korona asks `tracker.events._korona` (a dict, possibly empty)."""
    assert shot_extras("carrom", _record("carrom")) == {}
    assert isinstance(shot_extras("korona", _record("korona")), dict)


@pytest.mark.parametrize(
    ("xy", "vel", "expect"),
    [((40.0, 250.0), (0.0, -1.0), 0.0),          # on the S line
     ((40.0, 100.0), (0.0, -1.0), 145.0),        # 145 mm on from the S line
     ((40.0, -330.0), (0.0, 1.0), np.inf),       # beyond the N line, coming in
     ((300.0, 100.0), (1.0, 0.0), 55.0),         # just past the E line, going out
     ((0.0, 100.0), (0.0, 1.0), 345.0)],         # towards the S line: from the N line
    ids=["on-line", "from-line", "from-beyond", "past-line", "towards-line"],
)
def test_distance_from_line(xy: tuple, vel: tuple, expect: float) -> None:
    d = distance_from_line(np.array([xy]), np.array([vel]), 245.0, 235.0, 26.0)
    assert d[0] == pytest.approx(expect)


def test_where_it_stood() -> None:
    nan = np.nan
    hist = np.array([[[nan, nan], [10.0, 245.0], [10.5, 245.0], [10.0, 220.0]],   # stood, then struck
                     [[nan, nan], [0.0, -330.0], [0.0, -300.0], [0.0, -270.0]],   # moving from first sight
                     [[nan, nan], [nan, nan], [nan, nan], [nan, nan]]])           # never seen lately
    got = where_it_stood(hist, np.array([[10.0, 220.0], [0.0, -270.0], [5.0, 5.0]]))
    np.testing.assert_allclose(got, [[10.5, 245.0], [0.0, -330.0], [5.0, 5.0]])
