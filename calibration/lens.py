"""Lens model: OpenCV pinhole intrinsics plus radial/tangential distortion.

Pixel frames:
    * *original* pixels: as recorded by the camera (distorted), (col, row);
    * *undistorted* pixels: the same camera matrix `K` without distortion.

`LensModel.undistort_points` maps original -> undistorted, `distort_points` the reverse.
`calibrate_lens_from_chessboards` runs OpenCV's calibration on chessboard photos;
`estimate_radial_from_lines` estimates the dominant radial term from points that should lie
on straight lines (the board's edges) when no lens calibration exists.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from tracker._validate import check_shape
from tracker.errors import CalibrationError

__all__ = [
    "LensModel",
    "calibrate_lens_from_chessboards",
    "estimate_radial_from_lines",
    "guess_camera_matrix",
]


@dataclass(frozen=True, slots=True)
class LensModel:
    """Intrinsics `K` (3, 3) float64 and OpenCV distortion `dist` (5,) = (k1, k2, p1, p2, k3).

    Examples:
        >>> lens = LensModel(guess_camera_matrix(1280, 720), np.array([-0.1, 0, 0, 0, 0]))
        >>> px = np.array([[100.0, 80.0], [640.0, 360.0]])
        >>> np.allclose(lens.distort_points(lens.undistort_points(px)), px, atol=1e-3)
        True
    """

    K: np.ndarray
    dist: np.ndarray

    def __post_init__(self) -> None:
        object.__setattr__(self, "K", np.array(self.K, dtype=np.float64))
        object.__setattr__(self, "dist", np.array(self.dist, dtype=np.float64).ravel())
        check_shape(self.K, (3, 3), "K")
        check_shape(self.dist, (5,), "dist")
        self.K.setflags(write=False)
        self.dist.setflags(write=False)

    def is_trivial(self) -> bool:
        """True when the distortion is exactly zero."""
        return not np.any(self.dist)

    def undistort_points(self, px: np.ndarray) -> np.ndarray:
        """(N, 2) original pixels -> (N, 2) float64 undistorted pixels (same `K`)."""
        pts = np.asarray(px, dtype=np.float64)
        check_shape(pts, (None, 2), "px")
        if len(pts) == 0 or self.is_trivial():
            return pts.copy()
        crit = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-10)
        out = cv2.undistortPoints(pts.reshape(-1, 1, 2), self.K, self.dist, None, None, self.K, crit)
        return np.asarray(out, dtype=np.float64).reshape(-1, 2)

    def distort_points(self, px: np.ndarray) -> np.ndarray:
        """(N, 2) undistorted pixels -> (N, 2) float64 original pixels (OpenCV's forward model)."""
        pts = np.asarray(px, dtype=np.float64)
        check_shape(pts, (None, 2), "px")
        if self.is_trivial():
            return pts.copy()
        fx, fy, cx, cy = self.K[0, 0], self.K[1, 1], self.K[0, 2], self.K[1, 2]
        x = (pts[:, 0] - cx) / fx
        y = (pts[:, 1] - cy) / fy
        k1, k2, p1, p2, k3 = self.dist
        r2 = x * x + y * y
        radial = 1 + r2 * (k1 + r2 * (k2 + r2 * k3))
        xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
        yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
        return np.stack([xd * fx + cx, yd * fy + cy], axis=1)

    def to_dict(self) -> dict[str, Any]:
        return {"K": self.K.tolist(), "dist": self.dist.tolist()}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> LensModel:
        try:
            return cls(np.asarray(d["K"], dtype=np.float64), np.asarray(d["dist"], dtype=np.float64))
        except (KeyError, TypeError, ValueError) as exc:
            raise CalibrationError(f"bad lens model in calibration file: {exc}") from None


_KEEP = 0.8  # share of each edge's points the straightness cost measures


def guess_camera_matrix(width: int, height: int) -> np.ndarray:
    """A plausible `K` for an unknown camera: principal point at the centre, f = the image diagonal * 0.8.

    The focal length only rescales the distortion coefficients, so a rough guess is enough
    for `estimate_radial_from_lines`.
    """
    f = 0.8 * float(np.hypot(width, height))
    return np.array([[f, 0, (width - 1) / 2], [0, f, (height - 1) / 2], [0, 0, 1]], dtype=np.float64)


def _straightness_cost(k1: float, K: np.ndarray, lines: Sequence[np.ndarray]) -> float:
    """Sum over the point sets of the squared distances to their best lines once undistorted
    with `k1`, each set fitted again on the `_KEEP` share of its points nearest its first line.

    Edge points that are not on the edge (a pocket cut into the corner, a disc, a cue across
    it) lie a pixel or more off it, and a plain least-squares cost measures them, not the
    edge's curvature: on a strongly distorted view a third of a pixel of bend went unseen
    behind a pixel of outliers, and the board's corners came out 10 px off."""
    lens = LensModel(K, np.array([k1, 0, 0, 0, 0]))
    cost = 0.0
    for pts in lines:
        u = lens.undistort_points(pts)
        c = u - u.mean(axis=0)
        normal = np.linalg.eigh(c.T @ c)[1][:, 0]  # (eigenvalues ascending: the line's normal)
        near = u[np.argsort(np.abs(c @ normal))[: _kept(len(u))]]
        c = near - near.mean(axis=0)
        # smallest eigenvalue of the scatter = squared distance to the best line, summed
        cost += max(float(np.linalg.eigvalsh(c.T @ c)[0]), 0.0)  # (rounding leaves -1e-15 on a straight set)
    return cost


def _kept(n: int) -> int:
    """How many of `n` edge points the straightness cost measures."""
    return max(2, int(np.ceil(_KEEP * n)))


def estimate_radial_from_lines(
    lines: Sequence[np.ndarray],
    image_size: tuple[int, int],
    *,
    max_abs_k1: float = 0.6,
    min_drop: float = 0.25,
    min_gain_px: float = 0.03,
) -> LensModel | None:
    """Estimate the first radial coefficient k1 that makes each point set straightest.

    Args:
        lines: point sets in original pixels, each (N_i, 2), each known to be straight in the world.
        image_size: (width, height) in pixels.
        max_abs_k1: search range for k1 (with the guessed `K`).
        min_drop, min_gain_px: the RMS residual of the points (the share of each set nearest
            its line, see `_straightness_cost`) must drop by at least `min_drop` of itself and
            by `min_gain_px` pixels, otherwise the lens is treated as distortion-free and None
            is returned (straight edges leave noise, which one coefficient cannot fit away; on
            clean edges a strong distortion may bend them by only a tenth of a pixel of RMS,
            and still put the corners they meet at 10 px off).

    Returns:
        A `LensModel` with a guessed `K` and dist = (k1, 0, 0, 0, 0), or None.
    """
    from scipy.optimize import minimize_scalar

    pts = [np.asarray(p, dtype=np.float64) for p in lines if len(p) >= 5]
    if len(pts) < 2:
        return None
    K = guess_camera_matrix(*image_size)
    n = sum(_kept(len(p)) for p in pts)
    base = _straightness_cost(0.0, K, pts)
    res = minimize_scalar(
        lambda k: _straightness_cost(k, K, pts),
        bounds=(-max_abs_k1, max_abs_k1),
        method="bounded",
        options={"xatol": 1e-4},
    )
    if not res.success:
        return None
    rms0, rms1 = np.sqrt(base / n), np.sqrt(float(res.fun) / n)
    if rms0 - rms1 < max(min_drop * rms0, min_gain_px):
        return None
    return LensModel(K, np.array([float(res.x), 0, 0, 0, 0]))


def calibrate_lens_from_chessboards(
    images: Sequence[np.ndarray], *, pattern: tuple[int, int] = (9, 6), square_mm: float = 25.0
) -> tuple[LensModel, float]:
    """OpenCV chessboard calibration.

    Args:
        images: BGR or grey images of a printed chessboard, all the same size.
        pattern: inner corners per row and column.
        square_mm: size of one square (only scales the extrinsics; intrinsics do not depend on it).

    Returns:
        The lens model and the RMS reprojection error in pixels.

    Raises:
        CalibrationError: fewer than 3 images show the whole pattern, or sizes differ.
    """
    obj = np.zeros((pattern[0] * pattern[1], 3), np.float32)
    obj[:, :2] = np.mgrid[0 : pattern[0], 0 : pattern[1]].T.reshape(-1, 2) * square_mm
    obj_pts, img_pts, size = [], [], None
    crit = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_MAX_ITER, 30, 1e-3)
    for img in images:
        grey = img if img.ndim == 2 else cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        if size is not None and grey.shape[::-1] != size:
            raise CalibrationError(f"chessboard images differ in size: {grey.shape[::-1]} vs {size}")
        size = grey.shape[::-1]
        ok, corners = cv2.findChessboardCorners(grey, pattern, None)
        if not ok:
            continue
        corners = cv2.cornerSubPix(grey, corners, (11, 11), (-1, -1), crit)
        obj_pts.append(obj)
        img_pts.append(corners)
    if len(img_pts) < 3 or size is None:
        raise CalibrationError(
            f"only {len(img_pts)} of {len(images)} images show the whole "
            f"{pattern[0]}x{pattern[1]} chessboard; need 3"
        )
    rms, K, dist, _, _ = cv2.calibrateCamera(obj_pts, img_pts, size, None, None)
    return LensModel(K, np.asarray(dist).ravel()[:5]), float(rms)
