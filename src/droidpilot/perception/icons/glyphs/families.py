"""Other icon families' glyphs as references of the library's names (family_names.yaml, data).

Real apps draw a gear from Font Awesome or the Material Design Icons community set as often as from
Google's font. Each installed family's glyph name maps onto a library name by a general rule (the words
of the name, less style words, as a Material name or a synonyms.json phrase) with a table of exceptions;
a glyph with no Material counterpart (a brand logo, two cogs) gets a library name of its own. A library
name's references are then its Material drawing (or drawn shape) and every family's drawing of it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from droidpilot import iconfamilies
from droidpilot.iconfamilies import FamilyError
from droidpilot.iconfont import glyph_codepoints

MATERIAL = "material"


@dataclass(frozen=True)
class Reference:
    """One family's drawing of a library name: the family, its own glyph name and codepoint."""

    family: str
    glyph: str
    codepoint: int


@dataclass(frozen=True)
class NameTable:
    """family_names.yaml, checked: style words, words never made new names, and the exceptions."""

    style_words: frozenset[str]
    not_new: frozenset[str]
    exceptions: Mapping[str, Mapping[str, str | None]]  # family ("*" any) -> glyph -> library name


def _table(data: Any, source: str) -> NameTable:
    if not isinstance(data, dict) or not {"style_words", "not_new", "exceptions"} <= set(data):
        raise FamilyError(f"{source}: needs the keys style_words, not_new and exceptions")
    exceptions: dict[str, dict[str, str | None]] = {}
    for fam, table in (data["exceptions"] or {}).items():
        if not isinstance(table, dict):
            raise FamilyError(f"{source}: exceptions of {fam!r} must map glyph names to library names")
        for glyph, target in table.items():
            if target is not None and not isinstance(target, str):
                raise FamilyError(f"{source}: exceptions.{fam}.{glyph} must be a library name or null")
        exceptions[str(fam)] = {str(k): v for k, v in table.items()}
    return NameTable(frozenset(map(str, data["style_words"])), frozenset(map(str, data["not_new"])),
                     exceptions)


@lru_cache(maxsize=1)
def name_table() -> NameTable:
    """The mapping data shipped beside this module."""
    here = resources.files("droidpilot.perception.icons.glyphs")
    text = here.joinpath("family_names.yaml").read_text("utf-8")
    return _table(yaml.safe_load(text), "family_names.yaml")


def library_name(family: str, glyph: str, material: Collection[str], phrases: Mapping[str, tuple[str, ...]],
                 table: NameTable | None = None) -> str | None:
    """The library name a family's glyph is a drawing of; None when it is left out.

    An exception (the family's own, then any family's) wins; else the name's words less style words are
    a Material name or a synonym phrase; else the name is new (unless ``not_new`` lists it).
    """
    table = table or name_table()
    for fam in (family, "*"):
        own = table.exceptions.get(fam, {})
        if glyph in own:
            return own[glyph]
    words = [w for w in glyph.split("-") if w and w not in table.style_words]
    if not words:
        return None
    base = "-".join(words)
    for fam in (family, "*"):
        own = table.exceptions.get(fam, {})
        if base in own:
            return own[base]
    joined = "_".join(words)
    if joined in material:
        return joined
    for g in phrases.get(" ".join(words), ()):
        if g in material:
            return g
    if base in table.not_new or glyph in table.not_new or len(joined) < 3:
        return None
    return joined


@lru_cache(maxsize=4)
def _references(keys: tuple[str, ...]) -> dict[str, tuple[Reference, ...]]:
    from droidpilot.perception.icons.glyphs.vocabulary import synonyms  # the phrase table (data)

    material = set(glyph_codepoints())
    if not material:
        return {}
    phrases = synonyms()
    out: dict[str, list[Reference]] = {}
    for key in keys:
        seen: set[tuple[str, int]] = set()
        for glyph, code in iconfamilies.codepoints(iconfamilies.family(key)).items():
            name = library_name(key, glyph, material, phrases)
            if name is None or (name, code) in seen:
                continue  # aliases of one codepoint (gear, cog) are one drawing
            seen.add((name, code))
            out.setdefault(name, []).append(Reference(key, glyph, code))
    return {name: tuple(refs) for name, refs in out.items()}


def family_keys() -> tuple[str, ...]:
    """The installed families other than Material, in their order of preference."""
    return tuple(f.key for f in iconfamilies.installed() if f.key != MATERIAL)


def family_references() -> dict[str, tuple[Reference, ...]]:
    """Library name -> the other families' drawings of it ({} without the Material font, whose names
    the mapping needs)."""
    return _references(family_keys())


def new_names() -> list[str]:
    """Library names only other families draw (brand logos, shapes Material lacks), in a fixed order."""
    material = set(glyph_codepoints())
    return sorted(n for n in family_references() if n not in material)
