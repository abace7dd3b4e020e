"""Two-scale text detection: the whole screen at a coarse scale, the status bar strip again at a fine one.

Detection's cost grows with its pixels. At a short side of 540 a phone screen's text is found as well as
at 736 (bare RapidOCR's minimum side), except where small text is stacked a few pixels apart: a status
bar's network speed, "0.00" over "KB/S" with a 2-px gap, comes out as one box read "000". So the screen is
detected at ``det_min_short`` and only its top strip (``status_strip`` of the short side: Android's status
bar is 24 dp of a 360-dp-wide screen, 0.067) again at ``det_fine_short``; the strip's fine boxes replace
its coarse ones. A line that reaches below the strip keeps its coarse box (the strip's crop cuts it).
"""

from __future__ import annotations

import math
from typing import Any, Protocol

import numpy as np


class _Detector(Protocol):
    def detect_lines(self, bgr: np.ndarray, side: int, box_thresh: float) -> list[Any]: ...


# The strip's crop reaches this far (a fraction of the strip) below it, so a line ending at the strip's
# edge is detected whole; only boxes ending inside the strip are taken from it.
STRIP_CONTEXT = 0.5


def fine_strip(width: int, height: int, strip: float) -> int:
    """The bottom row (exclusive) of the status bar strip re-detected at the fine scale (0: none)."""
    if strip <= 0 or height < width:  # a landscape screen's status bar is thin and far from its text
        return 0
    return min(height, math.ceil(min(width, height) * strip))


def two_scale_lines(ocr: _Detector, bgr: np.ndarray, coarse_side: int, fine_side: int, strip: float,
                    box_thresh: float) -> list[Any]:
    """Text lines of ``bgr``: detected at ``coarse_side`` (longest side), with the status bar strip's
    lines detected again at ``fine_side`` when that is finer. Lines are ``OnnxOcr.detect_lines``'s
    ``TextBox``es, in image pixels, strip lines first."""
    height, width = bgr.shape[:2]
    coarse = ocr.detect_lines(bgr, coarse_side, box_thresh)
    bottom = fine_strip(width, height, strip)
    if fine_side <= coarse_side or bottom == 0:
        return coarse
    crop_bottom = min(height, bottom + math.ceil(bottom * STRIP_CONTEXT))
    scale = fine_side / max(width, height)
    crop = bgr[:crop_bottom]
    fine = ocr.detect_lines(crop, round(max(width, crop_bottom) * scale), box_thresh)
    kept_fine = [line for line in fine if line.box[3] <= bottom]
    kept_coarse = [line for line in coarse if line.box[3] > bottom]
    return kept_fine + kept_coarse

