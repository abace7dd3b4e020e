"""Launcher geometry: where an app's icon is, given its label, read from the screen rather than assumed.

The label's column is as wide as the spacing between labels on its row; the icon is the nearest
non-background blob above the label inside that column (other text masked out). When no blob stands out
(a busy wallpaper), the icon's place is inferred from the layout: centred in the column, in the space
between the label and the label row above (or the band above the label of the same height as that pitch).
"""

from __future__ import annotations

import cv2
import numpy as np
from PIL import Image

from droidpilot.perception.types import Box, OcrLine

BG_TOLERANCE = 40  # max per-channel difference still counted as background


def _centre(box: Box) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _row_mates(label: Box, lines: list[OcrLine]) -> list[Box]:
    h = label[3] - label[1]
    cy = _centre(label)[1]
    return [ln.box for ln in lines
            if ln.box != label and abs(_centre(ln.box)[1] - cy) <= h * 0.6]


def column_half_width(label: Box, lines: list[OcrLine], screen_width: int) -> float:
    """Half the width of the label's launcher column: half the distance to the nearest label on its row."""
    cx = _centre(label)[0]
    gaps = [abs(_centre(b)[0] - cx) for b in _row_mates(label, lines)]
    gaps = [g for g in gaps if g > (label[2] - label[0]) / 2]
    if gaps:
        return min(gaps) / 2
    h = label[3] - label[1]
    return min(screen_width / 4, max((label[2] - label[0]) * 0.8, h * 3.0))


def row_pitch(label: Box, lines: list[OcrLine]) -> float | None:
    """Vertical distance to the nearest label row above in the same column, if there is one."""
    cx, cy = _centre(label)
    h = label[3] - label[1]
    above = [cy - _centre(ln.box)[1] for ln in lines
             if abs(_centre(ln.box)[0] - cx) <= max(h, (label[2] - label[0]) / 2)
             and cy - _centre(ln.box)[1] > 2 * h and abs((ln.box[3] - ln.box[1]) - h) <= h * 0.5]
    return min(above) if above else None


def _background(band: np.ndarray) -> np.ndarray:
    border = np.concatenate([band[0], band[-1], band[:, 0], band[:, -1]])
    return np.median(border, axis=0)


def _blob_above(arr: np.ndarray, label: Box, lines: list[OcrLine], half: float, height: int) -> Box | None:
    cx = _centre(label)[0]
    h = label[3] - label[1]
    x1, x2 = max(0, int(cx - half)), min(arr.shape[1], int(cx + half))
    y2 = label[1] - max(1, h // 8)
    y1 = max(0, y2 - height)
    if x2 - x1 < 4 or y2 - y1 < 4:
        return None
    band = arr[y1:y2, x1:x2].astype(np.int16)
    diff = np.abs(band - _background(band)).max(axis=2)
    mask = (diff > BG_TOLERANCE).astype(np.uint8)
    for ln in lines:  # other text is not an icon; a lone character may be the icon's glyph (OCR reads a
        if len(ln.text.strip()) <= 1:  # calculator's +-x= glyph as one CJK character), so it stays
            continue
        bx1, by1, bx2, by2 = ln.box
        mask[max(0, by1 - y1):max(0, by2 - y1), max(0, bx1 - x1):max(0, bx2 - x1)] = 0
    k = max(1, h // 4)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    best: Box | None = None
    for i in range(1, count):
        sx, sy, sw, sh, area = (int(v) for v in stats[i])
        if sw < h or sh < h or area < 0.15 * sw * sh:
            continue  # too small to be an icon (a dot, an underline)
        left, right = x1 + sx, x1 + sx + sw
        if not left - h / 2 <= cx <= right + h / 2:
            continue  # not above the label
        box = (left, y1 + sy, right, y1 + sy + sh)
        if best is None or box[3] > best[3]:
            best = box  # the lowest blob: the one right above the label
    return best


def icon_above(image: Image.Image, label: Box, lines: list[OcrLine]) -> tuple[Box | None, str]:
    """The icon above ``label`` and how it was found ("blob" or "layout"); (None, "") if neither."""
    arr = np.asarray(image.convert("RGB"))
    half = column_half_width(label, lines, image.size[0])
    pitch = row_pitch(label, lines)
    h = label[3] - label[1]
    search = int(pitch - h) if pitch else int(min(4 * half, 2.5 * half + 4 * h))
    blob = _blob_above(arr, label, lines, half, max(search, 2 * h))
    if blob is not None:
        return blob, "blob"
    if pitch is None:
        return None, ""
    cx = _centre(label)[0]
    size = min(2 * half * 0.6, (pitch - h) * 0.6)
    if size < h:
        return None, ""
    bottom = label[1] - h * 0.5
    box = (int(cx - size / 2), int(bottom - size), int(cx + size / 2), int(bottom))
    return (max(0, box[0]), max(0, box[1]), box[2], box[3]), "layout"
