"""`boardtrack serve`: the table service (overlay, umpire console, match log) for one board."""

from __future__ import annotations

import argparse
from pathlib import Path

__all__ = ["add_arguments", "run", "serve"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--source",
        required=True,
        help="video file, camera index (0), device (/dev/video0), stream URL (rtsp://...), "
        "picamera, synthetic, or none (no camera: umpire console and /api/umpire/ingest)",
    )
    parser.add_argument("--game", choices=("carrom", "korona"), default="carrom")
    parser.add_argument(
        "--calibration", type=Path, help="saved board calibration (JSON); default: find the board"
    )
    parser.add_argument(
        "--db", type=Path, default=Path("boardtrack.db"), help="SQLite match log (default: %(default)s)"
    )
    parser.add_argument(
        "--clip-dir", type=Path, help="review clips folder (default: <db>-clips next to the db)"
    )
    parser.add_argument("--host", default="127.0.0.1", help="listen address (default: %(default)s)")
    parser.add_argument("--port", type=int, default=8000, help="listen port (default: %(default)s)")
    parser.add_argument(
        "--token", help="umpire token (default: $BOARDTRACK_TOKEN, else generated and printed)"
    )
    parser.add_argument(
        "--format", dest="rules_format", help="rules format of new matches (default: default)"
    )
    parser.add_argument("--fast", action="store_true", help="play a video file as fast as possible")
    parser.add_argument("--loop", action="store_true", help="restart a video file at its end")
    parser.add_argument(
        "--no-review",
        action="store_true",
        help="apply camera fouls at once instead of holding them for the umpire",
    )
    parser.add_argument(
        "--start", metavar="A,B", help="start a match between A (S, breaks) and B (N) if none is logged"
    )


def run(args: argparse.Namespace) -> int:
    from service.settings import Settings

    overrides = {
        k: v
        for k, v in {
            "source": args.source,
            "game": args.game,
            "calibration": args.calibration,
            "db": args.db,
            "clip_dir": args.clip_dir,
            "host": args.host,
            "port": args.port,
            "token": args.token,
            "rules_format": args.rules_format,
            "fast": args.fast or None,
            "loop": args.loop or None,
            "review_fouls": False if args.no_review else None,
            "start_players": args.start,
        }.items()
        if v is not None
    }
    return serve(Settings(**overrides).with_token())


def serve(settings: object) -> int:
    """Check the source, print the URLs and the umpire token, and run uvicorn until stopped."""
    import uvicorn

    from service.app import create_app
    from service.settings import Settings
    from service.sources import open_source

    assert isinstance(settings, Settings)
    if settings.source != "none":
        open_source(settings.source, game=settings.game)  # an unknown source is a one-line error now
    app = create_app(settings)
    base = f"http://{'127.0.0.1' if settings.host in ('0.0.0.0', '::') else settings.host}:{settings.port}"
    print(f"boardtrack serve: {settings.game}, source {settings.source}, match log {settings.db}", flush=True)
    print(f"  overlay (OBS browser source, 1920x1080): {base}/overlay", flush=True)
    print(f"  umpire console: {base}/umpire#token={settings.token}", flush=True)
    print(f"  umpire token: {settings.token}", flush=True)
    print(f"  API docs: {base}/docs", flush=True)
    uvicorn.run(app, host=settings.host, port=settings.port, log_level="warning", ws="websockets-sansio")
    return 0
