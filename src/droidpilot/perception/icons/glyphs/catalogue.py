"""The named glyph library: Material icon names -> codepoints, read from the installed icon font package,
plus the shapes drawn by our own code (glyphs.drawn).

The lookup itself (font and stylesheet discovery, ``DROIDPILOT_ICON_FONT`` / ``DROIDPILOT_ICON_CSS``) lives
in ``droidpilot.iconfont``, shared with SimPhone, which draws its icons from the same font. Without the
package the library is empty: icon queries fall back to the drawn shape classes and glyph words are
reported as unknown.
"""

from __future__ import annotations

from droidpilot.iconfont import available, css_path, font_path, glyph_codepoints
from droidpilot.perception.icons.glyphs.drawn import DRAWN

__all__ = ["available", "css_path", "font_path", "glyph_codepoints", "glyph_names"]


def glyph_names() -> list[str]:
    """Every library glyph: the font's names, then our drawn shapes (none without the font)."""
    font = list(glyph_codepoints())
    return [*font, *DRAWN] if font else []
