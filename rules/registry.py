"""Registry of rules engines: game name -> engine class, imported lazily.

A game plugs in by adding one entry to `ENGINES` ("module:Class"); nothing else in the framework
needs to change. `register_engine` adds one at run time (tests use it for stand-in engines).
"""

from __future__ import annotations

import importlib
from typing import Any

from rules.base import RulesEngine
from tracker.errors import ConfigError

__all__ = ["ENGINES", "create_engine", "engine_class", "register_engine"]

# game -> "module:Class"; imported only when that game is used.
ENGINES: dict[str, str] = {
    "carrom": "rules.carrom:CarromRules",
    "korona": "rules.korona:KoronaRules",
}
_LOADED: dict[str, type[RulesEngine[Any]]] = {}


def register_engine(game: str, cls: type[RulesEngine[Any]]) -> None:
    """Register (or replace) the engine class of `game`."""
    _LOADED[game] = cls
    ENGINES.setdefault(game, f"{cls.__module__}:{cls.__qualname__}")


def engine_class(game: str) -> type[RulesEngine[Any]]:
    """The engine class of `game`.

    Raises:
        ConfigError: unknown game, or its engine module is not available.
    """
    if game in _LOADED:
        return _LOADED[game]
    if game not in ENGINES:
        raise ConfigError(f"unknown game {game!r}; expected one of {', '.join(sorted(ENGINES))}")
    module_name, _, cls_name = ENGINES[game].partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        raise ConfigError(f"the {game} rules engine is not available in this build") from None
    cls = getattr(module, cls_name)
    _LOADED[game] = cls
    return cls  # type: ignore[no-any-return]


def create_engine(game: str, fmt: str = "default") -> RulesEngine[Any]:
    """A new engine for `game` with the named format preset."""
    return engine_class(game)(fmt)
