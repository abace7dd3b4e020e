"""Icon candidate regions without neural weights: OpenCV proposals on a screenshot.

Three proposal sources are united: connected components of a background-difference mask (strokes close
to each other are joined by a small closing), of Canny edges (which separate an icon from a coloured bar
it sits on), and of white ink on a darker picture (a video's white heart, glued to the picture's texture
in the other two). Nearby parts are also merged into groups, so an icon drawn with
several strokes is one candidate; parts are kept too and the ranking decides. Regions that are too small,
too large or too elongated for an icon, regions that are OCR text, and a keyboard's letter keys, are
dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from droidpilot.perception.icons.boxes import DisjointSets as _DisjointSets
from droidpilot.perception.icons.boxes import components as _components
from droidpilot.perception.icons.boxes import dot_rows
from droidpilot.perception.icons.boxes import group as _group
from droidpilot.perception.icons.grounds import (
    FAINT,
    TILE_CONTRAST,
    bright,
    faint_tiles,
    inner,
    tile_shaped,
)
from droidpilot.perception.icons.imageio import channel_max
from droidpilot.perception.icons.keys import caption_boxes, letter_keys
from droidpilot.perception.icons.line_glyphs import badge, status_icons, text_parts
from droidpilot.perception.types import Box, OcrLine

SINGLE_CHAR_SCORE = 0.9  # OCR confidence above which a lone letter or digit is text, not an icon
GUESSED_SCORE = 0.8  # OCR confidence under which two characters in a glyph-sized box are a guess at an icon
WIDE_CHAR = 1.3  # a lone digit or CJK character is never wider than this times its height (read: 0.7-1.0)
DOT_SIDE = 0.015  # a dot of a kebab or meatball menu is at most this share of the short side
WORK_SHORT_SIDE = 720  # proposals are computed on a copy whose short side is at most this


@dataclass(frozen=True)
class Region:
    """A candidate icon box in device pixels; ``source`` says how it was proposed."""

    box: Box
    source: str  # "mask", "edges", "bright" (white ink on a picture), "vivid" (strong colour on a dull
    # picture), "faint" (a low-contrast tile), "group", "dots" (a row of
    # dots, a kebab menu), "inner" (on a tile or chip), "char" (a lone OCR
    # character), "detector",
    # "text" (an OCR line reading the text a query says is written in the icon)
    parts: int = 1
    background: tuple[int, int, int] | None = None  # BGR of the tile an "inner" icon is drawn on


@dataclass(frozen=True)
class SizeLimits:
    """Icon size limits as fractions of the screen's short side (and of its area)."""

    min_side: float = 0.012
    min_long_side: float = 0.022
    max_side: float = 0.32
    max_area: float = 0.05
    max_aspect: float = 12.0


def _is_text(line: OcrLine) -> bool:
    # A line of one or two symbols ("+", "<") is more likely an icon the OCR read than text; a single
    # digit or CJK character read with high confidence ("1" on a badge) is text. A lone Latin letter
    # stays an icon candidate: OCR reads a magnifier as "Q", a ring as "O", a close button as "X".
    # A short "line" much taller than wide is a vertical icon the OCR read as characters (a kebab menu's
    # three dots read "000" or "...:"): horizontal text is never stacked so.
    x1, y1, x2, y2 = line.box
    if 2 <= len(line.text.strip()) <= 3 and (y2 - y1) > 1.5 * (x2 - x1):
        return False
    alnum = sum(ch.isalnum() for ch in line.text)
    return alnum >= 2 or _lone_char(line)


def _lone_char(line: OcrLine) -> bool:
    """A single digit or CJK character read with high confidence: text, yet OCR also reads outlined
    glyphs so (a heart outline as "3"); its region stays a "char" candidate only an asked glyph can win.
    A "digit" read in a box clearly wider than tall is a glyph (a grey undo arrow read as "5" at 0.99).
    Two characters read unsure in a glyph-sized box are treated so too (_guessed_pair)."""
    ch = line.text.strip()
    single = sum(c.isalnum() for c in ch) == 1 and len(ch) == 1 and not ("a" <= ch.lower() <= "z")
    x1, y1, x2, y2 = line.box
    square = (x2 - x1) <= WIDE_CHAR * (y2 - y1)
    return square and ((single and line.score >= SINGLE_CHAR_SCORE) or _guessed_pair(line))


