"""Rectification: one precomputed remap from the ORIGINAL (distorted) frame to a top-down board image.

The board image has a fixed scale (`px_per_mm`), so disc radii are constants in it. Its
pixel (col, row) = (u, v) maps to board mm as `xy_mm = (uv - centre_px) / px_per_mm`, with
the board centre at `centre_px = ((W - 1) / 2, (H - 1) / 2)`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from calibration.model import BoardCalibration
from tracker._validate import check_shape

__all__ = ["BoardMaps", "build_board_maps", "sample_points"]


_GRID_COLS = 256  # points are sampled laid out in rows of this many


def sample_points(image: np.ndarray, uv: np.ndarray, *, interpolation: int = cv2.INTER_LINEAR) -> np.ndarray:
    """Bilinear samples of `image` (H, W[, C]) at float pixel positions `uv` (..., 2) -> (..., [C]).

    One `cv2.remap` call whatever the number of points (laid out in rows of 256).
    """
    flat = np.asarray(uv, dtype=np.float32).reshape(-1, 2)
    out = _sample_grid(image, _grid(flat), interpolation)
    return out[: len(flat)].reshape(*np.shape(uv)[:-1], *image.shape[2:])


def _grid(flat: np.ndarray) -> np.ndarray:
    """(rows, 256, 2) float32 remap grid of the points `flat` (N, 2) in rows of 256, the last
    row filled up with (-1, -1)."""
    n = len(flat)
    rows = max(1, -(-n // _GRID_COLS))
    grid = np.empty((rows * _GRID_COLS, 2), np.float32)
    grid[:n] = flat
    grid[n:] = -1.0
    return grid.reshape(rows, _GRID_COLS, 2)


def _sample_grid(image: np.ndarray, grid: np.ndarray, interpolation: int = cv2.INTER_LINEAR) -> np.ndarray:
    """(rows * 256, [C]) samples of `image` (H, W[, C]) at a (rows, 256, 2) float32 grid of
    pixel positions (`_grid`), the image's edge replicated beyond it."""
    out = cv2.remap(image, grid, None, interpolation, borderMode=cv2.BORDER_REPLICATE)  # type: ignore[call-overload, unused-ignore]
    return np.asarray(out).reshape(grid.shape[0] * grid.shape[1], *image.shape[2:])


