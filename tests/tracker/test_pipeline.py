"""The Pipeline: frame handling, event order, and accuracy on a small seeded synthetic set."""

from __future__ import annotations

import numpy as np
import pytest

from tracker.detections import FrameDetections
from tracker.errors import ConfigError
from tracker.pipeline import Pipeline, PipelineConfig


class _StubDetection:
    def __init__(self, xy: list[tuple[float, float]], kinds: list[int], occluded_fraction: float = 0.0,
                 score: float = 0.9, hand: tuple[float, float, float] | None = None) -> None:
        a = np.array(xy, np.float32).reshape(-1, 2)
        self.discs = FrameDetections(a.copy(), np.full(len(a), 10, np.float32), np.array(kinds, np.int8),
                                     np.full(len(a), score, np.float32), xy_board=a)
        self.occluded_fraction = occluded_fraction
        self.hand = hand  # (x, y, radius) mm of a round hand's mask, if any

    def is_occluded(self, xy_mm: np.ndarray) -> np.ndarray:
        if self.hand is None:
            return np.zeros(len(xy_mm), bool)
        x, y, r = self.hand
        return np.asarray(np.hypot(xy_mm[:, 0] - x, xy_mm[:, 1] - y) <= r)


class _StubDetector:
    def detect(
        self, frame_bgr: np.ndarray, *, t_s: float | None = None, frame_idx: int | None = None
    ) -> _StubDetection:
        return _StubDetection([(0.0, 0.0)], [0])


@pytest.mark.parametrize(
    ("frame", "ok"),
    [(np.zeros((8, 8, 3), np.uint8), True), (None, False), (np.zeros((8, 8), np.uint8), False),
     (np.zeros((8, 8, 3), np.float32), False)],
    ids=["good", "missing", "grey", "float"],
)
def test_corrupt_frames_are_skipped(frame: np.ndarray | None, ok: bool) -> None:
    pipe = Pipeline(None, detector=_StubDetector())
    res = pipe.process(frame, 0.1)
    assert res.board_ok is ok and res.frame_idx == 0
    assert pipe.process(np.zeros((8, 8, 3), np.uint8), 0.2).frame_idx == 1


def test_board_hidden_and_time_going_back_are_skipped() -> None:
    pipe = Pipeline(None)
    assert pipe.process_detection(_StubDetection([(0.0, 0.0)], [0]), 1.0).board_ok
    assert not pipe.process_detection(_StubDetection([], [], occluded_fraction=0.9), 1.1).board_ok
    assert not pipe.process_detection(_StubDetection([(0.0, 0.0)], [0]), 0.5).board_ok


def test_config_validation() -> None:
    with pytest.raises(ConfigError):
        PipelineConfig(max_occluded_fraction=0.0)
    with pytest.raises(ConfigError):
        PipelineConfig(hand_ring_frac=0.0)
    with pytest.raises(ConfigError):
        PipelineConfig(hand_side_score=-0.1)
    with pytest.raises(ConfigError):
        Pipeline(None, game="carrom", equipment="korona")


class _HandDetection(_StubDetection):
    """A hand: the disc of radius 100 mm about (0, 300) mm is hidden (the detector cuts out disc stamps)."""

    def is_occluded(self, xy_mm: np.ndarray) -> np.ndarray:
        d = np.hypot(xy_mm[:, 0], xy_mm[:, 1] - 300.0)
        return (d < 100.0) & ~(np.hypot(xy_mm[:, 0] - 20.0, xy_mm[:, 1] - 290.0) < 25.0)


@pytest.mark.parametrize(
    ("xy", "score", "kept"),
    [((20.0, 290.0), 0.9, False), ((0.0, 230.0), 0.9, False), ((0.0, 200.0), 0.9, True), ((0.0, 200.0), 0.6, False),
     ((0.0, 175.0), 0.6, True), ((0.0, 0.0), 0.6, True), ((0.0, 430.0), 0.6, True)],
    ids=["inside-hand", "mostly-in-hand", "fingers-touch-clear-disc", "fingers-touch-faint-disc", "beside-hand", "far",
         "beyond-hand"],
)
def test_detections_inside_a_hand_are_ignored(xy: tuple[float, float], score: float, kept: bool) -> None:
    # (a disc the fingers touch, the hand hiding 5 of 12 ring points all on one side: a clear outline
    # is the striker held at the base line, a faint one a fingertip)
    pipe = Pipeline(None)
    res = pipe.process_detection(_HandDetection([xy], [3], occluded_fraction=0.05, score=score), 1.0)
    assert res.board_ok and len(res.detections) == int(kept)
    off = Pipeline(None, config=PipelineConfig(hand_ring_frac=1.0))
    assert len(off.process_detection(_HandDetection([xy], [3], occluded_fraction=0.05), 1.0).detections) == 1