def _guessed_pair(line: OcrLine) -> bool:
    """Two characters read unsure in a box no wider than one glyph: OCR guessing at an icon (a fork and
    knife on a map chip read "41" at 0.74). Kept as a "char" candidate, as a lone character is; two
    characters read sure ("41" on a badge) stay text."""
    ch = line.text.strip()
    return len(ch) == 2 and all(c.isalnum() for c in ch) and line.score < GUESSED_SCORE


def _icons_read_as_text(work: np.ndarray, box: Box, text: str) -> bool:
    """Is an OCR line (box in working-copy pixels) icons the OCR read as text: a short word on its own
    tile (a captions badge), or a row of the status bar's icons?"""
    return badge(work, box, text) or status_icons(work, box, text)


def _clip(box: tuple[int, ...], shape: tuple[int, ...]) -> Box:
    """An OCR box clipped to the image (OCR boxes may reach a pixel past its edge)."""
    return (max(0, box[0]), max(0, box[1]), min(shape[1], box[2]), min(shape[0], box[3]))


def _overlap_share(box: Box, other: Box) -> float:
    ix = max(0, min(box[2], other[2]) - max(box[0], other[0]))
    iy = max(0, min(box[3], other[3]) - max(box[1], other[1]))
    area = max(1, (box[2] - box[0]) * (box[3] - box[1]))
    return ix * iy / area


def mostly_inside(boxes: Sequence[Box], others: Sequence[Box], share: float = 0.6) -> list[bool]:
    """For each box, does at least ``share`` of its area lie inside one of ``others``? (_overlap_share for
    every pair at once: the same integer overlaps and the same division.)"""
    if not boxes or not others:
        return [False] * len(boxes)
    b, o = np.asarray(boxes, np.int64)[:, None, :], np.asarray(others, np.int64)[None, :, :]
    ix = np.maximum(0, np.minimum(b[..., 2], o[..., 2]) - np.maximum(b[..., 0], o[..., 0]))
    iy = np.maximum(0, np.minimum(b[..., 3], o[..., 3]) - np.maximum(b[..., 1], o[..., 1]))
    area = np.maximum(1, (b[..., 2] - b[..., 0]) * (b[..., 3] - b[..., 1]))
    return [bool(v) for v in (ix * iy / area >= share).any(axis=1)]


def iou(a: Box, b: Box) -> float:
    """Intersection over union of two boxes."""
    inter = _overlap_share(a, b) * max(1, (a[2] - a[0]) * (a[3] - a[1]))
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / max(1.0, union)


