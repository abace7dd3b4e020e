"""The named glyph library: Material icon names -> codepoints, read from the installed icon font package.

The lookup itself (font and stylesheet discovery, ``DROIDPILOT_ICON_FONT`` / ``DROIDPILOT_ICON_CSS``) lives
in ``droidpilot.iconfont``, shared with SimPhone, which draws its icons from the same font. Without the
package the library is empty: icon queries fall back to the drawn shape classes and glyph words are
reported as unknown.
"""

from __future__ import annotations

from droidpilot.iconfont import available, css_path, font_path, glyph_codepoints

__all__ = ["available", "css_path", "font_path", "glyph_codepoints"]
