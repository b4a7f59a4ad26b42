"""Where the hands have been: when a hand or arm last covered each patch of the board.

A disc is put on the board by hand. One that appears at rest where no hand has been for a while
was not put there: it is a mark of the board, or the gap between two discs, read as a disc by a
whole-board look (carrom seed 1027 at 30 fps: the gap between a white and a black on the S base
line, read as a white from the whole-board look at 8.000 s on, 1.5 s after the flicking hand had
left, was "placed" there).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tracker._track_assign import point_distance

__all__ = ["HandTrail"]


class HandTrail:
    """The last time a hand covered each cell of a grid over the board.

    Args:
        half_mm: half the playing surface's side, mm.
        cell_mm: the grid's cell size, mm.
        every_s: the trail is brought up to date at most this often, s (a hand moves little in
            a frame at 60 or 120 fps; looking every frame would only cost time).

    Examples:
        >>> trail = HandTrail(370.0)
        >>> trail.update(2.0, lambda xy: np.hypot(xy[:, 0] - 100.0, xy[:, 1]) < 40.0)
        >>> trail.last_near(np.array([[100.0, 30.0], [-200.0, 0.0]]), np.array([20.0, 20.0])).tolist()
        [2.0, -inf]
    """

    def __init__(self, half_mm: float, cell_mm: float = 12.5, every_s: float = 1.0 / 30.0) -> None:
        n = max(int(np.ceil(2.0 * half_mm / cell_mm)), 1)
        centres = -half_mm + cell_mm * (np.arange(n) + 0.5)
        gx, gy = np.meshgrid(centres, centres)
        self._xy = np.stack([gx.ravel(), gy.ravel()], axis=1)
        self._t = np.full(len(self._xy), -np.inf)
        self.cell_mm, self.every_s = cell_mm, every_s
        self.seen = False  # a hand was ever seen (else nothing is known of where they went)
        self._t_looked = -np.inf

    def update(self, t_s: float, occluded: Callable[[np.ndarray], np.ndarray]) -> None:
        """Take in one frame's occlusion test (board mm (N, 2) -> (N,) bool) at time `t_s`."""
        if t_s - self._t_looked < self.every_s - 1e-6:
            return
        self._t_looked = t_s
        hit = np.asarray(occluded(self._xy), bool)
        if hit.any():
            self._t[hit] = t_s
            self.seen = True

    def last_near(self, xy_mm: np.ndarray, reach_mm: np.ndarray) -> np.ndarray:
        """(K,) the last time (s; -inf: never) a hand covered a cell whose centre lies within
        `reach_mm` (K,) of each point `xy_mm` (K, 2)."""
        d = point_distance(np.asarray(xy_mm, np.float64).reshape(-1, 2), self._xy)  # (G, K)
        near = d <= np.asarray(reach_mm, np.float64)[None, :]
        return np.asarray(np.where(near, self._t[:, None], -np.inf).max(axis=0, initial=-np.inf))
