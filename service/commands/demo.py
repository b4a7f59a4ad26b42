"""`boardtrack demo`: the table service on the bundled demo clip, looping (what `make run` starts)."""

from __future__ import annotations

import argparse
import importlib.util
import json
import logging
from pathlib import Path

__all__ = ["add_arguments", "demo_clip", "run"]

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, default=8000, help="listen port (default: %(default)s)")
    parser.add_argument("--host", default="127.0.0.1", help="listen address (default: %(default)s)")
    parser.add_argument(
        "--db",
        type=Path,
        default=Path("out/demo/boardtrack.db"),
        help="match log, started afresh each run (default: %(default)s)",
    )
    parser.add_argument("--token", help="umpire token (default: generated and printed)")


def demo_clip() -> tuple[Path | None, Path | None, str]:
    """The demo video in `fixtures/demo/`, its calibration (if saved) and its game.

    Located on disk without importing `fixtures`. Returns (None, None, "carrom") if absent.
    """
    spec = importlib.util.find_spec("fixtures")
    folders = list(spec.submodule_search_locations or []) if spec else []
    for folder in (Path(f) / "demo" for f in folders):
        videos = sorted(folder.glob("*.mp4"))
        if videos:
            calib = next(iter(sorted(folder.glob("*calib*.json"))), None)
            return videos[0], calib, _game_of(folder)
    return None, None, "carrom"


def _game_of(folder: Path) -> str:
    """The game named in the header line of `truth.jsonl`, else carrom."""
    try:
        with (folder / "truth.jsonl").open(encoding="utf-8") as f:
            game = json.loads(f.readline()).get("game")
    except (OSError, ValueError, AttributeError):
        return "carrom"
    return game if game in ("carrom", "korona") else "carrom"


def run(args: argparse.Namespace) -> int:
    from service.commands.serve import serve
    from service.settings import Settings

    video, calib, game = demo_clip()
    source = str(video) if video else "synthetic"
    if video is None:
        log.warning("no demo clip in fixtures/demo/: playing the simulator live instead")
    for suffix in ("", "-wal", "-shm"):
        Path(f"{args.db}{suffix}").unlink(missing_ok=True)
    settings = Settings(
        source=source,
        game=game,
        calibration=calib,
        db=args.db,
        host=args.host,
        port=args.port,
        loop=True,
        start_players="Player A,Player B",
        **({"token": args.token} if args.token else {}),
    ).with_token()
    return serve(settings)
