"""The `boardtrack` program itself: help, and errors as one line with a non-zero status."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from service.cli import COMMANDS


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "service.cli", *args], capture_output=True, text=True, timeout=120)


def test_help_lists_every_available_subcommand() -> None:
    out = _run("--help")
    assert out.returncode == 0
    available = [n for n, (mod, _) in COMMANDS.items() if importlib.util.find_spec(mod) is not None]
    assert "bench" in available
    for name in available:
        assert f"    {name} " in out.stdout, name


@pytest.mark.parametrize(
    "args",
    [["no-such-command"], []],
    ids=["unknown-command", "no-command"],
)
def test_usage_errors_exit_non_zero_without_traceback(args: list[str]) -> None:
    out = _run(*args)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize("game", ["carrom", "korona"])
def test_bench_track_runs_only_the_runs_asked_for(game: str) -> None:
    """`bench track --fps` and `--only` pick runs of the suite, for korona as for carrom: seed
    1001 is the suite's second run (60 fps), so asking for it at 120 fps runs nothing."""
    import json

    base = ("bench", "track", "--game", game, "--detections", "truth", "--shots", "12", "--no-speed", "--json")
    one = _run(*base, "--only", "1001")
    assert one.returncode == 0, one.stderr
    got = json.loads(one.stdout)
    assert (got["runs"], got["shots"]) == (1, 4)
    none = _run(*base, "--only", "1001", "--fps", "120")
    assert none.returncode == 0, none.stderr
    assert json.loads(none.stdout)["runs"] == 0


def test_korona_bench_lists_its_failures_by_category() -> None:
    """`bench track --game korona` counts its failure cases by category as carrom's does: the
    JSON's counts are the text report's, each category with its cases under it, and the cases
    behind the floors before rest lists and placed discs (seed 1002 on truth detections has
    both kinds of no-floor case)."""
    import json
    import re

    base = ("bench", "track", "--game", "korona", "--detections", "truth", "--shots", "12", "--no-speed",
            "--only", "1002", "--cases", "50")
    counts = json.loads(_run(*base, "--json").stdout)["failures"]
    assert counts and all(n > 0 for n in counts.values())
    text = _run(*base).stdout.split("failures by category")[1].splitlines()[1:]
    heads = [(i, m[1], int(m[2])) for i, line in enumerate(text) if (m := re.fullmatch(r"  (\S[^:]*): (\d+)", line))]
    assert {cat: n for _, cat, n in heads} == counts
    for (i, _, n), nxt in zip(heads, [h[0] for h in heads[1:]] + [len(text)], strict=True):
        assert nxt - i - 1 == n  # its cases, one a line
        assert all(line.startswith("      seed 1002 ") for line in text[i + 1 : nxt])
