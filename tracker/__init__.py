"""boardtrack's eye: per-frame detection, tracking and events.

Submodules are imported on first use, so light consumers (the rules engine reading
`tracker.specs`, `tracker.errors`) do not pull in OpenCV.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "BoardSpec",
    "CalibrationError",
    "ConfigError",
    "DiscKind",
    "EquipmentSpec",
    "FrameDetections",
    "Game",
    "InputError",
    "RuleError",
    "TrackerError",
    "default_equipment",
    "load_board",
    "load_equipment",
]

_HOMES = {
    "BoardSpec": "tracker.specs",
    "DiscKind": "tracker.specs",
    "EquipmentSpec": "tracker.specs",
    "Game": "tracker.specs",
    "default_equipment": "tracker.specs",
    "load_board": "tracker.specs",
    "load_equipment": "tracker.specs",
    "FrameDetections": "tracker.detections",
    "CalibrationError": "tracker.errors",
    "ConfigError": "tracker.errors",
    "InputError": "tracker.errors",
    "RuleError": "tracker.errors",
    "TrackerError": "tracker.errors",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'tracker' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)


def __dir__() -> list[str]:
    return sorted(__all__)