@pytest.mark.parametrize(("before", "score", "kept"),
                         [("standing", 0.9, True), ("standing", 0.6, False), ("nothing", 0.9, False),
                          ("elsewhere", 0.9, False), ("over-a-hole", 0.9, False)],
                         ids=["standing", "standing-faint", "nothing", "elsewhere", "over-a-hole"])
def test_a_disc_standing_where_a_hand_comes_beside_it_is_kept(before: str, score: float, kept: bool) -> None:
    """Carrom seed 1044 at 120 fps: the hand came to rest after the stroke beside a black standing in
    the open, its mask round most of the black's ring: the black's detections were dropped as a
    knuckle's, its track took a pocket's rim and the black was called pocketed. A disc seen standing
    there frame after frame, its outline clear, is that disc; a faint one (korona seed 1005 at 120
    fps: a light man at the edge of a hand coming over his row), a "disc" first seen as the hand
    comes, or standing elsewhere, or over a pocket's hole (its edge, read as a disc, stands there
    too), is held to the hand's test as before."""
    pipe = Pipeline(None)
    spot = (335.0, 335.0) if before == "over-a-hole" else (0.0, 230.0)
    for k in range(6):
        xy = {"nothing": [], "elsewhere": [(0.0, 160.0)]}.get(before, [spot])
        pipe.process_detection(_StubDetection(xy, [1] * len(xy)), k / 30.0)
    if before == "over-a-hole":
        hand = _StubDetection([spot], [1], occluded_fraction=0.05, score=score, hand=(spot[0], spot[1], 45.0))
    else:
        hand = _HandDetection([spot], [1], occluded_fraction=0.05, score=score)
    res = pipe.process_detection(hand, 6 / 30.0)
    assert res.board_ok and len(res.detections) == int(kept)


@pytest.mark.slow
def test_synthetic_suite_accuracy() -> None:
    """Seeded simulated play (three runs of four shots at 30, 60 and 120 fps, hands), detections
    synthesised from truth (noise, blur dropouts, hands, false detections), through the Pipeline:
    every issue-4 floor holds on this set, and identity switches stay rare (the 30 fps break of
    seed 1000 accounts for most of them).

    The floors do NOT all hold on the 200-shot set of `boardtrack bench track --detections truth`
    (seed 1000): there 60 and 120 fps are close to them, while 30 fps breaks (identity mix-ups
    among the fast discs of the pack, a striker line known to a few degrees) keep pocket and
    off-board recall, first contact and exactly-right shots below. This set guards what works; the
    bench measures the gap.
    """
    from service.commands.bench_track import FLOORS, run_suite

    score, _ = run_suite(game="carrom", shots=12, seed=1000, detections="truth", shots_per_run=4)
    r = score.ratios()
    for name in ("pocket_precision", "pocket_recall", "off_board_precision", "off_board_recall",
                 "first_contact", "exact_shots"):
        assert r[name] >= FLOORS[name], (name, score.failures)
    assert r["segmentation"] >= 0.995, score.failures
    assert r["hand_false_events"] == 0.0, score.failures
    assert r["id_switches_per_shot"] <= 1.6, score.id_switches


def _striker_at(t: float, y0: float, vy: float, t_move: float) -> tuple[float, float] | None:
    """Striker centre at `t` s: standing at (40, y0) from 0.3 s until `t_move`, then sliding at `vy`
    mm/s; `t_move` = 0: a false detection (a hand) seen from 0.6 s to 0.75 s, already moving. None:
    not in view."""
    if t < (0.3 if t_move else 0.6) or (not t_move and t > 0.75):
        return None
    y = y0 + vy * max(t - (t_move or 0.6), 0.0)
    return (40.0, y) if abs(y) < 360.0 else None


