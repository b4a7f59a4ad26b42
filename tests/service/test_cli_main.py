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
