"""Value types of `tracker.detect`: the detector's configuration and one frame's result."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tracker.detections import FrameDetections

__all__ = ["Detection", "DetectorConfig", "Found"]


@dataclass(frozen=True, slots=True)
class DetectorConfig:
    """Tuning of `Detector`.

    Attributes:
        px_per_mm: scale of the rectified board image (candidates only; centres are refined
            in the original frame).
        margin_mm: band kept around the playing surface.
        edge_min_mag: minimum colour gradient for an edge pixel to vote (Lab units per px).
        min_vote_frac: a candidate needs this fraction of a full outline's votes.
        min_support: fraction of rays that must find the outline.
        min_score: detections below this score are dropped.
        min_rise: minimum colour step at a disc outline (Lab units).
        occlusion_far: colour distance from the surface above which a pixel is foreground.
        occlusion_min_area_mm2: smallest occluding region.
        moved_offset_mm: board_moved samples this far either side of the surface edges.
        max_candidates: most vote peaks refined per disc size.
        pack_min_vote_frac, pack_min_neighbours: weaker man-sized vote peaks are refined too
            when at least this many of those peaks lie next to them (a light man in a pack).
        background: learn the board's background from the first frame and detect later
            frames as foreground against it (video path, faster); off (default until its
            recall matches the still path on every clip): every frame is a still.
        video_min_support: `min_support` for foreground candidates of the video path.
        faint_min_support: a candidate whose clear edges (`min_rise`) fall short of
            `min_support` needs this support counting faint edges on its fitted outline ...
        faint_min_rim: ... and a rim darker than its face on this fraction of the rays (the
            thin rim of a light man on a light surface; printed arcs and the star's arms have
            none all round).
        mouth_min_clear: ... or, for a dark disc in a pocket's mouth (`BoardGeometry.in_mouth`),
            clear edges on this fraction of the rays (the hole and the cushion, as dark as its
            face, hide the rest: korona seed 1008 at 120 fps, issue #7).
        hand_min_area_mm2, hand_min_contact_mm: a region far from the surface colour this large
            that crosses the surface's edge along this long a stretch is a hand or an arm
            reaching in: it is occluded, and a disc on it needs clear edges on at least
            `hand_min_support` of the rays in at least `hand_min_octants` of 8 octants (still
            path; a contact of 0 turns this off); `hand_far`: colour distance from the surface
            there (a pale hand on a pale board is 35-45 from it); `hand_min_half_width_mm`: half
            the width of such a region at its widest (a palm or an arm; a row of discs against
            the cushion is one disc wide). A candidate whose face is `hand_skin_dist` or more
            from the hand's mean colour needs only `hand_other_min_support` (a knuckle or a
            fingertip is the hand's colour; a striker the fingers have just let go of, merged
            with them in the mask, is not; shadows between the fingers are neither, so some
            clear outline is still asked for); so does a striker-sized one standing on a
            placement line (the striker, the flicking fingers at its edge).
        hand_off_bare, bare_alpha: change-driven still path: a region that far from the bare
            board under it (colour distance of the two averaged over a few pixels, lightness
            counted a tenth: a shadow is no hand) is a hand too when it reaches in (a hand of
            the board's own colour, which `hand_far` misses; see `tracker.occlusion.HandFinder`);
            the bare board is learned from the first frame with its discs filled in, and blended
            in at `bare_alpha` at every full re-detect (away from the discs).
        occlusion_min_off_bare: change-driven still path, once the bare board is known: a region
            far from the surface colour occludes only if at least this share of it is
            `hand_off_bare` from the bare board too (the light's hot spots and dark patches on an
            unevenly lit board are as far from the surface colour as an arm, and are the bare
            board).
        plain_max_rim: a candidate with a face of the surface colour needs a rim darker than its
            face on at least this fraction of the rays (two printed lines one diameter apart
            darken two arcs only), or an engraved inner ring on at least `groove_min` of them
            (a man's; a printed line crosses only a few rays inside a disc), or an outline on at
            least `plain_max_support` of the rays (the print's lines give it on few; a light man
            packed among others, his rim partly hidden by theirs, on most).
        ringed_min_rim, ringed_min_score, ringed_min_support: a candidate with a rim darker
            than its face on at least `ringed_min_rim` of the rays needs only `ringed_min_score`
            and an outline on `ringed_min_support` of the rays (a light man on a light surface:
            low contrast, but a rim all round).
        camo_min_support, camo_min_rim: with a set whose light discs are the board's colour
            (`EquipmentSpec.light_like_surface`: korona's), a white coin with a face of the
            surface's colour is kept, whatever its contrast, with an outline on
            `camo_min_support` of the rays in 6 of 8 octants and a rim darker than its face on
            `camo_min_rim` of them.
        row_min_support: in a game whose men start in rows against the rails
            (`BoardSpec.rows_at_rails`: korona), a man in such a row needs only an outline on
            this fraction of the rays in 5 octants, with men of his kind so found beside him,
            three or more in a row.
        row_next_support: ... and beside a man found in such a row, where the next man of the row
            would touch him, a man needs an outline on this fraction of the rays in 5 octants.
        complete_rows: look for the next man of each such row over the whole board (a still:
            `boardtrack detect`); a live match's detector does not (`tracker.pipeline.
            default_detector_config`).
        bg_min_diff: lowest foreground threshold (half the summed BGR difference).
        bg_alpha: running-average rate of the background.
        bg_update_every: update the background every this many frames.
        reuse: change-driven detection: discs where the picture did not change since they
            were detected are carried over; only the box round the changed part (and what
            lies round pocket holes and occluders) is detected again, by the still path (with
            `background`, by the video path). A still frame costs about a millisecond, a frame
            with a hand or rolling discs a fraction of a whole detection.
        reuse_min_diff: lowest change threshold against the reference board image (half the
            summed BGR difference).
        reuse_grow_px: changed pixels are grown by this many board-image px.
        reuse_max_changed: a larger changed share of the board image means a full re-detect.
        reuse_full_every: a full re-detect at least every this many frames (safety net).
        reuse_follow: change-driven still path: the discs the change touches are first
            followed where their motion takes them (`tracker._detect_follow`); only the change
            they do not explain is searched.
    """

    px_per_mm: float = 0.4
    margin_mm: float = 25.0
    edge_min_mag: float = 8.0
    min_vote_frac: float = 0.4
    min_support: float = 0.5
    min_score: float = 0.3
    min_rise: float = 8.0
    occlusion_far: float = 28.0
    occlusion_min_area_mm2: float = 2500.0
    moved_offset_mm: float = 4.0
    max_candidates: int = 48
    pack_min_vote_frac: float = 0.27
    pack_min_neighbours: int = 6
    background: bool = False
    video_min_support: float = 0.35
    faint_min_support: float = 0.54
    faint_min_rim: float = 0.7
    mouth_min_clear: float = 0.4
    plain_max_rim: float = 0.85
    plain_max_support: float = 0.7
    groove_min: float = 0.7
    hand_min_area_mm2: float = 4000.0
    hand_min_contact_mm: float = 45.0
    hand_far: float = 36.0
    hand_min_support: float = 0.8
    hand_min_octants: int = 7
    hand_skin_dist: float = 40.0
    hand_min_half_width_mm: float = 24.0
    hand_other_min_support: float = 0.65
    hand_off_bare: float = 6.0
    occlusion_min_off_bare: float = 0.15
    bare_alpha: float = 0.05
    ringed_min_rim: float = 0.95
    ringed_min_score: float = 0.25
    ringed_min_support: float = 0.45
    camo_min_support: float = 0.55
    camo_min_rim: float = 0.6
    row_min_support: float = 0.33
    row_next_support: float = 0.55
    complete_rows: bool = True
    bg_min_diff: float = 14.0
    bg_alpha: float = 0.05
    bg_update_every: int = 4
    reuse: bool = False
    reuse_min_diff: float = 12.0
    reuse_grow_px: int = 2
    reuse_max_changed: float = 0.25
    reuse_full_every: int = 60
    reuse_follow: bool = True


@dataclass(frozen=True, slots=True)
class Detection:
    """What one frame shows.

    Attributes:
        discs: detections; `xy_img` in ORIGINAL image px, `xy_board` in board mm.
        occlusion: (H, W) bool mask in the rectified board image (True = hidden by a hand, arm,
            cue or head).
        occluded_fraction: occluded share of the playing surface, 0..1.
        px_per_mm: scale of `occlusion`.
        centre_px: (2,) board centre in `occlusion` pixels.
    """

    discs: FrameDetections
    occlusion: np.ndarray
    occluded_fraction: float
    px_per_mm: float
    centre_px: np.ndarray = field(repr=False)

    def is_occluded(self, xy_mm: np.ndarray) -> np.ndarray:
        """(N, 2) board mm -> (N,) bool, True where the point is inside the occlusion mask."""
        uv = np.rint(np.asarray(xy_mm, dtype=np.float64).reshape(-1, 2) * self.px_per_mm + self.centre_px)
        h, w = self.occlusion.shape
        ij = uv.astype(np.int64)
        ok = (ij[:, 0] >= 0) & (ij[:, 0] < w) & (ij[:, 1] >= 0) & (ij[:, 1] < h)
        out = np.zeros(len(ij), bool)
        out[ok] = self.occlusion[ij[ok, 1], ij[ok, 0]]
        return out


@dataclass(frozen=True, slots=True)
class Found:
    """One frame's accepted discs (board mm) and occlusion, before packaging; `strict` (N,)
    marks discs that passed the still path's checks, `blurred` (N,) (None: none) those found
    only as a blur of their motion (position rough, kind a guess)."""

    xy_mm: np.ndarray
    radius_mm: np.ndarray
    nominal: np.ndarray
    kind: np.ndarray
    score: np.ndarray
    occlusion: np.ndarray
    strict: np.ndarray
    blurred: np.ndarray | None = None

    def select(self, keep: np.ndarray) -> Found:
        """The discs where `keep` (N,) bool is True; the occlusion mask unchanged."""
        return Found(
            self.xy_mm[keep],
            self.radius_mm[keep],
            self.nominal[keep],
            self.kind[keep],
            self.score[keep],
            self.occlusion,
            self.strict[keep],
            None if self.blurred is None else self.blurred[keep],
        )
