"""The classifier's class set, read from the glyph library's catalogue: one class per distinct glyph
drawing (aliases the font draws identically, alarm / access_alarm, share a class) plus ``NONE``.

Coding against ``glyph_names`` / ``glyph_mask`` (not the Material font) means a family another developer
adds to the library is a new set of classes the next training run picks up.
"""

from __future__ import annotations

import hashlib

from droidpilot.perception.icons.glyphs.catalogue import glyph_names
from droidpilot.perception.icons.glyphs.render import glyph_mask

NONE = "__none__"  # the class of text fragments and background patches: not a library glyph


def glyph_classes(names: list[str] | None = None) -> list[tuple[str, ...]]:
    """Library glyph names grouped by identical drawing, in catalogue order, then ``(NONE,)`` last.

    ``names`` restricts the set (a small training run in tests); the default is the whole library.
    """
    groups: dict[str, list[str]] = {}
    for name in names if names is not None else glyph_names():
        mask = glyph_mask(name)
        key = hashlib.sha1(mask.tobytes() + repr(mask.shape).encode()).hexdigest()
        groups.setdefault(key, []).append(name)
    return [tuple(g) for g in groups.values()] + [(NONE,)]
