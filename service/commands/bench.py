"""`boardtrack bench WHAT`: accuracy and speed benchmarks (detect, track, serve)."""

from __future__ import annotations

import argparse
import importlib

__all__ = ["add_arguments", "run"]

BENCHES = {
    "detect": ("service.commands.bench_detect", "detection accuracy and speed on synthetic and real images"),
    "track": ("service.commands.bench_track", "tracking and event accuracy and full-pipeline speed"),
    "serve": ("service.commands.bench_serve", "service latency with many overlay clients"),
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="bench", metavar="WHAT", required=True)
    for name, (module_name, help_text) in BENCHES.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        p = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)


def run(args: argparse.Namespace) -> int:  # replaced by the chosen bench's own run
    raise AssertionError("unreachable: argparse dispatches to the bench module")
