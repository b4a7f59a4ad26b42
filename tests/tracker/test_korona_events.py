"""Korona stroke facts (tracker/events/_korona.py): zones, direct/rebound, first disc, blocked discs."""

from __future__ import annotations

import json

import numpy as np
import pytest

from fixtures.play import simulate_play
from rules.korona_geometry import korona_geometry
from rules.korona_record import KoronaStroke
from rules.records import parse_stroke
from tests.tracker.korona_shots import shot_arrays, shots_of, truth_first_disc
from tracker.events._korona import STROKE_KEYS, KoronaZones, korona_facts, shot_extras
from tracker.events._korona_path import find_first_contact
from tracker.specs import DiscKind, default_equipment, load_board

BOARD, EQ = load_board("korona"), default_equipment("korona")
ZONES = KoronaZones.from_specs(BOARD, EQ)
R_S, R_C = EQ.radius_mm(DiscKind.STRIKER), EQ.radius_mm(DiscKind.WHITE)
LINE = BOARD.half_mm - R_S
ROW_N = np.array([[x, -BOARD.half_mm + R_C] for x in (-37.5, -12.5, 12.5, 37.5)])  # touching, against N


@pytest.mark.parametrize("side", ["N", "E", "S", "W"])
def test_zones_agree_with_the_rules_geometry(side: str) -> None:
    geo = korona_geometry()
    rng = np.random.default_rng(11)
    # dense near the lines that matter: the centre circle and every rail zone line
    xy = np.concatenate(
        [
            rng.uniform(-BOARD.half_mm, BOARD.half_mm, (3000, 2)),
            rng.normal(0.0, 90.0, (1000, 2)),
            rng.uniform(-BOARD.half_mm, BOARD.half_mm, (1000, 2)) * [1.0, 0.0]
            + [0.0, BOARD.half_mm - BOARD.rail_zone_depth_mm] * rng.choice([-1, 1], (1000, 1)),
        ]
    )
    assert np.array_equal(ZONES.in_centre_circle(xy), geo.in_centre_circle(xy))
    assert np.array_equal(ZONES.in_rail_zone(xy, side), geo.in_rail_zone(xy, side))
    assert np.array_equal(ZONES.is_blocked(xy, side), geo.is_blocked(xy, side))
    assert np.array_equal(ZONES.is_beyond_zone_line(xy, side), geo.striker_beyond_zone_line(xy, side))
    assert 0 < ZONES.is_blocked(xy, side).sum() < len(xy)


def _scene(
    path: list[tuple[float, float]],
    speed: float,
    discs: np.ndarray,
    moved: dict[int, np.ndarray],
    *,
    fps: float = 30.0,
    t_hit: float | None = None,
) -> dict[str, np.ndarray | float]:
    """A striker running along the polyline `path` at `speed` (mm/s) from t = 1 s, sampled at `fps`;
    discs stand still until `t_hit`, then disc i moves with velocity moved[i] (mm/s)."""
    pts = np.asarray(path, float)
    seg = np.hypot(*np.diff(pts, axis=0).T)
    t = np.arange(0.5, 1.0 + seg.sum() / speed + 0.3, 1.0 / fps)
    dist = np.clip((t - 1.0) * speed, 0.0, seg.sum())
    cum = np.concatenate([[0.0], np.cumsum(seg)])
    striker = np.stack([np.interp(dist, cum, pts[:, 0]), np.interp(dist, cum, pts[:, 1])], axis=1)
    coins = np.repeat(discs[:, None, :], len(t), axis=1).astype(float)
    if t_hit is not None:
        for i, v in moved.items():
            coins[i] += np.clip(t - t_hit, 0.0, None)[:, None] * v
    return {
        "t_s": t,
        "striker_xy": striker,
        "start_xy": pts[0],
        "coins_xy": coins,
        "coins_before": discs,
        "t_start_s": 1.0,
    }


