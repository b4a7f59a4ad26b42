"""`bench track` scoring of the first contact: a striker meeting two discs in one simulation
step has two right answers."""

from __future__ import annotations

import pytest

from service.commands._bench_track_score import score_events


def _shot(first: str, contacts: list[tuple[float, str]]) -> list[dict]:
    events: list[dict] = [{"type": "shot_start", "t": 1.0, "frame": 30, "shot": 1}]
    events += [
        {"type": "contact", "t": t, "shot": 1, "a": {"id": 0, "kind": "striker"}, "b": {"id": i + 1, "kind": kind}}
        for i, (t, kind) in enumerate(contacts)
    ]
    events.append({"type": "shot_end", "t": 4.0, "frame": 120, "shot": 1, "first_contact": first})
    return events


@pytest.mark.parametrize(
    ("contacts", "predicted", "right"),
    [
        ([(1.0864, "black"), (1.0864, "white")], "black", True),
        ([(1.0864, "black"), (1.0864, "white")], "white", True),
        ([(1.0864, "black"), (1.0894, "white")], "white", False),
        ([(1.0864, "black"), (1.0864, "white")], "queen", False),
    ],
    ids=["listed-first", "same-step", "a-step-later", "not-met"],
)
def test_first_contact_in_one_step(contacts: list[tuple[float, str]], predicted: str, right: bool) -> None:
    truth = _shot(contacts[0][1], contacts)
    pred = _shot(predicted, [])
    sc = score_events(truth, pred, fps=30.0)
    assert sc.first_ok == int(right)
    assert sc.exact == int(right)


def test_cached_play_takes_the_current_equipment(tmp_path, monkeypatch) -> None:
    """A `--cache` pickle written before the equipment spec gained its last field still loads: the
    disc set is read again from the current data by name."""
    import pickle

    from service.commands.bench_track import _play
    from tracker.specs import EquipmentSpec

    first = _play("korona", 1, 3, str(tmp_path))
    path = tmp_path / "korona-1-3.pickle"
    assert path.is_file()
    with path.open("rb") as fh:
        old = pickle.load(fh)
    full = EquipmentSpec.__getstate__
    with monkeypatch.context() as m:  # pickled as an older spec, without the last field
        m.setattr(EquipmentSpec, "__getstate__", lambda self: full(self)[:-1])
        with path.open("wb") as fh:
            pickle.dump(old, fh)
    with path.open("rb") as fh:
        with pytest.raises(AttributeError):
            _ = pickle.load(fh).equipment.light_like_surface
    again = _play("korona", 1, 3, str(tmp_path))
    assert again.equipment == first.equipment and again.equipment.light_like_surface
    assert (again.xy_mm == first.xy_mm).all()


@pytest.mark.parametrize(
    ("pred_rest", "right", "extra", "missing"),
    [
        ([("white", 0.6, -0.4), ("black", 50.0, 3.0)], True, 0, 0),
        ([("white", 0.6, -0.4), ("black", 50.0, 3.0), ("queen", -83.0, 354.0)], False, 1, 0),
        ([("white", 0.6, -0.4)], False, 0, 1),
        ([("white", 0.6, -0.4), ("black", 50.0, 14.0)], False, 1, 1),
        ([("black", 0.6, -0.4), ("white", 50.0, 3.0)], False, 0, 0),
    ],
    ids=["right", "a-phantom", "one-missing", "one-elsewhere", "kinds-swapped"],
)
def test_rest_positions_are_scored(pred_rest: list[tuple[str, float, float]], right: bool, extra: int,
                                   missing: int) -> None:
    """A shot's rest list is right when every disc on the board is listed, with its kind, within
    10 mm of where it stopped, and nothing else is."""
    def shot(rest: list[tuple[str, float, float]]) -> list[dict]:
        events = _shot("white", [(1.2, "white")])
        events[-1]["rest"] = [{"id": i, "kind": k, "x_mm": x, "y_mm": y} for i, (k, x, y) in enumerate(rest)]
        return events

    sc = score_events(shot([("white", 0.0, 0.0), ("black", 50.0, 0.0)]), shot(pred_rest), fps=30.0)
    assert (sc.rest_ok, sc.rest_extra, sc.rest_missing) == (int(right), extra, missing)
    assert sc.ratios()["rest_right"] == float(right)


@pytest.mark.parametrize(
    ("pred_placed", "tp"),
    [
        ([("queen", 0.4, -0.2, 12.37)], 1),
        ([("white", 0.4, -0.2, 12.37)], 0),
        ([("queen", 30.0, 0.0, 12.37)], 0),
        ([("queen", 0.4, -0.2, 13.5)], 0),
        ([("queen", 0.4, -0.2, 12.37), ("white", 0.0, -32.0, 12.6)], 1),
    ],
    ids=["right", "wrong-kind", "elsewhere", "much-later", "one-false"],
)
def test_placed_events_are_scored(pred_placed: list[tuple[str, float, float, float]], tp: int) -> None:
    """A disc put on the board by hand is found when a `placed` event names its kind, within 10 mm
    of where it was put, at most a second after."""
    def placed(items: list[tuple[str, float, float, float]]) -> list[dict]:
        return [{"type": "placed", "t": t, "frame": None, "disc": {"id": i, "kind": k}, "x_mm": x, "y_mm": y}
                for i, (k, x, y, t) in enumerate(items)]

    sc = score_events(placed([("queen", 0.0, 0.0, 12.18)]), placed(pred_placed), fps=60.0)
    assert (sc.placed_tp, sc.placed_pred, sc.placed_true) == (tp, len(pred_placed), 1)
    assert sc.ratios()["placed_recall"] == tp