@pytest.mark.parametrize(
    ("y0", "vy", "t_move", "starts"),
    [(245.0, -2000.0, 0.8, 1),   # set on the S base line, then struck towards N
     (-340.0, 2000.0, 0.0, 0),   # comes in from beyond the N base line, moving from its first sight: a hand
     (20.0, -600.0, 0.0, 0)],    # first seen mid-board, moving slowly: it would have crossed open board unseen
    ids=["struck-from-line", "from-beyond-line", "from-mid-board"],
)
def test_shot_start_needs_a_striker_from_its_line(y0: float, vy: float, t_move: float, starts: int) -> None:
    fps = 120.0
    pipe = Pipeline(None, game="carrom")
    coins = [(0.0, 0.0), (60.0, -30.0), (-80.0, 40.0)]
    events = []
    for k in range(int(1.6 * fps)):
        t = k / fps
        striker = _striker_at(t, y0, vy, t_move)
        xy = coins + ([striker] if striker is not None else [])
        events += pipe.process_detection(_StubDetection(xy, [0, 1, 0] + [3] * (len(xy) - 3)), t).events
    events += pipe.finish()
    assert sum(e.to_json()["type"] == "shot_start" for e in events) == starts


@pytest.mark.parametrize(
    ("twitch", "speed"),
    [(True, 2000.0), (False, 2000.0), (False, 450.0)],
    ids=["coin-twitch-before", "plain", "slow-striker"],
)
def test_shot_start_dated_at_the_striker(twitch: bool, speed: float) -> None:
    """Issue 4: the shot starts when the striker leaves its place (within two frames), not when a
    coin twitched a moment before (a misread detection, seed 1034: the striker, under the hand
    until just before the strike, was then never seen standing), and not late when a slow striker
    moves less per frame than the noise (seed 1026 at 120 fps)."""
    fps, t_move = (60.0, 1.0) if twitch else (120.0, 1.0)
    pipe = Pipeline(None, game="carrom")
    rng = np.random.default_rng(11)
    events = []
    for k in range(int(1.8 * fps)):
        t = k / fps
        coins = [(0.0, 0.0), (60.0, -30.0), (-80.0, 40.0)]
        if twitch and abs(t - (t_move - 0.1)) < 0.5 / fps:
            coins[1] = (90.0, -30.0)  # one frame off its place
        y = 252.6 - speed * max(t - t_move, 0.0)
        shown = not twitch or t >= t_move - 0.05  # out from under the hand
        xy = np.array(coins + [(40.0, y)] * shown) + rng.normal(0.0, 0.5, (3 + shown, 2))
        events += pipe.process_detection(_StubDetection([tuple(p) for p in xy], [0, 1, 0, 3][: 3 + shown]), t).events
    events += pipe.finish()
    starts = [e.t_s for e in events if e.to_json()["type"] == "shot_start"]
    assert len(starts) == 1 and abs(starts[0] - t_move) <= 2.0 / fps, starts


def test_shot_not_dated_from_a_false_striker_the_track_followed_first() -> None:
    """Carrom seed 1008 at 120 fps, shot 4: a false striker by the hand that carried the striker in,
    standing 99 mm beyond the N base line, held the striker's track until the striker, set on the
    line, was struck; the track's run, fitted through both, dated the shot 53 ms early (a false start
    and a missed one, while the hand was there). The run starts where the striker stood."""
    fps, t_move = 120.0, 1.0
    stand, u = np.array([-91.3, -252.6]), np.array([0.81, 0.58])

    def scene(t: float) -> tuple[list, list]:  # type: ignore[type-arg]
        strikers = []
        if 0.3 <= t < t_move - 1.5 / fps:
            strikers.append((-181.8, -351.6))  # the false one, standing
        if abs(t - (t_move - 2.0 / fps)) < 0.5 / fps or t >= t_move - 0.5 / fps:
            strikers.append(tuple(stand + u * 2700.0 * max(t - t_move, 0.0)))
        return _COINS + strikers, [0, 1, 0] + [3] * len(strikers)

    starts = [e["t"] for e in _run_stub(fps, 1.8, scene) if e["type"] == "shot_start"]
    assert len(starts) == 1 and abs(starts[0] - t_move) <= 2.0 / fps, starts


