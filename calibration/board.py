"""Find the playing surface without markers: `find_board(frame) -> BoardCalibration | Failed`.

Steps:
    1. On a downscaled copy, find the surface colour (largest colour cluster in the middle
       of the picture) and the connected region of that colour around the centre; close it
       so discs, lines and hands do not cut it.
    2. Simplify the region's convex hull to a polygon; its long sides that do not run along
       the image border are the surface edges (pockets only clip the hull's corners).
    3. At full resolution, search each edge to sub-pixel along its normals (first held rise of
       the colour distance going outwards) and fit straight lines robustly. Without a lens model
       the dominant radial distortion is estimated from the curvature of the four edges.
    4. Corners are line intersections; the homography maps the undistorted corners onto the
       board's corners in mm. When one edge is outside the picture it is placed from the other
       three (the surface is square) and the score is lowered.
    5. A tight crop that shows only two adjacent edges: the printed base circles give the board
       centre, and each missing edge is its opposite mirrored through it (lower score again).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from calibration._edges import colour_distance, fit_line, intersect_lines, search_edges
from calibration._landmarks import circles_homography, mirror_side
from calibration._surface import candidate_thresholds, hull_runs, on_border, surface_colour, surface_mask
from calibration.appearance import Appearance
from calibration.geometry import order_corners
from calibration.lens import LensModel, estimate_radial_from_lines
from calibration.model import BoardCalibration, Failed
from tracker._validate import check_bgr_image
from tracker.specs import load_board

__all__ = ["find_board", "BoardFinderConfig"]

# how far (share of the board side) the colour must stay off the surface beyond an edge: past a
# printed line's few mm, short of the frame's width (a worn frame may look like the surface)
LINE_HOLD_FRAC = 0.01
# and at least this many pixels: a thin line spreads over a few pixels once sampled and smoothed
LINE_HOLD_MIN_PX = 8.0


@dataclass(frozen=True, slots=True)
class BoardFinderConfig:
    """Tuning of `find_board`.

    Attributes:
        work_side_px: longest side of the downscaled image used for the coarse search.
        min_area_frac: the surface must cover at least this fraction of the picture.
        estimate_distortion: estimate radial distortion from the edges when no lens is given.
        edge_samples: normals searched per edge.
    """

    work_side_px: int = 640
    min_area_frac: float = 0.08
    estimate_distortion: bool = True
    edge_samples: int = 64


def _outward(p0: np.ndarray, p1: np.ndarray, centre: np.ndarray) -> np.ndarray:
    d = (p1 - p0) / np.linalg.norm(p1 - p0)
    nrm = np.array([-d[1], d[0]])
    return nrm if np.dot((p0 + p1) / 2 - centre, nrm) > 0 else -nrm


def _refine_side(
    image: np.ndarray,
    p0: np.ndarray,
    p1: np.ndarray,
    centre: np.ndarray,
    colour: np.ndarray,
    spread: float,
    coarse_px: float,
    n: int,
    side_px: float,
    inner_frac: float = 0.0,
) -> np.ndarray:
    """Two passes of normal search: wide around the coarse side, then narrow around the fit."""
    out = _outward(p0, p1, centre)
    # with inner_frac > 0 the search starts well inside and takes the first rise going outwards
    # (for colour regions that leaked over a shadowed or worn frame)
    inner = coarse_px + inner_frac * side_px
    # printed lines are a few mm wide, a frame several cm
    hold = max(LINE_HOLD_MIN_PX, LINE_HOLD_FRAC * side_px)

    def wide(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return search_edges(
            image,
            a,
            b,
            out,
            colour,
            n=n,
            half_width_px=coarse_px,
            step_px=1.0,
            min_step=max(4.0, 2 * spread),
            inner_px=inner,
            hold_px=hold,
        )

    pts = wide(p0, p1)
    if len(pts) < 6:
        return pts
    c, d, keep = fit_line(pts, min_tol_px=1.5)
    if inner_frac > 0:
        # search again along the fitted line, whose ends may differ from the coarse guess
        pts = wide(c + np.dot(p0 - c, d) * d, c + np.dot(p1 - c, d) * d)
        if len(pts) < 6:
            return pts
        c, d, keep = fit_line(pts, min_tol_px=1.5)
    # project the segment ends onto the fitted line and search narrowly (curvature allowance)
    q0 = c + np.dot(p0 - c, d) * d
    q1 = c + np.dot(p1 - c, d) * d
    span = float(np.linalg.norm(q1 - q0))
    return search_edges(
        image,
        q0,
        q1,
        out,
        colour,
        n=n,
        half_width_px=4.0 + 0.006 * span,
        step_px=0.5,
        min_step=max(4.0, 2 * spread),
        hold_px=hold,
    )


def _fit_sides(side_pts: list[np.ndarray], lens: LensModel | None) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """Lines (point, direction, inlier fraction) in undistorted pixels."""
    lines = []
    for pts in side_pts:
        und = pts if lens is None else lens.undistort_points(pts)
        c, d, keep = fit_line(und)
        lines.append((c, d, float(keep.mean())))
    return lines


def _complete_square(
    lines: list[tuple[np.ndarray, np.ndarray, float]], centre: np.ndarray
) -> list[tuple[np.ndarray, np.ndarray, float]] | None:
    """Place a missing fourth side opposite the side whose two neighbours are both present."""
    dirs = [ln[1] for ln in lines]
    # the lone side is the one roughly perpendicular to both others
    for i in range(3):
        j, k = [m for m in range(3) if m != i]
        if abs(np.dot(dirs[i], dirs[j])) < 0.5 and abs(np.dot(dirs[i], dirs[k])) < 0.5:
            break
    else:
        return None
    ci = intersect_lines(lines[i][0], dirs[i], lines[j][0], dirs[j])
    ck = intersect_lines(lines[i][0], dirs[i], lines[k][0], dirs[k])
    if ci is None or ck is None:
        return None
    length = float(np.linalg.norm(ck - ci))
    inward_j = dirs[j] if np.dot(centre - ci, dirs[j]) > 0 else -dirs[j]
    inward_k = dirs[k] if np.dot(centre - ck, dirs[k]) > 0 else -dirs[k]
    a, b = ci + inward_j * length, ck + inward_k * length
    d = (b - a) / np.linalg.norm(b - a)
    return [*lines, ((a + b) / 2, d, 0.0)]


def _corners_from_lines(lines: list[tuple[np.ndarray, np.ndarray, float]], centre: np.ndarray) -> np.ndarray | None:
    """(4, 2) undistorted corners, ordered NW, NE, SE, SW, from four lines in any order."""
    normals = [np.array([-d[1], d[0]]) for _, d, _ in lines]
    ang = [np.arctan2(*(np.dot(centre - c, n) * n)[::-1]) for (c, _, _), n in zip(lines, normals, strict=True)]
    order = np.argsort(ang)
    pts = []
    for a, b in zip(order, np.roll(order, -1), strict=True):
        p = intersect_lines(lines[a][0], lines[a][1], lines[b][0], lines[b][1])
        if p is None:
            return None
        pts.append(p)
    return order_corners(np.array(pts))


def _plausible(corners: np.ndarray, w: int, h: int, min_area_frac: float) -> str | None:
    """Reason the quad cannot be a board seen from above, or None."""
    a, b = corners[2] - corners[0], corners[3] - corners[1]
    area = 0.5 * abs(a[0] * b[1] - a[1] * b[0])
    if area < min_area_frac * w * h:
        return f"surface region covers only {100 * area / (w * h):.1f}% of the picture"
    if not cv2.isContourConvex(corners.astype(np.float32).reshape(-1, 1, 2)):
        return "edges do not form a convex quadrilateral"
    sides = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
    if sides.min() < 0.35 * sides.max():
        return f"edges form a quadrilateral too skewed for a board (side ratio {sides.min() / sides.max():.2f})"
    for i in range(4):
        u, v = corners[i - 1] - corners[i], corners[(i + 1) % 4] - corners[i]
        cosang = np.dot(u, v) / (np.linalg.norm(u) * np.linalg.norm(v))
        if abs(cosang) > 0.75:
            return "edges meet at angles no square board shows under 30-40 degrees of tilt"
    return None


@dataclass(frozen=True, slots=True)
class _Side:
    pts: np.ndarray  # (M, 2) edge points, original pixels
    support: float  # fraction of normals with a clear edge
    length: float  # coarse length, original pixels


def _candidate_sides(
    frame: np.ndarray,
    mask: np.ndarray,
    scale: float,
    colour: np.ndarray,
    spread: float,
    n: int,
    inner_frac: float,
) -> tuple[list[_Side], np.ndarray]:
    """Refined straight hull runs of the surface mask (runs along the image border only when
    the surface visibly ends just inside the picture)."""
    h, w = mask.shape
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    peri = cv2.arcLength(hull, True)
    centre = np.array(np.nonzero(mask)[::-1], dtype=np.float64).mean(axis=1) / scale
    sides = []
    for a, b, length in hull_runs(hull):
        if length < 0.2 * peri / 4:
            continue
        border = on_border(a, b, w, h, 1.5)
        # wide enough for a shadowed band along the frame that the colour mask left out
        coarse = 3.0 / scale + 4.0 + 0.015 * max(frame.shape[:2])
        pts = _refine_side(frame, a / scale, b / scale, centre, colour, spread, coarse, n, peri / 4 / scale, inner_frac)
        support = len(pts) / n
        if len(pts) < 8:
            continue
        if border and (len(pts) < 12 or fit_line(pts, min_tol_px=1.5)[2].mean() < 0.8):
            continue
        sides.append(_Side(pts, support, length / scale))
    sides = _merge_collinear(sides, tol_px=0.01 * max(frame.shape[:2]))
    sides.sort(key=lambda s: -s.support * s.length)
    return sides[:4], centre


def _merge_collinear(sides: list[_Side], *, tol_px: float) -> list[_Side]:
    """Join sides whose fitted lines coincide (an edge split by a hand, a disc or a worn patch)."""
    lines = [fit_line(s.pts, min_tol_px=1.5)[:2] for s in sides]
    merged: list[_Side] = []
    used = [False] * len(sides)
    for i in range(len(sides)):
        if used[i]:
            continue
        group = [i]
        for j in range(i + 1, len(sides)):
            if used[j]:
                continue
            (ci, di), (cj, dj) = lines[i], lines[j]
            normal = np.array([-di[1], di[0]])
            if abs(np.dot(di, dj)) > np.cos(np.deg2rad(4.0)) and abs(np.dot(cj - ci, normal)) < tol_px:
                group.append(j)
                used[j] = True
        pts = np.concatenate([sides[k].pts for k in group])
        merged.append(_Side(pts, min(1.0, sum(sides[k].support for k in group)), sum(sides[k].length for k in group)))
    return merged


def _fit_board(
    frame: np.ndarray,
    sides: list[_Side],
    centre: np.ndarray,
    game: str,
    lens: LensModel | None,
    config: BoardFinderConfig,
) -> BoardCalibration | Failed:
    """Lines, optional distortion estimate, corners and homography from 3 or 4 refined sides."""
    h, w = frame.shape[:2]
    notes: list[str] = []
    side_pts = [s.pts for s in sides]
    if lens is None and config.estimate_distortion and len(sides) == 4:
        lens = estimate_radial_from_lines(side_pts, (w, h))
        if lens is not None:
            notes.append(f"radial distortion estimated from the board edges: k1={lens.dist[0]:.4f}")
    lines = _fit_sides(side_pts, lens)
    score = float(np.mean([f * s.support for (_, _, f), s in zip(lines, sides, strict=True)]))
    centre_und = centre if lens is None else lens.undistort_points(centre[None])[0]
    if len(lines) == 3:
        done = _complete_square(lines, centre_und)
        if done is None:
            return Failed("three edges visible but they do not outline a square")
        lines, score = done, score * 0.6
        notes.append("one surface edge is outside the picture; placed from the other three")
    corners_und = _corners_from_lines(lines, centre_und)
    if corners_und is None:
        return Failed("surface edges are parallel; cannot intersect them")
    reason = _plausible(corners_und, w, h, config.min_area_frac)
    if reason is not None:
        return Failed(reason)
    spec = load_board(game)
    H = cv2.getPerspectiveTransform(corners_und.astype(np.float32), spec.corners_mm.astype(np.float32))
    corners_px = corners_und if lens is None else lens.distort_points(corners_und)
    return BoardCalibration(
        game=spec.game.value,
        image_size=(w, h),
        corners_px=corners_px,
        image_to_board=H,
        lens=lens,
        score=score,
        notes=tuple(notes),
    )


def _side_px(quad_px: np.ndarray, i: int, t: np.ndarray, lens: LensModel | None, scale: float) -> np.ndarray:
    """(len(t), 2) points of side i (corners i, i + 1) of the board at fractions `t` along it, in
    work-image pixels (`quad_px` is in them, the original picture's pixels times `scale`): with
    `lens`, the side is straight in undistorted pixels and bent in the picture."""
    a, b = quad_px[i], quad_px[(i + 1) % 4]
    if lens is None:
        return np.asarray(a + t[:, None] * (b - a))
    ua, ub = lens.undistort_points(np.array([a, b]) / scale)
    return np.asarray(lens.distort_points(ua + t[:, None] * (ub - ua)) * scale)


def _purity(
    dist: np.ndarray, quad_px: np.ndarray, thr: float, lens: LensModel | None = None, scale: float = 1.0
) -> float:
    """Share of the pixels inside the board `quad_px` (work-image pixels; its sides bent by
    `lens`, see `_side_px`) within `thr` of the surface colour."""
    t = np.linspace(0.0, 1.0, 12)[:-1] if lens is not None else np.zeros(1)
    outline = np.concatenate([_side_px(quad_px, i, t, lens, scale) for i in range(4)])
    mask = np.zeros(dist.shape, np.uint8)
    cv2.fillPoly(mask, [np.rint(outline).astype(np.int32)], 1)
    inside = mask > 0
    return float((dist[inside] < thr).mean()) if inside.any() else 0.0


def _band_share(
    dist: np.ndarray, quad_px: np.ndarray, i: int, thr: float, *, inward: bool = False,
    lens: LensModel | None = None, scale: float = 1.0,
) -> float | None:
    """Share of the pixels within `thr` of the surface colour in a band along the middle 70 % of
    side i (corners i, i + 1) of the board `quad_px` (work-image pixels; its sides bent by `lens`,
    see `_side_px`), from just outside it (or inside, with `inward`) to 3 % of the board size
    further; None when the picture shows 10 or fewer. (Measured along a straight side, a board
    seen through a wide lens bulges out of it: surface just outside every side.)"""
    a, b = quad_px[i], quad_px[(i + 1) % 4]
    size = float(np.sqrt(abs(cv2.contourArea(quad_px.astype(np.float32)))))
    out = _outward(a, b, quad_px.mean(axis=0)) * (-1.0 if inward else 1.0)
    side = _side_px(quad_px, i, np.linspace(0.15, 0.85, 8 if lens is not None else 2), lens, scale)
    near, far = side + 0.004 * size * out, side + 0.034 * size * out
    mask = np.zeros(dist.shape, np.uint8)
    cv2.fillPoly(mask, [np.rint(np.concatenate([near, far[::-1]])).astype(np.int32)], 1)
    inside = mask > 0
    return float((dist[inside] < thr).mean()) if inside.sum() > 10 else None


def _surface_beyond(
    dist: np.ndarray, quad_px: np.ndarray, thr: float, lens: LensModel | None = None, scale: float = 1.0
) -> float:
    """Largest share of surface-coloured pixels in a band just outside any side of the board
    `quad_px` (its sides bent by `lens`, see `_side_px`)."""
    shares = [_band_share(dist, quad_px, i, thr, lens=lens, scale=scale) for i in range(4)]
    return max((s for s in shares if s is not None), default=0.0)


def _is_placed_side_bare(dist: np.ndarray, quad_px: np.ndarray, found_px: np.ndarray, thr: float) -> bool:
    """Whether the side of `quad_px` placed from the other three (the one whose middle is farthest
    from every found edge point `found_px`, (M, 2); all work-image pixels) lies wholly in the
    picture with mostly no surface colour just inside it: the fourth edge was there to be seen,
    and the square placed in its stead (which ignores foreshortening) is wrong. A placed side
    reaching out of the picture is not judged: a shadow may line the surface along a cut edge."""
    mids = (quad_px + np.roll(quad_px, -1, axis=0)) / 2
    gap = np.linalg.norm(mids[:, None, :] - found_px[None, :, :], axis=2).min(axis=1)
    i = int(np.argmax(gap))
    ends = quad_px[[i, (i + 1) % 4]]
    h, w = dist.shape
    if np.any(ends < 0) or np.any(ends > [w - 1, h - 1]):
        return False
    share = _band_share(dist, quad_px, i, thr, inward=True)
    return share is not None and share < 0.5


def find_board(
    frame_bgr: np.ndarray,
    *,
    game: str = "carrom",
    lens: LensModel | None = None,
    config: BoardFinderConfig = BoardFinderConfig(),
) -> BoardCalibration | Failed:
    """Find the playing surface of a carrom or korona board in one picture.

    Several colour thresholds are tried (tight to loose); the best-supported plausible
    board wins.

    Args:
        frame_bgr: (H, W, 3) uint8 BGR image, original (distorted) pixels.
        game: "carrom" or "korona" (sets the board size in mm).
        lens: known lens model; None estimates the radial distortion from the board's edges.
        config: tuning.

    Returns:
        A `BoardCalibration` (corners NW, NE, SE, SW in original pixels, homography from
        undistorted pixels to board mm), or `Failed(reason)`.

    Raises:
        ValueError: `frame_bgr` is not an (H, W, 3) uint8 image.
    """
    check_bgr_image(frame_bgr)
    load_board(game)
    h, w = frame_bgr.shape[:2]
    if min(h, w) < 32:
        return Failed(f"image too small ({w}x{h})")
    scale = min(1.0, config.work_side_px / max(h, w))
    small = cv2.resize(frame_bgr, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else frame_bgr
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (3, 3), 0), cv2.COLOR_BGR2LAB)
    colour, spread = surface_colour(lab)
    dist = colour_distance(lab, colour)
    best: BoardCalibration | Failed = Failed("no uniform playing surface found around the picture centre")
    two_sides: tuple[list[_Side], np.ndarray, np.ndarray] | None = None
    masks = [m for m in (surface_mask(dist, t) for t in candidate_thresholds(dist, spread)) if m is not None]
    # a region that leaked into a background of the surface's colour over a bright stretch of the
    # frame bulges; cut wider bridges too (the best-supported board still wins)
    masks += [m for m in (_cut_bridges(m) for m in masks) if m is not None]
    for mask, inner_frac in ((m, f) for m in masks for f in (0.0, 0.04)):
        sides, centre = _candidate_sides(frame_bgr, mask, scale, colour, spread, config.edge_samples, inner_frac)
        if len(sides) < 3:
            if isinstance(best, Failed) and best.reason.startswith("no uniform"):
                best = Failed(f"only {len(sides)} straight surface edges visible; need at least 3")
            if two_sides is None or len(sides) > len(two_sides[0]):
                two_sides = (sides, centre, mask)
            continue
        result = _fit_board(frame_bgr, sides, centre, game, lens, config)
        if isinstance(result, Failed):
            best = result if isinstance(best, Failed) else best
            continue
        quad = result.corners_px * scale
        if len(sides) == 3 and _is_placed_side_bare(dist, quad, np.concatenate([s.pts for s in sides]) * scale, 25.0):
            reason = "three surface edges found; the fourth, placed from them, is in the picture but off the surface"
            best = Failed(reason) if isinstance(best, Failed) else best
            continue
        # a quad that swallowed part of the frame holds pixels far from the surface colour
        # and one that stopped short of an edge has surface colour just outside a side
        beyond = _surface_beyond(dist, quad, 25.0, result.lens, scale)
        purity = _purity(dist, quad, 18.0, result.lens, scale)
        result = result.with_(score=result.score * purity**2 * (1.0 - beyond) ** 2)
        if isinstance(best, Failed) or result.score > best.score:
            best = result
    if isinstance(best, Failed) and two_sides is not None:
        completed = _board_from_circles(frame_bgr, lab, colour, scale, *two_sides, game, lens, config)
        best = completed if isinstance(completed, BoardCalibration) else best
    if isinstance(best, BoardCalibration):
        best = best.with_(appearance=Appearance(colour, spread))
    return best


def _cut_bridges(mask: np.ndarray, *, frac: float = 0.08, min_solidity: float = 0.95) -> np.ndarray | None:
    """The mask opened with a disc of `frac` of the picture's short side, keeping its largest part,
    when its largest region fills less than `min_solidity` of its convex hull; else None."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    region = max(contours, key=cv2.contourArea)
    hull_area = cv2.contourArea(cv2.convexHull(region))
    if hull_area <= 0 or cv2.contourArea(region) >= min_solidity * hull_area:
        return None
    k = int(frac * min(mask.shape)) | 1
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=4)
    if n < 2:
        return None
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    return np.asarray((labels == largest).astype(np.uint8) * 255)


