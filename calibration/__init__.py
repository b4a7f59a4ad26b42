"""Calibration: board finding without markers, homography, lens distortion, colour models.

Public API:
    `find_board(frame_bgr, *, game="carrom", lens=None) -> BoardCalibration | Failed`
    `BoardCalibration` (frozen; `save`, `to_dict`, `from_dict`), `load_calibration(path)`,
    `Failed(reason)` (falsy), `LensModel`, `Appearance`, `BoardMaps` / `build_board_maps`.
"""

from __future__ import annotations

from calibration.appearance import Appearance, learn_coin_colours
from calibration.board import BoardFinderConfig, find_board
from calibration.lens import LensModel, calibrate_lens_from_chessboards, estimate_radial_from_lines
from calibration.model import CALIBRATION_VERSION, BoardCalibration, Failed, load_calibration
from calibration.rectify import BoardMaps, build_board_maps

__all__ = [
    "Appearance",
    "BoardCalibration",
    "BoardFinderConfig",
    "BoardMaps",
    "CALIBRATION_VERSION",
    "Failed",
    "LensModel",
    "build_board_maps",
    "calibrate_lens_from_chessboards",
    "estimate_radial_from_lines",
    "find_board",
    "learn_coin_colours",
    "load_calibration",
]
