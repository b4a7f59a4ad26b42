"""`boardtrack rules`: apply a game's rules to stroke records and umpire decisions.

Reads JSON lines (stroke records and umpire decisions, contract 2) from a file or standard input
and prints one ruling per accepted line. A malformed or inapplicable line is reported on standard
error as one line ("line 7: ...") and skipped, leaving the state unchanged; the exit status is 1
if any line was rejected.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

__all__ = ["add_arguments", "run", "run_lines"]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", nargs="?", default="-",
                        help="JSON-lines file of stroke records and umpire decisions "
                             "(default: standard input)")
    parser.add_argument("--game", default="carrom", help="carrom or korona (default: carrom)")
    parser.add_argument("--format", default="default", dest="fmt",
                        help="match format preset with optional overrides, e.g. 'default', 'single', "
                             "'unlimited', 'fic', 'queen24', 'default,queen_cutoff=24'")
    parser.add_argument("--export", choices=["sol"], default=None,
                        help="print the match result in this form after the rulings")
    parser.add_argument("--state", action="store_true",
                        help="print the final state snapshot after the rulings")


def run_lines(lines: TextIO, out: TextIO, err: TextIO, *, game: str, fmt: str,
              export: str | None = None, state: bool = False) -> int:
    """Apply every line of `lines`; write rulings to `out` and rejections to `err`.

    Returns:
        0 if every line was accepted, 1 otherwise.
    """
    from rules import RulesSession
    from tracker.errors import RuleError

    session = RulesSession(game, format=fmt)
    rejected = 0
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        try:
            line: Any = json.loads(text)
        except json.JSONDecodeError as exc:
            print(f"line {number}: not valid JSON: {exc.msg} at column {exc.colno}", file=err)
            rejected += 1
            continue
        try:
            ruling = session.apply(line)
        except RuleError as exc:
            print(f"line {number}: {exc}", file=err)
            rejected += 1
            continue
        print(json.dumps(ruling, ensure_ascii=False), file=out)
    if state:
        print(json.dumps({"state": session.state()}, ensure_ascii=False), file=out)
    if export == "sol":
        print(json.dumps({"sol": session.export_sol()}, ensure_ascii=False), file=out)
    if rejected:
        print(f"{rejected} line(s) rejected", file=err)
    return 1 if rejected else 0


def run(args: argparse.Namespace) -> int:
    from tracker.errors import InputError

    if args.input == "-":
        return run_lines(sys.stdin, sys.stdout, sys.stderr, game=args.game, fmt=args.fmt,
                         export=args.export, state=args.state)
    try:
        with open(args.input, encoding="utf-8") as fh:
            return run_lines(fh, sys.stdout, sys.stderr, game=args.game, fmt=args.fmt,
                             export=args.export, state=args.state)
    except OSError as exc:
        raise InputError(f"cannot read {args.input}: {exc.strerror}") from None
