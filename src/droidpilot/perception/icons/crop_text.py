"""Text written in an icon that whole-screen OCR misreads, read again from the candidate's own crop.

A stylised word on a small icon ("LIVE" on TikTok's tv icon) is often lost when the whole screen is read
(a blur of letters, merged with what is around it); the same engine reads it from the crop, enlarged.
This is done only when the query names text and no OCR line on screen reads it, and only for a few
icon-sized candidates in the asked place (each crop costs one recognition, some 40-60 ms of CPU).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

import cv2
import numpy as np

from droidpilot.perception.icons.anchors import lines_reading
from droidpilot.perception.icons.candidates import Region, iou
from droidpilot.perception.icons.placement import position_score
from droidpilot.perception.icons.query import IconQuery
from droidpilot.perception.types import Box, OcrLine, box_center

MAX_CROPS = 6  # candidates read per query at most: the cost stays near a quarter second
PAD = 4  # pixels kept around the candidate: the letters' edges, not the neighbours' text
SCALE = 3  # small crops are enlarged this many times: small stylised letters read at about 3x
TALL = 108  # pixels: no crop is enlarged past this height (a recognition's cost grows with its size)
MIN_SIDE = 10  # candidates smaller than this on either side hold no readable word
MAX_SHARE = 0.2  # nor do candidates wider or taller than this share of the screen's width (a bar, a card)

Reader = Callable[[np.ndarray], Sequence[OcrLine]]  # an RGB image -> its OCR lines


@lru_cache(maxsize=1)
def _rapid() -> Reader | None:
    """The same RapidOCR engine the screen is read with, or None where it is not installed."""
    try:
        from droidpilot.perception.ocr import make_ocr_engine

        engine = make_ocr_engine("rapidocr")
    except ImportError:
        return None
    return None if engine is None else engine.recognize


def _chosen(regions: Sequence[Region], query: IconQuery, size: tuple[int, int]) -> list[Box]:
    """Up to MAX_CROPS icon-sized candidate boxes, those in the asked place first, larger before smaller,
    one per overlapping group."""
    w, _ = size
    sized = [r.box for r in regions
             if min(r.box[2] - r.box[0], r.box[3] - r.box[1]) >= MIN_SIDE
             and max(r.box[2] - r.box[0], r.box[3] - r.box[1]) <= MAX_SHARE * w]
    if query.position.given:
        placed = [(position_score(box_center(b), size, query.position), b) for b in sized]
        sized = [b for p, b in sorted(placed, key=lambda pb: -pb[0]) if p >= 0.5]
    else:
        sized.sort(key=lambda b: -(b[2] - b[0]) * (b[3] - b[1]))
    out: list[Box] = []
    for b in sized:
        if not any(iou(b, k) > 0.5 for k in out):
            out.append(b)
        if len(out) == MAX_CROPS:
            break
    return out


def read_in_crops(bgr: np.ndarray, boxes: Sequence[Box], texts: Sequence[str], reader: Reader) -> list[Box]:
    """The boxes whose enlarged crop reads exactly one of ``texts`` (case and punctuation aside)."""
    h, w = bgr.shape[:2]
    found: list[Box] = []
    for b in boxes:
        crop = bgr[max(0, b[1] - PAD):min(h, b[3] + PAD), max(0, b[0] - PAD):min(w, b[2] + PAD)]
        scale = max(1.0, min(SCALE, TALL / max(1, crop.shape[0])))
        big = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
        lines = reader(np.ascontiguousarray(big[:, :, ::-1]))
        if lines_reading(lines, texts):
            found.append(b)
    return found


def icon_text_boxes(bgr: np.ndarray, regions: Sequence[Region], query: IconQuery, lines: Sequence[OcrLine],
                    reader: Reader | None = None) -> list[Box]:
    """Boxes holding the text the query says is written in the icon: the screen's OCR lines reading it,
    else (when the screen was read and none does) the candidates whose own crop reads it."""
    if not query.texts:
        return []
    on_screen = lines_reading(lines, query.texts)
    if on_screen or not lines:
        return on_screen
    reader = reader or _rapid()
    if reader is None:
        return []
    size = (bgr.shape[1], bgr.shape[0])
    return read_in_crops(bgr, _chosen(regions, query, size), query.texts, reader)
