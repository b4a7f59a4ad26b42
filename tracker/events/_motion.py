"""Vectorised motion facts from the tracker's position history (ring buffer per track)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Motion", "compute_motion", "solve_contact_time", "solve_wall_time"]


@dataclass(frozen=True, slots=True)
class Motion:
    """The last three observations of each track and the velocities between them.

    Attributes:
        p: (M, 3, 2) last three observed centres, newest first (NaN if fewer), board mm.
        t: (M, 3) their times, s.
        v_new: (M, 2) velocity between the two newest observations, mm/s (0 if unknown).
        v_old: (M, 2) velocity between the second and third newest, mm/s (0 if unknown).
        disp_window: (M,) displacement from the oldest observation within `window_s` to the newest, mm.
    """

    p: np.ndarray
    t: np.ndarray
    v_new: np.ndarray
    v_old: np.ndarray
    disp_window: np.ndarray


def compute_motion(hist_xy: np.ndarray, hist_t: np.ndarray, *, window_s: float) -> Motion:
    """Motion facts of every track.

    Args:
        hist_xy: (M, K, 2) observed centres, oldest first, NaN where not seen (board mm).
        hist_t: (K,) frame times (s), NaN before the first frame.
        window_s: span in s over which `disp_window` is measured (longer = less noise).
    """
    m, k = hist_xy.shape[:2]
    valid = ~np.isnan(hist_xy[..., 0])
    rank = np.cumsum(valid[:, ::-1], axis=1)[:, ::-1]  # 1 = newest valid, 2 = next, ...
    idx = np.stack([np.argmax(valid & (rank == n), axis=1) for n in (1, 2, 3)], axis=1)
    have = np.stack([(valid & (rank == n)).any(axis=1) for n in (1, 2, 3)], axis=1)
    rows = np.arange(m)[:, None]
    p = np.where(have[..., None], hist_xy[rows, idx], np.nan)
    t = np.where(have, hist_t[idx], np.nan)
    v_new = _velocity(p[:, 0], p[:, 1], t[:, 0], t[:, 1])
    v_old = _velocity(p[:, 1], p[:, 2], t[:, 1], t[:, 2])
    # displacement from the oldest observation inside the window to the newest
    t_now = np.nanmax(hist_t) if np.isfinite(hist_t).any() else 0.0
    in_win = valid & (hist_t[None, :] >= t_now - window_s)
    first = np.argmax(in_win, axis=1)
    p_first = hist_xy[np.arange(m), first]
    disp = np.where(in_win.any(axis=1), np.hypot(*(p[:, 0] - p_first).T), 0.0)
    return Motion(p=p, t=t, v_new=v_new, v_old=v_old, disp_window=np.nan_to_num(disp))


def _velocity(p1: np.ndarray, p0: np.ndarray, t1: np.ndarray, t0: np.ndarray) -> np.ndarray:
    dt = t1 - t0
    ok = np.isfinite(dt) & (dt > 0)
    v = (p1 - p0) / np.where(ok, dt, 1.0)[:, None]
    return np.where(ok[:, None], np.nan_to_num(v), 0.0)


def solve_contact_time(dp: np.ndarray, dv: np.ndarray, reach_mm: np.ndarray) -> np.ndarray:
    """Earliest time at which two discs moving in straight lines come within `reach_mm`.

    Args:
        dp: (N, 2) relative position (other minus this) at time 0, mm.
        dv: (N, 2) relative velocity, mm/s.
        reach_mm: (N,) sum of the radii (plus tolerance), mm.

    Returns:
        (N,) time in s (may be negative: they already overlapped then); NaN if they never come that close.

    Examples:
        >>> solve_contact_time(np.array([[100.0, 0.0]]), np.array([[-1000.0, 0.0]]), np.array([30.0]))
        array([0.07])
    """
    a = (dv * dv).sum(axis=1)
    b = 2.0 * (dp * dv).sum(axis=1)
    c = (dp * dp).sum(axis=1) - reach_mm**2
    disc = b * b - 4 * a * c
    ok = (a > 1e-9) & (disc >= 0)
    root = (-b - np.sqrt(np.where(ok, disc, 0.0))) / np.where(ok, 2 * a, 1.0)
    return np.where(ok, root, np.nan)


def solve_wall_time(p: np.ndarray, v: np.ndarray, limit_mm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """When each disc moving in a straight line reaches a cushion, and which one.

    Args:
        p: (N, 2) centres, board mm.
        v: (N, 2) velocities, mm/s.
        limit_mm: (N,) largest |x| or |y| the centre can reach (half board minus radius), mm.

    Returns:
        (t (N,) s, NaN if moving away from every cushion; side index (N,) into ("N", "E", "S", "W")).

    Examples:
        >>> solve_wall_time(np.array([[0.0, 300.0]]), np.array([[0.0, 1000.0]]), np.array([350.0]))
        (array([0.05]), array([2]))
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        tx = np.where(v[:, 0] > 0, (limit_mm - p[:, 0]) / v[:, 0], np.where(v[:, 0] < 0, (-limit_mm - p[:, 0]) / v[:, 0], np.inf))
        ty = np.where(v[:, 1] > 0, (limit_mm - p[:, 1]) / v[:, 1], np.where(v[:, 1] < 0, (-limit_mm - p[:, 1]) / v[:, 1], np.inf))
    side_x = np.where(v[:, 0] > 0, 1, 3)  # E or W
    side_y = np.where(v[:, 1] > 0, 2, 0)  # S or N
    use_x = tx <= ty
    t = np.where(use_x, tx, ty)
    side = np.where(use_x, side_x, side_y)
    return np.where(np.isfinite(t), t, np.nan), side
