"""Glyphs OCR glues to a text line: a leading icon read as part of the line ("+ Add song", a bed before
"Hotels"), a trailing symbol the line ends with ("4.0★", "Sports >", a circled "①"), and a trailing
glyph OCR did not read at all (an info circle after "182M reviews": the ink holds one word more than
the text). The line's box is cut so the glyph is left to the icon proposals. Ink is measured against
the line's own background (the colour along its box's rim), so a glyph on a chip or pill splits as one
on the page does."""

from __future__ import annotations

import re
import unicodedata

import cv2
import numpy as np

from droidpilot.perception.icons.imageio import channel_max
from droidpilot.perception.types import Box

INK = 35  # a pixel this unlike the line's background is ink
ARROWS = "›»‹«"  # quotation marks that OCR reads for chevrons; other quotes close words, without a gap
GLYPH_WIDTH = (0.5, 1.6)  # a leading glyph is this wide, in line heights
WORD_GAP = 0.3  # a gap this wide (in line heights) parts two words of the ink
UNREAD_GAP = 0.45  # a glyph OCR did not read stands at least this far (line heights) after the text
BADGE_CHARS = 3  # a word of at most this many characters drawn on its own small tile is a badge icon
BADGE_SIDE = 0.1  # such a tile is at most this share of the screen's short side
BADGE_MARGIN = 0.25  # a badge's tile ends within this many line heights around its OCR box
BADGE_RIM = 0.8  # share of the OCR box's rim that is the tile's one colour
STATUS_BAR = 0.04  # the top share of the screen: the system's status bar (the clock, then status icons)
STATUS_EXTRA = 2  # ink words beyond the words read that make a status-bar line a row of icons
PUNCTUATION = 0.3  # a part under this share of the ink's height is a dot or comma, not a word
CLOCK = re.compile(r"\d{1,2}:\d{2}")


def line_ink(work: np.ndarray, box: Box) -> np.ndarray:
    """The ink of the line's box (box-local bool mask): pixels unlike the median colour of its rim."""
    x1, y1, x2, y2 = box
    crop = work[y1:y2, x1:x2].astype(np.int16)
    if crop.shape[0] < 3 or crop.shape[1] < 3:
        return np.zeros(crop.shape[:2], bool)
    rim = np.concatenate([crop[0], crop[-1], crop[:, 0], crop[:, -1]])
    return channel_max(np.abs(crop - np.median(rim, axis=0))) > INK


def ends_with_symbol(text: str) -> bool:
    """Does the OCR text end with a symbol (★, >, ›), not a letter, digit or punctuation mark?"""
    stripped = text.rstrip()
    if not stripped:
        return False
    last = stripped[-1]
    return unicodedata.category(last).startswith("S") or last in ARROWS or _enclosed(last)


def _enclosed(ch: str) -> bool:
    """A circled or parenthesised character ("①", "ⓘ", "⑴"): an icon drawn as text, not a letter."""
    name = unicodedata.name(ch, "")
    return "CIRCLED" in name or "PARENTHESIZED" in name


def _ink_height(ink: np.ndarray) -> int:
    """How tall the line's ink is (an OCR box is padded; its text is shorter than the box)."""
    rows = np.flatnonzero(ink.any(axis=1))
    return int(rows[-1] - rows[0] + 1) if len(rows) else 0


