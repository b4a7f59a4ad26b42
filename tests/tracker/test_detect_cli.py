"""`boardtrack detect` command line: JSON contract and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from service.cli import main

fixtures_render = pytest.importorskip("fixtures.render")


def test_detect_json_contract(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    img, _ = fixtures_render.render_still("carrom", 7, level="clean", layout="break")
    p = tmp_path / "frame.png"
    cv2.imwrite(str(p), img)
    assert main(["detect", str(p), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "carrom" and out["image"] == {"width": 1280, "height": 720}
    b = out["board"]
    assert b["found"] is True and b["reason"] is None and len(b["corners_px"]) == 4
    assert np.asarray(b["image_to_board"]).shape == (3, 3) and 0.0 <= b["score"] <= 1.0
    assert len(out["discs"]) >= 15
    for d in out["discs"]:
        assert d["kind"] in ("white", "black", "queen", "striker")
        assert {"x_mm", "y_mm", "u_px", "v_px", "score"} <= d.keys()
    assert 0.0 <= out["occluded_fraction"] <= 1.0


def test_detect_no_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "grey.png"
    cv2.imwrite(str(p), np.full((240, 320, 3), 90, np.uint8))
    assert main(["detect", str(p), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["board"]["found"] is False and out["board"]["reason"] and out["discs"] == []


@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "no such file"), (b"", "empty file"), (b"not an image at all", "not a readable image")],
    ids=["missing", "empty", "not-image"],
)
def test_detect_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None, message: str
) -> None:
    p = tmp_path / "x.jpg"
    if content is not None:
        p.write_bytes(content)
    assert main(["detect", str(p), "--json"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_detect_calibration_version_mismatch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    img, _ = fixtures_render.render_still("carrom", 8, level="clean")
    p = tmp_path / "f.png"
    cv2.imwrite(str(p), img)
    c = tmp_path / "c.json"
    assert main(["calibrate", "board", "--source", str(p), "--out", str(c)]) == 0
    capsys.readouterr()
    d = json.loads(c.read_text())
    d["version"] = 0
    c.write_text(json.dumps(d))
    assert main(["detect", str(p), "--calibration", str(c)]) == 2
    assert "version" in capsys.readouterr().err
