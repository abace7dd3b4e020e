"""Keyword tests shared by the text-like checkers: ``any`` (one keyword suffices) and ``all`` (every one).

Matching is substring containment after case folding, so "Search" finds "search" (CJK text has no case
and is compared as is). Each keyword may appear in any of the given texts. With ``whole_numbers`` a
number at either end of a keyword must stand whole in the text: "181" is not in "1810", "$1,810" or
"181.50", and "6 alarms" is not in "16 alarms"; off by default, as in MobiFlow.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


def as_list(value: Any) -> list[str]:
    """A keyword parameter as a list: a single string becomes a one-item list, None an empty one."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


def fold(text: str, ignore_case: bool = True) -> str:
    """Case-fold ``text`` for case-insensitive comparison (a no-op when ``ignore_case`` is False)."""
    return text.casefold() if ignore_case else text


def contains_whole(needle: str, hay: str) -> bool:
    """Is ``needle`` in ``hay`` with a number at either end of it standing whole (no digit, and no
    decimal point or thousands comma followed by a digit, continuing it)?"""
    if not needle:
        return False
    if not (needle[0].isdigit() or needle[-1].isdigit()):
        return needle in hay
    before = r"(?<!\d)(?<!\d[.,])" if needle[0].isdigit() else ""
    after = r"(?!\d)(?![.,]\d)" if needle[-1].isdigit() else ""
    return re.search(before + re.escape(needle) + after, hay) is not None


@dataclass
class KeywordMatch:
    """The outcome of an any/all test: whether it holds and which keywords were found or missing."""

    ok: bool
    found: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    reason: str = ""

    def details(self) -> dict[str, Any]:
        out: dict[str, Any] = {"found": self.found}
        if self.missing:
            out["missing"] = self.missing
        return out


def match_keywords(texts: Sequence[str], any_of: Any, all_of: Any, ignore_case: bool = True,
                   whole_numbers: bool = False) -> KeywordMatch:
    """Does some text contain one of ``any_of`` and do the texts contain every one of ``all_of``?

    Both lists may be given (then both must hold). The caller ensures at least one is non-empty.
    """
    folded = [fold(t, ignore_case) for t in texts if t]
    any_list, all_list = as_list(any_of), as_list(all_of)

    def present(word: str) -> bool:
        needle = fold(word, ignore_case)
        if whole_numbers:
            return any(contains_whole(needle, t) for t in folded)
        return any(needle in t for t in folded)

    found_all = [w for w in all_list if present(w)]
    missing = [w for w in all_list if w not in found_all]
    found_any = [w for w in any_list if present(w)]
    found = found_all + [w for w in found_any if w not in found_all]
    if missing:
        return KeywordMatch(False, found, missing, f"missing {missing} (all required)")
    if any_list and not found_any:
        return KeywordMatch(False, found, list(any_list), f"none of {any_list} found")
    return KeywordMatch(True, found)


def keyword_problems(params: dict[str, Any], checker: str, typed: bool = False) -> list[str]:
    """Validation: at least one of ``any`` / ``all`` (or, for a checker that takes one, ``value``) must
    be given, and no keyword may be empty."""
    problems = []
    keywords = as_list(params.get("any")) + as_list(params.get("all"))
    if not keywords and not (typed and "value" in params):
        problems.append(f"{checker} needs 'any' or 'all' with at least one keyword"
                        + (", or a typed 'value'" if typed else ""))
    for key in ("any", "all"):
        if any(isinstance(w, str) and not w for w in as_list(params.get(key))):
            problems.append(f"'{key}' contains an empty keyword, which matches every text")
    return problems
