"""The named glyph library: Material icon names -> codepoints, read from the installed icon font package,
the shapes drawn by our own code (glyphs.drawn), and the names only other icon families draw
(glyphs.families: brand logos, shapes Material lacks).

The lookup itself (font and stylesheet discovery, ``DROIDPILOT_ICON_FONT`` / ``DROIDPILOT_ICON_CSS``) lives
in ``droidpilot.iconfont``, shared with SimPhone, which draws its icons from the same font; the other
families in ``droidpilot.iconfamilies``. Without the Material package the library is empty: icon queries
fall back to the drawn shape classes and glyph words are reported as unknown.
"""

from __future__ import annotations

from functools import lru_cache

from droidpilot import iconfamilies
from droidpilot.iconfont import available, css_path, font_path, glyph_codepoints
from droidpilot.perception.icons.glyphs.drawn import DRAWN
from droidpilot.perception.icons.glyphs.families import family_keys, new_names

__all__ = ["available", "css_path", "font_path", "glyph_codepoints", "glyph_names", "library_key"]


def glyph_names() -> list[str]:
    """Every library glyph: the font's names, our drawn shapes, then the names only other families draw
    (none without the Material font)."""
    return list(_names(library_key()))


@lru_cache(maxsize=4)
def _names(key: tuple[str, ...]) -> tuple[str, ...]:
    del key  # a cache key only
    font = list(glyph_codepoints())
    return (*font, *DRAWN, *new_names()) if font else ()


def library_key() -> tuple[str, ...]:
    """What the library is built from (the fonts and stylesheets of the families in use), a cache key."""
    parts = [str(font_path()), str(css_path())]
    for key in family_keys():
        f = iconfamilies.family(key)
        parts += [str(f.font), str(f.stylesheet)]
    return tuple(parts)