def test_demo_clip_pockets_with_the_real_detector() -> None:
    """The bundled demo clip (720p, 30 fps, rendered) through the real detector and tracker: every
    pocket event of its truth, with the right kind and pocket within 2 frames, and no other;
    among them the striker pocketed in shot 2 after a flight off the E cushion that the detector
    sees only as a faint streak every third frame."""
    import json
    from pathlib import Path

    av = pytest.importorskip("av")
    from calibration import find_board

    demo = Path(__file__).resolve().parents[2] / "fixtures" / "demo"
    truth = [json.loads(line) for line in (demo / "events.jsonl").read_text().splitlines() if line.strip()]
    pipe = None
    events = []
    with av.open(str(demo / "video.mp4")) as container:
        for frame in container.decode(video=0):
            image = frame.to_ndarray(format="bgr24")
            if pipe is None:
                calib = find_board(image)
                assert calib, getattr(calib, "reason", "")
                pipe = Pipeline(calib)
            events += [e.to_json() for e in pipe.process(image, float(frame.time)).events]
    assert pipe is not None
    events += [e.to_json() for e in pipe.finish()]

    def pockets(evs: list[dict]) -> list[tuple[int, str, str, int]]:
        return sorted((e["shot"], e["disc"]["kind"], e["pocket"], e["frame"]) for e in evs if e["type"] == "pocketed")

    want, got = pockets(truth), pockets(events)
    assert [w[:3] for w in want] == [g[:3] for g in got]
    assert all(abs(w[3] - g[3]) <= 2 for w, g in zip(want, got, strict=True)), (want, got)
    assert "striker" in {g[1] for g in got if g[0] == 2}


def _run_stub(fps: float, t_end: float, scene) -> list[dict]:  # type: ignore[no-untyped-def,type-arg]
    """Events of a Pipeline fed `scene(t) -> (xy list, kind list[, hand (x, y, r) or None])` at `fps`
    until `t_end` s."""
    pipe = Pipeline(None, game="carrom")
    rng = np.random.default_rng(5)
    events = []
    for k in range(int(t_end * fps)):
        t = k / fps
        xy, kinds, *hand = scene(t)
        noisy = np.array(xy) + rng.normal(0.0, 0.4, (len(xy), 2))
        det = _StubDetection([tuple(p) for p in noisy], kinds, hand=hand[0] if hand else None)
        events += pipe.process_detection(det, t).events
    return [e.to_json() for e in [*events, *pipe.finish()]]


_COINS = [(0.0, 0.0), (60.0, -30.0), (-80.0, 40.0)]


def test_striker_picked_up_off_its_line_starts_no_shot() -> None:
    """Issue 4 (seed 1003 at 30 fps): the striker at rest mid-board after a shot is picked up; a
    false detection of the hand 100 mm away, in one frame, is taken for it moving at 3 m/s, then nothing
    is seen (at 30 fps a striker that vanishes at once confirms its own start).
    A striker that stood off its placement line was not struck from it: no shot starts (nor when the
    hand then nudges a coin)."""
    def scene(t: float) -> tuple[list[tuple[float, float]], list[int]]:
        coins = _COINS if t < 1.3 else [*_COINS[:2], (-80.0, 60.0)]
        if t < 1.0:
            return [*coins, (-137.0, -13.0)], [0, 1, 0, 3]
        if t < 1.0 + 0.5 / fps:
            return [*coins, (-62.0, -84.0)], [0, 1, 0, 3]
        return list(coins), [0, 1, 0]

    fps = 30.0
    events = _run_stub(fps, 2.0, scene)
    assert not [e for e in events if e["type"] == "shot_start"], events


