"""Colour models of the playing surface and the discs.

Colours are OpenCV 8-bit Lab triples (L, a, b in 0..255, neutral grey at a = b = 128).
Men and the queen are told apart by colour (nearest prototype); the striker by its size,
so a striker of any colour works.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tracker._validate import check_shape
from tracker.errors import CalibrationError
from tracker.specs import DiscKind

__all__ = ["Appearance", "DEFAULT_COIN_LAB", "learn_coin_colours"]

# Prototypes for common sets: white/natural/beige men, black/dark-brown men, red queen.
DEFAULT_COIN_LAB = np.array(
    [
        [215.0, 128.0, 136.0],  # white
        [45.0, 130.0, 132.0],  # black
        [115.0, 178.0, 155.0],  # queen
    ]
)
# Lightness differences matter less than hue: lighting changes L across the board.
_WEIGHTS = np.array([0.5, 1.0, 1.0])


@dataclass(frozen=True, slots=True)
class Appearance:
    """Surface colour and coin colour prototypes.

    Attributes:
        surface_lab: (3,) mean Lab of the playing surface.
        surface_spread: typical Lab distance of surface pixels from `surface_lab`.
        coin_lab: (3, 3) Lab prototypes of WHITE, BLACK, QUEEN (rows in `DiscKind` order).
        learned: True when the prototypes were measured on this set.

    Examples:
        >>> app = Appearance(np.array([180.0, 132, 150]), 6.0)
        >>> app.classify_coins(np.array([[230.0, 128, 130], [30, 128, 128], [120, 180, 160]])).tolist()
        [0, 1, 2]
    """

    surface_lab: np.ndarray
    surface_spread: float
    coin_lab: np.ndarray = field(default_factory=lambda: DEFAULT_COIN_LAB.copy())
    learned: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "surface_lab", np.array(self.surface_lab, dtype=np.float64).ravel())
        object.__setattr__(self, "coin_lab", np.array(self.coin_lab, dtype=np.float64))
        check_shape(self.surface_lab, (3,), "surface_lab")
        check_shape(self.coin_lab, (3, 3), "coin_lab")
        self.surface_lab.setflags(write=False)
        self.coin_lab.setflags(write=False)

    def classify_coins(self, lab: np.ndarray, *, queen: bool = True) -> np.ndarray:
        """(N, 3) mean Lab of coin tops -> (N,) int8 `DiscKind` (WHITE, BLACK or, if `queen`, QUEEN)."""
        lab = np.asarray(lab, dtype=np.float64)
        check_shape(lab, (None, 3), "lab")
        protos = self.coin_lab if queen else self.coin_lab[:2]
        d = np.linalg.norm((lab[:, None, :] - protos[None]) * _WEIGHTS, axis=2)
        return np.asarray(np.argmin(d, axis=1).astype(np.int8))

    def coin_margin(self, lab: np.ndarray) -> np.ndarray:
        """(N,) how clearly each colour is nearest its prototype: 1 - d_best / d_second, in [0, 1]."""
        lab = np.asarray(lab, dtype=np.float64)
        d = np.sort(np.linalg.norm((lab[:, None, :] - self.coin_lab[None]) * _WEIGHTS, axis=2), axis=1)
        return np.asarray(np.clip(1.0 - d[:, 0] / np.maximum(d[:, 1], 1e-6), 0.0, 1.0))

    def to_dict(self) -> dict[str, Any]:
        return {
            "surface_lab": self.surface_lab.tolist(),
            "surface_spread": float(self.surface_spread),
            "coin_lab": self.coin_lab.tolist(),
            "learned": self.learned,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Appearance:
        try:
            return cls(
                np.asarray(d["surface_lab"], float),
                float(d["surface_spread"]),
                np.asarray(d["coin_lab"], float),
                bool(d.get("learned", False)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise CalibrationError(f"bad appearance in calibration file: {exc}") from None


def learn_coin_colours(app: Appearance, lab: np.ndarray, kind: np.ndarray) -> Appearance:
    """Prototypes measured on discs of known kind (e.g. the starting formation).

    Args:
        app: the current model (kinds without samples keep their prototype).
        lab: (N, 3) mean Lab of each disc top.
        kind: (N,) int `DiscKind` of each disc.

    Returns:
        A new `Appearance` with `learned=True`.
    """
    lab = np.asarray(lab, dtype=np.float64)
    kind = np.asarray(kind)
    protos = app.coin_lab.copy()
    for k in (DiscKind.WHITE, DiscKind.BLACK, DiscKind.QUEEN):
        sel = kind == k
        if sel.any():
            protos[int(k)] = np.median(lab[sel], axis=0)
    return Appearance(app.surface_lab, app.surface_spread, protos, learned=True)