def _contact(scene: dict[str, np.ndarray | float], gone: str | None = None):  # type: ignore[no-untyped-def]
    return find_first_contact(
        scene["t_s"],
        scene["striker_xy"],
        scene["start_xy"],
        scene["coins_xy"],  # type: ignore[arg-type]
        scene["coins_before"],
        t_start_s=float(scene["t_start_s"]),
        half_mm=BOARD.half_mm,  # type: ignore[arg-type]
        striker_r_mm=R_S,
        coin_r_mm=R_C,
        striker_gone=gone,
    )


def _hit_point(centre: np.ndarray, start: np.ndarray) -> np.ndarray:
    """Where a striker going straight from `start` at `centre` stops touching it."""
    d = (centre - start) / np.hypot(*(centre - start))
    return centre - d * (R_S + R_C)


LONE = np.array([[100.0, -100.0], [-200.0, 150.0]])
_bounce_e = (LINE, 100.0)


@pytest.mark.parametrize(
    ("scene", "gone", "expect"),
    [
        (
            _scene(
                [(0.0, 400.0), tuple(_hit_point(LONE[0], np.array([0.0, 400.0])))],
                2500.0,
                LONE,
                {0: np.array([300.0, -1500.0])},
                t_hit=1.0 + 505.0 / 2500.0,
            ),
            None,
            (False, None, (0,)),
        ),
        # off the E rail, then at disc 0
        (
            _scene(
                [(0.0, 400.0), _bounce_e, tuple(_hit_point(LONE[0], np.array(_bounce_e)))],
                3000.0,
                LONE,
                {0: np.array([-1500.0, -800.0])},
                t_hit=1.0 + (np.hypot(LINE, 300.0) + np.hypot(LINE - 100, 200.0) - R_S - R_C) / 3000.0,
            ),
            None,
            (True, "E", (0,)),
        ),
        # at the second disc of a touching row against N: the far end of the row flies off, the
        # struck disc does not move (it counts all the same)
        (
            _scene(
                [(-30.0, 200.0), tuple(_hit_point(ROW_N[1], np.array([-30.0, 200.0])))],
                3000.0,
                ROW_N,
                {0: np.array([-2000.0, 0.0])},
                t_hit=1.0 + 587.0 / 3000.0,
            ),
            None,
            (False, None, (1,)),
        ),
        # nothing touched, the striker stops in the open
        (_scene([(0.0, 400.0), (0.0, 150.0)], 2000.0, LONE, {}), None, (False, None, ())),
        # over the W rail, no disc touched
        (_scene([(0.0, 400.0), (-LINE, 300.0)], 3000.0, LONE, {}), "off_board", (True, "W", ())),
    ],
    ids=["direct", "rebound-E", "row-cradle", "touches-nothing", "over-the-rail"],
)
def test_first_contact_from_the_path(scene, gone, expect) -> None:  # type: ignore[no-untyped-def]
    fc = _contact(scene, gone)
    assert fc is not None
    assert (fc.rebound, fc.cushion, fc.first_rows) == expect


def test_a_disc_hidden_since_the_start_does_not_hide_the_path() -> None:
    """A disc by the striker's base, hidden by the cue and the hand from the start and seen again only
    after the stroke, knocked on by another disc: the moment is bracketed by the discs that were
    seen standing, and the path off the E rail still finds disc 0 (korona seeds 1004 and 1007: no
    first disc at all, the hidden disc taken to have left at any time)."""
    discs = np.vstack([LONE, [[60.0, 420.0]]])
    t_hit = 1.0 + (np.hypot(LINE, 300.0) + np.hypot(LINE - 100, 200.0) - R_S - R_C) / 3000.0
    scene = _scene([(0.0, 400.0), _bounce_e, tuple(_hit_point(LONE[0], np.array(_bounce_e)))], 3000.0, discs,
                   {0: np.array([-1500.0, -800.0])}, t_hit=t_hit)
    t, coins = scene["t_s"], scene["coins_xy"]
    hidden = (t >= 0.95) & (t < t_hit + 0.2)  # from the stroke's start until after the contact
    coins[2, hidden] = np.nan  # type: ignore[index]
    coins[2, t >= t_hit + 0.2] += np.array([0.0, -40.0])  # type: ignore[index]
    fc = _contact(scene)
    assert fc is not None
    assert (fc.rebound, fc.cushion, fc.first_rows) == (True, "E", (0,))
    assert fc.t_first_s is not None and abs(fc.t_first_s - t_hit) < 2.0 / 30.0