def _background(work: np.ndarray) -> np.ndarray:
    """A smooth estimate of the page behind the icons: a wide median on a quarter-size copy."""
    h, w = work.shape[:2]
    small = cv2.resize(work, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    k = max(3, (min(small.shape[:2]) // 6) | 1)
    bg = cv2.medianBlur(small, min(k, 255))
    return cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)


def _same_glyph(mask: np.ndarray, boxes: list[Box]) -> bool:
    """Do all these parts have the same shape (a row of rating stars), unlike letters or characters?"""
    first = boxes[0]
    size = (max(1, first[2] - first[0]), max(1, first[3] - first[1]))
    ref = mask[first[1]:first[3], first[0]:first[2]] > 0
    for b in boxes[1:]:
        other = cv2.resize(mask[b[1]:b[3], b[0]:b[2]], size, interpolation=cv2.INTER_NEAREST) > 0
        union = np.logical_or(ref, other).sum()
        if union == 0 or np.logical_and(ref, other).sum() / union < 0.8:
            return False
    return True


def _text_rows(parts: list[Box], max_height: float, mask: np.ndarray) -> list[Box]:
    """Boxes of rows of glyph-like parts (text when no OCR is given): parts of similar height side by
    side with small gaps (3+ parts, or 2 nearly touching). Rows of one repeated shape (a star rating)
    are not text."""
    small = [b for b in parts if (b[3] - b[1]) <= max_height]
    small.sort(key=lambda b: b[0])
    sets = _DisjointSets(len(small))

    for i, a in enumerate(small):
        ha = a[3] - a[1]
        for j in range(i + 1, len(small)):
            b = small[j]
            hb = b[3] - b[1]
            if b[0] - a[2] > 0.6 * max(ha, hb):
                break
            if b[0] < a[2] - 0.25 * min(a[2] - a[0], b[2] - b[0]):
                continue  # one inside the other (a plus in a ring) is an icon's parts, not two glyphs
            overlap = min(a[3], b[3]) - max(a[1], b[1])
            alike = overlap >= 0.5 * min(ha, hb) and min(ha, hb) >= 0.45 * max(ha, hb)
            # a flat or small glyph ("一", "-", ".") inside the line's height, close to its neighbour
            within = overlap >= 0.9 * min(ha, hb) and b[0] - a[2] <= 0.3 * max(ha, hb)
            if alike or within:
                sets.join(i, j)
    rows: dict[int, list[Box]] = {}
    for i, b in enumerate(small):
        rows.setdefault(sets.find(i), []).append(b)
    out = []
    for members in rows.values():
        if len(members) < 2:
            continue
        if len(members) == 2:  # two glyphs ("昨天", "OK") sit closer together than two icons do
            a, b = sorted(members)
            if b[0] - a[2] > 0.25 * max(a[3] - a[1], b[3] - b[1]):
                continue
        ws = [b[2] - b[0] for b in members]
        hs = [b[3] - b[1] for b in members]
        if max(ws) <= 1.12 * min(ws) and max(hs) <= 1.12 * min(hs) and _same_glyph(mask, members):
            continue  # identical symbols in a row: icons, not letters
        out.append((min(b[0] for b in members), min(b[1] for b in members),
                    max(b[2] for b in members), max(b[3] for b in members)))
    return out


def _keep(box: Box, short_side: float, screen_area: float, limits: SizeLimits) -> bool:
    w, h = box[2] - box[0], box[3] - box[1]
    if min(w, h) < max(2.0, limits.min_side * short_side * (0.25 if max(w, h) > 4 * min(w, h) else 1)):
        return False
    if max(w, h) < limits.min_long_side * short_side or max(w, h) > limits.max_side * short_side:
        return False
    return w * h <= limits.max_area * screen_area and max(w, h) / max(1, min(w, h)) <= limits.max_aspect


def _cut_at_side(box: Box, width: int) -> bool:
    """A sliver against the screen's left or right edge (under half as wide as tall): the edge of a
    picture or card scrolled off screen, not an icon one could tap."""
    return (box[0] <= 0 or box[2] >= width) and (box[2] - box[0]) < 0.5 * (box[3] - box[1])


def find_regions(image: np.ndarray, ocr_lines: Sequence[OcrLine] | None = None,
                 limits: SizeLimits | None = None, max_regions: int = 1500) -> list[Region]:
    """Candidate icon regions of a BGR screenshot, in device pixels, without duplicates, top to bottom.

    With ``ocr_lines`` given, regions that are mostly inside a text line are dropped; with None, rows
    of glyph-like parts are taken for text instead (pass ``[]`` to keep every region).
    """
    limits = limits or SizeLimits()
    h, w = image.shape[:2]
    scale = min(1.0, WORK_SHORT_SIDE / min(h, w))
    work = image if scale == 1.0 else cv2.resize(image, (round(w * scale), round(h * scale)),
                                                  interpolation=cv2.INTER_AREA)
    page = _background(work)
    diff = channel_max(cv2.absdiff(work, page))
    fg = (diff > 35).astype(np.uint8)
    texts = [ln for ln in (ocr_lines or []) if _is_text(ln) and not _icons_read_as_text(
        work, _clip(tuple(round(v * scale) for v in ln.box), work.shape), ln.text)]
    chars = [ln.box for ln in texts if _lone_char(ln)]
    work_text = [part for ln in texts if not _lone_char(ln) for part in
                 text_parts(work, _clip(tuple(round(v * scale) for v in ln.box), work.shape), ln.text)]
    text_boxes = [(int(b[0] / scale), int(b[1] / scale), int(np.ceil(b[2] / scale)),
                   int(np.ceil(b[3] / scale))) for b in work_text]
    gray = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
    edges = cv2.dilate(cv2.Canny(gray, 40, 120), np.ones((3, 3), np.uint8))
    white = bright(work, page)
    for x1, y1, x2, y2 in work_text:  # text must not glue itself to a neighbouring icon
        fg[y1 + 1:y2 - 1, x1 + 1:x2 - 1] = 0
        edges[y1 + 1:y2 - 1, x1 + 1:x2 - 1] = 0
        white[y1 + 1:y2 - 1, x1 + 1:x2 - 1] = 0
    close = max(2, round(min(work.shape[:2]) * 0.004))
    fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, np.ones((close, close), np.uint8))

    proposals: list[tuple[Box, str, int]] = []
    tile_colours: dict[Box, tuple[int, int, int]] = {}
    for source, mask in (("mask", fg), ("edges", edges), ("bright", white)):
        proposals += [(b, source, 1) for b in _components(mask)]
    short_work = min(work.shape[:2])
    dots = dot_rows([b for b, source, _ in proposals if source == "mask"], DOT_SIDE * short_work)
    proposals += [(b, "dots", 3) for b in dots]
    faint = faint_tiles(diff, short_work)
    proposals += [(b, "faint", 1) for b in faint]
    if ocr_lines is None:  # without OCR, rows of glyphs stand in for text lines
        ink = (diff > 35).astype(np.uint8)
        glyphs = _components(ink)
        text_boxes = [(int(b[0] / scale), int(b[1] / scale), int(np.ceil(b[2] / scale)),
                       int(np.ceil(b[3] / scale)))
                      for b in _text_rows(glyphs, 0.05 * max(work.shape[:2]), ink)]
    small = [b for b, _, _ in proposals if max(b[2] - b[0], b[3] - b[1]) < 0.2 * min(work.shape[:2])]
    proposals += [(b, "group", n) for b, n in _group(small)]
    tiles = sorted({(b, TILE_CONTRAST) for b, source, _ in proposals
                    if source == "mask" and tile_shaped(b, short_work)} | {(b, FAINT) for b in faint})
    for b, colour in inner(work, page.astype(np.int16), tiles, limits.min_side * short_work, short_work):
        proposals.append((b, "inner", 1))
        tile_colours[b] = colour

    short_side, area = float(min(h, w)), float(h * w)
    regions: list[Region] = []
    buckets: dict[int, list[Box]] = {}  # boxes by left edge, so near-duplicates are found quickly
    fulls = [(int(box[0] / scale), int(box[1] / scale), min(w, int(np.ceil(box[2] / scale))),
              min(h, int(np.ceil(box[3] / scale)))) for box, _, _ in proposals]
    in_text = mostly_inside(fulls, text_boxes)
    for (box, source, parts), full, texty in zip(proposals, fulls, in_text, strict=True):
        # a row of dots is as narrow as one dot: only its length is held to the limits
        long_side = max(full[2] - full[0], full[3] - full[1])
        narrow_ok = source == "dots" and long_side >= limits.min_long_side * short_side
        if not (narrow_ok or _keep(full, short_side, area, limits)) or _cut_at_side(full, w):
            continue
        if texty:
            continue
        # An icon filling most of its tile is kept next to the tile (they are described differently).
        kind = 1 if source == "inner" else 0
        reach = (full[2] - full[0]) // 4 + 1
        near = range((full[0] - reach) // 24, (full[0] + reach) // 24 + 1)
        if any(iou(full, other) > 0.8 for k in near for other in buckets.get(2 * k + kind, ())):
            continue
        buckets.setdefault(2 * (full[0] // 24) + kind, []).append(full)
        if any(_overlap_share(full, t) >= 0.6 for t in chars):
            source = "char"
        regions.append(Region(full, source, parts, tile_colours.get(box) if source == "inner" else None))
    keys, captions = letter_keys([r.box for r in regions], caption_boxes(ocr_lines or []))
    if keys:  # a keyboard's letter keys and their letters are text, however their glyphs read
        regions = [r for r in regions if r.box not in keys
                   and not any(_overlap_share(r.box, c) >= 0.6 for c in captions)]
    regions.sort(key=lambda r: (r.box[1], r.box[0]))
    return regions[:max_regions]
