"""What the end-of-shot analysis knows besides the shot's history, and its tuning."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from tracker.specs import BoardSpec, EquipmentSpec

__all__ = ["ShotContext", "ShotTuning"]


@dataclass(frozen=True, slots=True)
class ShotTuning:
    """Tuning of the end-of-shot analysis (mm, mm/s, s)."""

    assumed_speed_mm_s: float = 3500.0
    fast_speed_mm_s: float = 4500.0
    line_tol_mm: float = 4.0
    move_mm: float = 5.0
    moved_mm: float = 6.0
    shift_mm: float = 1.5
    graze_mm: float = 2.5
    loss_horizon_frames: float = 4.5
    pocket_reach_mm: float = 16.0
    min_off_speed_mm_s: float = 2000.0
    min_loss_speed_mm_s: float = 150.0
    min_loss_obs: int = 3
    # a disc the detector stops seeing at rest was seen standing there first, this long at least
    min_stand_s: float = 0.3
    stand_mm: float = 3.0
    tie_mm: float = 8.0
    stir_mm: float = 2.5


@dataclass(frozen=True, slots=True)
class ShotContext:
    """What the detector knows besides the history.

    Attributes:
        game: "carrom" or "korona".
        number: shot number.
        board: board geometry.
        equipment: disc sizes.
        kind_of: track id -> `DiscKind` value (by vote).
        kind_share: track id -> share of the votes behind that kind.
        anchors: track id -> (x, y) where the disc stood at rest before the shot, board mm.
        striker_rest: (x, y) where the striker was seen standing just before the shot, or None.
        hidden: ids of tracks that vanished under a hand.
        t_trigger_s: when motion was first noticed, s.
        frame_dt_s: frame interval, s.
        placement_line_mm: distance of the placement lines from the centre, mm.
        placement_extent_mm: half the length of a placement line, mm.
        placement_tol_mm: how far from a placement line a striker set for a shot may stand, mm.
        kind_before: track id -> `DiscKind` value as known before the shot (the disc at its anchor;
            `kind_of` is the disc a track follows at the end, which differs after an identity mix-up).
        trigger_ids: ids of the tracks whose motion started the shot (seen moving twice in a row).
        uncovered: ids of `hidden` tracks whose place the hand has left by the end of the shot, with
            nothing seen there: the disc moved on under the hand (or was taken away).
    """

    game: str
    number: int
    board: BoardSpec
    equipment: EquipmentSpec
    kind_of: Mapping[int, int]
    kind_share: Mapping[int, float]
    anchors: Mapping[int, tuple[float, float]]
    striker_rest: tuple[float, float] | None
    hidden: frozenset[int]
    t_trigger_s: float
    frame_dt_s: float
    placement_line_mm: float
    placement_extent_mm: float
    placement_tol_mm: float = 30.0
    kind_before: Mapping[int, int] = field(default_factory=dict)
    trigger_ids: frozenset[int] = frozenset()
    uncovered: frozenset[int] = frozenset()
