"""The ``exact`` parameter of the screen checkers: texts that must each be a whole line of the screen.

A keyword is found inside a longer text ("Paige Parker" in "Paige Parkerson", "Sounds good" in "Sounds
good and I love you"); a value the agent typed must be shown whole, as an element's entire label or an
entire OCR line. Lines and texts are compared after folding case, spacing, surrounding quotes and final
punctuation (``typed.phrases.fold``), so "Sounds good." shows "Sounds good" and "晚上一起吃饭吧。" shows
"晚上一起吃饭吧", while "晚上一起吃饭吧了" does not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from droidpilot.verify.checkers._keywords import as_list
from droidpilot.verify.checkers.base import Param

EXACT_PARAM = Param("str_or_list", help="texts each of which must be a whole line (an element's entire "
                                        "label, an entire OCR line), not part of a longer one")


def exact_problems(params: dict[str, Any], checker: str) -> list[str]:
    """Rule-load problems with ``exact``: it must name at least one non-empty text."""
    if "exact" not in params:
        return []
    texts = as_list(params["exact"])
    if not texts:
        return [f"{checker}: 'exact' names no text; give the whole line(s) the screen must show"]
    if any(not t.strip() for t in texts):
        return [f"{checker}: 'exact' contains an empty text, which no line can show"]
    return []


def missing_exact(wanted: Iterable[str], lines: Iterable[str],
                  extra_forms: Callable[[str], Iterable[str]] | None = None, span: int = 1) -> list[str]:
    """The ``wanted`` texts that no line shows whole. ``extra_forms`` gives other readings of a text (an
    OCR line with its confusions folded), tried for lines and wanted texts alike; ``span`` > 1 also reads
    up to that many consecutive lines joined as one (OCR breaks a long text where it wraps), whole lines
    still: the run starts at a line's start and ends at a line's end."""
    from droidpilot.typed.phrases import fold

    def forms(text: str) -> set[str]:
        out = {fold(text)}
        if extra_forms is not None:
            out |= {fold(f) for f in extra_forms(text)}
        return {f for f in out if f}

    texts = [line for line in lines if line]
    shown: set[str] = set()
    for start in range(len(texts)):
        for end in range(start + 1, min(start + span, len(texts)) + 1):
            shown |= forms(" ".join(texts[start:end]))
    return [w for w in wanted if not (forms(w) & shown)]


__all__ = ["EXACT_PARAM", "exact_problems", "missing_exact"]
