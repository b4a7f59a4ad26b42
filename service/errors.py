"""Service-level errors and the one mapping from `TrackerError` subclasses to HTTP statuses."""

from __future__ import annotations

from tracker.errors import CalibrationError, ConfigError, InputError, RuleError, TrackerError

__all__ = ["AuthError", "NotFoundError", "http_status"]


class AuthError(TrackerError):
    """An umpire action without a valid bearer token."""


class NotFoundError(TrackerError):
    """A match, review item or log entry that does not exist."""


# Most specific first; the first match wins.
_STATUS: tuple[tuple[type[TrackerError], int], ...] = (
    (AuthError, 401),
    (NotFoundError, 404),
    (RuleError, 409),
    (InputError, 422),
    (ConfigError, 400),
    (CalibrationError, 409),
    (TrackerError, 400),
)


def http_status(exc: TrackerError) -> int:
    """The HTTP status for a `TrackerError` (401, 404, 409, 422 or 400).

    Examples:
        >>> http_status(RuleError("no match"))
        409
        >>> http_status(AuthError("bad token"))
        401
    """
    return next(status for cls, status in _STATUS if isinstance(exc, cls))