def test_false_striker_at_a_pocket_is_not_pocketed() -> None:
    """Issue 4 (seeds 1007 and 1008, hard level): during a shot a pocket's rim is taken for a striker
    for a few frames, standing still, then no more. It appeared out of nowhere and never moved: it
    is not a striker pocketed (the shot has no pocketed event)."""
    fps = 60.0
    phantom = [(-339.0, -321.0), (-345.0, -322.0), (-341.0, -322.0), (-343.0, -323.0)]  # as seen (seed 1007)

    def scene(t: float) -> tuple[list[tuple[float, float]], list[int]]:
        y = 252.6 - 1000.0 * min(max(t - 1.0, 0.0), 0.2)  # struck at 1.0 s, slides 200 mm and stops
        xy, kinds = [*_COINS, (40.0, y)], [0, 1, 0, 3]
        k = round((t - 1.1) * fps)
        if 0 <= k < len(phantom):
            xy, kinds = [*xy, phantom[k]], [*kinds, 3]
        return xy, kinds

    events = _run_stub(fps, 2.5, scene)
    assert [e["type"] for e in events].count("shot_start") == 1, events
    assert not [e for e in events if e["type"] in ("pocketed", "off_board")], events


def test_coin_seen_only_moving_starts_no_shot() -> None:
    """Issue 4 (seed 1005 at 120 fps, normal level): between shots a fingertip is taken for a white
    coin, first seen at the end of the base line and moving at 2.4 m/s from its first sight, then
    gone; the striker stands on its line. A coin is set moving by a hit and stood there before: no
    shot starts."""
    fps = 120.0

    def scene(t: float) -> tuple[list[tuple[float, float]], list[int]]:
        xy, kinds = [*_COINS, (40.0, 252.6)], [0, 1, 0, 3]
        if 1.0 <= t < 1.1:
            xy, kinds = [*xy, (-323.0, 252.0 - 2400.0 * (t - 1.0))], [*kinds, 0]
        return xy, kinds

    events = _run_stub(fps, 2.0, scene)
    assert not [e for e in events if e["type"] == "shot_start"], events


def test_track_flicking_between_knuckles_starts_no_shot() -> None:
    """Issue 4 (seed 2008 at 120 fps, hard look): a pale hand on a pale board, not masked, moves the
    striker along the base line; one track takes a still knuckle and a moving fingertip in turn:
    out, back, out again, each faster than a shot. A struck striker does not come back: no shot."""
    fps = 120.0
    knuckle = np.array([95.0, 310.0])

    def scene(t: float) -> tuple[list[tuple[float, float]], list[int]]:
        k = round((t - 1.0) * fps)
        if k < 0 or k >= 24:  # (the striker itself is under the hand throughout)
            return list(_COINS), [0, 1, 0]
        if k % 2:
            return [*_COINS, tuple(knuckle)], [0, 1, 0, 3]
        tip = knuckle + np.array([20.0, -62.0 - 2.0 * k])  # (just past the base line)
        return [*_COINS, tuple(tip)], [0, 1, 0, 3]

    events = _run_stub(fps, 2.0, scene)
    assert not [e for e in events if e["type"] == "shot_start"], events


def test_knuckle_taken_up_again_as_a_coin_starts_no_shot() -> None:
    """Issue 4 (seed 2008 at 120 fps, hard look): a knuckle was taken for a queen for a few frames
    while the hand placed the striker; seconds later, by the edge where the hand is again, the same
    track is taken up, stands a few frames and moves off with the hand. A coin whose first move starts
    a shot has been on the board a while: no shot starts."""
    fps = 120.0
    spot = (158.0, 356.0)

    def scene(t: float) -> tuple[list[tuple[float, float]], list[int]]:
        xy, kinds = [*_COINS, (40.0, 252.6)], [0, 1, 0, 3]
        k = round((t - 1.5) * fps)
        if 0.5 <= t < 0.5 + 4 / fps or 0 <= k < 8:
            return [*xy, spot], [*kinds, 2]
        if 8 <= k < 18:
            return [*xy, (spot[0], spot[1] - 2400.0 * (k - 7) / fps)], [*kinds, 2]
        return xy, kinds

    events = _run_stub(fps, 2.5, scene)
    assert not [e for e in events if e["type"] == "shot_start"], events


