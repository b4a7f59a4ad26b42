"""The `boardtrack` command line: one program, one subcommand per job.

Each subcommand lives in `service/commands/<name>.py` and provides `add_arguments(parser)`
and `run(args) -> int`. Command modules import their heavy dependencies inside `run`, so
`boardtrack --help` stays fast. Errors reach the user as one line, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Sequence

from tracker.errors import TrackerError

__all__ = ["main"]

# name -> (module, one-line help). Order is the order shown in --help.
COMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("service.commands.demo", "run the main job on the bundled demo clip"),
    "simulate": ("service.commands.simulate", "synthetic footage with exact ground truth"),
    "calibrate": ("service.commands.calibrate", "lens and board calibration"),
    "detect": ("service.commands.detect", "find the board and every disc in one image"),
    "track": ("service.commands.track", "track discs through a video and print events"),
    "rules": ("service.commands.rules", "apply the rules to stroke records"),
    "serve": ("service.commands.serve", "the table service: overlay, umpire console, match log"),
    "bench": ("service.commands.bench", "accuracy and speed benchmarks"),
}


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="boardtrack", description="Overhead-camera tracker and referee for carrom and korona."
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log more detail to standard error")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module_name, help_text) in COMMANDS.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue  # command not available in this build
        p = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `boardtrack` console script. Returns the process exit code."""
    args = _build_parser().parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    try:
        return int(args._run(args) or 0)
    except TrackerError as exc:
        print(f"boardtrack {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # noqa: BLE001 - the last line of defence: one line, not a traceback
        if os.environ.get("BOARDTRACK_DEBUG"):
            raise
        print(f"boardtrack {args.command}: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