def test_a_track_swapping_to_its_neighbours_place_is_no_departure() -> None:
    """Korona seed 1030 at 30 fps: as the striker set off for the E rail, the track of a man in a row
    against the N rail jumped to his neighbour's place and stayed there (the row's tracks swapped).
    That is no man leaving his place: the moment of the first contact is still bracketed by disc 0,
    which the path off the E rail meets."""
    row = ROW_N + np.array([-200.0, 0.0])
    discs = np.vstack([LONE, row])
    t_hit = 1.0 + (np.hypot(LINE, 300.0) + np.hypot(LINE - 100, 200.0) - R_S - R_C) / 3000.0
    scene = _scene([(0.0, 400.0), _bounce_e, tuple(_hit_point(LONE[0], np.array(_bounce_e)))], 3000.0, discs,
                   {0: np.array([-1500.0, -800.0])}, t_hit=t_hit)
    t, coins = scene["t_s"], scene["coins_xy"]
    # the second man's track, on the first man's place
    coins[3, t >= 1.1] = row[0]  # type: ignore[index]
    fc = _contact(scene)
    assert fc is not None
    assert (fc.rebound, fc.cushion, fc.first_rows) == (True, "E", (0,))
    assert fc.t_first_s is not None and abs(fc.t_first_s - t_hit) < 2.0 / 30.0


def test_a_misread_behind_the_striker_as_the_cue_strikes_is_no_rail() -> None:
    """Korona seed 1005 at 120 fps: the striker and the cue's tip read as one, 40 mm behind the
    striker and by the S rail, in the frame the cue struck. The striker's next step left that
    sighting far faster than the striker then ran: it is off the path, and the stroke is direct,
    not a rebound off the S rail."""
    start = np.array([0.0, 400.0])
    t_hit = 1.0 + (np.hypot(*(LONE[0] - start)) - R_S - R_C) / 2500.0
    scene = _scene([tuple(start), tuple(_hit_point(LONE[0], start))], 2500.0, LONE, {0: np.array([300.0, -1500.0])},
                   t_hit=t_hit)
    first = int(np.argmax(scene["t_s"] > 1.0))  # type: ignore[operator]
    scene["striker_xy"][first] = (start[0], LINE - 3.0)  # type: ignore[index]
    fc = _contact(scene)
    assert fc is not None
    assert (fc.rebound, fc.cushion, fc.first_rows) == (False, None, (0,))


@pytest.mark.parametrize("jitter_mm", [6.5, 0.0], ids=["man-at-the-rail-jitters", "all-still"])
def test_a_departure_far_from_the_striker_is_none(jitter_mm: float) -> None:
    """Korona seed 1001 at 60 fps: the striker rolled slowly up the board and stopped in the open;
    a man at the N rail, 500 mm from it, was seen 6 mm off his place as it rolled. No disc moves
    before the striker's first contact unless the striker reached it: that is no departure, and
    the stroke touched nothing (it was called a rebound off the N rail, the man its first disc)."""
    discs = np.vstack([LONE, [[-300.0, -BOARD.half_mm + R_C]]])
    scene = _scene([(0.0, 400.0), (0.0, 0.0)], 800.0, discs, {})
    t, coins = scene["t_s"], scene["coins_xy"]
    coins[2, t >= 1.2] += (jitter_mm, 0.0)  # type: ignore[index]
    fc = _contact(scene)
    assert fc is not None
    assert (fc.rebound, fc.cushion, fc.first_rows) == (False, None, ())


def test_first_contact_unknown_without_a_path() -> None:
    """Striker never seen moving and two discs moved at once: undecided (the caller falls back)."""
    scene = _scene(
        [(0.0, 400.0), (0.0, 390.0)],
        100.0,
        LONE,
        {0: np.array([0.0, -900.0]), 1: np.array([900.0, 0.0])},
        t_hit=1.05,
    )
    scene["striker_xy"] = np.full_like(scene["striker_xy"], np.nan)  # type: ignore[arg-type]
    scene["start_xy"] = np.full(2, np.nan)
    assert _contact(scene) is None