def split_leading_glyph(ink: np.ndarray, box: Box) -> Box:
    """The text part of a line box whose first part is a glyph glued to the text ("←title"): the
    leading blob is split off when it is about as tall as the line's ink and a clear gap follows it
    (the box then starts in the gap)."""
    x1, y1, x2, y2 = box
    h = _ink_height(ink)
    if h < 6 or x2 - x1 < 3 * h:
        return box
    cols = np.flatnonzero(ink.any(axis=0))
    gaps = np.flatnonzero(np.diff(cols) > max(2, round(0.3 * h)))
    if len(gaps) == 0:
        return box
    first_end, next_start = cols[gaps[0]], cols[gaps[0] + 1]
    width = first_end - cols[0] + 1
    rows = np.flatnonzero(ink[:, cols[0]:first_end + 1].any(axis=1))
    tall = len(rows) > 0 and rows[-1] - rows[0] + 1 >= 0.6 * h
    if tall and GLYPH_WIDTH[0] * h <= width <= GLYPH_WIDTH[1] * h:
        return (x1 + int(first_end + next_start + 1) // 2, y1, x2, y2)  # from the gap's middle: the
        # text's first column stays inside the box, where its ink is blanked
    return box


def split_trailing_symbol(ink: np.ndarray, box: Box) -> Box:
    """The text part of a line box OCR read as ending with a symbol: the last blob after a gap, if no
    wider than a glyph, is cut off (the box ends in the gap)."""
    x1, y1, _, y2 = box
    h = _ink_height(ink)
    cols = np.flatnonzero(ink.any(axis=0))
    if h < 6:
        return box
    gaps = np.flatnonzero(np.diff(cols) > max(1, round(0.08 * h)))
    if len(gaps) == 0:
        return box
    text_end, last_start = cols[gaps[-1]], cols[gaps[-1] + 1]
    if cols[-1] - last_start + 1 <= GLYPH_WIDTH[1] * h:
        return (x1, y1, x1 + int(text_end + last_start + 1) // 2, y2)  # to the gap's middle
    return box


def split_unread_glyph(ink: np.ndarray, box: Box, words: int) -> Box:
    """The text part of a line box whose ink holds exactly one word more than the OCR text has words,
    the extra one last, glyph-sized, about as tall as the line and set apart by at least a wide word gap:
    a glyph OCR left unread ("182M reviews ⓘ"). A line whose words OCR read without spaces (a date and
    time, "1/26/2024,15:57") holds several more and is left, as is a last word of letters too narrow or
    too close to be set apart."""
    x1, y1, _, y2 = box
    h = _ink_height(ink)
    cols = np.flatnonzero(ink.any(axis=0))
    if h < 6 or words < 1:
        return box
    gaps = np.flatnonzero(np.diff(cols) > max(2, round(WORD_GAP * h)))
    if len(gaps) != words:  # one gap per word boundary, and one more before the unread glyph
        return box
    text_end, last_start = cols[gaps[-1]], cols[gaps[-1] + 1]
    width = cols[-1] - last_start + 1
    rows = np.flatnonzero(ink[:, last_start:].any(axis=1))
    tall = len(rows) > 0 and rows[-1] - rows[0] + 1 >= 0.6 * h
    apart = last_start - text_end - 1 >= UNREAD_GAP * h
    if tall and apart and GLYPH_WIDTH[0] * h <= width <= GLYPH_WIDTH[1] * h:
        return (x1, y1, x1 + int(text_end + last_start + 1) // 2, y2)  # to the gap's middle
    return box


def _word_spans(ink: np.ndarray, h: int) -> list[tuple[int, int]]:
    """(first, last) ink column of each word of the line: parts set apart by more than a word gap, a dot
    or comma (under PUNCTUATION of the ink's height) joined to the word before it."""
    cols = np.flatnonzero(ink.any(axis=0))
    if len(cols) == 0:
        return []
    cuts = np.flatnonzero(np.diff(cols) > max(2, round(WORD_GAP * h)))
    spans = [(int(a), int(b)) for a, b in zip(np.r_[cols[0], cols[cuts + 1]], np.r_[cols[cuts], cols[-1]],
                                              strict=True)]
    out: list[tuple[int, int]] = []
    for a, b in spans:
        rows = np.flatnonzero(ink[:, a:b + 1].any(axis=1))
        if out and rows[-1] - rows[0] + 1 < PUNCTUATION * h:
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def split_inner_glyph(ink: np.ndarray, box: Box, words: int) -> list[Box]:
    """The text parts of a line box whose ink holds exactly one word more than the OCR text has words,
    the extra one between two read words: glyph-sized, about as tall as the line and set apart from both
    neighbours by at least UNREAD_GAP (a car between "Lake·" and "40 min", a route's time). The box is
    cut in two around it, each part ending in a gap's middle; [box] when no one word inside qualifies
    (two that could be the glyph leave the line whole: the OCR words say nothing of which)."""
    x1, y1, x2, y2 = box
    h = _ink_height(ink)
    if h < 6 or words < 2:
        return [box]
    spans = _word_spans(ink, h)
    if len(spans) != words + 1:
        return [box]
    found = []
    for k in range(1, len(spans) - 1):
        a, b = spans[k]
        rows = np.flatnonzero(ink[:, a:b + 1].any(axis=1))
        tall = rows[-1] - rows[0] + 1 >= 0.6 * h
        apart = min(a - spans[k - 1][1] - 1, spans[k + 1][0] - b - 1) >= UNREAD_GAP * h
        if tall and apart and GLYPH_WIDTH[0] * h <= b - a + 1 <= GLYPH_WIDTH[1] * h:
            found.append(k)
    if len(found) != 1:
        return [box]
    k = found[0]
    left = x1 + (spans[k - 1][1] + spans[k][0] + 1) // 2
    right = x1 + (spans[k][1] + spans[k + 1][0] + 1) // 2
    return [(x1, y1, left, y2), (right, y1, x2, y2)]


def badge(work: np.ndarray, box: Box, text: str) -> bool:
    """Is this OCR line a short word drawn on its own small tile, an icon rather than text (the white
    "CC" box of a video's captions button)? The box's rim is one colour, and the pixels of that colour
    joined to it form a tile that ends within a small margin around the box, on something else. A word
    on the page, or on a key or button larger than its letters (a keyboard's "A", an "OK" button), has
    that colour reaching past the margin; a word on a photo has no one colour along its rim."""
    x1, y1, x2, y2 = box
    h, w = work.shape[:2]
    pad = max(3, round(BADGE_MARGIN * (y2 - y1)))
    if not 1 <= len(text.replace(" ", "")) <= BADGE_CHARS or max(x2 - x1, y2 - y1) > BADGE_SIDE * min(h, w):
        return False
    if x1 - pad < 0 or y1 - pad < 0 or x2 + pad > w or y2 + pad > h or min(x2 - x1, y2 - y1) < 3:
        return False
    inset = 2 if min(x2 - x1, y2 - y1) >= 12 else 0  # an OCR box may straddle the tile's edge
    crop = work[y1 + inset:y2 - inset, x1 + inset:x2 - inset].astype(np.int16)
    tile = np.median(np.concatenate([crop[0], crop[-1], crop[:, 0], crop[:, -1]]), axis=0)
    window = work[y1 - pad:y2 + pad, x1 - pad:x2 + pad].astype(np.int16)
    alike = (channel_max(np.abs(window - tile)) <= INK).astype(np.uint8)
    _, labels = cv2.connectedComponents(alike, connectivity=4)
    inner = labels[pad + inset:labels.shape[0] - pad - inset, pad + inset:labels.shape[1] - pad - inset]
    rim = np.concatenate([inner[0], inner[-1], inner[:, 0], inner[:, -1]])
    ids, counts = np.unique(rim[rim > 0], return_counts=True)
    if len(ids) == 0 or counts.max() < BADGE_RIM * len(rim):
        return False  # no one colour along the rim: a word on a photo
    own = labels == ids[np.argmax(counts)]
    edge = own[0].any() or own[-1].any() or own[:, 0].any() or own[:, -1].any()
    return not edge


def _ink_words(ink: np.ndarray) -> int:
    """How many words the ink holds: parts set apart by more than a word gap (0 for no ink)."""
    cols = np.flatnonzero(ink.any(axis=0))
    if len(cols) == 0:
        return 0
    return 1 + int((np.diff(cols) > max(2, round(WORD_GAP * _ink_height(ink)))).sum())


def status_icons(work: np.ndarray, box: Box, text: str) -> bool:
    """Is this OCR line in the system status bar a row of its icons read as a word or two ("VPN ×" over a
    VPN key, a muted bell, wifi, a SIM's cross and the battery)? The status bar holds the clock and
    icons; a line there whose ink holds STATUS_EXTRA words or more beyond the words read is icons, not
    text. A carrier's name holds the words it reads; the clock ("15:06") stays text whatever its ink
    holds (on a map, or with notification icons beside it)."""
    if box[3] > STATUS_BAR * work.shape[0] or CLOCK.fullmatch(text.strip()):
        return False
    ink = line_ink(work, box)
    if _ink_height(ink) < 6:
        return False
    return _ink_words(ink) >= len(text.split()) + STATUS_EXTRA


def text_parts(work: np.ndarray, box: Box, text: str) -> list[Box]:
    """The parts of an OCR line's box that are text: text_part's, cut in two around a glyph OCR left
    unread between its words (split_inner_glyph)."""
    cut = text_part(work, box, text)
    return split_inner_glyph(line_ink(work, cut), cut, len(text.split()))


def _lead_unread(ink: np.ndarray, text: str) -> bool:
    """May the line's first blob be a glyph? Not when OCR read the line as starting with a word of two
    or more letters or digits and its ink holds no more words than the text has (the "All" of "All
    notes" is its first word, however glyph-sized); yes when the text starts with a symbol ("+ Add
    song") or one character (a magnifier read "Q" before "Search"), or the ink holds a word more than
    was read (a bed before "Hotels")."""
    words = text.split()
    if not words or not words[0][0].isalnum() or len(words[0]) == 1:
        return True
    return _ink_words(ink) > len(words)


def text_part(work: np.ndarray, box: Box, text: str) -> Box:
    """The part of an OCR line's box that is text: leading glyph and trailing symbol (read or unread)
    cut off."""
    ink = line_ink(work, box)
    cut = split_leading_glyph(ink, box) if _lead_unread(ink, text) else box
    if ends_with_symbol(text):
        cut = split_trailing_symbol(ink[:, cut[0] - box[0]:], cut)
    else:
        cut = split_unread_glyph(ink[:, cut[0] - box[0]:], cut, len(text.split()))
    return cut
