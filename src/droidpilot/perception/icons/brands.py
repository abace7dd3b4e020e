"""Brands and apps a person names an icon by ("red youtube icon"): the data file brands.yaml, checked.

A brand is found in a query's words by its names (the longest first: "amazon music" before "amazon");
its entry says what its logo looks like, the fallback when no label on screen names the app.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from droidpilot.errors import InputError
from droidpilot.perception.icons.colours import COLOUR_NAMES

FIELDS = {"names", "labels", "colours", "looks", "texts"}


@dataclass(frozen=True)
class Brand:
    """One app or brand: its names, the labels its tile shows, and its logo's colours, look and text."""

    key: str
    names: tuple[tuple[str, ...], ...]  # each name as its words
    labels: tuple[tuple[str, ...], ...]  # label texts the tile shows, as words
    colours: tuple[str, ...]
    looks: str = ""
    texts: tuple[str, ...] = ()


def words_of(text: str) -> tuple[str, ...]:
    """Lower-case words and numbers of a text ("Alibaba.com" -> alibaba, com)."""
    return tuple(re.findall(r"[a-z0-9]+", text.lower()))


def _strings(where: str, value: Any) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise InputError(f"{where}: expected a list of non-empty strings, got {value!r}")
    return list(value)


def parse_brands(data: Any, source: str = "brands.yaml") -> dict[str, Brand]:
    """Check and read the brand table; InputError naming the file, the entry and the fix on bad input."""
    if not isinstance(data, Mapping):
        raise InputError(f"{source}: expected a mapping of brand -> entry, got {type(data).__name__}")
    out: dict[str, Brand] = {}
    for key, entry in data.items():
        where = f"{source}: brand {key!r}"
        if not isinstance(key, str) or not words_of(key):
            raise InputError(f"{where}: a brand key must be a word such as 'youtube'")
        if not isinstance(entry, Mapping):
            raise InputError(f"{where}: expected a mapping with names/colours/looks, got {entry!r}")
        extra = set(entry) - FIELDS
        if extra:
            raise InputError(f"{where}: unknown field(s) {', '.join(sorted(map(str, extra)))}; "
                             f"use {', '.join(sorted(FIELDS))}")
        colours = _strings(f"{where} colours", entry.get("colours", []))
        bad = [c for c in colours if c not in COLOUR_NAMES]
        if bad:
            raise InputError(f"{where}: colour(s) {', '.join(bad)} unknown; use {', '.join(COLOUR_NAMES)}")
        looks = entry.get("looks", "")
        if not isinstance(looks, str):
            raise InputError(f"{where} looks: expected a description such as 'red play button'")
        names = [words_of(n) for n in _strings(f"{where} names", entry.get("names", [key]))]
        if words_of(key) not in names:
            names.insert(0, words_of(key))
        labels = [words_of(n) for n in _strings(f"{where} labels", entry.get("labels", []))]
        texts = tuple(" ".join(words_of(t)) for t in _strings(f"{where} texts", entry.get("texts", [])))
        out[key] = Brand(key, tuple(names), tuple(labels), tuple(colours), looks.strip(), texts)
    return out


@lru_cache(maxsize=1)
def brand_table() -> dict[str, Brand]:
    """The brands of brands.yaml beside this module (read and checked once)."""
    text = resources.files("droidpilot.perception.icons").joinpath("brands.yaml").read_text("utf-8")
    return parse_brands(yaml.safe_load(text))


def find_brands(words: Sequence[str], table: Mapping[str, Brand] | None = None
                ) -> list[tuple[Brand, int, int]]:
    """Brands named in ``words``, as (brand, start, end) word spans, the longest name first at each place."""
    table = brand_table() if table is None else table
    by_first: dict[str, list[tuple[tuple[str, ...], Brand]]] = {}
    for brand in table.values():
        for name in brand.names:
            by_first.setdefault(name[0], []).append((name, brand))
    found: list[tuple[Brand, int, int]] = []
    i = 0
    while i < len(words):
        best: tuple[int, Brand] | None = None
        for name, brand in by_first.get(words[i], ()):
            if tuple(words[i:i + len(name)]) == name and (best is None or len(name) > best[0]):
                best = (len(name), brand)
        if best is None:
            i += 1
            continue
        found.append((best[1], i, i + best[0]))
        i += best[0]
    return found
