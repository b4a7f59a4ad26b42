"""Builders for the korona event tests: simulated strokes as the per-track arrays of a finished shot.

`shot_arrays` samples a simulator `Timeline` like a camera would (a frame rate, detection noise,
detections lost to motion blur and at random), with the truth disc ids as track ids, so that the
korona stroke analysis can be scored against the simulator's ground truth without the tracker.
The sampling itself is the one `boardtrack bench track --game korona` uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from fixtures.scene import Timeline
from service.commands._bench_track_korona import shot_arrays as _sample
from tracker.events._shot_record import ShotRecord
from tracker.specs import DiscKind


@dataclass(frozen=True)
class ShotArrays:
    """One stroke as the tracker would hand it over (ids are the simulator's disc ids)."""

    ids: np.ndarray
    kinds: np.ndarray
    t_s: np.ndarray
    xy_mm: np.ndarray
    before_mm: np.ndarray
    after_mm: np.ndarray
    fate: tuple[str, ...]
    side: str
    t_start_s: float
    t_end_s: float

    def record(self, tl: Timeline, shot: int) -> ShotRecord:
        """The `ShotRecord` the event detector would build (its first-contact summary left empty)."""
        striker = int(self.ids[np.flatnonzero(self.kinds == DiscKind.STRIKER)[0]])
        return ShotRecord(
            game="korona",
            shot=shot,
            board=tl.board,
            equipment=tl.equipment,
            t_start_s=self.t_start_s,
            t_end_s=self.t_end_s,
            side=self.side,
            ids=self.ids.astype(np.int32),
            kinds=self.kinds.astype(np.int8),
            t_s=self.t_s,
            xy_mm=self.xy_mm,
            before_mm=self.before_mm,
            after_mm=self.after_mm,
            fate=self.fate,
            striker_id=striker,
            first_contact=None,
            first_disc_id=None,
            first_cushion=None,
            cushion_before_contact=False,
        )


def shots_of(tl: Timeline) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(shot_start, shot_end) truth event pairs, in order."""
    starts = {e["shot"]: e for e in tl.events if e["type"] == "shot_start"}
    ends = {e["shot"]: e for e in tl.events if e["type"] == "shot_end"}
    return [(starts[n], ends[n]) for n in sorted(starts) if n in ends]


def truth_first_disc(tl: Timeline, shot: int) -> int | None:
    """Id of the first disc the striker touched in `shot` (None if none)."""
    for e in tl.events:
        if (
            e["type"] == "contact"
            and e.get("shot") == shot
            and e["a"]["kind"] == "striker"
            and "id" in e["b"]
        ):
            return int(e["b"]["id"])
    return None


def shot_arrays(
    tl: Timeline, start: dict[str, Any], end: dict[str, Any], *, fps: float, rng: np.random.Generator
) -> ShotArrays:
    """Sample one stroke of `tl` at `fps` from 0.3 s before its start to its end."""
    return ShotArrays(**_sample(tl, start, end, fps=fps, rng=rng), t_end_s=float(end["t"]))
