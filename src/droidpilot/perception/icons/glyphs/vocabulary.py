"""Query words -> glyph names: the synonym table (synonyms.json, data) plus the font's own glyph names.

"three dots" -> more_vert, more_horiz; "cog" -> settings; "shopping cart" -> shopping_cart (a name
spelt with spaces); "stars" -> star (plural). Names the installed font lacks are left out, so a word only
maps to glyphs that can be rendered. Each glyph brings its style variants along (check_circle ->
check_circle_outline, home -> home_filled): the same icon drawn outlined or filled is still the icon asked.
"""

from __future__ import annotations

import json
from collections.abc import Container
from functools import lru_cache
from importlib import resources

from droidpilot.perception.icons.glyphs.catalogue import glyph_names

MAX_PHRASE_WORDS = 5  # the longest phrase in the synonym table ("three dots in a circle")
STYLE_SUFFIXES = ("outline", "outlined", "filled", "border", "none")  # the font's names for its styles


@lru_cache(maxsize=1)
def synonyms() -> dict[str, tuple[str, ...]]:
    """The synonym table: a word or phrase (lower case, words separated by spaces) -> glyph names."""
    text = resources.files("droidpilot.perception.icons.glyphs").joinpath("synonyms.json").read_text("utf-8")
    data = json.loads(text)
    return {k: tuple(v) for k, v in data["phrases"].items()}


def phrase_glyphs(phrase: str) -> tuple[str, ...]:
    """Glyph names a phrase ("three dots", "gear", "shopping cart") stands for; () when none."""
    names = set(glyph_names())
    if not names:
        return ()
    table = synonyms()
    found: list[str] = []
    for key in (phrase, phrase[:-1] if phrase.endswith("s") and len(phrase) > 3 else None):
        if not key:
            continue
        found += [n for n in table.get(key, ()) if n in names]
        joined = key.replace(" ", "_")
        if joined in names:
            found.append(joined)
        if found:
            break
    return tuple(dict.fromkeys(with_style_variants(found, names)))


def with_style_variants(glyphs: list[str], names: Container[str]) -> list[str]:
    """The glyphs followed by those of their style variants (NAME_outline, NAME_filled, ...) in ``names``."""
    out = list(glyphs)
    for g in glyphs:
        out += [f"{g}_{s}" for s in STYLE_SUFFIXES if f"{g}_{s}" in names]
    return out


def longest_glyph_phrase(words: list[str], start: int) -> tuple[int, tuple[str, ...]]:
    """(number of words, glyphs) of the longest phrase starting at ``words[start]`` naming glyphs."""
    for n in range(min(MAX_PHRASE_WORDS, len(words) - start), 0, -1):
        glyphs = phrase_glyphs(" ".join(words[start:start + n]))
        if glyphs:
            return n, glyphs
    return 0, ()


@lru_cache(maxsize=1)
def _words_for_glyphs() -> dict[str, str]:
    """Glyph name -> the first phrase of the synonym table naming it first ("settings" -> "gear")."""
    out: dict[str, str] = {}
    for phrase, glyphs in synonyms().items():
        if glyphs and not phrase.startswith("_"):
            out.setdefault(glyphs[0], phrase)
    return out


@lru_cache(maxsize=1)
def _same_drawing() -> dict[str, str]:
    """Font glyph -> the name of the glyph it draws exactly ("grade" -> "star"): which of two identical
    drawings fits best is a tie broken by order, and a person says the common name."""
    text = resources.files("droidpilot.perception.icons.glyphs").joinpath("synonyms.json").read_text("utf-8")
    table = json.loads(text).get("same_drawing", {})
    return {k: v for k, v in table.items() if not k.startswith("_")}


def glyph_word(name: str) -> str:
    """The everyday word for a glyph: a synonym-table phrase ("gear", "heart") or its name in words
    without a style suffix ("shopping cart" for shopping_cart_outline)."""
    name = name.removeprefix("drawn_")
    name = _same_drawing().get(name, name)
    for suffix in STYLE_SUFFIXES:
        if name.endswith(f"_{suffix}"):
            name = name[:-len(suffix) - 1]
            break
    return _words_for_glyphs().get(name, name.replace("_", " "))
