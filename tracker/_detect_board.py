"""Static, per-calibration facts the detector reuses every frame: masks of the surface and the
printed circles in the board image, pocket positions, edge sample points for `board_moved`."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.model import BoardCalibration
from calibration.rectify import BoardMaps, sample_points
from tracker.detections import FrameDetections
from tracker.specs import BoardSpec, EquipmentSpec, Game

__all__ = [
    "BoardGeometry",
    "build_geometry",
    "edge_contrast",
    "marking_centres_mm",
    "near_marking",
    "probe_discs",
    "surface_lab_from",
]


def marking_centres_mm(board: BoardSpec) -> tuple[np.ndarray, float]:
    """(K, 2) centres of printed filled circles (carrom base circles and centre circle), and their radius."""
    if board.game is not Game.CARROM:
        return np.zeros((0, 2)), 0.0
    x, y = board.base_circle_centre_mm
    base = np.array([[sx * x, y] for sx in (-1, 1)])
    rots = [np.array([[c, -s], [s, c]]) for c, s in ((1, 0), (0, 1), (-1, 0), (0, -1))]
    pts = np.concatenate([base @ R.T for R in rots] + [np.zeros((1, 2))])
    return pts, board.centre_circle_diameter_mm / 2


# a disc this close to the cushion has the cushion behind part of its outline, mm
_CUSHION_GAP_MM = 5.0
_MOUTH_OVER = 0.25  # a disc in a pocket's mouth has its centre over the hole by this share of its radius at most
_OUTLINE = np.stack([np.cos(np.arange(16) * np.pi / 8), np.sin(np.arange(16) * np.pi / 8)], axis=1)  # (radii)
# points along the fine refinement's rays (three per octant, board-image px) across the band
# where they look for an outline (radii)
_OCTANT_ANGLES = np.deg2rad(np.arange(8)[:, None] * 45.0 + np.array([0.0, 15.0, 30.0])).ravel()
_OCTANT_PROBES = (
    np.stack([np.cos(_OCTANT_ANGLES), np.sin(_OCTANT_ANGLES)], axis=1)[:, None, :]
    * np.array([0.8, 0.95, 1.1, 1.25])[None, :, None]
).reshape(-1, 2)


def clip_px(uv: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """(..., 2) integer pixels (col, row) clipped to an image of `shape` (H, W, ...).

    Examples:
        >>> clip_px(np.array([[-3, 5], [12, 40]]), (20, 10)).tolist()
        [[0, 5], [9, 19]]
    """
    return np.asarray(np.minimum(np.maximum(uv, 0), (shape[1] - 1, shape[0] - 1)))


def probe_discs(
    image: np.ndarray, probes: np.ndarray, xy_mm: np.ndarray, r_mm: np.ndarray, maps: BoardMaps
) -> np.ndarray:
    """(N, P) values (N, P, C with channels) of the (H, W[, C]) board image at P probes (units
    of the radius) round N discs."""
    pts = xy_mm[:, None, :] + probes[None] * np.asarray(r_mm)[:, None, None]
    uv = np.rint(maps.to_px(pts.reshape(-1, 2))).astype(np.intp)
    u, v = clip_px(uv, image.shape).T
    return np.asarray(image[v, u]).reshape(len(xy_mm), len(probes), *image.shape[2:])


@dataclass(frozen=True, slots=True)
class BoardGeometry:
    """See module doc. Board-image masks are (H, W) in `BoardMaps` pixels."""

    shape: tuple[int, int]
    man_r: float
    striker_r: float
    radii_mm: tuple[float, ...]
    half_mm: float
    centre_valid: np.ndarray
    surface: np.ndarray
    surface_px: int
    markings: np.ndarray
    surface_half: np.ndarray
    surface_half_px: int
    surface_rim: np.ndarray
    surface_rim_px: int
    markings_half: np.ndarray
    marking_xy_mm: np.ndarray
    marking_r_mm: float
    pockets_mm: np.ndarray
    pocket_r_mm: float
    mark_face_idx: np.ndarray
    mark_band_idx: np.ndarray
    vote_weight: np.ndarray
    arc_xy_mm: np.ndarray
    edge_in_px: np.ndarray
    edge_out_px: np.ndarray
    maps: BoardMaps

    def inside(self, xy_mm: np.ndarray, radius_mm: np.ndarray | None = None) -> np.ndarray:
        """(N,) bool: centre on the surface or over a pocket (not out on the frame). With the
        discs' nominal radii (N,) mm: a disc rests against the raised frame at the closest, so
        a centre nearer the edge than 3/4 of its radius (slack for calibration error) is no
        disc, unless it hangs over a pocket (a printed arc or the frame's shadow; issue #3)."""
        within = np.all(np.abs(xy_mm) <= self.half_mm + 2.0, axis=1)
        if radius_mm is not None and len(xy_mm):
            clear = np.all(np.abs(xy_mm) <= self.half_mm - 0.75 * np.asarray(radius_mm)[:, None], axis=1)
            within &= clear | self.near_pocket(xy_mm)
        return np.asarray(within)

    def against_cushion(self, xy_mm: np.ndarray, radius_mm: np.ndarray) -> np.ndarray:
        """(N,) bool: discs (centres (N, 2) board mm, radii (N,) mm) touching the cushion or
        within a few mm of it."""
        return np.asarray(self._at_cushions(xy_mm, radius_mm).any(axis=1))

    def _at_cushions(self, xy_mm: np.ndarray, radius_mm: np.ndarray) -> np.ndarray:
        """(N, 2) bool: discs (centres (N, 2) board mm, radii (N,) mm) against the cushion across x, y."""
        gaps = self.half_mm - np.abs(np.asarray(xy_mm, np.float64).reshape(-1, 2)) - np.asarray(radius_mm)[:, None]
        return np.asarray(gaps <= _CUSHION_GAP_MM)

    def pocket_distance(self, xy_mm: np.ndarray) -> np.ndarray:
        """(N,) distance (mm) from each point (N, 2) board mm to the nearest pocket's centre."""
        if len(xy_mm) == 0:
            return np.zeros(0)
        # (the nearest by squared distance, one root: many calls a frame, on a few discs)
        xy = np.asarray(xy_mm, np.float64)
        dx = xy[:, 0, None] - self.pockets_mm[None, :, 0]
        dy = xy[:, 1, None] - self.pockets_mm[None, :, 1]
        return np.asarray(np.sqrt((dx * dx + dy * dy).min(axis=1)))

    def in_mouth(self, xy_mm: np.ndarray, radius_mm: np.ndarray) -> np.ndarray:
        """(N,) bool: discs (centres (N, 2) board mm, nominal radii (N,) mm) in a pocket's mouth:
        against one cushion, overlapping the hole but with the centre not far over it (such a disc
        drops in), and not in the corner beyond the hole, against both cushions (no disc rests there:
        it would drop in; the dark corner reads as one)."""
        xy = np.asarray(xy_mm, np.float64).reshape(-1, 2)
        r = np.asarray(radius_mm, np.float64)
        d = self.pocket_distance(xy)
        over = (d < self.pocket_r_mm + r) & (d >= self.pocket_r_mm - _MOUTH_OVER * r)
        return np.asarray(over & (self._at_cushions(xy, r).sum(axis=1) == 1))

    def on_print(self, xy_mm: np.ndarray, radius_mm: np.ndarray) -> np.ndarray:
        """(N,) share of the outline of each circle (centres (N, 2) board mm, radii (N,) mm) that
        runs over printed lines or markings (a circle on a line crosses it twice; one between two
        lines one diameter apart runs along them, one in the centre's design over it)."""
        xy = np.asarray(xy_mm, np.float64).reshape(-1, 2)
        if len(xy) == 0:
            return np.zeros(0)
        on = probe_discs(self.vote_weight, _OUTLINE, xy, radius_mm, self.maps) == 0
        on |= probe_discs(self.markings, _OUTLINE, xy, radius_mm, self.maps) > 0
        share = on.mean(axis=1)
        if len(self.arc_xy_mm):
            # (boards draw the round arrows where they like: the whole disc round one is taken as on it)
            d = np.linalg.norm(xy[:, None, :] - self.arc_xy_mm[None], axis=2).min(axis=1)
            share = np.where(d <= _ARROW_ARC_MM + np.asarray(radius_mm, np.float64), 1.0, share)
        return np.asarray(share)

    def printed_octants(self, xy_mm: np.ndarray, radius_mm: np.ndarray) -> np.ndarray:
        """(N, 8) bool: the octants round each circle (centres (N, 2) board mm, radii (N,) mm; the
        octants of `Outline.clear_octants`) whose rays meet printed lines or markings where they
        look for an outline (a print's own edges can pass for one there)."""
        xy = np.asarray(xy_mm, np.float64).reshape(-1, 2)
        if len(xy) == 0:
            return np.zeros((0, 8), bool)
        r_px = np.asarray(radius_mm, np.float64) * self.maps.px_per_mm
        uv = self.maps.to_px(xy)[:, None, :] + r_px[:, None, None] * _OCTANT_PROBES[None]
        u, v = clip_px(np.rint(uv).astype(np.intp), self.shape).T
        on = (self.vote_weight[v.T, u.T] == 0) | (self.markings[v.T, u.T] > 0)
        return np.asarray(on.reshape(len(xy), 8, -1).any(axis=2))

    def flags(self, xy_mm: np.ndarray) -> np.ndarray:
        """(N,) uint8 `FrameDetections.FLAG_*` from position (over a pocket)."""
        d = self.pocket_distance(xy_mm)
        return np.where(d < self.pocket_r_mm + 0.3 * self.man_r, FrameDetections.FLAG_OVER_POCKET, 0).astype(np.uint8)

    def near_pocket(self, xy_mm: np.ndarray) -> np.ndarray:
        """(N,) bool: a disc here may overlap a pocket hole."""
        return np.asarray(self.pocket_distance(xy_mm) < self.pocket_r_mm + self.striker_r)

    def is_pocket_hole(self, xy_mm: np.ndarray, radius_mm: np.ndarray) -> np.ndarray:
        """(N,) bool: a circle centred on a pocket that is not man-sized: the hole itself (a disc
        cannot rest centred over the hole; a man passing over it still fits a man's radius).
        (Rejecting every circle centred within pocket radius - half its radius also drops the
        men the simulator rests partly over a pocket; measured, so not done.)"""
        d = self.pocket_distance(xy_mm)
        man_sized = np.abs(radius_mm - self.man_r) < 0.1 * self.man_r
        # nor centred over the hole behind its centre, in the corner: the hole, the cushions and
        # the net there make a small dark round (korona seed 1024: a "black" pocketed again and again)
        behind = (d < self.pocket_r_mm) & np.all(np.abs(xy_mm) >= np.abs(self.pockets_mm[0]), axis=1)
        return np.asarray(((d < 0.35 * self.pocket_r_mm) & ~man_sized) | behind)

    def is_pocket_net(
        self, xy_mm: np.ndarray, radius_mm: np.ndarray, face_light: np.ndarray, surface_light: float
    ) -> np.ndarray:
        """(N,) bool: a striker-sized circle overlapping a pocket with a near-black face: the
        hole and its dark net (a pocket is about a striker's size; real boards' pockets sit
        up to ~25 mm from the spec's position, so overlap rather than centring is required).
        No striker is that dark, and a man is smaller.

        Args:
            xy_mm: (N, 2) centres, board mm.
            radius_mm: (N,) fitted radii, mm.
            face_light: (N,) Lab lightness of the faces.
            surface_light: Lab lightness of the bare surface.
        """
        d = self.pocket_distance(xy_mm)
        big = radius_mm > 0.5 * (self.man_r + self.striker_r)
        dark = face_light < _NET_LIGHT * surface_light
        return np.asarray((d < self.pocket_r_mm + 0.5 * self.striker_r) & big & dark)

    def local_px_per_mm(self, xy_mm: np.ndarray) -> np.ndarray:
        """(N,) original-image pixels per board mm around each point."""
        if len(xy_mm) == 0:
            return np.zeros(0)
        a = self.maps.board_mm_to_original(xy_mm)
        b = self.maps.board_mm_to_original(xy_mm + np.array([1.0, 0.0]))
        c = self.maps.board_mm_to_original(xy_mm + np.array([0.0, 1.0]))
        return np.asarray(0.5 * (np.linalg.norm(b - a, axis=1) + np.linalg.norm(c - a, axis=1)))

    def marking_colours(self, board_lab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Median Lab of the face (r < 6 mm) and band (11-13.5 mm) of every printed circle: (K, 3) each."""
        if len(self.marking_xy_mm) == 0:
            z = np.zeros((0, 3))
            return z, z
        face = np.median(board_lab[self.mark_face_idx[..., 1], self.mark_face_idx[..., 0]], axis=1)
        band = np.median(board_lab[self.mark_band_idx[..., 1], self.mark_band_idx[..., 0]], axis=1)
        return face.astype(np.float64), band.astype(np.float64)

    def is_printed_circle(
        self,
        xy_mm: np.ndarray,
        kind: np.ndarray,
        board_lab: np.ndarray,
        face_lab: np.ndarray | None = None,
        rim_lab: np.ndarray | None = None,
        radius_mm: np.ndarray | None = None,
        relief: np.ndarray | None = None,
        rival: np.ndarray | None = None,
    ) -> np.ndarray:
        """(N,) bool: the candidate is a printed filled circle rather than a disc.

        The base circles are printed alike, and most are bare in any frame: a circle that looks
        like the median of the others is bare too (a disc on it looks different: no light ring
        between fill and outline). The centre circle has no sibling; it is dropped only when
        another queen is on the board (there is one queen), or when it looks printed: a fill
        smaller than the printed outline with a dark line round it (a queen's rim is only a
        little darker than its face), or when its face is in the base circles' ink and hardly
        ringed, or nearly so and as flat as a print (`relief`, see `tracker._detect_printed.face_relief`).
        `rival` (N,) bool marks the candidates that may count as that other queen (default all;
        a striker's outline fitted at a man's size, say, loses to the striker-sized fit and
        must not make the queen on the centre circle a print).
        """
        n = len(xy_mm)
        if len(self.marking_xy_mm) == 0 or n == 0:
            return np.zeros(n, bool)
        d = np.linalg.norm(xy_mm[:, None, :] - self.marking_xy_mm[None], axis=2)
        nearest = np.argmin(d, axis=1)
        on_mark = d[np.arange(n), nearest] < 10.0
        if not on_mark.any():  # (a print is a candidate on a printed circle)
            return np.zeros(n, bool)
        face, band = self.marking_colours(board_lab)
        base = slice(0, len(face) - 1)
        tf, tb = np.median(face[base], axis=0), np.median(band[base], axis=0)
        w = np.array([0.5, 1.0, 1.0])
        # the band (the light ring between fill and outline) alike in its median, or on nearly
        # half its points (bare circles measured 0.5-0.8 of them, the band's outer samples touch
        # the outline): a disc resting against the circle covers a part of it, a disc on it all
        band_px = board_lab[self.mark_band_idx[..., 1], self.mark_band_idx[..., 0]].astype(np.float64)
        band_alike = (np.linalg.norm((band_px - tb) * w, axis=2) < 25.0).mean(axis=1) >= 0.45
        band_alike |= np.linalg.norm((band - tb) * w, axis=1) < 18.0
        alike = (np.linalg.norm((face - tf) * w, axis=1) < 18.0) & band_alike
        alike[-1] = False
        printed = on_mark & alike[nearest]
        at_centre = on_mark & (nearest == len(face) - 1) & (kind == 2)
        other = np.ones(n, bool) if rival is None else np.asarray(rival, bool)
        # a queen-coloured circle on another printed mark (a base circle half covered by the
        # striker, say) proves nothing: the other queen must lie off the marks
        other_queen = np.any((kind == 2) & ~on_mark & other)
        if face_lab is not None and rim_lab is not None and radius_mm is not None:
            ratio = rim_lab[:, 0] / np.maximum(face_lab[:, 0], 1.0)
            outline = ((radius_mm < 0.96 * self.marking_r_mm) & (ratio < 0.9)) | (ratio < 0.8)
        else:
            outline = np.zeros(n, bool)
        if relief is not None and radius_mm is not None and face_lab is not None:
            # the queen and the centre circle are one size; the centre circle is printed in the
            # base circles' ink: a face of that ink that is not strongly ringed is the print,
            # and so is a flat face of nearly that ink (a queen's face has rings; a queen of
            # the ink's colour measured relief 3.5-7 on the synthetic suite)
            same_size = np.abs(radius_mm - self.marking_r_mm) < 0.15 * self.marking_r_mm
            ink = np.linalg.norm((face_lab - tf) * w, axis=1)
            inked = (ink < _INK_LAB) & (relief < _INKED_RELIEF)
            outline |= same_size & (inked | ((relief < _FLAT_RELIEF) & (ink < 10.0)))
            # a face with the rings of a turned disc is no print, whatever its outline
            outline &= relief < _RINGED_RELIEF
        # the starting formation round the centre: discs all round it hold the queen in place
        around = np.linalg.norm(xy_mm, axis=1)
        packed = int(np.sum((kind >= 0) & (around > 0.5 * self.marking_r_mm) & (around < 2.6 * self.marking_r_mm)))
        if packed >= 4:
            outline[:] = False
        return np.asarray(printed | (at_centre & (other_queen | outline)))


# a pocket's net against the surface, Lab lightness ratio: real photos 0-0.01; a black man lying
# over a hole (fitted with the hole, so striker-sized) 0.16 on the synthetic suite; strikers are light
_NET_LIGHT = 0.05
# Lab L units: printed fills measured 0-2.8, queens 1.5-16 (synthetic suite)
_FLAT_RELIEF = 2.0
# ... so a face this ringed is a queen's (the printed centre circle reaches 2.8)
_RINGED_RELIEF = 6.0
# weighted Lab distance of a centre candidate's face from the base circles' ink: the printed
# centre circle measured 0-8.5 (most under 6), queens 3.7-24 (synthetic suite)
_INK_LAB = 6.0
# ... unless its face is ringed this much (Lab L units; queens of the ink colour measured 3.5-7)
_INKED_RELIEF = 4.5


def near_marking(geom: BoardGeometry, xy_mm: np.ndarray, *, within_mm: float = 10.0) -> np.ndarray:
    """(N,) bool: centre within `within_mm` of a printed filled circle's centre."""
    if len(geom.marking_xy_mm) == 0 or len(xy_mm) == 0:
        return np.zeros(len(xy_mm), bool)
    d = np.linalg.norm(xy_mm[:, None, :] - geom.marking_xy_mm[None], axis=2).min(axis=1)
    return np.asarray(d < within_mm)


def _edge_points(board: BoardSpec, maps: BoardMaps, offset_mm: float) -> tuple[np.ndarray, np.ndarray]:
    h = board.half_mm
    t = np.linspace(-0.8 * h, 0.8 * h, 24)
    ones = np.ones_like(t)
    inner: list[np.ndarray] = []
    outer: list[np.ndarray] = []
    for sx, sy, along_x in ((0, -1, True), (1, 0, False), (0, 1, True), (-1, 0, False)):
        for off, out in ((-offset_mm, inner), (offset_mm, outer)):
            e = h + off
            pts = np.stack([t, sy * e * ones], 1) if along_x else np.stack([sx * e * ones, t], 1)
            out.append(pts)
    return maps.board_mm_to_original(np.concatenate(inner)), maps.board_mm_to_original(np.concatenate(outer))


# Common boards draw a round arrow (an arc of about this radius) around the inner end of each
# diagonal arrow; the laws do not fix it, so it is masked generously.
_ARROW_ARC_MM = 32.0


def arrow_arcs_mm(board: BoardSpec) -> np.ndarray:
    """(K, 2) centres of the round arrows' arcs (carrom: one at the inner end of each diagonal
    arrow; none on a korona board), board mm."""
    if board.game is not Game.CARROM or board.arrow_length_mm <= 0:
        return np.zeros((0, 2))
    pocket = np.array([board.half_mm - board.pocket_inset_mm] * 2)
    end = pocket * (1.0 - (board.arrow_start_from_pocket_mm + board.arrow_length_mm) / np.linalg.norm(pocket))
    return np.array([[sx * end[0], sy * end[1]] for sx in (1, -1) for sy in (1, -1)])


def printed_lines_mask(board: BoardSpec, maps: BoardMaps, *, width_mm: float = 5.0) -> np.ndarray:
    """(H, W) bool board-image mask of the printed lines and circle outlines the spec places
    (base lines, outer circle, diagonal arrows and their arcs; korona zone lines), widened to
    `width_mm`. Their edges are static and must not vote for disc centres. The base circles and
    the centre circle are disc-sized and hold discs (queen, striker) too often to be masked;
    `BoardGeometry.is_printed_circle` deals with them."""
    n = maps.size[0]
    img = np.zeros((n, n), np.uint8)
    s = maps.px_per_mm
    th = max(1, int(round(width_mm * s)))

    def pt(x: float, y: float) -> tuple[int, int]:
        u, v = maps.to_px(np.array([[x, y]]))[0]
        return int(round(u * 16)), int(round(v * 16))

    def line(a: tuple[float, float], b: tuple[float, float]) -> None:
        cv2.line(img, pt(*a), pt(*b), 255, th, cv2.LINE_8, 4)

    def circle(c: tuple[float, float], r: float) -> None:
        cv2.circle(img, pt(*c), int(round(r * s * 16)), 255, th, cv2.LINE_8, 4)

    h = board.half_mm
    rots = [np.array([[c, -sn], [sn, c]]) for c, sn in ((1, 0), (0, 1), (-1, 0), (0, -1))]
    if board.game is Game.CARROM:
        r = board.base_circle_diameter_mm / 2
        y_out = h - board.base_line_outer_from_edge_mm
        y_in = y_out - board.base_line_gap_mm
        x_end = board.base_line_length_mm / 2 - r
        pocket = np.array([h - board.pocket_inset_mm] * 2)
        d = -pocket / np.linalg.norm(pocket)
        a0 = pocket + d * board.arrow_start_from_pocket_mm
        a1 = a0 + d * board.arrow_length_mm
        for R in rots:
            for y in (y_out, y_in):
                line(tuple(R @ [-x_end, y]), tuple(R @ [x_end, y]))
            line(tuple(R @ a0), tuple(R @ a1))
        for c in arrow_arcs_mm(board):
            circle((float(c[0]), float(c[1])), _ARROW_ARC_MM)
        circle((0.0, 0.0), board.outer_circle_diameter_mm / 2)
    else:
        circle((0.0, 0.0), board.centre_circle_diameter_mm / 2)
        y = h - board.rail_zone_depth_mm
        x = board.rail_zone_length_mm / 2
        for R in rots:
            line(tuple(R @ [-x, y]), tuple(R @ [x, y]))
            for sx in (-1, 1):
                line(tuple(R @ [sx * x, y]), tuple(R @ [sx * x, h]))
    return img > 0


def _mark_offsets(marks: np.ndarray, maps: BoardMaps) -> tuple[np.ndarray, np.ndarray]:
    """Board-image pixel indices (K, P, 2) of the face and band sample sets of each marking."""
    ang = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    unit = np.stack([np.cos(ang), np.sin(ang)], 1)
    face_pts = np.concatenate([np.zeros((1, 2))] + [r * unit for r in (2.5, 5.0)])
    band_pts = np.concatenate([r * unit for r in (11.0, 12.25, 13.5)])
    n = maps.size[0] - 1

    def idx(offs: np.ndarray) -> np.ndarray:
        uv = maps.to_px(marks[:, None, :] + offs[None])
        return np.asarray(np.clip(np.rint(uv), 0, n).astype(np.intp))

    return idx(face_pts), idx(band_pts)


# width of the band along the surface's boundary where occluders reaching in are seen (px)
_RIM_PX = 3


def _rim(surface: np.ndarray, width_px: int) -> np.ndarray:
    """(H, W) uint8 0/255: the surface pixels within `width_px` of its boundary."""
    k = 2 * width_px + 1
    inner = cv2.erode(surface, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)), borderValue=0)
    return np.asarray(cv2.bitwise_and(surface, cv2.bitwise_not(inner)))