def _board_from_circles(
    frame: np.ndarray,
    lab: np.ndarray,
    colour: np.ndarray,
    scale: float,
    sides: list[_Side],
    centre: np.ndarray,
    mask: np.ndarray,
    game: str,
    lens: LensModel | None,
    config: BoardFinderConfig,
) -> BoardCalibration | Failed:
    """Board of a tight crop from two adjacent found edges and the printed base circles: each
    missing edge is its opposite edge mirrored through the board centre that the circles give."""
    spec = load_board(game)
    if len(sides) != 2:
        return Failed(f"only {len(sides)} straight surface edges visible; need at least 3")
    ys, xs = np.nonzero(mask)
    box = np.array([xs.min(), ys.min(), xs.max(), ys.max()], np.float64)
    to_img = circles_homography(lab, colour, spec, box)
    if to_img is None:
        return Failed("only 2 straight surface edges visible and too few printed base circles to complete them")
    to_orig = np.diag([1.0 / scale, 1.0 / scale, 1.0]) @ to_img
    dirs = [fit_line(s.pts, min_tol_px=1.5)[1] for s in sides]
    if abs(float(np.dot(dirs[0], dirs[1]))) > 0.5:
        return Failed("only 2 straight surface edges visible, and they are opposite each other")
    mirrored = []
    for s, d in zip(sides, dirs, strict=True):
        # an edge running along the picture's x is a N/S side: mirror its y
        axis = 1 if abs(d[0]) > abs(d[1]) else 0
        mirrored.append(_Side(mirror_side(s.pts, to_orig, axis=axis), 0.5 * s.support, s.length))
    result = _fit_board(frame, [*sides, *mirrored], centre, game, lens, replace(config, estimate_distortion=False))
    if isinstance(result, Failed):
        return result
    note = "two surface edges outside the picture; mirrored from the others through the base circles' centre"
    return result.with_(score=0.5 * result.score, notes=(*result.notes, note))