@pytest.mark.parametrize("steadily", [False, True], ids=["now-and-then", "steadily"])
def test_a_base_circle_read_as_the_queen_now_and_then_is_not_placed(steadily: bool) -> None:
    """Carrom seed 1008 at 120 fps: between shots, the base circle at the E base line's end, under
    an arm's shadow, was read as the queen in 11 of 15 frames, then not: a "queen placed" there. A
    queen put down on that circle is seen there steadily, and placed."""
    fps = 120.0
    spot = (252.6, 219.1)

    def scene(t: float) -> tuple[list[tuple[float, float]], list[int]]:
        k = round(t * fps) - 120
        shown = (0 <= k) if steadily else (0 <= k < 15 and k not in (4, 10, 12, 13))
        return ([*_COINS, spot], [0, 1, 0, 2]) if shown else (list(_COINS), [0, 1, 0])

    events = _run_stub(fps, 2.0, scene)
    placed = [e for e in events if e["type"] == "placed"]
    assert len(placed) == (1 if steadily else 0), placed


@pytest.mark.parametrize("put_down", [False, True], ids=["a-wrist-at-the-cushion", "a-coin-put-down"])
def test_a_disc_is_placed_once_the_hand_has_let_go(put_down: bool) -> None:
    """Issue 4 (carrom seed 1006 at 30 fps): between shots, the wrist of a hand reaching in over the S
    cushion was read as a white beside the hand's mask for as long as the hand stayed: a "white
    placed" there. A coin put down by a hand is placed once the hand has left it; the wrist never is."""
    fps = 60.0
    spot = (-172.0, 300.0) if put_down else (-172.0, 355.0)

    def scene(t: float) -> tuple[list[tuple[float, float]], list[int], tuple[float, float, float] | None]:
        hand = (-172.0, 360.0 if put_down else 400.0, 42.0) if 0.5 <= t < 1.2 else None
        shown = t >= 0.6 if put_down else 0.6 <= t < 1.2
        return ([*_COINS, spot], [0, 1, 0, 0], hand) if shown else (list(_COINS), [0, 1, 0], hand)

    placed = [e for e in _run_stub(fps, 2.0, scene) if e["type"] == "placed"]
    assert len(placed) == put_down, placed
    if put_down:
        assert np.hypot(placed[0]["x_mm"] - spot[0], placed[0]["y_mm"] - spot[1]) < 3.0


@pytest.mark.parametrize(("spot", "hand_at", "placed_n"),
                         [((0.0, -250.0), (0.0, -250.0), 1), ((0.0, -250.0), (13.0, 253.0), 0),
                          ((0.0, -32.0), (13.0, 253.0), 1)],
                         ids=["put-down-by-the-hand", "no-hand-came", "put-back-by-the-centre"])
def test_a_disc_appearing_where_no_hand_came_is_not_placed(spot: tuple[float, float], hand_at: tuple[float, float],
                                                           placed_n: int) -> None:
    """Carrom seed 1027 at 30 fps: 1.5 s after the flicking hand had left the S base line, a
    whole-board look read the gap between a white and a black on that line as a white, seen there
    from then on: a "white placed". A disc is put down by hand: one first seen where no hand was
    within the last second was not put there (no event; it still counts as a disc at rest). One by
    the centre circle, where the rules put discs back, was (carrom seed 1022 at 60 fps: the queen
    put back, the hand reaching in over the board not seen)."""
    fps = 30.0

    def scene(t: float) -> tuple[list[tuple[float, float]], list[int], tuple[float, float, float] | None]:
        hand = (*hand_at, 40.0) if 0.5 <= t < 1.0 else None
        shown = t >= (1.05 if hand_at == spot else 2.5)
        return ([*_COINS, spot], [0, 1, 0, 0], hand) if shown else (list(_COINS), [0, 1, 0], hand)

    placed = [e for e in _run_stub(fps, 3.5, scene) if e["type"] == "placed"]
    assert len(placed) == placed_n, placed


