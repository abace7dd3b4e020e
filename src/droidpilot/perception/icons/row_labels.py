"""The text rows a query names ("chevron on the VPN row", "arrow to fill in jpmorgan chase", "gray switch
for airplane mode"): OCR lines whose words the query says, and how near a candidate is to such a row.

A settings list, a search's suggestions and a map's places repeat one icon per row; the words naming the
row are all that set the asked one apart. A line is named when every word of it (its stop words aside)
is a word of the query, or it reads the whole phrase the query puts after "in" or "on" (a label after
"next to" is anchors.py's: when no line reads it, no row is guessed from its words; a label after "for"
that a line reads is the row itself, query.anchor_row);
of several named lines the ones naming most words are kept, and only if they are in one row (else the
words pick no row: "west lake" typed in the search field and suggested below it). Nearness is by rows:
a candidate in the label's row (their heights overlap) is nearest however far along the row it sits (a
row's chevron or switch is at its far end), one rows away falls off with the distance in label heights.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from droidpilot.perception.icons.query import COLOUR_WORDS, POSITION_WORDS, IconQuery
from droidpilot.perception.types import Box, OcrLine

STOP = {"a", "an", "the", "of", "at", "in", "on", "to", "for", "with", "and", "or", "by", "next", "beside",
        "near", "after", "before", "under", "below", "above", "inside", "row", "button", "icon", "tab",
        "bar", "item", "entry", "line", "option", "setting", "its", "this", "that", "is", "it"}
MIN_LETTERS = 3  # a named line has a word at least this long (a lone "A" or "1" names nothing)
ALONG_ROW = 8.0  # distance along the row counts this many label heights as one label height across rows
STATUS_BAR = 0.04  # lines in the top share of the screen (the system's status bar) name no row


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _content(words: Sequence[str]) -> list[str]:
    return [w for w in words if w not in STOP and w not in COLOUR_WORDS and w not in POSITION_WORDS]


def named_rows(lines: Sequence[OcrLine], query: IconQuery, height: int) -> list[Box]:
    """Boxes of the OCR lines the query's words name (see the module docstring); [] when none is."""
    if query.anchor:  # anchors.py's label: read by a line or ignored, never guessed from its words
        return []
    said = set(_content(_words(query.raw)))
    phrases = [" ".join(_words(p)) for p in (query.container,) if p]
    phrases = [p for p in phrases if any(len(w) >= MIN_LETTERS for w in _content(p.split()))]
    own = {" ".join(_words(t)) for t in query.texts}
    best, out = 0, []
    for ln in lines:
        if ln.box[3] <= STATUS_BAR * height:
            continue
        words = _words(ln.text)
        content = _content(words)
        if not content or " ".join(words) in own or not any(len(w) >= MIN_LETTERS for w in content):
            continue
        joined = f" {' '.join(words)} "
        if all(w in said for w in content):
            count = len(content)
        elif any(f" {p} " in joined for p in phrases):
            count = max(len(_content(p.split())) for p in phrases if f" {p} " in joined)
        else:
            continue
        if count > best:
            best, out = count, []
        if count == best:
            out.append(ln.box)
    return out if one_row(out) else []


def one_row(boxes: Sequence[Box]) -> bool:
    """Do the boxes sit in one row (each one's height overlaps the first's by more than half)?"""
    return all(_same_row(b, boxes[0]) for b in boxes[1:])


def _same_row(a: Box, b: Box) -> bool:
    return min(a[3], b[3]) - max(a[1], b[1]) > 0.5 * min(a[3] - a[1], b[3] - b[1])


def row_nearness(box: Box, rows: Sequence[Box]) -> float:
    """1.0 in a named row's own row (heights overlapping) and beside its text, falling with the
    distance across rows in label heights (and, far less, along the row); the best over the rows."""
    best = 0.0
    for a in rows:
        h = max(1, a[3] - a[1])
        dy = max(0, a[1] - box[3], box[1] - a[3])
        dx = max(0, a[0] - box[2], box[0] - a[2])
        best = max(best, 1.0 / (1.0 + dy / h) / (1.0 + dx / (ALONG_ROW * h)))
    return best
