"""Sub-pixel edge search along normals and robust straight-line fits (board finding helpers).

All coordinates are ORIGINAL image pixels (col, row) unless a name says otherwise.
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["colour_distance", "fit_line", "intersect_lines", "search_edges"]

# how much of the picture must show beyond a rise (past the smoothing) for it to hold
SEEN_PX = 2.0


def colour_distance(lab: np.ndarray, ref_lab: np.ndarray, *, l_weight: float = 0.5) -> np.ndarray:
    """Weighted Lab distance of every pixel (..., 3) from `ref_lab` (3,); float32 (...)."""
    weights = np.array([l_weight, 1.0, 1.0], dtype=np.float32)
    diff = (lab.astype(np.float32) - np.asarray(ref_lab, np.float32)) * weights
    return np.asarray(np.sqrt(np.sum(diff * diff, axis=-1)))


def search_edges(
    image_bgr: np.ndarray,
    p0: np.ndarray,
    p1: np.ndarray,
    outward: np.ndarray,
    surface_lab: np.ndarray,
    *,
    n: int = 48,
    half_width_px: float = 8.0,
    step_px: float = 0.5,
    t_range: tuple[float, float] = (0.08, 0.92),
    min_step: float = 6.0,
    inner_px: float | None = None,
    hold_px: float = 0.0,
) -> np.ndarray:
    """Find where the surface colour ends along normals of the segment p0 -> p1.

    The profile is the colour distance from the surface colour; the edge is the first strong
    rise going outwards (so a thin inner-face band beyond the surface does not pull the
    edge outwards) that the profile holds (a printed line near the edge rises and falls back),
    located to sub-pixel by a parabola through the gradient peak.

    Args:
        image_bgr: the full image, uint8 (H, W, 3).
        p0, p1: (2,) segment end points in image pixels.
        outward: (2,) unit normal pointing off the playing surface.
        surface_lab: (3,) Lab colour of the surface.
        n: number of normals.
        half_width_px: search this far either side of the segment.
        step_px: sample spacing along each normal.
        t_range: part of the segment searched (skips the pockets at the corners).
        min_step: minimum colour rise (Lab units) across the edge.
        inner_px: how far inside the segment the search starts (default `half_width_px`).
        hold_px: a rise must hold this far out; one that falls back to the surface colour for
            half of it sooner is a printed line, not the edge (0: no test).

    Returns:
        (M, 2) float64 edge points, M <= n (normals without a clear edge are dropped).
    """
    t = np.linspace(t_range[0], t_range[1], n)
    base = p0[None, :] + t[:, None] * (p1 - p0)[None, :]
    offs = np.arange(-(half_width_px if inner_px is None else inner_px), half_width_px + 1e-9, step_px)
    pts = base[:, None, :] + offs[None, :, None] * outward[None, None, :]
    h, w = image_bgr.shape[:2]
    inside = (pts[..., 0] >= 0) & (pts[..., 0] <= w - 1) & (pts[..., 1] >= 0) & (pts[..., 1] <= h - 1)
    mx, my = pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32)
    samples = cv2.remap(image_bgr, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    prof = colour_distance(cv2.cvtColor(samples, cv2.COLOR_BGR2LAB), surface_lab)
    k = max(1, int(round(1.0 / step_px)))
    prof = cv2.blur(prof, (2 * k + 1, 1), borderType=cv2.BORDER_REPLICATE)
    grad = np.zeros_like(prof)
    grad[:, 1:-1] = (prof[:, 2:] - prof[:, :-2]) * 0.5
    top = np.zeros(grad.shape, bool)
    top[:, 1:-1] = (grad[:, 1:-1] > 0) & (grad[:, 1:-1] >= grad[:, :-2]) & (grad[:, 1:-1] >= grad[:, 2:])
    if hold_px > 0:
        # a line printed near the edge (korona's rail-zone line) rises and falls back to the
        # surface colour at once; the frame beyond the edge holds (further out, a worn frame or
        # the floor may come back near the surface colour)
        top &= _holds_rise(prof, inside, min_step, hold_px / step_px, seen_min=2 * k + int(round(SEEN_PX / step_px)))
    gmax = np.where(top, grad, 0.0).max(axis=1)
    # first local maximum reaching half the strongest rise
    peak = top & (grad >= 0.5 * gmax[:, None])
    has = peak.any(axis=1)
    idx = np.argmax(peak, axis=1)
    idx = np.clip(idx, 1, grad.shape[1] - 2)
    rows = np.arange(n)
    g0, g1, g2 = grad[rows, idx - 1], grad[rows, idx], grad[rows, idx + 1]
    den = g0 - 2 * g1 + g2
    sub = np.where(np.abs(den) > 1e-9, 0.5 * (g0 - g2) / np.where(np.abs(den) > 1e-9, den, 1.0), 0.0)
    sub = np.clip(sub, -0.5, 0.5)
    rise = prof[:, -1] - prof[:, 0]
    ok = has & (gmax * 2 * k >= min_step * 0.5) & (rise > min_step) & inside[rows, idx]
    ok &= (idx > 1) & (idx < grad.shape[1] - 2)
    off = offs[0] + (idx + sub) * step_px
    return np.asarray((base + off[:, None] * outward[None, :])[ok])


def _holds_rise(prof: np.ndarray, seen: np.ndarray, min_step: float, hold: float, *, seen_min: int = 1) -> np.ndarray:
    """(n, S) bool: beyond each sample the profiles (n, S) stay at least `min_step` above their
    first sample for `hold` samples, but for dips shorter than half of that (a fleck of paint).

    Off the picture (`seen` False) the level is taken to hold, so that an edge just inside the
    picture border counts; but `seen_min` samples beyond must be in the picture, so that the
    picture border itself (the last pixel replicated) is not taken for an edge that holds.

    Examples:
        >>> line = np.array([[2.0, 2, 60, 2, 2, 2, 2, 90, 90, 90]])  # a line, then the frame
        >>> _holds_rise(line, np.ones(line.shape, bool), 6.0, 4).astype(int).tolist()
        [[0, 0, 0, 0, 0, 1, 1, 1, 1, 1]]
    """
    run = max(2, int(round(hold / 2)))
    span = max(1, int(round(hold)) - run + 1)
    level = np.where(seen, prof, np.float32(np.finfo(np.float32).max)).astype(np.float32)
    # the highest of each `run` samples from there on ignores shorter dips ...
    high = cv2.dilate(level, np.ones((1, run), np.uint8), anchor=(0, 0), borderType=cv2.BORDER_REPLICATE)
    # ... and the lowest of those over the next `span` starts is the level held
    held = cv2.erode(high, np.ones((1, span), np.uint8), anchor=(0, 0), borderType=cv2.BORDER_REPLICATE)
    beyond = np.concatenate([held[:, 1:], level[:, -1:]], axis=1)
    # past the end of the profiles, as at the end
    ahead_seen = np.concatenate([seen[:, seen_min:], np.repeat(seen[:, -1:], seen_min, axis=1)], axis=1)
    return np.asarray((beyond >= prof[:, :1] + min_step) & ahead_seen)


def fit_line(
    pts: np.ndarray, *, iters: int = 4, min_tol_px: float = 0.75
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Total-least-squares line with iterative outlier rejection.

    When the points settle far from a clean line from a first fit to all of them (a robust
    deviation over three times `min_tol_px`), the fit starts again from those near the line
    through two of the points that leaves the smallest median residual (least median of
    squares): a stretch of edge points pulled off the line together (a row of discs against
    the cushion, found where the surface colour ends at their inner edge) biases a first fit
    to all points so far that they pass its tolerance.

    Args:
        pts: (N, 2) points, N >= 2.

    Returns:
        (point (2,), unit direction (2,), inlier mask (N,)).

    Examples:
        >>> x = np.arange(40.0); y = np.where((x > 15) & (x < 26), 20.0, 0.0)  # a row pulled in
        >>> c, d, keep = fit_line(np.stack([x, y], axis=1))
        >>> round(abs(float(c[1])), 6), int(keep.sum())
        (0.0, 30)
    """
    c, d, keep, spread = _refit(pts, np.ones(len(pts), bool), iters, min_tol_px)
    if spread > 3.0 * min_tol_px and len(pts) >= 5:
        c2, d2, keep2, spread2 = _refit(pts, _median_inliers(pts, min_tol_px), iters, min_tol_px)
        if spread2 < spread:
            return c2, d2, keep2
    return c, d, keep


