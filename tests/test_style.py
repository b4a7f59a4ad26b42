"""The code's own standards, checked like any other behaviour: ruff on everything, and strict
typing on the domain packages (`tracker`, `calibration`, `rules`)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ["tracker", "calibration", "rules", "service", "fixtures", "tests"]


def _tool(name: str) -> str:
    exe = Path(sys.executable).with_name(name)
    found = str(exe) if exe.exists() else shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (it comes with the test extras)")
    return found


def test_ruff_is_clean() -> None:
    out = subprocess.run([_tool("ruff"), "check", *PACKAGES], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.slow
def test_domain_packages_type_check_strictly() -> None:
    out = subprocess.run(
        [_tool("mypy"), "--strict", "--no-incremental", "tracker", "calibration", "rules"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
