"""Detections synthesised from a simulator `Timeline` (truth positions, noise, dropouts, hands).

The fast half of the tracking bench and of the tracking tests: it exercises the tracker and the
event detector without rendering or detecting. Positions are sampled at the frame times, with
Gaussian noise, motion-blur dropouts of fast discs, discs hidden by hands, kind mix-ups and a few
false detections.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from fixtures.scene import DiscState, Timeline
from tracker.detections import FrameDetections
from tracker.specs import DiscKind

__all__ = ["SynthConfig", "SynthFrame", "synth_frames", "hand_occlusion"]


@dataclass(frozen=True, slots=True)
class SynthConfig:
    """Realism knobs of synthesised detections (lengths mm, rates per frame)."""

    noise_mm: float = 0.5
    p_drop: float = 0.01
    p_blur_drop: float = 0.3
    p_wrong_kind: float = 0.02
    fp_per_frame: float = 0.03
    palm_radius_mm: float = 75.0
    arm_width_mm: float = 55.0


@dataclass(frozen=True, slots=True)
class SynthFrame:
    """One synthesised frame: detections, the hand mask as a function, truth disc id per detection."""

    dets: FrameDetections
    is_occluded: Callable[[np.ndarray], np.ndarray]
    truth_id: np.ndarray
    row: int


def hand_occlusion(
    hands: np.ndarray, *, palm_radius_mm: float, arm_width_mm: float
) -> Callable[[np.ndarray], np.ndarray]:
    """A function mapping (N, 2) board mm to (N,) bool: under a hand or an arm (hands: (H, 5) poses).

    The shape follows the renderer's hand: the palm and fingers reach about 110 mm from the palm
    centre away from the arm, about `palm_radius_mm` wide in all; the arm runs off the board.
    """
    active = hands[hands[:, 4] > 0.5]

    def covered(xy: np.ndarray) -> np.ndarray:
        xy = np.asarray(xy, np.float64).reshape(-1, 2)
        if active.shape[0] == 0 or xy.shape[0] == 0:
            return np.zeros(xy.shape[0], bool)
        d = xy[:, None, :] - active[None, :, :2]
        s = active[:, 3][None]
        u = np.stack([np.cos(active[:, 2]), np.sin(active[:, 2])], axis=1)  # towards the arm
        along = (d * u[None]).sum(-1)
        across = np.abs(d[..., 0] * u[None, :, 1] - d[..., 1] * u[None, :, 0])
        hand = (along > -110.0 * s) & (along < 40.0 * s) & (across < palm_radius_mm * 0.6 * s)
        arm = (along >= 40.0 * s) & (across < arm_width_mm * 0.6 * s)
        return (hand | arm).any(axis=1)

    return covered


def synth_frames(tl: Timeline, *, fps: float, seed: int, config: SynthConfig | None = None) -> Iterator[SynthFrame]:
    """Detections of every frame of `tl` at `fps`, with realism from `config`, seeded."""
    cfg = config or SynthConfig()
    rng = np.random.default_rng(seed)
    n_frames = int(np.floor(tl.duration_s * fps)) + 1
    radius = tl.equipment.radii_mm(tl.kind).astype(np.float64)
    half = tl.board.half_mm
    for k in range(n_frames):
        t = k / fps
        row = min(int(round(t * tl.rate_hz)), len(tl.t_s) - 1)
        prev = max(row - max(1, int(round(tl.rate_hz / fps))), 0)
        xy = tl.xy_mm[row].astype(np.float64)
        blur = np.hypot(*(xy - tl.xy_mm[prev]).T)
        occ = hand_occlusion(tl.hands[row], palm_radius_mm=cfg.palm_radius_mm, arm_width_mm=cfg.arm_width_mm)
        visible = (tl.state[row] == DiscState.ON_BOARD) & ~occ(xy)
        p_drop = cfg.p_drop + cfg.p_blur_drop * np.clip(blur / (2 * radius) - 1.0, 0.0, 1.0)
        visible &= rng.random(len(xy)) >= p_drop
        idx = np.flatnonzero(visible)
        sigma = cfg.noise_mm + 0.03 * blur[idx]
        pos = xy[idx] + rng.normal(0.0, 1.0, (idx.size, 2)) * sigma[:, None]
        kind = tl.kind[idx].astype(np.int8).copy()
        wrong = (rng.random(idx.size) < cfg.p_wrong_kind) & (kind != DiscKind.STRIKER)
        kind[wrong] = rng.integers(0, 3, wrong.sum())
        n_fp = rng.poisson(cfg.fp_per_frame)
        fp = rng.uniform(-half + 20, half - 20, (n_fp, 2))
        xy_all = np.concatenate([pos, fp]).astype(np.float32)
        kinds = np.concatenate([kind, rng.integers(0, 4, n_fp)]).astype(np.int8)
        score = np.concatenate([rng.uniform(0.7, 1.0, idx.size), rng.uniform(0.3, 0.6, n_fp)]).astype(np.float32)
        rad = np.concatenate([radius[idx], np.full(n_fp, 15.0)]).astype(np.float32)
        dets = FrameDetections(xy_img=xy_all.copy(), radius_px=rad, kind=kinds, score=score, xy_board=xy_all,
                               flags=np.zeros(len(kinds), np.uint8), t_s=t, frame_idx=k)
        truth = np.concatenate([tl.disc_id[idx], np.full(n_fp, -1)]).astype(np.int32)
        yield SynthFrame(dets, occ, truth, row)