@dataclass(frozen=True, slots=True)
class BoardMaps:
    """Fixed-point remap tables from the original frame to the rectified board image.

    Attributes:
        px_per_mm: board image scale.
        margin_mm: extra band around the playing surface (covers pockets and the frame's edge).
        size: (width, height) of the board image in pixels.
        map1, map2: `cv2.convertMaps` output (CV_16SC2 + CV_16UC1), into `source` of the frame.
        image_size: (width, height) of the original frames these maps expect.
        map_float: (H, W, 2) float32 original-image pixel of every board-image pixel (for
            sampling board mm positions in the original frame, see `board_mm_to_original`).
        source: (x0, y0, x1, y1) the part of the original frame the board image is sampled from.
        centre_px: (2,) float64 board-image pixel of the board centre (read-only; see the module doc).
    """

    px_per_mm: float
    margin_mm: float
    size: tuple[int, int]
    map1: np.ndarray
    map2: np.ndarray
    image_size: tuple[int, int]
    map_float: np.ndarray
    source: tuple[int, int, int, int]
    # (built once: the conversions below run many times a frame, on a few points each)
    centre_px: np.ndarray = field(init=False, repr=False, compare=False)
    _centre_f32: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        centre = np.array([(self.size[0] - 1) / 2.0, (self.size[1] - 1) / 2.0])
        centre.setflags(write=False)
        centre_f32 = centre.astype(np.float32)
        centre_f32.setflags(write=False)
        object.__setattr__(self, "centre_px", centre)
        object.__setattr__(self, "_centre_f32", centre_f32)

    def rectify(self, frame_bgr: np.ndarray) -> np.ndarray:
        """(H, W, C) original frame -> rectified board image (size[1], size[0], C), same dtype."""
        if (frame_bgr.shape[1], frame_bgr.shape[0]) != self.image_size:
            raise ValueError(
                f"frame_bgr: expected a {self.image_size[0]}x{self.image_size[1]} frame, "
                f"got {frame_bgr.shape[1]}x{frame_bgr.shape[0]}"
            )
        x0, y0, x1, y1 = self.source
        part = frame_bgr[y0:y1, x0:x1]
        if part.ndim == 3 and part.shape[2] == 3 and part.dtype == np.uint8:
            # (remap interpolates four 8-bit channels twice as fast as three)
            four = cv2.remap(cv2.cvtColor(part, cv2.COLOR_BGR2BGRA), self.map1, self.map2, cv2.INTER_LINEAR,
                             borderMode=cv2.BORDER_REPLICATE)
            return np.asarray(cv2.cvtColor(four, cv2.COLOR_BGRA2BGR))
        return cv2.remap(part, self.map1, self.map2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def to_mm(self, uv: np.ndarray) -> np.ndarray:
        """(N, 2) board-image pixels -> (N, 2) float64 board mm."""
        return np.asarray((np.asarray(uv, dtype=np.float64) - self.centre_px) / self.px_per_mm)

    def to_px(self, xy_mm: np.ndarray) -> np.ndarray:
        """(N, 2) board mm -> (N, 2) float64 board-image pixels."""
        return np.asarray(np.asarray(xy_mm, dtype=np.float64) * self.px_per_mm + self.centre_px)

    def board_mm_to_original(self, xy_mm: np.ndarray) -> np.ndarray:
        """(..., 2) board mm -> (..., 2) float32 original-image pixels, by bilinear lookup in the
        precomputed map (exact to well under 0.01 px for scales >= 0.3 px/mm)."""
        return sample_points(self.map_float, self._map_px(xy_mm))

    def sample_original(self, frame: np.ndarray, xy_mm: np.ndarray) -> np.ndarray:
        """Bilinear samples (..., [C]) of the ORIGINAL frame (H0, W0[, C]) at board mm points
        (..., 2): `sample_points(frame, board_mm_to_original(xy_mm))`, the points mapped and
        sampled in one grid."""
        return self.sample_original_px(frame, self._map_px(xy_mm))

    def sample_original_px(self, frame: np.ndarray, uv: np.ndarray) -> np.ndarray:
        """Bilinear samples (..., [C]) of the ORIGINAL frame (H0, W0[, C]) at board-image pixel
        positions (..., 2) float32: the positions mapped and sampled in one grid."""
        flat = uv.reshape(-1, 2)
        px = _sample_grid(self.map_float, _grid(flat)).reshape(-1, _GRID_COLS, 2)
        return _sample_grid(frame, px)[: len(flat)].reshape(*uv.shape[:-1], *frame.shape[2:])

    def _map_px(self, xy_mm: np.ndarray) -> np.ndarray:
        """(..., 2) board mm -> (..., 2) float32 pixels of the board image (and of `map_float`)."""
        xy = np.asarray(xy_mm, dtype=np.float32)
        return np.asarray(xy * np.float32(self.px_per_mm) + self._centre_f32)


def build_board_maps(
    calib: BoardCalibration, *, px_per_mm: float = 0.6, margin_mm: float = 20.0
) -> BoardMaps:
    """Precompute the remap from original frame pixels to the board image.

    Args:
        calib: the board calibration.
        px_per_mm: board image scale (0.5-1.0 is a good range for speed vs. detail).
        margin_mm: band kept around the playing surface, mm.

    Returns:
        The maps; `BoardMaps.rectify(frame)` then costs one `cv2.remap` of the board's part of the frame.
    """
    if not 0.05 <= px_per_mm <= 4.0:
        raise ValueError(f"px_per_mm must be in [0.05, 4], got {px_per_mm}")
    side_mm = calib.board_size_mm() + 2 * margin_mm
    n = int(round(side_mm * px_per_mm))
    c = (n - 1) / 2.0
    v, u = np.mgrid[0:n, 0:n].astype(np.float64)
    xy_mm = np.stack([(u.ravel() - c) / px_per_mm, (v.ravel() - c) / px_per_mm], axis=1)
    px = calib.board_to_original(xy_mm)
    px = np.nan_to_num(px, nan=-10.0).reshape(n, n, 2).astype(np.float32)
    check_shape(px, (n, n, 2), "map")
    # the frame's part that holds every sample and its bilinear neighbours (samples outside the
    # frame take its edge, as they would from the whole frame)
    w, h = calib.image_size
    inside = np.clip(px, 0.0, [w - 1, h - 1])
    x0, y0 = np.floor(inside.reshape(-1, 2).min(axis=0)).astype(int)
    x1, y1 = np.minimum(np.ceil(inside.reshape(-1, 2).max(axis=0)).astype(int) + 2, [w, h])
    map1, map2 = cv2.convertMaps(px - np.array([x0, y0], np.float32), None, cv2.CV_16SC2)  # type: ignore[call-overload]
    px.setflags(write=False)
    source = (int(x0), int(y0), int(x1), int(y1))
    return BoardMaps(px_per_mm, margin_mm, (n, n), map1, map2, calib.image_size, px, source)
