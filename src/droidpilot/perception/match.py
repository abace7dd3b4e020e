"""Matching a wanted text against screen text: exact, contained, or fuzzy (rapidfuzz), on normalised text.

Used by text localization and by the ``ocr_match`` checker, so both accept and reject the same things.
The fuzzy threshold rises as the wanted text gets shorter: a 3-letter word must match exactly, a long
sentence may have a few characters misread. A line shorter than the query is compared whole (never as a
substring of the query), so a one-letter line can never match inside a long query, with one exception: a
label the app cut short with an ellipsis ("Best of 2023 (Tay...") matches a query it begins (and a query
cut short matches a line it begins), when the part shown is long enough to tell (``TRUNCATED_MIN``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from droidpilot.perception.normalize import is_cjk, match_key, normalize_text

MatchKind = Literal["exact", "contains", "fuzzy"]
TRUNCATED_MIN = 6  # characters (no spaces) a label cut short with an ellipsis must show to match a query
TRUNCATED_SHARE = 0.3  # ... and at least this share of the full text
TRUNCATED_SCORE = 0.9  # below "contains", above most fuzzy matches
_ELLIPSIS = re.compile(r"\s*(?:\.{2,}|…)\s*$")


def fuzzy_threshold(length: int) -> float | None:
    """Minimum rapidfuzz score (0-100) for a query of ``length`` characters; None: exact only."""
    if length < 3:
        return None
    if length <= 4:
        return 85.0
    if length <= 7:
        return 80.0
    if length <= 15:
        return 75.0
    return 70.0


def allowed_edits(length: int) -> int:
    """How many characters OCR may have misread in a query of ``length`` characters (about one in five)."""
    return max(1, length // 5)


@dataclass(frozen=True)
class TextMatch:
    """How a screen line matched: the kind, a score in 0-1, and where the query sits in the line.

    ``span`` is the (start, end) fraction of the line's width the query covers, to tap the right part of a
    line that holds more than the query (``(0, 1)`` for the whole line).
    """

    kind: MatchKind
    score: float
    span: tuple[float, float] = (0.0, 1.0)


def _bounded(query: str, line: str, start: int) -> bool:
    """Does ``query`` at ``start`` of ``line`` sit on word boundaries (CJK text has none to respect)?"""
    end = start + len(query)
    before = line[start - 1] if start > 0 else ""
    after = line[end] if end < len(line) else ""

    def joins(a: str, b: str) -> bool:
        return bool(a) and bool(b) and a.isalnum() and b.isalnum() and not (is_cjk(a) or is_cjk(b))

    return not joins(before, query[0]) and not joins(query[-1], after)


def _starts_word(line: str, start: int) -> bool:
    """Does a match starting at ``start`` begin a word (not cut into the middle of a Latin word)?"""
    if start <= 0 or start >= len(line):
        return True
    a, b = line[start - 1], line[start]
    return not (a.isalnum() and b.isalnum() and not is_cjk(a) and not is_cjk(b))


def _find_bounded(query: str, line: str) -> int:
    for m in re.finditer(re.escape(query), line):
        if _bounded(query, line, m.start()):
            return m.start()
    return -1


def _cut_short(text: str, casefold: bool) -> str | None:
    """The compact key of the part of ``text`` before a trailing ellipsis; None without one."""
    if not _ELLIPSIS.search(text):
        return None
    return match_key(_ELLIPSIS.sub("", text), casefold)


def _truncated(query: str, line: str, casefold: bool) -> TextMatch | None:
    """``line`` cut short with an ellipsis where ``query`` is whole (or the reverse), and the part shown
    begins the other text, allowing one misread character per ten shown."""
    for shown_text, whole_text in ((line, query), (query, line)):
        shown = _cut_short(shown_text, casefold)
        whole = match_key(whole_text, casefold)
        if shown is None or _cut_short(whole_text, casefold) is not None:
            continue
        if not TRUNCATED_MIN <= len(shown) < len(whole) or len(shown) < TRUNCATED_SHARE * len(whole):
            continue
        if Levenshtein.distance(shown, whole[:len(shown)]) <= len(shown) // 10:
            return TextMatch("fuzzy", TRUNCATED_SCORE)
    return None


def match_text(query: str, line: str, casefold: bool = True, fuzzy: bool = True) -> TextMatch | None:
    """Does screen ``line`` show ``query``? Exact, contained as whole words, or fuzzy; None when not."""
    q, t = match_key(query, casefold), match_key(line, casefold)
    if not q or not t:
        return None
    if q == t:
        return TextMatch("exact", 1.0)
    # Containment is checked on the spaced form so word boundaries are known, then on the compact form.
    spaced_q, spaced_t = _spaced(query, casefold), _spaced(line, casefold)
    pos = _find_bounded(spaced_q, spaced_t) if len(q) >= 2 or is_cjk(q[0]) else -1
    if pos >= 0:
        n = max(len(spaced_t), 1)
        return TextMatch("contains", 0.95, (pos / n, (pos + len(spaced_q)) / n))
    threshold = fuzzy_threshold(len(q)) if fuzzy else None
    if threshold is None:
        return None
    cut = _truncated(query, line, casefold)
    if cut is not None:
        return cut
    # A whole line matches when it differs from the query by a few misread characters, never by whole
    # words: "Setlings" is "Settings", but "Comments" is not "Add comment".
    whole = fuzz.ratio(q, t)
    if whole >= threshold and Levenshtein.distance(q, t) <= allowed_edits(len(q)):
        return TextMatch("fuzzy", whole / 100.0 * 0.9)
    if len(t) > len(q) >= 5:  # the query inside a longer line; never a short line inside the query
        part = fuzz.partial_ratio_alignment(spaced_q, spaced_t)
        if (part is not None and part.score >= max(threshold, 85.0)
                and _starts_word(spaced_t, part.dest_start)):
            n = len(spaced_t)
            return TextMatch("fuzzy", part.score / 100.0 * 0.85, (part.dest_start / n, part.dest_end / n))
    return None


def _spaced(text: str, casefold: bool) -> str:
    return normalize_text(text, casefold=casefold)


def similarity(query: str, line: str) -> float:
    """A loose 0-100 similarity, to rank the closest texts on screen when nothing matched."""
    q, t = match_key(query), match_key(line)
    if not q or not t:
        return 0.0
    return float(max(fuzz.ratio(q, t), fuzz.partial_ratio(q, t) * 0.9 if len(t) >= len(q) else 0.0))
