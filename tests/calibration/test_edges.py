"""Edge search along normals: where the surface colour ends, past printed lines near the edge."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration._edges import search_edges

SURFACE_BGR = (150, 200, 220)
LINE_BGR = (30, 40, 35)
FRAME_BGR = (30, 50, 90)


def _picture(*, line_x: int | None = None, fleck_x: int | None = None) -> np.ndarray:
    """(200, 240) BGR picture: surface left of x = 150, frame from there on, a 2 px printed line
    at `line_x` and a 2 px fleck of surface colour in the frame at `fleck_x`."""
    img = np.full((200, 240, 3), SURFACE_BGR, np.uint8)
    img[:, 150:] = FRAME_BGR
    if line_x is not None:
        img[:, line_x : line_x + 2] = LINE_BGR
    if fleck_x is not None:
        img[:, fleck_x : fleck_x + 2] = SURFACE_BGR
    return img


@pytest.mark.parametrize(
    ("img", "hold_px", "edge_x"),
    [
        (_picture(), 8.0, 150.0),
        (_picture(line_x=140), 8.0, 150.0),
        (_picture(line_x=140), 0.0, 140.0),
        (_picture(fleck_x=153), 8.0, 150.0),
    ],
    ids=["frame", "line-before-frame", "line-without-hold", "fleck-in-frame"],
)
def test_edge_past_printed_line(img: np.ndarray, hold_px: float, edge_x: float) -> None:
    """Korona's rail-zone line (a thin dark line a few px inside the edge) rises and falls back
    to the surface colour; with `hold_px` the edge is where the frame starts, and a fleck in the
    frame's paint does not stop the frame holding."""
    lab = cv2.cvtColor(img[:1, :1], cv2.COLOR_BGR2LAB)[0, 0].astype(np.float64)
    p0, p1, outward = np.array([130.0, 20.0]), np.array([130.0, 180.0]), np.array([1.0, 0.0])
    pts = search_edges(img, p0, p1, outward, lab, n=16, half_width_px=30.0, step_px=1.0, hold_px=hold_px)
    assert len(pts) == 16
    # the colour changes between pixel columns 149 and 150
    np.testing.assert_allclose(pts[:, 0], edge_x - 0.5, atol=1.0)
