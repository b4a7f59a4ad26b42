"""Shape and dtype checks shared by the domain packages."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["check_bgr_image", "check_shape"]


def check_shape(arr: np.ndarray, shape: Sequence[int | None], name: str, *, dtype: type | None = None) -> None:
    """Raise `ValueError` unless `arr` has the given shape (None = any length) and dtype.

    Examples:
        >>> check_shape(np.zeros((3, 2)), (None, 2), "xy")
        >>> check_shape(np.zeros((3, 3)), (None, 2), "xy")
        Traceback (most recent call last):
        ...
        ValueError: xy: expected shape (N, 2), got (3, 3)
    """
    want = "(" + ", ".join("N" if s is None else str(s) for s in shape) + ")"
    if not isinstance(arr, np.ndarray):
        raise ValueError(f"{name}: expected an array of shape {want}, got {type(arr).__name__}")
    ok = arr.ndim == len(shape) and all(s is None or s == n for s, n in zip(shape, arr.shape, strict=True))
    if not ok:
        raise ValueError(f"{name}: expected shape {want}, got {tuple(arr.shape)}")
    if dtype is not None and arr.dtype != np.dtype(dtype):
        raise ValueError(f"{name}: expected dtype {np.dtype(dtype)}, got {arr.dtype}")


def check_bgr_image(frame_bgr: object) -> None:
    """Raise `ValueError` unless `frame_bgr` is an (H, W, 3) uint8 image.

    Examples:
        >>> check_bgr_image(np.zeros((4, 6, 3), np.uint8))
        >>> check_bgr_image(np.zeros((4, 6), np.uint8))
        Traceback (most recent call last):
        ...
        ValueError: frame_bgr: expected an (H, W, 3) uint8 image, got (4, 6)
    """
    if (
        not isinstance(frame_bgr, np.ndarray)
        or frame_bgr.ndim != 3
        or frame_bgr.shape[2] != 3
        or frame_bgr.dtype != np.uint8
    ):
        raise ValueError(f"frame_bgr: expected an (H, W, 3) uint8 image, got {getattr(frame_bgr, 'shape', None)}")
