"""Typed values shown on a screen: ``shown(spec, lines)`` for the verifier's screen checkers.

A screen is not a reply. A reply that states several values hedges ("6 or 7"), so ``match`` wants one;
a screen lists many (a row "Lunch · Nov 21 · $12.50", a range "09:30 – 09:45", a sum "12 − 5 = 7"), and
each of them is shown. So each line (a UI element's text, an OCR line) is read on its own, with the
readers' masking (the 21 of "Nov 21" is a date, not money), values never join across lines, and the
screen shows the right value when any line states it as one of its values of the type: as a whole
token, so "$1,810" never shows $181 and "16 alarms" never shows 6. Names and free text must stand as
whole words in a line; every item of a set must be shown by some line; a range (``between``) is shown
by a line stating a value inside it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from droidpilot.typed import phrases
from droidpilot.typed.spec import WORD_TYPES, Match, in_range, read_values, same_value


def _wants(spec: Mapping[str, Any]) -> list[str]:
    return [str(w) for w in (spec["in"] if "in" in spec else [spec["equals"]])]


def _line_shows(kind: str, wants: list[str], line: str) -> str | None:
    """The wanted value (as written in the spec) that ``line`` shows, or None."""
    if kind in WORD_TYPES:
        for want in wants:
            if phrases.fold(line) == phrases.fold(want) or phrases.phrase_positions(want, line):
                return want
        return None
    got = read_values(kind, line)
    for want in wants:
        canon = read_values(kind, want)[:1]
        if canon and any(same_value(kind, g, canon[0]) for g in got):
            return want
    return None


def shown(spec: Mapping[str, Any], lines: Iterable[str]) -> Match:
    """Whether some line of a screen shows the spec's value (spec already checked with ``check_spec``)."""
    texts = [str(t) for t in lines if t]
    kind = spec["type"]
    if kind == "set":
        raw = spec["equals"] if "equals" in spec else spec["in"][0]
        items = [str(i) for i in raw] if isinstance(raw, list) else phrases.split_items(str(raw))
        of = spec.get("of", "text")
        missing = [i for i in items if not any(_line_shows(of, [i], t) for t in texts)]
        if missing:
            return Match(False, f"the screen does not show {missing} (set of {of})", (), tuple(items))
        return Match(True, f"the screen shows every item of {items}", tuple(items), tuple(items))
    if "between" in spec:
        low, high = spec["between"]
        for text in texts:
            if any(in_range(spec, v) for v in read_values(kind, text)):
                return Match(True, f"{text!r} shows a {kind} between {low} and {high}", (text,), (low, high))
        return Match(False, f"no line shows a {kind} between {low} and {high}", (), (low, high))
    wants = _wants(spec)
    if kind in WORD_TYPES:
        wants += [str(a) for a in spec.get("aliases", [])]
    for text in texts:
        hit = _line_shows(kind, wants, text)
        if hit is not None:
            return Match(True, f"{text!r} shows {kind} {hit!r}", (text,), tuple(wants))
    others = f" (or {wants[1:]})" if len(wants) > 1 else ""
    return Match(False, f"no line shows {kind} {wants[0]!r}{others}", (), tuple(wants))


__all__ = ["shown"]