@pytest.mark.parametrize("sightings", [1, 4], ids=["a-fingertip", "a-coin-set-down"])
def test_a_disc_seen_once_before_the_shot_is_not_at_rest_after_it(sightings: int) -> None:
    """Issue 4 (seed 1004 at 60 fps): before the shot, fingertips coming in over the edge are taken
    for queens, each in one frame; the shot's rest list had them as discs on the board. A disc seen
    in a few frames in a row, standing, is one (the rest list has it)."""
    fps = 60.0
    tip = (-83.0, 354.0)

    def scene(t: float) -> tuple[list[tuple[float, float]], list[int]]:
        y = 252.6 - 1000.0 * min(max(t - 1.0, 0.0), 0.2)  # struck at 1.0 s, slides 200 mm and stops
        xy, kinds = [*_COINS, (40.0, y)], [0, 1, 0, 3]
        if 0 <= round((t - 0.5) * fps) < sightings:
            xy, kinds = [*xy, tip], [*kinds, 2]
        return xy, kinds

    events = _run_stub(fps, 2.5, scene)
    ends = [e for e in events if e["type"] == "shot_end"]
    assert len(ends) == 1, events
    rest = ends[0]["rest"]
    at_tip = [r for r in rest if np.hypot(r["x_mm"] - tip[0], r["y_mm"] - tip[1]) < 5.0]
    assert len(at_tip) == (sightings > 1) and len(rest) == 4 + (sightings > 1), rest


@pytest.mark.parametrize("lost_in_flight", [False, True], ids=["followed", "lost-in-flight"])
def test_a_track_lost_in_flight_is_not_at_rest_where_it_vanished(lost_in_flight: bool) -> None:
    """Issue 4 (carrom seed 1000 at 30 fps): a coin struck away is lost for a few frames and picked
    up again further on by a new track; the old track vanished in the open, moving. A disc does not
    stop unseen: the rest list has the coin once, where it stopped, after this shot and the next."""
    fps = 60.0

    def scene(t: float) -> tuple[list[tuple[float, float]], list[int]]:
        if t < 3.0:  # struck at 1.0 s, stops touching the coin
            striker = (40.0, 252.6 - 1000.0 * min(max(t - 1.0, 0.0), 0.21))
        else:  # picked up, set down on the line again, struck at 4.0 s, slides 100 mm
            striker = (-40.0, 252.6 - 1000.0 * min(max(t - 4.0, 0.0), 0.1))
        coin = 31.0 - 800.0 * min(max(t - 1.21, 0.0), 0.3)  # then the coin slides 240 mm
        xy, kinds = [*_COINS[1:]], [1, 0]
        if not 3.0 <= t < 3.5:
            xy, kinds = [*xy, striker], [*kinds, 3]
        if not (lost_in_flight and 1.3 <= t < 1.42):
            xy, kinds = [*xy, (40.0, coin)], [*kinds, 0]
        return xy, kinds

    events = _run_stub(fps, 6.0, scene)
    ends = [e for e in events if e["type"] == "shot_end"]
    assert len(ends) == 2, events
    for end in ends:
        rest = sorted((r["kind"], round(r["x_mm"]), round(r["y_mm"])) for r in end["rest"])
        assert [r for r in rest if r[0] == "white"] == [("white", -80, 40), ("white", 40, -209)], rest


class _HandOver(_StubDetection):
    """`_StubDetection` with a hand hiding a disc-shaped part of the board (centre, radius mm)."""

    def __init__(self, xy: list[tuple[float, float]], kinds: list[int],
                 hand: tuple[float, float, float] | None) -> None:
        super().__init__(xy, kinds)
        self.hand = hand

    def is_occluded(self, xy_mm: np.ndarray) -> np.ndarray:
        if self.hand is None:
            return np.zeros(len(xy_mm), bool)
        x, y, r = self.hand
        return np.asarray(np.hypot(xy_mm[:, 0] - x, xy_mm[:, 1] - y) <= r)


