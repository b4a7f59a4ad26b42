"""Per-pixel background of the rectified board for the video path of `Detector`.

The board is static under a fixed camera: its printed markings, wood texture and lighting are
learned once (from the first frame, with the discs and hands found by the still-image path
masked out and filled in) and then kept up to date with a slow running average. Discs are
foreground against it, so printed circles and lines never become disc candidates.

Pixels whose background was only filled in (under a disc or a hand when it was learned) are
"unknown" until they are seen bare; candidates there get the still-image checks.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tracker._detect_steps import channel_sum, median_u8

__all__ = ["BackgroundModel", "foreground", "learn_background", "update_background"]


@dataclass(slots=True)
class BackgroundModel:
    """Mutable per-detector state (one camera view).

    Attributes:
        mean: (H, W, 3) float32 running-average board image (BGR, board-image px).
        image: (H, W, 3) uint8 rounded copy of `mean` (what frames are compared with).
        known: (H, W) uint8, 255 where the background was seen bare at least once.
        noise: median difference of the last frame from the background (weighted BGR units).
        frames: frames seen since it was learned.
    """

    mean: np.ndarray
    image: np.ndarray
    known: np.ndarray
    noise: float
    frames: int = 0


def learn_background(board_bgr: np.ndarray, covered: np.ndarray) -> BackgroundModel:
    """Background from one rectified frame.

    Args:
        board_bgr: (H, W, 3) uint8 rectified board image.
        covered: (H, W) uint8, 255 under discs and occluders (filled in from around them).

    Returns:
        The model; `known` is 0 where `covered`.
    """
    covered = (covered > 0).astype(np.uint8) * 255
    filled = cv2.inpaint(board_bgr, covered, 3, cv2.INPAINT_TELEA) if covered.any() else board_bgr.copy()
    return BackgroundModel(
        mean=filled.astype(np.float32),
        image=filled,
        known=cv2.bitwise_not(covered),
        noise=4.0,
    )


def foreground(
    board_bgr: np.ndarray, model: BackgroundModel, *, min_diff: float
) -> tuple[np.ndarray, np.ndarray, float]:
    """Difference from the background and its foreground mask.

    The threshold follows this frame's noise: a few times the median difference (most of the
    board is bare, so the median is the noise level), at least `min_diff`. Isolated noisy pixels
    are opened away.

    Args:
        board_bgr: (H, W, 3) uint8 rectified frame.
        model: the background.
        min_diff: lowest threshold (weighted BGR units).

    Returns:
        (diff (H, W) uint8, fg (H, W) uint8 0/255, threshold used).
    """
    # (the three differences summed and halved: one noisy channel alone rarely crosses the threshold)
    diff = channel_sum(cv2.absdiff(board_bgr, model.image), 0.5, 0.5)
    model.noise = max(1.0, median_u8(diff[::4, ::4]))
    thresh = max(min_diff, _NOISE_FACTOR * model.noise)
    _, fg = cv2.threshold(diff, thresh, 255, cv2.THRESH_BINARY)
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, _OPEN_KERNEL)
    return diff, np.asarray(fg), thresh


_NOISE_FACTOR = 3.5
_OPEN_KERNEL = cv2.getStructuringElement(cv2.MORPH_RECT, (3, 3))


def update_background(
    model: BackgroundModel,
    board_bgr: np.ndarray,
    fg: np.ndarray,
    busy: np.ndarray,
    *,
    alpha: float,
    near_px: int,
) -> None:
    """Blend the frame into the background where nothing is detected, nothing occludes and no
    foreground is near.

    Pixels within `near_px` of foreground are left alone: a disc close to the surface colour is
    foreground only at its rim and shadow, and blending its face in would slowly erase it (a
    missed disc stays foreground for good rather than fading into the background). Unknown
    pixels seen bare are adopted at once.

    Args:
        model: updated in place.
        board_bgr: (H, W, 3) uint8 rectified frame.
        fg: from `foreground`.
        busy: (H, W) uint8, 255 under detected discs (with a margin) and occluders.
        alpha: blending rate per update.
        near_px: distance from foreground (board-image px) kept out of the update.
    """
    # within `near_px` of foreground: a distance transform (a third of the cost of dilating by
    # an ellipse this large)
    dist = cv2.distanceTransform(cv2.bitwise_not(fg), cv2.DIST_L2, 5)
    near = np.asarray(dist <= near_px + 0.5, np.uint8) * np.uint8(255)
    free = cv2.bitwise_not(cv2.bitwise_or(busy, near))
    cv2.accumulateWeighted(board_bgr, model.mean, alpha, mask=free)
    adopt = cv2.bitwise_and(free, cv2.bitwise_not(model.known))
    if cv2.countNonZero(adopt):
        model.mean[adopt > 0] = board_bgr[adopt > 0]
        model.known = cv2.bitwise_or(model.known, adopt)
    model.image = cv2.convertScaleAbs(model.mean)
    model.frames += 1
