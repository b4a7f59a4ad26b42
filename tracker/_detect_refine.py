"""Sub-millimetre disc centres by radial edge search in the ORIGINAL frame.

For every candidate (all at once) rays are cast from the centre in board mm, mapped into the
original image through the precomputed rectification map and sampled there at full
resolution. Along each ray the edge is the strongest rise of the colour distance from the
disc's own face colour between 0.75 R and 1.3 R (the dark rim belongs to the disc; a shadow
beyond the rim is further from the face colour still, so the rise sits at the outline).
A weighted least-squares fit of r(theta) = R + dx cos(theta) + dy sin(theta) per disc gives
the centre shift and the radius. Where the caller allows it, a fit with R held at the nominal
radius replaces it when it finds the outline on more rays (a disc packed among others, whose
edges draw the free fit out to a larger circle off its centre), and a centre a round moved far
gets a second round from where it ended.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields

import cv2
import numpy as np

from calibration.rectify import BoardMaps, sample_points

__all__ = ["Outline", "RefineResult", "refine_discs", "refit_discs"]


@dataclass(frozen=True)
class _Plan:
    """Where rays are sampled: `n_rays` directions, `n_samples` radii from 0 to 1.35 R; boolean
    masks over the radii name the parts of a disc (face, search band for the outline, ...)."""

    n_rays: int
    n_samples: int
    dirs: np.ndarray = field(init=False)
    r_frac: np.ndarray = field(init=False)
    design: np.ndarray = field(init=False)
    design_outer: np.ndarray = field(init=False)
    design2: np.ndarray = field(init=False)
    design2_outer: np.ndarray = field(init=False)
    face: np.ndarray = field(init=False)
    face_weight: np.ndarray = field(init=False)
    search: np.ndarray = field(init=False)
    band: np.ndarray = field(init=False)
    edge: np.ndarray = field(init=False)
    inner: np.ndarray = field(init=False)
    rim: np.ndarray = field(init=False)
    groove: np.ndarray = field(init=False)
    inside: np.ndarray = field(init=False)
    outside: np.ndarray = field(init=False)
    offsets: np.ndarray = field(init=False)
    flat_offsets: np.ndarray = field(init=False)
    # sample indices [lo, hi): the search band, the radial gradient round it (a sample either
    # side) and the colour distance that gradient takes (a sample either side again)
    span: tuple[int, int] = field(init=False)
    grad_span: tuple[int, int] = field(init=False)
    dist_span: tuple[int, int] = field(init=False)

    def __post_init__(self) -> None:
        ang = np.linspace(0.0, 2 * np.pi, self.n_rays, endpoint=False)
        r = np.linspace(0.0, 1.35, self.n_samples).astype(np.float32)
        object.__setattr__(self, "dirs", np.stack([np.cos(ang), np.sin(ang)], axis=1).astype(np.float32))
        object.__setattr__(self, "r_frac", r)
        design = np.stack([np.ones(self.n_rays), np.cos(ang), np.sin(ang)], axis=1)
        object.__setattr__(self, "design", design)
        # (M, 9): the outer product of each ray's design row, for the normal equations
        object.__setattr__(self, "design_outer", (design[:, :, None] * design[:, None, :]).reshape(-1, 9))
        # the second harmonic (an outline stretched along one direction: a disc blurred by its motion)
        design2 = np.stack([np.cos(2 * ang), np.sin(2 * ang)], axis=1)
        object.__setattr__(self, "design2", design2)
        object.__setattr__(self, "design2_outer", (design2[:, :, None] * design2[:, None, :]).reshape(-1, 4))
        parts = (
            ("face", 0.0, 0.45),
            ("search", 0.72, 1.32),
            ("band", 0.72, 0.86),
            ("edge", 0.9, 1.0),
            ("inner", 0.25, 0.5),
            ("rim", 0.86, 1.05),
            ("groove", 0.5, 0.76),
            ("inside", 0.28, 0.46),
            ("outside", 0.78, 0.86),
        )
        for name, lo, hi in parts:
            object.__setattr__(self, name, (r >= lo) & (r <= hi))
        # (1, K) float32: `_face_mask` of a disc without a hole
        object.__setattr__(self, "face_weight", self.face[None, :].astype(np.float32))
        object.__setattr__(self, "offsets", (r[None, :, None] * self.dirs[:, None, :]).astype(np.float32))
        object.__setattr__(self, "flat_offsets", self.offsets.reshape(1, -1))
        band = np.flatnonzero(self.search)
        lo, hi = int(band[0]), int(band[-1]) + 1
        # (the edge's parabola takes the samples either side of the band's strongest: all inside)
        if hi - lo != len(band) or lo < 1 or hi > self.n_samples - 1:
            raise ValueError(f"the search band {lo}..{hi} must be one run of samples inside 1..{self.n_samples - 1}")
        object.__setattr__(self, "span", (lo, hi))
        object.__setattr__(self, "grad_span", (lo - 1, hi + 1))
        object.__setattr__(self, "dist_span", (max(lo - 2, 0), min(hi + 2, self.n_samples)))


_SCREEN = _Plan(16, 12)  # cheap first look at every candidate
_FINE = _Plan(24, 28)  # full resolution for the survivors
_QUICK = _Plan(16, 20)  # candidates already known to be discs (video path)
# a faint edge: a rise above this share of `min_rise` (measured: light men's thin rims on light
# surfaces rise 5-9 Lab units where a clear edge needs 8)
_FAINT_RISE = 0.5
# a groove: this much darker (8-bit Lab lightness) than the face on both sides of it
_GROOVE_DIP = 4.0
# a fine round that moved a centre this far (mm) is followed by another from there
_AGAIN_MM = 1.5
# rays more on the outline that make a fit held to the nominal radius the better one
_HELD_GAIN = 2
# added to the normal equations of the fits: a disc with too few rays still gets a solution
_RIDGE3, _RIDGE2 = np.eye(3) * 1e-6, np.eye(2) * 1e-6


@dataclass(frozen=True, slots=True)
class Outline:
    """Discs fitted to their outlines (arrays of the same length N): what a refit of known discs
    gives (`refit_discs`).

    Attributes:
        xy_mm: (N, 2) float64 centres, board mm.
        radius_mm: (N,) fitted radii.
        face_lab: (N, 3) mean Lab of the face (inner 45 %).
        support: (N,) fraction of rays with an edge consistent with the fit.
        contrast: (N,) mean edge rise (Lab units) on the rays that support the fit.
        coverage: (N,) number of the 8 octants holding at least one consistent outline ray.
        clear_octants: (N, 8) bool, the octants holding a clear edge (above `min_rise`) on the
            fitted outline (octant k spans the ray angles from k 45 to (k + 1) 45 degrees in
            board-image pixels).
        clear: (N,) fraction of rays with a clear edge (rise above `min_rise`) consistent with
            the fit; `support` also counts faint edges (above half of it) on the fitted outline.
        stretch: (N,) amplitude of the outline's second harmonic (mm): a disc blurred along its
            motion is drawn out along it, its fitted radius too large.
        moved: (N,) how far the last round moved the centre (mm): small once the fit has
            settled on an outline.
    """

    xy_mm: np.ndarray
    radius_mm: np.ndarray
    face_lab: np.ndarray
    support: np.ndarray
    contrast: np.ndarray
    coverage: np.ndarray
    clear_octants: np.ndarray
    clear: np.ndarray
    stretch: np.ndarray
    moved: np.ndarray

    def score(self) -> np.ndarray:
        """(N,) how sure each fit is: its support, scaled down where its edges rise by less than
        20 Lab units (to at most 0.3 of it)."""
        return np.asarray(self.support * np.clip(self.contrast / 20.0, 0.3, 1.0))


@dataclass(frozen=True, slots=True)
class RefineResult(Outline):
    """Refined candidates (`refine_discs`): their `Outline` and what tells a disc from a print,
    a hole or a neighbour's outline (arrays of the same length N).

    Attributes:
        ring_lab: (N, 3) mean Lab just outside the outline (1.2-1.35 R).
        band_lab: (N, 3) mean Lab of the outer face band (0.72-0.86 R).
        shade: (N, 3) mean Lab of the outermost 10 % of the disc (its rim).
        rim: (N,) fraction of rays darker than their inner face somewhere in 0.86-1.05 R (a
            disc's rim runs all round, a light man's thin dark rim just at or outside R; two
            printed lines one diameter apart darken only two arcs).
        groove: (N,) fraction of rays darker somewhere in 0.5-0.76 R than the face on both
            sides of it (a man's engraved inner ring: a straight printed line crosses only a
            few of the rays there).
        asymmetry: (N,) how much the face differs from ray to ray (Lab units, lightness
            halved): at each radius across the face (0.2-0.6 R, or round a hole) the distance of
            the rays' colours from their mean, its 90th percentile over the rays, the median over
            the radii. A disc's face is the same all round (its rings are concentric); a circle
            drawn round printed arms, a logo or a pocket's net is not.
        tag: (N,) bool, the caller's per-candidate `tag` carried through (all True if none).
    """

    ring_lab: np.ndarray
    band_lab: np.ndarray
    shade: np.ndarray
    rim: np.ndarray
    groove: np.ndarray
    asymmetry: np.ndarray
    tag: np.ndarray

    def select(self, idx: np.ndarray) -> RefineResult:
        """The candidates at `idx` ((K,) indices or (N,) bool)."""
        return RefineResult(**{f.name: getattr(self, f.name)[idx] for f in fields(self)})


def _sample_rays(
    frame_bgr: np.ndarray, maps: BoardMaps, xy_mm: np.ndarray, r_mm: np.ndarray, plan: _Plan
) -> np.ndarray:
    """(N, M, K, 3) float32 Lab samples along the rays of each disc (sampled in BGR, then
    converted), the lightness halved (the colour distance of `_edges` weighs it so)."""
    pts = _ray_points(maps.to_px(xy_mm), r_mm * maps.px_per_mm, plan)
    bgr = maps.sample_original_px(frame_bgr, pts)  # (N, M, K, 3) uint8
    lab = cv2.cvtColor(bgr.reshape(-1, plan.n_samples, 3), cv2.COLOR_BGR2LAB).reshape(bgr.shape)
    return _weighted(lab)


_LAB_WEIGHT = np.array([0.5, 1.0, 1.0], np.float32)


def _weighted(lab: np.ndarray) -> np.ndarray:
    """(..., 3) float32 of Lab samples (..., 3), the lightness weighted `_LAB_WEIGHT[0]`."""
    out = lab.astype(np.float32)
    out[..., 0] *= _LAB_WEIGHT[0]
    return out


def _ray_points(centre_px: np.ndarray, radius_px: np.ndarray, plan: _Plan) -> np.ndarray:
    """(N, M, K, 2) float32 board-image px where `plan` samples discs of centres (N, 2) px and
    radii (N,) px (with the offsets flat: numpy's loops run over all of a disc's samples at once,
    not over the last axis of two)."""
    centre = np.asarray(centre_px, np.float32)
    out = np.asarray(radius_px, np.float32)[:, None] * plan.flat_offsets
    # (the centres added coordinate by coordinate: no copy of them for every sample)
    xy = out.reshape(len(centre), plan.n_rays * plan.n_samples, 2)
    xy[..., 0] += centre[:, 0, None]
    xy[..., 1] += centre[:, 1, None]
    return np.asarray(out.reshape(len(centre), plan.n_rays, plan.n_samples, 2))


def _face_mask(plan: _Plan, hole_frac: np.ndarray) -> np.ndarray:
    """(N, K) float32: the sample radii that show the disc's face (outside any hole, inside the rim)."""
    if not hole_frac.any():  # (no disc with a hole, carrom's: the face radii of the plan for all)
        return np.repeat(plan.face_weight, len(hole_frac), axis=0)
    r = plan.r_frac[None, :]
    lo = np.where(hole_frac > 0, hole_frac + 0.1, 0.0)[:, None]
    hi = np.where(hole_frac > 0, np.maximum(hole_frac + 0.3, 0.8), 0.45)[:, None]
    return np.asarray(((r >= lo) & (r <= hi)).astype(np.float32))


