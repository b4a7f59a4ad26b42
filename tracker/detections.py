"""`FrameDetections`: every disc found in one frame, as a struct of parallel arrays."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

import numpy as np

from tracker._validate import check_shape

__all__ = ["FrameDetections"]

_FLOAT = np.float32


def _frozen(arr: np.ndarray) -> np.ndarray:
    arr.setflags(write=False)
    return arr


@dataclass(frozen=True, slots=True)
class FrameDetections:
    """Discs detected in one frame.

    Attributes:
        xy_img: (N, 2) float32 centres in image pixels (col, row) of the frame they were found in
            (for the rectified board image, that image's pixels).
        radius_px: (N,) float32 radii in the same pixels.
        kind: (N,) int8 `tracker.specs.DiscKind` values.
        score: (N,) float32 confidence in [0, 1].
        xy_board: (N, 2) float32 centres in board mm (origin at the board centre), or None.
        flags: (N,) uint8 bit set of `FLAG_*` (over a pocket, stacked, on edge, partly hidden,
            blurred).
        track_id: (N,) int32 track ids once tracked, or None.
        t_s: capture time in seconds, or None.
        frame_idx: frame number counted from 0, or None.

    Examples:
        >>> d = FrameDetections(np.zeros((2, 2), np.float32), np.full(2, 15, np.float32),
        ...                     np.array([0, 3], np.int8), np.array([0.9, 0.4], np.float32))
        >>> len(d[d.score > 0.5])
        1
    """

    FLAG_OVER_POCKET = 1
    FLAG_STACKED = 2
    FLAG_ON_EDGE = 4
    FLAG_PARTLY_HIDDEN = 8
    FLAG_BLURRED = 16  # found only as the blur of its motion: position rough, kind a guess

    xy_img: np.ndarray
    radius_px: np.ndarray
    kind: np.ndarray
    score: np.ndarray
    xy_board: np.ndarray | None = None
    flags: np.ndarray | None = None
    track_id: np.ndarray | None = None
    t_s: float | None = None
    frame_idx: int | None = field(default=None)

    def __post_init__(self) -> None:
        if not self._is_well_formed():
            self._check()  # raises, naming the array and the expected and actual shape or dtype
        for f in _ARRAY_FIELDS:
            arr = getattr(self, f)
            if arr is not None:
                _frozen(arr)

    def _is_well_formed(self) -> bool:
        """The checks of `_check` without building its messages (this runs on every frame)."""
        xy = self.xy_img
        if not (isinstance(xy, np.ndarray) and xy.ndim == 2 and xy.shape[1] == 2 and xy.dtype == _FLOAT):
            return False
        n = xy.shape[0]
        for f, width, dtype in _LAYOUT:
            arr = getattr(self, f)
            if arr is None and f in _OPTIONAL:
                continue
            shape = (n,) if width == 0 else (n, width)
            if not (isinstance(arr, np.ndarray) and arr.dtype == dtype and arr.shape == shape):
                return False
        return True

    def _check(self) -> None:
        check_shape(self.xy_img, (None, 2), "xy_img", dtype=_FLOAT)
        n = self.xy_img.shape[0]
        check_shape(self.radius_px, (n,), "radius_px", dtype=_FLOAT)
        check_shape(self.kind, (n,), "kind", dtype=np.int8)
        check_shape(self.score, (n,), "score", dtype=_FLOAT)
        if self.xy_board is not None:
            check_shape(self.xy_board, (n, 2), "xy_board", dtype=_FLOAT)
        if self.flags is not None:
            check_shape(self.flags, (n,), "flags", dtype=np.uint8)
        if self.track_id is not None:
            check_shape(self.track_id, (n,), "track_id", dtype=np.int32)

    def __len__(self) -> int:
        return int(self.xy_img.shape[0])

    def __getitem__(self, index: Any) -> FrameDetections:
        """Boolean mask or index array selection; returns a new object."""
        if isinstance(index, np.ndarray) and index.dtype == bool and index.shape == (len(self),):
            # (the common case, every frame: rows by `take`, the same copies as fancy indexing makes)
            rows = index.nonzero()[0]
            taken: dict[str, Any] = {
                f: None if getattr(self, f) is None else getattr(self, f).take(rows, axis=0) for f in _ARRAY_FIELDS
            }
            return replace(self, **taken)
        picked: dict[str, Any] = {
            f: (None if getattr(self, f) is None else np.array(getattr(self, f)[index])) for f in _ARRAY_FIELDS
        }
        return replace(self, **picked)

    @classmethod
    def empty(
        cls, *, with_board: bool = True, t_s: float | None = None, frame_idx: int | None = None
    ) -> FrameDetections:
        return cls(
            xy_img=np.zeros((0, 2), _FLOAT),
            radius_px=np.zeros(0, _FLOAT),
            kind=np.zeros(0, np.int8),
            score=np.zeros(0, _FLOAT),
            xy_board=np.zeros((0, 2), _FLOAT) if with_board else None,
            flags=np.zeros(0, np.uint8),
            t_s=t_s,
            frame_idx=frame_idx,
        )

    @classmethod
    def concat(cls, parts: Sequence[FrameDetections]) -> FrameDetections:
        """Join detections of the same frame. Optional arrays survive only if every part has them."""
        if not parts:
            return cls.empty()
        out: dict[str, Any] = {}
        for f in _ARRAY_FIELDS:
            arrs = [getattr(p, f) for p in parts]
            out[f] = None if any(a is None for a in arrs) else np.concatenate(arrs)
        return replace(parts[0], **out)


_ARRAY_FIELDS = tuple(f.name for f in fields(FrameDetections) if f.name not in ("t_s", "frame_idx"))
# (field, width (0: one value per disc), dtype) of every array but xy_img, as `_check` wants them
_LAYOUT = (
    ("radius_px", 0, np.dtype(_FLOAT)), ("kind", 0, np.dtype(np.int8)), ("score", 0, np.dtype(_FLOAT)),
    ("xy_board", 2, np.dtype(_FLOAT)), ("flags", 0, np.dtype(np.uint8)), ("track_id", 0, np.dtype(np.int32)),
)
_OPTIONAL = frozenset({"xy_board", "flags", "track_id"})
