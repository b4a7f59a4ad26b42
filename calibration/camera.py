"""A pinhole camera with radial/tangential lens distortion, looking at the board plane.

The world frame is the board frame: millimetres, origin at the centre of the playing surface,
x to the image right, y to the image bottom and z into the table (so a camera above the board
has a negative z). The board plane is z = 0. Distortion uses the OpenCV five-coefficient model
`(k1, k2, p1, p2, k3)`, so `K`, `dist`, `rvec` and `tvec` can be fed to `cv2` functions as-is.

Pixel coordinates are (col, row) with the centre of the top-left pixel at (0, 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import cv2
import numpy as np

from calibration.geometry import MIN_W, apply_homography, invert_homography
from tracker._validate import check_shape
from tracker.errors import CalibrationError

__all__ = ["CameraModel", "CAMERA_VERSION"]

CAMERA_VERSION = 1

# Fixed-point undistortion stops when the correction changes by less than this (normalised units,
# about 1e-9 px at any practical focal length) or after this many rounds.
_UNDISTORT_TOL = 1e-12
_UNDISTORT_ROUNDS = 60


def _as_f64(arr: Any, shape: tuple[int, ...], name: str) -> np.ndarray:
    out = np.array(arr, dtype=np.float64)
    if out.size == int(np.prod(shape)):
        out = out.reshape(shape)
    check_shape(out, shape, name)
    out.setflags(write=False)
    return out


@dataclass(frozen=True)
class CameraModel:
    """Intrinsics, lens distortion and pose of one camera.

    Attributes:
        width: image width in px.
        height: image height in px.
        K: (3, 3) camera matrix (fx, fy, cx, cy in px).
        dist: (5,) OpenCV distortion coefficients (k1, k2, p1, p2, k3).
        rvec: (3,) Rodrigues rotation board frame -> camera frame.
        tvec: (3,) translation board frame -> camera frame, mm.
    """

    width: int
    height: int
    K: np.ndarray
    dist: np.ndarray
    rvec: np.ndarray
    tvec: np.ndarray

    def __post_init__(self) -> None:
        object.__setattr__(self, "K", _as_f64(self.K, (3, 3), "K"))
        object.__setattr__(self, "dist", _as_f64(self.dist, (5,), "dist"))
        object.__setattr__(self, "rvec", _as_f64(self.rvec, (3,), "rvec"))
        object.__setattr__(self, "tvec", _as_f64(self.tvec, (3,), "tvec"))
        if self.width <= 0 or self.height <= 0:
            raise ValueError(f"image size must be positive, got {self.width}x{self.height}")

    @cached_property
    def rotation(self) -> np.ndarray:
        """(3, 3) rotation matrix board frame -> camera frame."""
        R, _ = cv2.Rodrigues(self.rvec.reshape(3, 1))
        out = np.asarray(R, dtype=np.float64)
        out.setflags(write=False)
        return out

    @property
    def centre_mm(self) -> np.ndarray:
        """(3,) position of the camera centre in the board frame, mm (z < 0 above the board)."""
        return np.asarray(-self.rotation.T @ self.tvec, dtype=np.float64)

    def board_to_normalised(self) -> np.ndarray:
        """(3, 3) homography board mm -> undistorted normalised camera coordinates."""
        return self._to_normalised.copy()

    @cached_property
    def _to_normalised(self) -> np.ndarray:
        R = self.rotation
        H = np.column_stack([R[:, 0], R[:, 1], self.tvec])
        # No normalisation by H[2, 2]: the third row must stay the true depth (its sign tells
        # points in front of the camera from points behind it).
        H.setflags(write=False)
        return H

    def board_to_image_homography(self) -> np.ndarray:
        """(3, 3) homography board mm -> UNDISTORTED image px (no lens distortion applied)."""
        H = self.K @ self.board_to_normalised()
        return np.asarray(H / H[2, 2], dtype=np.float64)

    def image_to_board_homography(self) -> np.ndarray:
        """(3, 3) homography UNDISTORTED image px -> board mm (inverse of the above)."""
        return invert_homography(self.board_to_image_homography())

    def distort_normalised(self, xy: np.ndarray) -> np.ndarray:
        """Apply the lens model to (N, 2) undistorted normalised coordinates."""
        k1, k2, p1, p2, k3 = self.dist
        x, y = xy[:, 0], xy[:, 1]
        r2 = x * x + y * y
        radial = 1.0 + r2 * (k1 + r2 * (k2 + r2 * k3))
        xd = x * radial + 2.0 * p1 * x * y + p2 * (r2 + 2.0 * x * x)
        yd = y * radial + p1 * (r2 + 2.0 * y * y) + 2.0 * p2 * x * y
        return np.column_stack([xd, yd])

    def undistort_normalised(self, xy_d: np.ndarray) -> np.ndarray:
        """Invert `distort_normalised` by fixed-point iteration, (N, 2) -> (N, 2)."""
        k1, k2, p1, p2, k3 = self.dist
        xd, yd = xy_d[:, 0], xy_d[:, 1]
        x, y = xd.copy(), yd.copy()
        for _ in range(_UNDISTORT_ROUNDS):
            r2 = x * x + y * y
            radial = 1.0 + r2 * (k1 + r2 * (k2 + r2 * k3))
            dx = 2.0 * p1 * x * y + p2 * (r2 + 2.0 * x * x)
            dy = p1 * (r2 + 2.0 * y * y) + 2.0 * p2 * x * y
            nx, ny = (xd - dx) / radial, (yd - dy) / radial
            step = float(np.nanmax(np.abs(nx - x) + np.abs(ny - y), initial=0.0))
            x, y = nx, ny
            if step < _UNDISTORT_TOL:
                break
        return np.column_stack([x, y])

    def project(self, xy_mm: np.ndarray) -> np.ndarray:
        """Project board-plane points (z = 0) to distorted image pixels.

        Args:
            xy_mm: (N, 2) points in board mm.

        Returns:
            (N, 2) float64 image px (col, row) including lens distortion; NaN for points at or
            behind the camera plane.
        """
        pts = np.asarray(xy_mm, dtype=np.float64)
        check_shape(pts, (None, 2), "xy_mm")
        H = self._to_normalised
        hom = pts @ H[:, :2].T + H[:, 2]
        # A board point in front of the camera has a positive depth; guard the division.
        ok = hom[:, 2] >= MIN_W
        w = np.where(ok, hom[:, 2], 1.0)
        und = hom[:, :2] / w[:, None]
        dist = self.distort_normalised(und)
        K = self.K
        px = np.column_stack(
            [K[0, 0] * dist[:, 0] + K[0, 1] * dist[:, 1] + K[0, 2], K[1, 1] * dist[:, 1] + K[1, 2]]
        )
        return np.where(ok[:, None], px, np.nan)

    def distort_pixels(self, px: np.ndarray) -> np.ndarray:
        """Apply lens distortion: (N, 2) undistorted px -> (N, 2) distorted px (same K)."""
        pts = np.asarray(px, dtype=np.float64)
        check_shape(pts, (None, 2), "px")
        K = self.K
        yn = (pts[:, 1] - K[1, 2]) / K[1, 1]
        xn = (pts[:, 0] - K[0, 2] - K[0, 1] * yn) / K[0, 0]
        d = self.distort_normalised(np.column_stack([xn, yn]))
        return np.column_stack([K[0, 0] * d[:, 0] + K[0, 1] * d[:, 1] + K[0, 2], K[1, 1] * d[:, 1] + K[1, 2]])

    def undistort_points(self, px: np.ndarray) -> np.ndarray:
        """Remove lens distortion: (N, 2) distorted px -> (N, 2) undistorted px (same K)."""
        pts = np.asarray(px, dtype=np.float64)
        check_shape(pts, (None, 2), "px")
        K = self.K
        yn = (pts[:, 1] - K[1, 2]) / K[1, 1]
        xn = (pts[:, 0] - K[0, 2] - K[0, 1] * yn) / K[0, 0]
        und = self.undistort_normalised(np.column_stack([xn, yn]))
        return np.column_stack(
            [K[0, 0] * und[:, 0] + K[0, 1] * und[:, 1] + K[0, 2], K[1, 1] * und[:, 1] + K[1, 2]]
        )

    def image_to_board(self, px: np.ndarray) -> np.ndarray:
        """Distorted image px (N, 2) -> board mm (N, 2) on the plane z = 0."""
        return apply_homography(self.image_to_board_homography(), self.undistort_points(px))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (lists of floats), with a `version`."""
        return {
            "version": CAMERA_VERSION,
            "width": self.width,
            "height": self.height,
            "K": self.K.tolist(),
            "dist": self.dist.tolist(),
            "rvec": self.rvec.tolist(),
            "tvec": self.tvec.tolist(),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> CameraModel:
        """Inverse of `to_dict`; raises `CalibrationError` on a version mismatch."""
        if d.get("version") != CAMERA_VERSION:
            raise CalibrationError(
                f"camera version {d.get('version')!r}, this boardtrack reads {CAMERA_VERSION}"
            )
        return cls(
            width=int(d["width"]),
            height=int(d["height"]),
            K=np.array(d["K"]),
            dist=np.array(d["dist"]),
            rvec=np.array(d["rvec"]),
            tvec=np.array(d["tvec"]),
        )