def _facts(arr, tl, **kw):  # type: ignore[no-untyped-def]
    return korona_facts(
        arr.ids,
        arr.kinds,
        arr.t_s,
        arr.xy_mm,
        arr.before_mm,
        arr.after_mm,
        arr.fate,
        side=arr.side,
        t_start_s=arr.t_start_s,
        board=tl.board,
        equipment=tl.equipment,
        **kw,
    )


@pytest.mark.parametrize(("fps", "seeds"), [(30.0, (21, 22, 23)), (60.0, (24, 25))], ids=["30fps", "60fps"])
def test_direct_rebound_and_first_disc_against_simulator_truth(fps: float, seeds: tuple[int, ...]) -> None:
    n = ok_type = ok_kind = ok_id = 0
    for seed in seeds:
        tl = simulate_play("korona", shots=6, seed=seed, hands=False)
        rng = np.random.default_rng(seed)
        for start, end in shots_of(tl):
            out = _facts(shot_arrays(tl, start, end, fps=fps, rng=rng), tl)
            first = truth_first_disc(tl, start["shot"])
            n += 1
            ok_type += out["stroke"] == end["stroke"]
            ok_kind += out["first_disc"] == end["first_disc"]
            ok_id += (first in out["first_disc_ids"]) if first is not None else not out["first_disc_ids"]
            assert out["cushion_before_contact"] == (out["stroke"] == "rebound")
    assert n >= 12
    assert ok_type / n >= 0.97 and ok_kind / n >= 0.97, (ok_type, ok_kind, n)
    assert ok_id / n >= 0.9, (ok_id, n)


def test_shot_extras_is_a_valid_korona_record() -> None:
    tl = simulate_play("korona", shots=3, seed=31, hands=False)
    rng = np.random.default_rng(31)
    for start, end in shots_of(tl):
        arr = shot_arrays(tl, start, end, fps=60.0, rng=rng)
        out = shot_extras(arr.record(tl, start["shot"]))
        assert set(STROKE_KEYS) <= set(out)
        json.dumps(out)  # JSON-ready
        before = [
            {"id": int(i), "kind": DiscKind(int(k)).label, "x_mm": float(x), "y_mm": float(y)}
            for i, k, (x, y) in zip(arr.ids, arr.kinds, arr.before_mm, strict=True)
            if k != DiscKind.STRIKER and np.isfinite(x)
        ]
        line = {
            "stroke": start["shot"],
            "side": arr.side,
            "before": before,
            "pocketed": [{"kind": p["kind"], "pocket": p["pocket"]} for p in out["pocketed_discs"]],
            "off_board": [{"kind": p["kind"]} for p in out["off_board_discs"]],
            **{k: v for k, v in out.items() if k != "stroke"},
        }  # contract 2 "stroke" is the number
        stroke = KoronaStroke.from_record(parse_stroke(line))
        assert stroke.rebound == (end["stroke"] == "rebound")


def _still(xy: list[tuple[float, float]], moves: dict[int, tuple[float, float]]):  # type: ignore[no-untyped-def]
    """Discs (white, white, white, black, black) that stand or are moved to `moves` at rest."""
    before = np.array(xy, float)
    after = before.copy()
    for i, p in moves.items():
        after[i] = p
    t = np.linspace(0.0, 1.0, 31)
    track = np.repeat(before[:, None, :], len(t), axis=1)
    track[:, 15:] = after[:, None, :]
    kinds = np.array([0, 0, 0, 1, 1], np.int8)
    return np.arange(1, 6), kinds, t, track, before, after


# white 1 in the centre circle, white 2 in S's zone, white 3 free, black 4 in N's zone, black 5 free
_ZONE_LAYOUT = [
    (0.0, 0.0),
    (100.0, BOARD.half_mm - 20.0),
    (0.0, -200.0),
    (50.0, -BOARD.half_mm + 20.0),
    (200.0, 200.0),
]