def _refit(
    pts: np.ndarray, keep: np.ndarray, iters: int, min_tol_px: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Total-least-squares fits of the `keep` points, each dropping the points beyond three
    robust deviations: (point, direction, inliers, the last robust deviation, px)."""
    c = pts.mean(axis=0)
    d = np.array([1.0, 0.0])
    mad = np.inf
    for _ in range(iters):
        if keep.sum() < 2:
            break
        sel = pts[keep]
        c = sel.mean(axis=0)
        _, _, vt = np.linalg.svd(sel - c, full_matrices=False)
        d = vt[0]
        normal = np.array([-d[1], d[0]])
        res = np.abs((pts - c) @ normal)
        mad = float(np.median(res[keep])) * 1.4826
        keep = res <= max(min_tol_px, 3.0 * mad)
    return c, d, keep, mad


def _median_inliers(pts: np.ndarray, min_tol_px: float, max_points: int = 40) -> np.ndarray:
    """(N,) bool: points near the line through two of (at most `max_points` evenly spread of)
    them with the smallest median distance of all points."""
    sub = pts[np.linspace(0, len(pts) - 1, min(len(pts), max_points)).round().astype(np.intp)]
    i, j = np.triu_indices(len(sub), 1)
    d = sub[j] - sub[i]
    length = np.hypot(d[:, 0], d[:, 1])
    ok = length > 1e-9
    if not ok.any():
        return np.ones(len(pts), bool)
    i, d, length = i[ok], d[ok], length[ok]
    normal = np.stack([-d[:, 1], d[:, 0]], axis=1) / length[:, None]
    res = np.abs((pts[None, :, :] - sub[i][:, None, :]) @ normal[:, :, None])[..., 0]  # (pairs, N)
    med = np.median(res, axis=1)
    best = int(np.argmin(med))
    return np.asarray(res[best] <= max(min_tol_px, 3.0 * 1.4826 * float(med[best])))


def intersect_lines(c1: np.ndarray, d1: np.ndarray, c2: np.ndarray, d2: np.ndarray) -> np.ndarray | None:
    """Intersection of two lines given as point + direction, or None when (nearly) parallel."""
    a = np.array([d1, -d2]).T
    if abs(np.linalg.det(a)) < 1e-9:
        return None
    s = np.linalg.solve(a, c2 - c1)
    return np.asarray(c1 + s[0] * d1)
