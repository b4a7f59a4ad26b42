"""The one exception hierarchy of boardtrack.

Every error the domain packages raise on purpose derives from `TrackerError`, so
the command line and the service can turn it into a one-line message or a 4xx.
"""

from __future__ import annotations

__all__ = ["CalibrationError", "ConfigError", "InputError", "RuleError", "TrackerError"]


class TrackerError(Exception):
    """Root of every error boardtrack raises on purpose."""


class CalibrationError(TrackerError):
    """A calibration could not be computed, loaded or used (wrong version, bad file)."""


class ConfigError(TrackerError):
    """A configuration value is out of range or inconsistent with another."""


class RuleError(TrackerError):
    """A stroke record or umpire decision cannot be applied to the rules state."""


class InputError(TrackerError):
    """Input data (image, video, JSON line) is unreadable or malformed."""
