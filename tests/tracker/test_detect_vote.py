"""Circle votes of `tracker._detect_vote` on outlines drawn by hand."""

from __future__ import annotations

import cv2
import numpy as np

from tracker._detect_vote import edge_field, vote_centres

_R = 6.2  # a man's radius in the board image at 0.4 px/mm


def _peaks(image: np.ndarray, *, max_peaks: int = 48) -> np.ndarray:
    """(P, 2) man-sized vote peaks (x, y) of a float32 lightness image."""
    ys, xs, unit = edge_field(np.zeros_like(image), image, min_mag=8.0)
    uv, _, _ = vote_centres(image.shape, ys, xs, unit, (_R,), min_frac=0.4, max_peaks=max_peaks)
    return uv


def _disc(image: np.ndarray, centre: tuple[float, float], level: float) -> None:
    shift = 4  # sub-pixel centres
    c = (int(round(centre[0] * 2**shift)), int(round(centre[1] * 2**shift)))
    cv2.circle(image, c, int(round(_R * 2**shift)), level, -1, cv2.LINE_AA, shift)


def test_touching_discs_keep_a_peak_each() -> None:
    """Two men touching (centres a diameter apart) and a third touching both: a peak within a
    pixel of each disc's centre, and none elsewhere (not between them)."""
    image = np.full((80, 80), 200.0, np.float32)
    centres = np.array([[30.0, 30.0], [30.0 + 2 * _R, 30.0], [30.0 + _R, 30.0 + np.sqrt(3) * _R]])
    for c in centres:
        _disc(image, tuple(c), 60.0)
    uv = _peaks(image)
    d = np.linalg.norm(uv[:, None, :] - centres[None], axis=2)
    assert np.all(d.min(axis=0) <= 1.0)
    assert np.all(d.min(axis=1) <= 1.5)


def test_clutter_does_not_crowd_out_a_faint_disc() -> None:
    """A clutter of strong small rings (a printed design) gives one peak per radius of it, not
    one per ring: a faint disc beside it stays among the strongest few peaks."""
    image = np.full((120, 160), 200.0, np.float32)
    rng = np.random.default_rng(5)
    for c in rng.uniform(20.0, 60.0, (40, 2)):
        cv2.circle(image, (int(c[0]), int(c[1])), int(rng.integers(3, 9)), 40.0, 1, cv2.LINE_AA)
    _disc(image, (125.0, 80.0), 150.0)
    uv = _peaks(image, max_peaks=12)
    assert np.min(np.linalg.norm(uv - np.array([125.0, 80.0]), axis=1)) <= 1.0
    # peaks of one size are a radius apart at least (but for the top pixels of one flat peak)
    d = np.linalg.norm(uv[:, None, :] - uv[None], axis=2)
    assert np.all((d > _R - 1.0) | (d <= 1.5))
