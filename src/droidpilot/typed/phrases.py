"""Reading words: names, places and free text compared whole, hedged or negated replies, set items, and
whether a reply declares a task infeasible.

A name is equal or not ("Paige Parkerson" is not "Paige Parker"); case, spacing, quotes and the final
full stop never matter. A reply may say more than the value ("The label is Gym.") as long as the value
stands as whole words in it, nothing negates it and the reply does not hedge between candidates.
"""

from __future__ import annotations

import re
import unicodedata

HEDGES = re.compile(
    r"\b(or|either|maybe|perhaps|possibly|probably|might|may be|not sure|unsure|i think|i guess|"
    r"could be|somewhere|around|about|approximately|roughly|between)\b|[?？]|或者|或|可能|也许|大概|不确定",
    re.IGNORECASE,
)
NEGATIONS = re.compile(r"\b(not|no|never|isn't|aren't|wasn't|isnt|n't|neither|nor)\b|不是|没有|并非", re.I)
_QUOTES = "\"'“”‘’「」『』`*_"
_FINAL = ".。!！?？,，;；:："
SET_SPLIT = re.compile(r"\s*(?:,|;|，|；|、|\n|\band\b|&|和|及)\s*", re.IGNORECASE)


def fold(text: str) -> str:
    """Case, width, spacing, surrounding quotes and final punctuation folded away."""
    text = unicodedata.normalize("NFKC", str(text)).casefold()
    text = re.sub(r"\s+", " ", text).strip()
    changed = True
    while changed and text:
        changed = False
        stripped = text.strip(_QUOTES).rstrip(_FINAL).strip()
        if stripped != text:
            text, changed = stripped, True
    return text


def words(text: str) -> str:
    """``fold`` with every punctuation mark but the apostrophe turned into a space (for places and
    containment: "Main St., Springfield" reads "main st springfield")."""
    return re.sub(r"\s+", " ", re.sub(r"[^\w'\s]", " ", fold(text))).strip()


def phrase_positions(value: str, text: str) -> list[int]:
    """Start offsets (in ``words(text)``) where ``value`` stands as whole words."""
    needle, hay = words(value), words(text)
    if not needle:
        return []
    pattern = re.compile(r"(?<![\w])" + re.escape(needle) + r"(?![\w])")
    return [m.start() for m in pattern.finditer(hay)]


def negated_before(text: str, start: int) -> bool:
    """Whether one of the three words before offset ``start`` of ``words(text)`` negates what follows."""
    before = words(text)[:start].split()[-3:]
    return any(NEGATIONS.fullmatch(w) for w in before)


def hedged(text: str) -> bool:
    """Whether the reply hedges ("Gym or Yoga", "maybe 6", "about 20?")."""
    return bool(HEDGES.search(fold(text) + (" ?" if str(text).strip().endswith(("?", "？")) else "")))


def split_items(text: str) -> list[str]:
    """The items of a listed reply ("Ava, Noah and Mia"), each folded; empty items dropped."""
    return [fold(p) for p in SET_SPLIT.split(str(text)) if fold(p)]


_INFEASIBLE = re.compile(
    r"\binfeasible\b|\bimpossible\b|\bnot (?:be )?(?:possible|feasible|supported|available)\b|"
    r"\bcan ?not\b|\bcan't\b|\bcannot\b|\bunable\b|\bno (?:way|option|such)\b|"
    r"\b(?:does|do|did)(?: not|n't) (?:exist|support|offer|have)\b|\bunsupported\b|"
    r"\bnot an? (?:option|feature)\b|"
    r"不可行|无法|不能|做不到|不存在|不支持|没有这个",
    re.IGNORECASE,
)
_FEASIBLE_CLAIM = re.compile(
    r"\bnot (?:\w+ )?(?:infeasible|impossible)\b|\b(?:is|it's|its|was) (?:possible|feasible|done)\b|"
    r"\b(?:i|we) (?:have )?(?:applied|did|done|completed|finished|set|sent|added|created)\b|"
    r"并非不可行|可以完成|已完成",
    re.IGNORECASE,
)

_HEDGED_CLAIM = re.compile(
    r"\b(maybe|perhaps|possibly|probably|might|may|not sure|i think|i guess)\b|[?？]|可能|也许"
)


def declares_infeasible(text: str | None) -> bool:
    """Whether a reply declares the task impossible, plainly: "infeasible: the app has no loans" and
    "This cannot be done" do; "It is not infeasible, I applied.", "maybe infeasible?" and "done" do not."""
    if not text:
        return False
    folded = fold(text)
    if not _INFEASIBLE.search(folded) or _FEASIBLE_CLAIM.search(folded):
        return False
    # a hedge before the claim ("maybe infeasible", "it might not be possible") is no declaration
    return not _HEDGED_CLAIM.search(folded)


__all__ = [
    "declares_infeasible",
    "fold",
    "hedged",
    "negated_before",
    "phrase_positions",
    "split_items",
    "words",
]
