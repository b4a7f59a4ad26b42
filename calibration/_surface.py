"""Coarse surface region of a board picture: its colour, its mask and its straight hull runs.

Works on a downscaled copy; coordinates are that copy's pixels (col, row).
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration._edges import colour_distance

__all__ = ["candidate_thresholds", "hull_runs", "on_border", "surface_colour", "surface_mask"]


def surface_colour(lab: np.ndarray) -> tuple[np.ndarray, float]:
    """Lab colour and spread of the playing surface: the colour cluster (of the central 60% of
    the picture) that dominates its central 30%; clusters of nearly the same colour (grain,
    lamp hotspot) are merged into it."""
    h, w = lab.shape[:2]
    box = lab[int(0.2 * h) : int(0.8 * h), int(0.2 * w) : int(0.8 * w)]
    bh, bw = box.shape[:2]
    step = max(1, int(np.sqrt(bh * bw / 6000)))
    sub = box[::step, ::step]
    samples = sub.reshape(-1, 3).astype(np.float32) * np.array([0.5, 1, 1], np.float32)
    crit = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    cv2.setRNGSeed(12345)
    found = cv2.kmeans(samples, 5, None, crit, 2, cv2.KMEANS_PP_CENTERS)  # type: ignore[call-overload, unused-ignore]
    labels, centres = np.asarray(found[1]), np.asarray(found[2])
    sh, sw = sub.shape[0], sub.shape[1]
    lab_img = labels.reshape(sh, sw)
    inner = lab_img[int(0.25 * sh) : int(0.75 * sh), int(0.25 * sw) : int(0.75 * sw)]
    best = int(np.argmax(np.bincount(inner.ravel(), minlength=5)))
    near = np.linalg.norm(centres - centres[best], axis=1) < 10.0
    members = sub.reshape(-1, 3)[near[labels.ravel()]].astype(np.float64)
    colour = np.median(members, axis=0)
    spread = float(np.median(colour_distance(members, colour)))
    return colour, max(spread, 1.0)


def surface_mask(dist: np.ndarray, thr: float) -> np.ndarray | None:
    """uint8 mask (255 = surface): pixels within `thr` of the surface colour, the component
    covering most of the picture centre, closed and hole-filled; None when there is none."""
    h, w = dist.shape[:2]
    raw: np.ndarray = (dist < thr).astype(np.uint8) * 255
    k = max(3, int(0.012 * min(h, w)) | 1)
    raw = cv2.morphologyEx(raw, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    kc = max(5, int(0.05 * min(h, w)) | 1)
    ell = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kc, kc))
    # close: swallow discs, lines and small hands; open: cut thin bridges into the surroundings
    closed = cv2.morphologyEx(cv2.morphologyEx(raw, cv2.MORPH_CLOSE, ell), cv2.MORPH_OPEN, ell)
    n, labels = cv2.connectedComponents(closed, connectivity=4)
    if n < 2:
        return None
    counts = np.bincount(
        labels[int(0.3 * h) : int(0.7 * h), int(0.3 * w) : int(0.7 * w)].ravel(), minlength=n
    )
    counts[0] = 0
    best = int(np.argmax(counts))
    if counts[best] == 0:
        return None
    region = (labels == best).astype(np.uint8) * 255
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    filled = np.zeros_like(region)
    cv2.drawContours(filled, contours, -1, 255, thickness=cv2.FILLED)
    return np.asarray(filled)


def candidate_thresholds(dist: np.ndarray, spread: float) -> list[float]:
    """Colour-distance thresholds to try, tight to loose (Otsu's split among them)."""
    d8 = np.clip(dist * 2, 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(d8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    base = 3.0 * spread + 4.0
    cands = {
        round(base, 1),
        round(max(base, 12.0), 1),
        round(max(base, 18.0), 1),
        round(max(base, min(otsu / 2, 30.0)), 1),
    }
    return sorted(cands)


def on_border(a: np.ndarray, b: np.ndarray, w: int, h: int, tol: float) -> bool:
    both = np.stack([a, b])
    return bool(
        np.all(both[:, 0] <= tol)
        or np.all(both[:, 0] >= w - 1 - tol)
        or np.all(both[:, 1] <= tol)
        or np.all(both[:, 1] >= h - 1 - tol)
    )


def hull_runs(hull: np.ndarray, max_turn_deg: float = 12.0) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """Split a convex hull into runs of nearly collinear edges: (start, end, summed length)."""
    pts = hull.reshape(-1, 2).astype(np.float64)
    vec = np.roll(pts, -1, axis=0) - pts
    lens = np.linalg.norm(vec, axis=1)
    ang = np.arctan2(vec[:, 1], vec[:, 0])
    # start the walk after the sharpest turn so no run wraps around the end of the array
    turn = np.abs(np.angle(np.exp(1j * (ang - np.roll(ang, 1)))))
    start = int(np.argmax(turn))
    runs: list[tuple[np.ndarray, np.ndarray, float]] = []
    tol = np.deg2rad(max_turn_deg)
    i0, acc, ref = start, 0.0, ang[start]
    n = len(pts)
    for k in range(n):
        i = (start + k) % n
        if k > 0 and abs(np.angle(np.exp(1j * (ang[i] - ref)))) > tol:
            runs.append((pts[i0], pts[i], acc))
            i0, acc, ref = i, 0.0, ang[i]
        acc += lens[i]
        if lens[i] > 0.3 * acc:  # let the run's direction follow its long edges
            ref = np.arctan2(*(pts[(i + 1) % n] - pts[i0])[::-1])
    runs.append((pts[i0], pts[start], acc))
    return runs