def build_geometry(
    board: BoardSpec,
    maps: BoardMaps,
    eq: EquipmentSpec,
    calib: BoardCalibration,
    *,
    moved_offset_mm: float = 4.0,
) -> BoardGeometry:
    n = maps.size[0]
    v, u = np.mgrid[0:n, 0:n]
    x = (u - maps.centre_px[0]) / maps.px_per_mm
    y = (v - maps.centre_px[1]) / maps.px_per_mm
    h = board.half_mm
    man_r, striker_r = eq.man_diameter_mm / 2, eq.striker_diameter_mm / 2
    # (a disc rests against the raised frame at the closest)
    centre_valid = (np.abs(x) <= h - 0.7 * man_r) & (np.abs(y) <= h - 0.7 * man_r)
    pockets = board.pockets_mm
    dpk = np.min(np.hypot(x[..., None] - pockets[:, 0], y[..., None] - pockets[:, 1]), axis=2)
    surf = (np.abs(x) <= h - 1.0) & (np.abs(y) <= h - 1.0) & (dpk > board.pocket_radius_mm + 2.0)
    marks, mark_r = marking_centres_mm(board)
    mk = np.zeros((n, n), bool)
    if len(marks):
        dm = np.min(np.hypot(x[..., None] - marks[:, 0], y[..., None] - marks[:, 1]), axis=2)
        mk = dm <= mark_r + 3.0
        mk |= np.hypot(x, y) <= board.outer_circle_diameter_mm / 2 + 2.0
    e_in, e_out = _edge_points(board, maps, moved_offset_mm)
    face_idx, band_idx = _mark_offsets(marks, maps)
    half = (n + 1) // 2
    surf_half = cv2.resize(surf.astype(np.uint8) * 255, (half, half), interpolation=cv2.INTER_NEAREST)
    mk_half = cv2.resize(mk.astype(np.uint8) * 255, (half, half), interpolation=cv2.INTER_NEAREST)
    radii = tuple(sorted({man_r, striker_r}))
    return BoardGeometry(
        shape=(n, n),
        man_r=man_r,
        striker_r=striker_r,
        radii_mm=radii,
        half_mm=h,
        centre_valid=centre_valid,
        surface=surf.astype(np.uint8) * 255,
        surface_px=int(surf.sum()),
        markings=mk.astype(np.uint8) * 255,
        surface_half=surf_half,
        surface_half_px=int(np.count_nonzero(surf_half)),
        surface_rim=_rim(surf.astype(np.uint8) * 255, _RIM_PX),
        surface_rim_px=_RIM_PX,
        markings_half=mk_half,
        marking_xy_mm=marks,
        marking_r_mm=mark_r,
        pockets_mm=pockets,
        pocket_r_mm=board.pocket_radius_mm,
        mark_face_idx=face_idx,
        mark_band_idx=band_idx,
        vote_weight=np.where(printed_lines_mask(board, maps), 0.0, 1.0).astype(np.float32),
        arc_xy_mm=arrow_arcs_mm(board),
        edge_in_px=e_in,
        edge_out_px=e_out,
        maps=maps,
    )


def surface_lab_from(board_lab: np.ndarray, surface: np.ndarray) -> tuple[np.ndarray, float]:
    """Median Lab of the surface pixels and their median distance from it."""
    px = board_lab[surface > 0][::7].astype(np.float64)
    colour = np.median(px, axis=0)
    w = np.array([0.5, 1.0, 1.0])
    spread = float(np.median(np.linalg.norm((px - colour) * w, axis=1)))
    return colour, max(spread, 1.0)


def edge_contrast(frame_bgr: np.ndarray, geom: BoardGeometry) -> np.ndarray:
    """(P,) Lab distance between paired samples just inside and just outside the surface edges."""
    both = np.concatenate([geom.edge_in_px, geom.edge_out_px])
    bgr = sample_points(frame_bgr, both).reshape(1, -1, 3)
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    a, b = lab[: len(geom.edge_in_px)], lab[len(geom.edge_in_px) :]
    return np.asarray(np.linalg.norm((a - b) * np.array([0.5, 1.0, 1.0], np.float32), axis=1))
