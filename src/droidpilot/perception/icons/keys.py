"""Letter keys of an on-screen keyboard: a row of look-alike keys, each captioned by one OCR-read letter.

A key captioned "f" is text, though the glyph matcher may read its letter as an arrow (a shift key query
then tapped the "f" key). A lone letter elsewhere stays an icon candidate (OCR reads a magnifier as "Q",
a close button as "X"), so only keys in a row of MIN_ROW or more look-alikes, each with its own letter,
are taken for text; avatars with initials stand in columns, not rows of same-sized tiles.
"""

from __future__ import annotations

from collections.abc import Sequence

from droidpilot.perception.types import Box, OcrLine

LETTER_SCORE = 0.9  # OCR confidence a key's one-character caption needs
MIN_ROW = 3  # look-alike captioned keys side by side that make a keyboard row
ALIKE = 0.15  # size and height differences (shares of the key's size) of keys of one row


def caption_boxes(lines: Sequence[OcrLine]) -> list[Box]:
    """Boxes of OCR lines reading one letter or digit with high confidence (a key's caption)."""
    return [ln.box for ln in lines
            if len(ln.text.strip()) == 1 and ln.text.strip().isalnum() and ln.score >= LETTER_SCORE]


def _captions_in(box: Box, captions: Sequence[Box]) -> tuple[Box, ...]:
    """The captions centred inside ``box`` and small in it (a key's letter, its secondary digit)."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    return tuple(c for c in captions
                 if x1 <= (c[0] + c[2]) / 2 <= x2 and y1 <= (c[1] + c[3]) / 2 <= y2
                 and (c[2] - c[0]) * (c[3] - c[1]) <= 0.5 * w * h)


def letter_keys(boxes: Sequence[Box], captions: Sequence[Box]) -> tuple[set[Box], list[Box]]:
    """(boxes that are captioned keys of a keyboard row, their captions)."""
    captioned = [(b, c) for b in boxes if (c := _captions_in(b, captions))]
    keys: set[Box] = set()
    caps: list[Box] = []
    for b, cap in captioned:
        w, h = b[2] - b[0], b[3] - b[1]
        row = {c for o, c in captioned
               if not set(c) & set(cap) and abs(o[1] - b[1]) <= ALIKE * h
               and abs(o[3] - o[1] - h) <= ALIKE * h
               and abs(o[2] - o[0] - w) <= ALIKE * w}
        if len(row) >= MIN_ROW - 1:
            keys.add(b)
            caps += cap
    return keys, caps