def _masked_mean(samples: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """(N, M, K, 3) samples, (N, K) mask -> (N, 3) mean over rays and masked radii."""
    per_radius = samples.sum(axis=1)  # (N, K, 3): over the rays first, then the masked radii
    total = np.einsum("nkc,nk->nc", per_radius, mask)
    return np.asarray(total / np.maximum(mask.sum(axis=1) * samples.shape[1], 1.0)[:, None])


def _edges(
    samples: np.ndarray, r_mm: np.ndarray, plan: _Plan, face_mask: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Edge radius (N, M) mm, rise (N, M), face (N, 3) (in the samples' weighting).

    The rise is the radial gradient of the colour distance from the face (samples weighted as
    `_sample_rays` leaves them); the edge is its largest value in the search band, placed to a
    fraction of a sample by a parabola through its neighbours."""
    r_frac = plan.r_frac
    face = _masked_mean(samples, face_mask)
    # (only round the search band: the distances at samples [d_lo, d_hi), the gradient at
    # [g_lo, g_hi), see `_Plan`)
    (lo, hi), (g_lo, g_hi), (d_lo, d_hi) = plan.span, plan.grad_span, plan.dist_span
    d = _distance(samples[:, :, d_lo:d_hi], face)
    # the central difference, zero at the first and last sample
    g = np.zeros((*d.shape[:2], g_hi - g_lo), d.dtype)
    j0, j1 = max(g_lo, 1), min(g_hi, len(r_frac) - 1)
    ahead, behind = d[..., j0 + 1 - d_lo : j1 + 1 - d_lo], d[..., j0 - 1 - d_lo : j1 - 1 - d_lo]
    g[..., j0 - g_lo : j1 - g_lo] = 0.5 * (ahead - behind)
    k = np.argmax(g[..., lo - g_lo : hi - g_lo], axis=2) + (lo - g_lo)  # (into `g`)
    flat_k = (np.arange(k.size).reshape(k.shape) * g.shape[2] + k).ravel()
    g0, g1, g2 = (g.reshape(-1)[flat_k + o].reshape(k.shape) for o in (-1, 0, 1))
    k = k + g_lo
    den = g0 - 2 * g1 + g2
    level = np.abs(den) <= 1e-6
    sub = np.clip(np.where(level, 0.0, 0.5 * (g0 - g2) / np.where(level, -1.0, den)), -0.5, 0.5)
    step = float(r_frac[1] - r_frac[0])
    edge_r = (r_frac[0] + (k + sub) * step) * r_mm[:, None]
    return edge_r, g1 * 2.0, face


def _distance(samples: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """(N, M, K) Euclidean distance of samples (N, M, K, 3) from each disc's colour (N, 3)
    (channel by channel: numpy's loops then run over a disc's samples, not over three channels)."""
    c = colour[:, None, None, :]
    d = np.square(samples[..., 0] - c[..., 0])
    d += np.square(samples[..., 1] - c[..., 1])
    d += np.square(samples[..., 2] - c[..., 2])
    return np.asarray(np.sqrt(d))


def _row_median(x: np.ndarray) -> np.ndarray:
    """(N,) median of each row of (N, M) `x` (`np.median(x, axis=1)` without its overhead on
    small arrays)."""
    m = x.shape[1]
    srt = np.sort(x, axis=1)
    return np.asarray(0.5 * (srt[:, (m - 1) // 2] + srt[:, m // 2]))


def _fit(edge_r: np.ndarray, weight: np.ndarray, plan: _Plan) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Weighted LSQ of r = R + dx cos + dy sin per disc -> (R (N,), shift (N, 2), residual (N, M))."""
    A = plan.design
    ata = (weight @ plan.design_outer).reshape(-1, 3, 3) + _RIDGE3
    atb = (weight * edge_r) @ A
    sol = np.linalg.solve(ata, atb[..., None])[..., 0]
    return sol[:, 0], sol[:, 1:], edge_r - (sol @ A.T)


def _iterate(
    frame_bgr: np.ndarray,
    maps: BoardMaps,
    xy: np.ndarray,
    r_nom: np.ndarray,
    min_rise: float,
    plan: _Plan,
    hole_frac: np.ndarray,
    hold: np.ndarray | None = None,
) -> tuple[np.ndarray, ...]:
    """One round: sample, find edges, fit robustly, move the centres. `hold` (N,) bool: the
    discs that may be held to their nominal radius, where that finds more of their outline."""
    samples = _sample_rays(frame_bgr, maps, xy, r_nom, plan)
    edge_r, rise, face = _edges(samples, r_nom, plan, _face_mask(plan, hole_frac))
    strong = rise > min_rise
    (fit_r, shift), res, fits = _robust(lambda w: _fit(edge_r, w, plan), strong, r_nom)
    # the fit rests on clear edges; a faint edge (a light disc's thin rim on a light surface)
    # where the fitted outline runs counts as support too, but not for the fit
    clear = (strong & fits).astype(np.float64)
    stretch = _stretch(res, clear, plan)
    faint = rise > _FAINT_RISE * min_rise
    weight = (faint & fits).astype(np.float64)
    if hold is not None and hold.any():
        # a disc among others: its neighbours' edges can draw a free fit out to a larger
        # circle off its centre; held to its own size, the fit may find more of its outline
        dev = edge_r - r_nom[:, None]
        (held_shift,), _, held_fits = _robust(lambda w: _fit_held(dev, w, plan), strong, r_nom)
        held_weight = (faint & held_fits).astype(np.float64)
        held = hold & (held_weight.sum(axis=1) >= weight.sum(axis=1) + _HELD_GAIN)
        fit_r = np.where(held, r_nom, fit_r)
        shift = np.where(held[:, None], held_shift, shift)
        clear = np.where(held[:, None], (strong & held_fits).astype(np.float64), clear)
        weight = np.where(held[:, None], held_weight, weight)
        stretch = np.where(held, 0.0, stretch)
    good = weight.sum(axis=1) >= 6
    max_shift = 0.35 * r_nom[:, None]
    step = np.where(good[:, None], np.clip(shift, -max_shift, max_shift), 0.0)
    radius = np.where(good, fit_r, r_nom)
    stretch = np.where(good, stretch, 0.0)
    return xy + step, radius, samples, rise, face, weight, clear, stretch, np.hypot(step[:, 0], step[:, 1])


def _robust(
    solve: Callable[[np.ndarray], tuple[np.ndarray, ...]], strong: np.ndarray, r_nom: np.ndarray
) -> tuple[tuple[np.ndarray, ...], np.ndarray, np.ndarray]:
    """A fit `solve(weights)` -> (*solution, residuals (N, M)) on the rays with a clear edge
    (`strong`, (N, M) bool), fitted again on those its residuals do not reject, twice ->
    (solution, residuals, rays consistent with it (N, M) bool)."""
    weight = strong.astype(np.float64)
    for _rob in range(2):
        *sol, res = solve(weight)
        fits = np.abs(res) <= np.clip(2.5 * _row_median(np.abs(res)), 0.05 * r_nom, 0.1 * r_nom)[:, None]
        weight = (strong & fits).astype(np.float64)
    return tuple(sol), res, fits


@dataclass(frozen=True)
class _Look:
    """What `_iterate` needs besides the centres: the frame, the maps and the discs' nominal
    radii (N,), hole shares (N,) and `hold` (N,) bool or None."""

    frame_bgr: np.ndarray
    maps: BoardMaps
    r_nom: np.ndarray
    min_rise: float
    plan: _Plan
    hole_frac: np.ndarray
    hold: np.ndarray | None

    def round(self, xy: np.ndarray, rows: np.ndarray | slice = slice(None)) -> tuple[np.ndarray, ...]:
        """`_iterate` for the discs `rows` from centres `xy` (of those rows)."""
        hold = None if self.hold is None else self.hold[rows]
        return _iterate(
            self.frame_bgr, self.maps, xy, self.r_nom[rows], self.min_rise, self.plan, self.hole_frac[rows], hold
        )

    def rounds(self, xy: np.ndarray, rounds: int, settled_mm: float) -> tuple[np.ndarray, ...]:
        """Up to `rounds` rounds, each starting where the last one ended, for the discs the last
        round still moved by `settled_mm` or more (of those `hold` marks, if given) -> the last
        round's outputs per disc."""
        out = self.round(xy)
        for _round in range(rounds - 1):
            again = np.nonzero((out[-1] >= settled_mm) & (True if self.hold is None else self.hold))[0]
            if len(again) == 0:
                break
            for whole, part in zip(out, self.round(out[0][again], again), strict=True):
                whole[again] = part
        return out


def _fit_held(dev: np.ndarray, weight: np.ndarray, plan: _Plan) -> tuple[np.ndarray, np.ndarray]:
    """Weighted LSQ of the edges' deviations (N, M) from the nominal radius, r - R = dx cos +
    dy sin per disc -> (shift (N, 2), residual (N, M))."""
    A = plan.design[:, 1:]
    ata = (weight @ plan.design_outer).reshape(-1, 3, 3)[:, 1:, 1:] + _RIDGE2
    atb = (weight * dev) @ A
    sol = np.linalg.solve(ata, atb[..., None])[..., 0]
    return sol, dev - sol @ A.T


def _stretch(res: np.ndarray, weight: np.ndarray, plan: _Plan) -> np.ndarray:
    """(N,) amplitude (mm) of the second harmonic a cos 2t + b sin 2t of the residuals (N, M):
    how far the outline is drawn out along one direction."""
    ata = (weight @ plan.design2_outer).reshape(-1, 2, 2) + _RIDGE2
    atb = (weight * res) @ plan.design2
    ab = np.linalg.solve(ata, atb[..., None])[..., 0]
    return np.asarray(np.hypot(ab[:, 0], ab[:, 1]))


def _screen_on_board(
    board_lab: np.ndarray,
    maps: BoardMaps,
    xy: np.ndarray,
    r_nom: np.ndarray,
    min_rise: float,
    hole_frac: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The cheap first round in the rectified board image (Lab): moved centres (mm), ray weights
    and the relative radius misfit of each candidate."""
    plan = _SCREEN
    r_px = r_nom * maps.px_per_mm
    samples = _weighted(sample_points(board_lab, _ray_points(maps.to_px(xy), r_px, plan)))
    edge_r, rise, _ = _edges(samples, r_px, plan, _face_mask(plan, hole_frac))
    strong = rise > min_rise
    weight = strong.astype(np.float64)
    for _rob in range(2):
        _, shift, res = _fit(edge_r, weight, plan)
        tol = np.clip(2.5 * _row_median(np.abs(res)), 0.06 * r_px, 0.12 * r_px)
        weight = (strong & (np.abs(res) <= tol[:, None])).astype(np.float64)
    good = weight.sum(axis=1) >= 6
    max_shift = 0.35 * r_px[:, None]
    moved = np.where(good[:, None], np.clip(shift, -max_shift, max_shift), 0.0) / maps.px_per_mm
    fit_r, _, res = _fit(edge_r, weight, plan)
    # faint edges on the fitted outline count too (a light man's thin rim; see `_iterate`)
    weight = ((rise > _FAINT_RISE * min_rise) & (np.abs(res) <= tol[:, None])).astype(np.float64)
    # an outline of the wrong size (printed arcs, neighbours' outlines) is no disc of this size
    misfit = np.abs(fit_r / r_px - 1.0)
    weight = np.where((misfit <= 0.25)[:, None], weight, 0.0)
    return xy + moved, weight, misfit


def _unique(xy: np.ndarray, quality: np.ndarray, radius: float) -> np.ndarray:
    """Indices of candidates with no better one within `radius` (mm): one hypothesis per disc."""
    d = np.linalg.norm(xy[:, None, :] - xy[None, :, :], axis=2)
    order = np.arange(len(xy))
    better = (quality[None, :] > quality[:, None]) | (
        (quality[None, :] == quality[:, None]) & (order[None, :] < order[:, None])
    )
    return np.nonzero(~np.any((d < radius) & better, axis=1))[0]


def refine_discs(
    frame_bgr: np.ndarray,
    maps: BoardMaps,
    xy_mm: np.ndarray,
    r_mm: np.ndarray,
    *,
    min_rise: float = 8.0,
    min_support: float = 0.35,
    hole_mm: np.ndarray | None = None,
    board_lab: np.ndarray | None = None,
    tag: np.ndarray | None = None,
    screen: bool = True,
    hold: np.ndarray | None = None,
    unscreened: np.ndarray | None = None,
) -> RefineResult:
    """Refine candidate centres (N, 2) board mm with nominal radii (N,) mm; see module doc.

    Two rounds: a cheap screening round (in the rectified `board_lab` when given, else in the
    frame), then a full-resolution round only for candidates whose first round found an
    outline on at least `min_support` of the rays in 5 of 8 octants. `tag` (N,) bool is
    carried through to the surviving candidates. `screen=False` skips the first round (for
    candidates already known to be discs, e.g. foreground blobs of the video path);
    `unscreened` (N,) bool marks candidates that go on to the full round from where they were
    whatever the first round found (ranked as barely passing it). `hold` (N,) bool marks the
    candidates the fine round may hold to their nominal radius (see `_iterate`); with it, the
    candidates that round moved by `_AGAIN_MM` or more get a second one.
    """
    xy = np.asarray(xy_mm, dtype=np.float64).copy()
    r_nom = np.asarray(r_mm, dtype=np.float64)
    hole_frac = _hole_fraction(r_nom, hole_mm)
    if not screen:
        weight, misfit = np.ones((len(xy), _SCREEN.n_rays)), np.zeros(len(xy))
    elif board_lab is not None:
        xy, weight, misfit = _screen_on_board(board_lab, maps, xy, r_nom, min_rise, hole_frac)
    else:
        xy, _, _, _, _, weight, *_ = _iterate(frame_bgr, maps, xy, r_nom, min_rise, _SCREEN, hole_frac)
        misfit = np.zeros(len(xy))
    octants = (weight > 0).reshape(len(xy), 8, _SCREEN.n_rays // 8).any(axis=2).sum(axis=1)
    passed = (weight.mean(axis=1) >= 0.8 * min_support) & (octants >= 4)
    if unscreened is not None and screen:
        free = np.asarray(unscreened, bool) & ~passed
        xy[free] = np.asarray(xy_mm, dtype=np.float64)[free]
        weight[free] = 0.8 * min_support
        misfit[free] = 0.0
        passed |= free
    alive = np.nonzero(passed)[0]
    alive = alive[_unique(xy[alive], weight[alive].mean(axis=1) - misfit[alive], 0.5 * float(r_nom.min(initial=1.0)))]
    tags = (np.ones(len(r_nom), bool) if tag is None else np.asarray(tag, bool))[alive]
    xy, r_nom, hole_frac = xy[alive], r_nom[alive], hole_frac[alive]
    if len(alive) == 0:
        return _empty()
    p = _FINE if screen else _QUICK
    if hold is None:
        return _result(_iterate(frame_bgr, maps, xy, r_nom, min_rise, p, hole_frac), p, hole_frac, tags)
    # (a fit held to its size, or one drawn off by its neighbours, may need a second look)
    held = np.asarray(hold, bool)[alive]
    out = _Look(frame_bgr, maps, r_nom, min_rise, p, hole_frac, held).rounds(xy, 2, _AGAIN_MM)
    return _result(out, p, hole_frac, tags)


def refit_discs(
    frame_bgr: np.ndarray,
    maps: BoardMaps,
    xy_mm: np.ndarray,
    r_mm: np.ndarray,
    *,
    min_rise: float = 8.0,
    hole_mm: np.ndarray | None = None,
    rounds: int = 2,
    settled_mm: float = 0.5,
) -> Outline:
    """Known discs (centres (N, 2) board mm, nominal radii (N,) mm) fitted again where they are
    expected: up to `rounds` full-resolution rounds, each starting where the last one ended,
    for the discs the last round still moved by `settled_mm` or more; no screening and no
    candidate dropped (the result's rows are the input's). `moved` tells how far the last
    round each disc went through moved its centre."""
    xy = np.asarray(xy_mm, dtype=np.float64).reshape(-1, 2)
    r_nom = np.asarray(r_mm, dtype=np.float64)
    hole_frac = _hole_fraction(r_nom, hole_mm)
    if len(xy) == 0:
        return _empty()
    look = _Look(frame_bgr, maps, r_nom, min_rise, _FINE, hole_frac, None)
    return _outline(look.rounds(xy, rounds, settled_mm), _FINE)


def _hole_fraction(r_nom: np.ndarray, hole_mm: np.ndarray | None) -> np.ndarray:
    """(N,) each disc's hole radius as a share of its nominal radius (0: no hole given)."""
    hole = np.zeros(len(r_nom)) if hole_mm is None else np.asarray(hole_mm, dtype=np.float64)
    return np.asarray(hole / np.maximum(r_nom, 1e-6))


def _empty() -> RefineResult:
    z, z3 = np.zeros(0), np.zeros((0, 3))
    z8 = np.zeros((0, 8), bool)
    return RefineResult(np.zeros((0, 2)), z, z3, z, z, z, z8, z, z, z, z3, z3, z3, z, z, z, np.zeros(0, bool))


def _asymmetry(samples: np.ndarray, p: _Plan, hole_frac: np.ndarray) -> np.ndarray:
    """(N,) `RefineResult.asymmetry` of the samples (N, M, K, 3) (weighted as sampled) of plan `p`."""
    lo = np.where(hole_frac > 0, hole_frac + 0.1, 0.2)[:, None]
    hi = np.where(hole_frac > 0, np.maximum(hole_frac + 0.3, 0.6), 0.6)[:, None]
    # (only the run of radii that holds every disc's band)
    held = np.flatnonzero(((p.r_frac >= lo) & (p.r_frac <= hi)).any(axis=0))
    if len(samples) == 0 or len(held) == 0:
        return np.zeros(len(samples))
    cols = slice(int(held[0]), int(held[-1]) + 1)
    r = p.r_frac[None, cols]
    at = (r >= lo) & (r <= hi)  # (N, K')
    band = samples[:, :, cols]
    spread = np.sqrt(np.square(band - band.mean(axis=1, keepdims=True)).sum(axis=3))  # (N, M, K')
    # the 90th percentile over the rays, interpolated between the two ranks round it
    m = spread.shape[1]
    pos = 0.9 * (m - 1)
    k0 = int(pos)
    k1 = min(k0 + 1, m - 1)
    part = np.partition(spread, (k0, k1), axis=1)
    per_radius = part[:, k0] + (pos - k0) * (part[:, k1] - part[:, k0])  # (N, K')
    n_at = at.sum(axis=1)
    ranked = np.sort(np.where(at, per_radius, np.inf), axis=1)  # (each disc's radii first)
    k, n = np.arange(len(n_at)), np.maximum(n_at, 1)
    return np.asarray(0.5 * (ranked[k, (n - 1) // 2] + ranked[k, n // 2]), np.float64)


def _outline(rounds: tuple[np.ndarray, ...], p: _Plan) -> Outline:
    """The `Outline` of a last `_iterate` round (its outputs `rounds`) with plan `p`."""
    xy, radius, _, rise, face, weight, clear_rays, stretch, moved = rounds
    support = weight.mean(axis=1)
    clear = clear_rays.mean(axis=1)
    contrast = (rise * weight).sum(axis=1) / np.maximum(weight.sum(axis=1), 1.0)

    def octants(rays: np.ndarray) -> np.ndarray:
        return np.asarray((rays > 0).reshape(len(xy), 8, p.n_rays // 8).any(axis=2))

    face = (face / _LAB_WEIGHT).astype(np.float64)  # Lab again
    coverage = octants(weight).sum(axis=1)
    return Outline(xy, radius, face, support, contrast, coverage, octants(clear_rays), clear, stretch, moved)


def _result(rounds: tuple[np.ndarray, ...], p: _Plan, hole_frac: np.ndarray, tags: np.ndarray) -> RefineResult:
    """The `RefineResult` of a last `_iterate` round (its outputs `rounds`) with plan `p`."""
    samples = rounds[2]
    n = len(samples)

    def mean_lab(at: np.ndarray | slice) -> np.ndarray:
        """(N, 3) mean Lab of each disc's samples at the radii `at` (weighted as sampled, then
        Lab again: the weights are powers of two, the mean the same as of the Lab samples)."""
        return np.asarray(samples[:, :, at].reshape(n, -1, 3).mean(axis=1) / _LAB_WEIGHT)

    light = samples[..., 0] * np.float32(1.0 / _LAB_WEIGHT[0])
    fm = _face_mask(p, hole_frac)
    inner_l = (light * fm[:, None, :]).sum(axis=2) / np.maximum(fm.sum(axis=1), 1.0)[:, None]
    rim = (light[:, :, p.rim].min(axis=2) < inner_l - 6.0).mean(axis=1)
    sides = np.minimum(light[:, :, p.inside].mean(axis=2), light[:, :, p.outside].mean(axis=2))
    groove = (light[:, :, p.groove].min(axis=2) < sides - _GROOVE_DIP).mean(axis=1)
    asymmetry = _asymmetry(samples, p, hole_frac)
    # mean Lab just inside the fitted outline: a disc's rim keeps its face's hue, a printed
    # circle's outline is in line colour
    edge_lab = mean_lab(p.edge).astype(np.float64)
    outline = _outline(rounds, p)
    return RefineResult(
        **{f.name: getattr(outline, f.name) for f in fields(Outline)},
        ring_lab=mean_lab(slice(-4, None)),
        band_lab=mean_lab(p.band).astype(np.float64),
        shade=edge_lab,
        rim=rim,
        groove=groove,
        asymmetry=asymmetry,
        tag=tags,
    )
