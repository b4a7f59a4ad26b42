"""`boardtrack rules` as a subprocess: one ruling per accepted line, rejected lines on stderr."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
START = {"umpire": "start_match", "players": {"S": "A", "N": "B"}, "first_break": "A"}


def _run(text: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "service.cli", "rules", *args], input=text, text=True,
                          capture_output=True, cwd=ROOT, timeout=60, check=False)


def _lines(*objs: object) -> str:
    return "\n".join(o if isinstance(o, str) else json.dumps(o) for o in objs) + "\n"


def test_rulings_one_per_line_and_sol_export():
    first = {"stroke": 1, "side": "S", "first_contact": "white", "pocketed": [{"kind": "white"}]}
    text = _lines(START, first,
                  {"stroke": 2, "side": "S", "striker_pocketed": True})
    p = _run(text, "--game", "carrom", "--export", "sol")
    assert p.returncode == 0, p.stderr
    out = [json.loads(x) for x in p.stdout.splitlines()]
    assert len(out) == 4
    assert out[1]["next"] == "A" and out[2]["fouls"][0]["law"] == "ICF §45a"
    assert out[3]["sol"]["competitor1"] == "A"


def test_malformed_lines_are_reported_and_skipped():
    text = _lines(START, "{not json", {"stroke": 1, "side": "Q"},
                  {"stroke": 1, "side": "S", "pocketed": [{"kind": "white"}], "first_contact": "white"},
                  {"umpire": "teleport"}, {"stroke": 2, "side": "S", "pocketed": ["black"]})
    p = _run(text)
    assert p.returncode == 1
    err = p.stderr.splitlines()
    assert err[0].startswith("line 2: not valid JSON")
    assert err[1].startswith("line 3: stroke record: 'side'")
    assert err[2].startswith("line 5: unknown umpire decision 'teleport'")
    assert err[-1] == "3 line(s) rejected"
    out = [json.loads(x) for x in p.stdout.splitlines()]
    assert len(out) == 3  # the state was unchanged by the rejected lines
    assert out[-1]["coins"] == {"white": 8, "black": 8} and out[-1]["next"] == "B"


@pytest.mark.parametrize(("args", "message"), [(("--game", "chess"), "unknown game"),
                                               (("--format", "bogus"), "unknown carrom format")],
                         ids=["bad-game", "bad-format"])
def test_bad_options_exit_2_with_one_line(args, message):
    p = _run("", *args)
    assert p.returncode == 2
    assert message in p.stderr and len(p.stderr.strip().splitlines()) == 1