def _zone_facts(moves: dict[int, tuple[float, float]], *, seats: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    """Korona facts of a stroke that moves discs of `_ZONE_LAYOUT` to `moves`, struck from S."""
    ids, kinds, t, track, before, after = _still(_ZONE_LAYOUT, moves)
    extra = {} if seats is None else {"seats": seats}
    return korona_facts(
        ids, kinds, t, track, before, after, ("board",) * 5,
        side="S", t_start_s=0.4, board=BOARD, equipment=EQ, **extra,
    )


@pytest.mark.parametrize(
    ("seats", "moves", "expect"),
    [
        # white 1 in the centre circle, white 2 in S's zone, white 3 free, black 4 in N's zone, black 5 free
        ({"white": "S", "black": "N"}, {}, ([1, 2, 4], [1, 2, 4], [], [], [])),
        (
            {"white": "S", "black": "N"},
            {0: (0.0, -200.0), 4: (10.0, 0.0)},
            ([1, 2, 4], [2, 4, 5], [1], [5], [1, 5]),
        ),
        # the other seating: white plays from N, so white 2 (S zone) is free and black 4 (N zone) too
        ({"white": "N", "black": "S"}, {}, ([1], [1], [], [], [])),
    ],
    ids=["as-set", "out-and-into", "seats-swapped"],
)
def test_blocked_positions(seats, moves, expect) -> None:  # type: ignore[no-untyped-def]
    out = _zone_facts(moves, seats=seats)
    got = (out["blocked_before"], out["blocked_after"], out["unblocked"], out["newly_blocked"], out["moved"])
    assert got == expect


def test_zones_without_seats() -> None:
    """The hook does not know who sits where: zone members instead of blocked discs."""
    out = _zone_facts({0: (0.0, -200.0)})
    assert "blocked_before" not in out
    assert out["zones_before"] == {"centre": [1], "N": [4], "E": [], "S": [2], "W": []}
    assert out["zones_after"] == {"centre": [], "N": [4], "E": [], "S": [2], "W": []}


@pytest.mark.parametrize(
    ("rest", "side", "beyond"),
    [
        ((0.0, BOARD.half_mm - 20.0), "S", True),
        ((0.0, BOARD.half_mm - 70.0), "S", False),
        ((0.0, -BOARD.half_mm + 30.0), "N", True),
        ((0.0, BOARD.half_mm - 20.0), "N", False),
    ],
    ids=["S-past", "S-on-line", "N-past", "N-far"],
)
def test_striker_rest_against_the_own_zone_line(rest: tuple[float, float], side: str, beyond: bool) -> None:
    ids = np.array([1, 20])
    kinds = np.array([0, DiscKind.STRIKER], np.int8)
    before = np.array([[0.0, 0.0], [0.0, 400.0 if side == "S" else -400.0]])
    after = np.array([[0.0, 0.0], rest])
    t = np.linspace(0.0, 1.0, 11)
    track = np.repeat(after[:, None, :], len(t), axis=1)
    out = korona_facts(
        ids,
        kinds,
        t,
        track,
        before,
        after,
        ("board", "board"),
        side=side,
        t_start_s=0.2,
        board=BOARD,
        equipment=EQ,
    )
    assert out["striker_beyond_zone_line"] is beyond
    assert out["striker_rest"] == {"x_mm": rest[0], "y_mm": rest[1]}


@pytest.mark.parametrize(
    ("gap_mm", "touching"), [(0.0, [1]), (0.6, [1]), (4.0, [])], ids=["touch", "noise", "clear"]
)
def test_striker_set_down_touching_a_disc(gap_mm: float, touching: list[int]) -> None:
    """korona §24.1.10: the striker placed for the stroke touching a disc."""
    ids = np.array([1, 20])
    kinds = np.array([0, DiscKind.STRIKER], np.int8)
    before = np.array([[0.0, 380.0 - R_S - R_C - gap_mm], [0.0, 380.0]])
    t = np.linspace(0.0, 1.0, 11)
    track = np.repeat(before[:, None, :], len(t), axis=1)
    out = korona_facts(
        ids,
        kinds,
        t,
        track,
        before,
        before,
        ("board", "board"),
        side="S",
        t_start_s=0.5,
        board=BOARD,
        equipment=EQ,
    )
    assert out["striker_placed_touching"] == touching


def test_rail_just_before_a_disc_lying_against_it() -> None:
    """Issue #7 (seed 1022 shot 4, 60 fps): the striker meets the W rail 5 ms before a dark disc lying
    against it; its last sighting is already past the rail line (noise). A rebound off W, then the
    disc: the disc lies off the path's straight line and is met only after the rail."""
    t = 19.40 + np.arange(40) / 60.0
    leg = [(-29.9, -393.3), (-56.6, -374.4), (-96.5, -340.9), (-146.1, -312.2), (-180.5, -283.0),
           (-226.4, -250.1), (-268.6, -224.8), (-309.1, -193.0), (-350.2, -164.2), (-393.8, -132.6),
           (-434.0, -103.9)]  # the tracker's observations from 19.483 s, one a frame
    striker = np.full((len(t), 2), np.nan)
    striker[:5] = leg[0]
    striker[5 : 5 + len(leg)] = leg
    disc = np.repeat(np.array([[-443.0, -64.2]]), len(t), axis=0)
    disc[15:20] = [(-443.0, -64.0), (-443.0, -53.0), (-436.0, -38.0), (-429.0, -23.0), (-423.0, -9.0)]
    disc[20:] = np.nan
    fc = find_first_contact(t, striker, np.array(leg[0]), disc[None], disc[:1], t_start_s=19.473,
                            half_mm=BOARD.half_mm, striker_r_mm=R_S, coin_r_mm=R_C,
                            pocket_r_mm=BOARD.pocket_radius_mm)
    assert fc is not None and (fc.rebound, fc.cushion, fc.first_rows) == (True, "W", (0,))


@pytest.mark.parametrize("tip_since_s", [13.64, 12.0], ids=["cue-tip-at-the-stroke", "disc-there-all-along"])
def test_first_disc_stood_there_before_the_stroke(tip_since_s: float) -> None:
    """Issue #7 (seed 1002 shot 3, 120 fps): the cue's tip, taken for a dark disc beside the striker
    just as it is struck, is not the disc hit first; the striker went to the E rail first. A disc
    lying against the striker all along, moved as it sets off, is."""
    t = 12.0 + np.arange(int(2.2 * 120)) / 120.0
    t_start = 13.642
    run = np.clip(t - t_start, 0.0, None) * 2600.0 / np.sqrt(2.0)  # NE at 2.6 m/s, from (179, -412)
    striker = np.stack([179.0 + run, -412.0 + run], axis=1)
    hit = striker[:, 0] > BOARD.half_mm - R_S  # off the E rail: mirrored back
    striker[hit, 0] = 2 * (BOARD.half_mm - R_S) - striker[hit, 0]
    striker[t > t_start + 0.3] = np.nan  # (followed no further)
    tip = np.full((len(t), 2), np.nan)
    seen = (t >= tip_since_s) & (t <= t_start + 0.05)
    tip[seen] = (155.0, -438.0)
    if tip_since_s < t_start:  # a disc there all along, nudged by the striker's start
        tip[t > t_start + 0.05] = (150.0, -442.0)
    ids = np.array([20, 71])
    kinds = np.array([DiscKind.STRIKER, DiscKind.BLACK], np.int8)
    xy = np.stack([striker, tip])
    before = np.array([[179.0, -412.0], [155.0, -438.0]])
    out = korona_facts(ids, kinds, t, xy, before, xy[:, 0] * np.nan, ("board", "board"), side="N",
                       t_start_s=t_start, board=BOARD, equipment=EQ)
    assert (71 in out["first_disc_ids"]) is (tip_since_s < 13.0)
    if tip_since_s > 13.0:
        assert out["first_disc_ids"] == [] and out["first_cushion"] == "E"
