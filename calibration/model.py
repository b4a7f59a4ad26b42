"""`BoardCalibration`: everything the tracker needs to know about one camera view of one board.

Saved as JSON with a `version`; loading a file of another version is an error, never a
silent guess.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from calibration.appearance import Appearance
from calibration.geometry import apply_homography, invert_homography
from calibration.lens import LensModel
from tracker._validate import check_shape
from tracker.errors import CalibrationError
from tracker.specs import Game, load_board

__all__ = ["BoardCalibration", "CALIBRATION_VERSION", "Failed", "load_calibration"]

CALIBRATION_VERSION = 1


@dataclass(frozen=True, slots=True)
class Failed:
    """An expected failure (board not found, degenerate fit). Falsy, with a human reason.

    Examples:
        >>> bool(Failed("no board"))
        False
    """

    reason: str

    def __bool__(self) -> bool:
        return False


@dataclass(frozen=True, slots=True)
class BoardCalibration:
    """One camera's view of one board.

    Attributes:
        game: "carrom" or "korona".
        image_size: (width, height) of the frames, pixels.
        corners_px: (4, 2) float64 playing-surface corners NW, NE, SE, SW in ORIGINAL (distorted)
            image pixels.
        image_to_board: (3, 3) homography from UNDISTORTED image pixels to board mm.
        lens: the lens model (from a chessboard calibration or estimated from the board's
            edges), or None for a distortion-free camera.
        score: confidence of the board fit in [0, 1].
        appearance: colour models of the surface and the discs, or None for the defaults.
        equipment: name of the disc set ("icf", "home", "korona"), or None for the game's default.
        version: file format version (`CALIBRATION_VERSION`).
    """

    game: str
    image_size: tuple[int, int]
    corners_px: np.ndarray
    image_to_board: np.ndarray
    lens: LensModel | None = None
    score: float = 1.0
    appearance: Appearance | None = None
    equipment: str | None = None
    notes: tuple[str, ...] = field(default=())
    version: int = CALIBRATION_VERSION

    def __post_init__(self) -> None:
        Game(self.game)
        object.__setattr__(self, "corners_px", np.array(self.corners_px, dtype=np.float64))
        object.__setattr__(self, "image_to_board", np.array(self.image_to_board, dtype=np.float64))
        object.__setattr__(self, "image_size", (int(self.image_size[0]), int(self.image_size[1])))
        check_shape(self.corners_px, (4, 2), "corners_px")
        check_shape(self.image_to_board, (3, 3), "image_to_board")
        self.corners_px.setflags(write=False)
        self.image_to_board.setflags(write=False)

    @property
    def board_to_image(self) -> np.ndarray:
        """(3, 3) homography from board mm to UNDISTORTED image pixels."""
        return invert_homography(self.image_to_board)

    def board_to_original(self, xy_mm: np.ndarray) -> np.ndarray:
        """(N, 2) board mm -> (N, 2) float64 ORIGINAL image pixels (distortion applied)."""
        und = apply_homography(self.board_to_image, np.asarray(xy_mm, dtype=np.float64))
        return und if self.lens is None else self.lens.distort_points(und)

    def original_to_board(self, px: np.ndarray) -> np.ndarray:
        """(N, 2) ORIGINAL image pixels -> (N, 2) float64 board mm."""
        pts = np.asarray(px, dtype=np.float64)
        und = pts if self.lens is None else self.lens.undistort_points(pts)
        return apply_homography(self.image_to_board, und)

    def with_(self, **changes: Any) -> BoardCalibration:
        """A copy with some fields replaced."""
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "game": self.game,
            "image_size": list(self.image_size),
            "corners_px": self.corners_px.tolist(),
            "image_to_board": self.image_to_board.tolist(),
            "lens": None if self.lens is None else self.lens.to_dict(),
            "score": float(self.score),
            "appearance": None if self.appearance is None else self.appearance.to_dict(),
            "equipment": self.equipment,
            "notes": list(self.notes),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> BoardCalibration:
        """Build from `to_dict()` output. Raises CalibrationError on a version mismatch or bad data."""
        if not isinstance(d, dict):
            raise CalibrationError("calibration must be a JSON object")
        version = d.get("version")
        if version != CALIBRATION_VERSION:
            raise CalibrationError(
                f"calibration file version {version!r} does not match this boardtrack's version "
                f"{CALIBRATION_VERSION}; run `boardtrack calibrate board` again"
            )
        try:
            return cls(
                game=str(d["game"]),
                image_size=tuple(d["image_size"]),
                corners_px=np.asarray(d["corners_px"], dtype=np.float64),
                image_to_board=np.asarray(d["image_to_board"], dtype=np.float64),
                lens=None if d.get("lens") is None else LensModel.from_dict(d["lens"]),
                score=float(d.get("score", 1.0)),
                appearance=None if d.get("appearance") is None else Appearance.from_dict(d["appearance"]),
                equipment=d.get("equipment"),
                notes=tuple(d.get("notes", ())),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise CalibrationError(f"bad calibration data: {type(exc).__name__}: {exc}") from None

    def save(self, path: str | Path) -> None:
        """Write as JSON (UTF-8)."""
        Path(path).write_text(json.dumps(self.to_dict(), indent=1), encoding="utf-8")

    def board_size_mm(self) -> float:
        return load_board(self.game).size_mm


def load_calibration(path: str | Path) -> BoardCalibration:
    """Read a calibration file written by `BoardCalibration.save`.

    Raises:
        CalibrationError: unreadable file, not JSON, or another version.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CalibrationError(f"cannot read calibration {path}: {exc.strerror or exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CalibrationError(f"calibration {path} is not JSON: {exc.msg} at line {exc.lineno}") from None
    return BoardCalibration.from_dict(data)
