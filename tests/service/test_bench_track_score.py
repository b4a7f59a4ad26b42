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
