"""The event detector's tuning (`EventConfig`) and per-frame output (`EventUpdate`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from tracker.errors import ConfigError
from tracker.events._shot import ShotTuning
from tracker.events.types import GameEvent

__all__ = ["EventConfig", "EventUpdate"]


@dataclass(frozen=True, slots=True)
class EventConfig:
    """Event detection tuning. Lengths in mm, speeds in mm/s, times in s.

    Attributes:
        rest_s: a shot ends once every disc seen has been at rest this long.
        rest_disp_mm: a disc whose observations stayed within this distance over `motion_window_s` is at rest.
        motion_window_s: time over which rest is judged (longer = less noise).
        start_speed_mm_s: a disc moving faster than this between shots starts a shot ...
        start_disp_mm: ... and its speed takes it half this far in a frame (at 120 fps a slower step is
            hardly above the noise).
        confirm_s: ... and motion (or the disc vanishing) is seen again within this time.
        striker_lead_s: a striker seen moving between shots starts one only if, at its speed, it
            left its placement line at most this long ago (it is hidden under the hand only briefly).
        vanish_confirm_dt_s: a moving striker that vanishes at once confirms a shot if frames are
            at least this far apart (below ~45 fps a fast striker blurs out of detection; at higher
            rates a striker struck is seen moving again, one lifted by hand is not), or if its next
            step reaches the rail (it flew off the board).
        pre_s: history kept before a shot starts (the striker's placement, rest positions).
        max_shot_s: a shot still moving after this long is closed anyway.
        placed_min_hits: observations at rest before a new disc is announced as placed.
        init_s: discs seen within this time of the first frame were there from the start (no placed event).
        shot: tuning of the end-of-shot analysis.
    """

    rest_s: float = 0.25
    rest_disp_mm: float = 4.0
    motion_window_s: float = 0.1
    start_speed_mm_s: float = 400.0
    start_disp_mm: float = 8.0
    confirm_s: float = 0.12
    striker_lead_s: float = 0.1
    vanish_confirm_dt_s: float = 0.022
    pre_s: float = 1.5
    max_shot_s: float = 60.0
    placed_min_hits: int = 5
    init_s: float = 0.5
    shot: ShotTuning = field(default_factory=ShotTuning)

    def __post_init__(self) -> None:
        for name in ("rest_s", "rest_disp_mm", "motion_window_s", "start_speed_mm_s", "start_disp_mm",
                     "confirm_s", "striker_lead_s", "vanish_confirm_dt_s", "pre_s", "max_shot_s", "init_s"):
            value = getattr(self, name)
            if not 0.0 < value < 1e5:
                raise ConfigError(f"EventConfig.{name}={value} outside (0, 1e5)")
        if not 1 <= self.placed_min_hits <= 20:
            raise ConfigError(f"EventConfig.placed_min_hits={self.placed_min_hits} outside [1, 20]")


@dataclass(frozen=True, slots=True)
class EventUpdate:
    """What one frame produced: new events (any order) and track ids that left the board."""

    events: tuple[GameEvent, ...]
    remove: tuple[int, ...]
