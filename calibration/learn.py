"""Learn the coin colours of one set from a frame of the carrom starting formation.

In the formation the queen sits on the centre and the 18 men surround it, half light, half
dark; so the clearly reddest disc is the queen and the men split into two lightness groups.
"""

from __future__ import annotations

import numpy as np

from calibration.appearance import learn_coin_colours
from calibration.model import BoardCalibration
from tracker.errors import CalibrationError
from tracker.specs import DiscKind

__all__ = ["learn_from_formation"]


def learn_from_formation(calib: BoardCalibration, frame_bgr: np.ndarray) -> BoardCalibration:
    """A calibration whose appearance holds coin colours measured on the starting formation.

    Raises:
        CalibrationError: the frame does not show a formation (too few discs near the centre).
    """
    from tracker._detect_refine import refine_discs
    from tracker.detect import Detector

    det = Detector(calib)
    found = det.detect(frame_bgr).discs
    xy = np.asarray(found.xy_board, dtype=np.float64)
    near = (np.linalg.norm(xy, axis=1) < 90.0) & (found.kind != DiscKind.STRIKER)
    if near.sum() < 15:
        raise CalibrationError(
            f"expected the 19-disc starting formation at the centre, found {int(near.sum())} discs"
        )
    xy = xy[near]
    ref = refine_discs(frame_bgr, det.maps, xy, np.full(len(xy), det.geom.man_r))
    kind = np.full(len(xy), int(DiscKind.WHITE))
    # the queen: the reddest disc, and clearly redder than the rest (else keep the default model)
    redness = ref.face_lab[:, 1]
    queen = int(np.argmax(redness))
    has_queen = redness[queen] - np.median(redness) > 15.0
    kind[queen] = DiscKind.QUEEN if has_queen else kind[queen]
    men = np.arange(len(xy)) != queen if has_queen else np.ones(len(xy), bool)
    light = ref.face_lab[:, 0]
    split = np.median(light[men])
    kind[men & (light < split)] = DiscKind.BLACK
    app = det.appearance if det.appearance is not None else calib.appearance
    if app is None:
        raise CalibrationError("no surface colour model to extend")
    return calib.with_(appearance=learn_coin_colours(app, ref.face_lab, kind))