def test_a_disc_that_ran_on_under_a_hand_is_not_at_rest_where_it_went_under() -> None:
    """Issue 4 (carrom seed 1029 at 120 fps): a coin struck away runs under a hand resting on the
    board, is turned there (by a disc under the hand) and comes out elsewhere, where a new track
    takes it up. Once the hand has gone and nothing is seen where the coin went under, the old
    track is a double: the rest list has the coin once, where it stopped."""
    fps = 60.0
    hand = (40.0, -100.0, 60.0)

    def coin_at(t: float) -> tuple[float, float]:
        y = 31.0 - 800.0 * min(max(t - 1.21, 0.0), 0.15)  # to (40, -89) under the hand at 1.36 s
        if t < 1.36:
            return (40.0, y)
        s = 500.0 * min(t - 1.36, 0.24)  # then off to the E at 500 mm/s, 120 mm, out from under the hand
        return (40.0 + s, -89.0 - 0.3 * s)

    pipe = Pipeline(None, game="carrom")
    rng = np.random.default_rng(5)
    events = []
    for k in range(int(3.0 * fps)):
        t = k / fps
        y = 252.6 - 1000.0 * min(max(t - 1.0, 0.0), 0.21)  # struck at 1.0 s, stops touching the coin
        over = 1.25 <= t < 1.8
        xy, kinds = [*_COINS[1:], (40.0, y)], [1, 0, 3]
        coin = coin_at(t)
        if not (over and np.hypot(coin[0] - hand[0], coin[1] - hand[1]) <= hand[2]):
            xy, kinds = [*xy, coin], [*kinds, 0]
        noisy = np.array(xy) + rng.normal(0.0, 0.4, (len(xy), 2))
        shown = _HandOver([tuple(p) for p in noisy], kinds, hand if over else None)
        events += [e.to_json() for e in pipe.process_detection(shown, t).events]
    events += [e.to_json() for e in pipe.finish()]
    ends = [e for e in events if e["type"] == "shot_end"]
    assert len(ends) == 1, events
    whites = np.array(sorted((r["x_mm"], r["y_mm"]) for r in ends[0]["rest"] if r["kind"] == "white"))
    assert len(whites) == 2 and np.abs(whites - [(-80.0, 40.0), (160.0, -125.0)]).max() < 3.0, whites


@pytest.mark.parametrize("put_back", [False, True], ids=["nothing-put", "coin-put-there"])
def test_a_coin_put_where_a_double_vanished_is_placed(put_back: bool) -> None:
    """Issue 4 (carrom seed 1004 at 60 fps): a track left behind in the break (its coin followed on
    by another track) was taken up again by a white put back by hand at that spot between shots,
    and no `placed` event came. A disc seen again where its track vanished as a double arrived by
    hand."""
    fps = 60.0

    def scene(t: float) -> tuple[list[tuple[float, float]], list[int]]:
        striker = (40.0, 252.6 - 1000.0 * min(max(t - 1.0, 0.0), 0.21))
        coin = 31.0 - 800.0 * min(max(t - 1.21, 0.0), 0.3)
        xy, kinds = [*_COINS[1:], striker], [1, 0, 3]
        if not 1.3 <= t < 1.42:  # lost in flight at about y -41: picked up again by a new track
            xy, kinds = [*xy, (40.0, coin)], [*kinds, 0]
        if put_back and t >= 3.2:
            xy, kinds = [*xy, (38.0, -45.0)], [*kinds, 0]
        return xy, kinds

    events = _run_stub(fps, 4.5, scene)
    placed = [(e["disc"]["kind"], round(e["x_mm"]), round(e["y_mm"])) for e in events if e["type"] == "placed"]
    assert len(placed) == put_back and all(p[0] == "white" and abs(p[1] - 38) <= 2 for p in placed), placed


@pytest.mark.parametrize("creeping", [False, True], ids=["flickering", "creeping"])
def test_a_fit_flickering_on_a_pockets_lip_does_not_keep_the_shot_open(creeping: bool) -> None:
    """Issue 4 (carrom seed 2007 at 60 fps): a white over a pocket's hole was read 5 mm apart in
    turn, frame after frame; taken for moving, it kept the shot open for a second after everything
    stopped, until a hand came in and its motion was taken for a disc flying off. A fit going
    nowhere is at rest; a disc still creeping on at 60 mm/s is not."""
    fps = 60.0

    def scene(t: float) -> tuple[list[tuple[float, float]], list[int]]:
        y = 252.6 - 1000.0 * min(max(t - 1.0, 0.0), 0.2)  # struck at 1.0 s, slides 200 mm and stops
        k = round(t * fps)
        lip = (-334.0 + (5.0 if k % 2 else 0.0), -337.0)
        if creeping:
            lip = (-300.0 + 60.0 * max(t - 1.0, 0.0), -337.0)
        return [*_COINS, (40.0, y), lip], [0, 1, 0, 3, 0]

    events = _run_stub(fps, 3.5, scene)
    ends = [e["t"] for e in events if e["type"] == "shot_end"]
    assert len(ends) == 1, events
    assert (ends[0] > 3.0) == creeping, ends
