"""A finished shot's track histories, and the game-specific `shot_extras` hook.

When a shot ends (everything at rest), the event detector builds one frozen `ShotRecord` of the
shot: every track's observed positions from shortly before the striker left its place to the end,
the frame times, the kinds, where each disc stood before and after, which discs were lost (pocketed
or off the board), the striker's first contact and the cushions it touched. It then calls
`shot_extras(game, record)`; the returned keys go onto that shot's `shot_end` event (contract 1
allows extra keys, e.g. korona's `"stroke": "direct"|"rebound"`).

Game-specific analyses live in their own module and register in `_EXTRAS` below (a dict of
handlers, imported lazily): korona's in `tracker.events._korona` as
`shot_extras(record: ShotRecord) -> dict[str, Any]`. A game without a handler adds nothing. A
handler must be a pure function of the record (no I/O, no clock) and return JSON-ready values.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from tracker.specs import BoardSpec, DiscKind, EquipmentSpec

__all__ = ["CushionTouch", "ShotRecord", "game_loss", "shot_extras"]


@dataclass(frozen=True, slots=True)
class CushionTouch:
    """A disc bouncing off a cushion.

    Attributes:
        t_s: when, s (video time).
        track_id: the disc's track id.
        side: "N", "E", "S" or "W".
    """

    t_s: float
    track_id: int
    side: str


@dataclass(frozen=True, slots=True)
class ShotRecord:
    """Everything the tracker knows about one finished shot (read-only arrays).

    Positions are board mm (origin at the board centre, x right, y down); times are video seconds.

    Attributes:
        game: "carrom" or "korona".
        shot: the shot number (from 1).
        board: board geometry.
        equipment: disc sizes.
        t_start_s: when the striker left its place.
        t_end_s: when everything had come to rest (the shot_end time).
        side: the side the shot was played from ("N", "E", "S", "W").
        ids: (M,) int32 track ids of every disc on the board at the start or during the shot.
        kinds: (M,) int8 `DiscKind` of each track (decided by vote over the track).
        t_s: (K,) float64 frame times, from shortly before `t_start_s` to `t_end_s`.
        xy_mm: (M, K, 2) float64 observed centres per track and frame; NaN where not seen (hidden
            under a hand, blurred away, gone).
        before_mm: (M, 2) float64 where each disc stood at rest before the shot (NaN: not on the board).
        after_mm: (M, 2) float64 where each disc came to rest (NaN: pocketed, off the board).
        fate: (M,) per track "board", "pocketed" or "off_board".
        striker_id: the striker's track id, or None if no striker track.
        first_contact: what the striker touched first: a kind label, "cushion", or None.
        first_disc_id: the track id of the first disc the striker touched, or None.
        first_cushion: the first cushion side the striker touched before any disc, or None.
        cushion_before_contact: True if a cushion came before the striker's first disc.
        cushions: striker-cushion (and disc-cushion) touches of the shot, in time order.
    """

    game: str
    shot: int
    board: BoardSpec
    equipment: EquipmentSpec
    t_start_s: float
    t_end_s: float
    side: str
    ids: np.ndarray
    kinds: np.ndarray
    t_s: np.ndarray
    xy_mm: np.ndarray
    before_mm: np.ndarray
    after_mm: np.ndarray
    fate: tuple[str, ...]
    striker_id: int | None
    first_contact: str | None
    first_disc_id: int | None
    first_cushion: str | None
    cushion_before_contact: bool
    cushions: tuple[CushionTouch, ...] = ()

    def __post_init__(self) -> None:
        m, k = len(self.ids), len(self.t_s)
        shapes = {"kinds": (m,), "t_s": (k,), "xy_mm": (m, k, 2), "before_mm": (m, 2), "after_mm": (m, 2)}
        for name, shape in shapes.items():
            arr = getattr(self, name)
            if arr.shape != shape:
                raise ValueError(f"ShotRecord.{name}: expected shape {shape}, got {arr.shape}")
            arr.setflags(write=False)
        self.ids.setflags(write=False)
        if len(self.fate) != m:
            raise ValueError(f"ShotRecord.fate: expected {m} entries, got {len(self.fate)}")

    def row_of(self, track_id: int) -> int:
        """Row of `track_id` in the arrays, or -1."""
        rows = np.flatnonzero(self.ids == track_id)
        return int(rows[0]) if rows.size else -1

    def striker_row(self) -> int:
        """Row of the striker, or -1."""
        return -1 if self.striker_id is None else self.row_of(self.striker_id)

    def coins(self) -> np.ndarray:
        """(M,) bool: rows that are coins (not the striker)."""
        return np.asarray(self.kinds != DiscKind.STRIKER)


ExtrasHandler = Callable[[ShotRecord], Mapping[str, Any]]

# game -> "module:function" of its handler, imported on first use (a missing module adds nothing)
_EXTRAS: dict[str, str] = {"korona": "tracker.events._korona:shot_extras"}
# game -> "module:function" of the game's own loss rule (issue #7: korona discs knocked over a rail
# from rest, a striker lost at speed); called as handler(loss, hist, row, kinds, v_mm_s, board=,
# equipment=, frame_dt_s=) -> Loss | None, with the generic rule's final answer `loss`; its result stands
_LOSSES: dict[str, str] = {"korona": "tracker.events._korona_losses:korona_loss"}


def game_loss(game: str, loss: Any, *args: Any, **kwargs: Any) -> Any:
    """The game's own answer for a vanished disc given the generic one, `loss` (see `_LOSSES`);
    `loss` itself for a game without a rule.

    Examples:
        >>> game_loss("carrom", None) is None
        True
    """
    target = _LOSSES.get(game)
    if target is None:
        return loss
    module_name, func_name = target.split(":")
    return getattr(importlib.import_module(module_name), func_name)(loss, *args, **kwargs)


def shot_extras(game: str, shot: ShotRecord) -> dict[str, Any]:
    """Game-specific keys for the shot_end event of `shot`.

    Args:
        game: "carrom" or "korona".
        shot: the finished shot.

    Returns:
        A dict of extra shot_end keys (empty when the game has no handler).

    Examples:
        >>> shot_extras("carrom", None)  # type: ignore[arg-type]
        {}
    """
    target = _EXTRAS.get(game)
    if target is None:
        return {}
    module_name, func_name = target.split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        return {}
    handler: ExtrasHandler = getattr(module, func_name)
    return dict(handler(shot))
