"""The Material icon font: where it is and which codepoint each glyph name has (shared, dependency-free).

Debian's ``fonts-material-design-icons-iconfont`` (Apache-2.0, in the Makefile's SYSTEM_PACKAGES and
DEMO_PACKAGES) ships the font and a stylesheet with one ``.material-icons.NAME:before { content:
"\\XXXX"; }`` rule per glyph. ``DROIDPILOT_ICON_FONT`` / ``DROIDPILOT_ICON_CSS`` point elsewhere. Both
the perception side (the named glyph library icon queries match against) and SimPhone (which draws its
icons with the same glyphs) read the font through here, so neither imports the other's internals.
Without the package the name table is empty and each side falls back to its own drawn shapes.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path

FONT_ENV, CSS_ENV = "DROIDPILOT_ICON_FONT", "DROIDPILOT_ICON_CSS"
PACKAGE = "fonts-material-design-icons-iconfont"
DEFAULT_FONT = Path("/usr/share/fonts/truetype/material-design-icons-iconfont/MaterialIcons-Regular.ttf")
DEFAULT_CSS = Path("/usr/share/fonts-material-design-icons-iconfont/css/material-design-icons.css")
_RULE = re.compile(r"\.material-icons\.([a-z0-9_]+):before\s*\{\s*content:\s*\"\\([0-9a-fA-F]+)\"")


def font_path() -> Path:
    """The icon font file (may not exist; see ``available``)."""
    return Path(os.environ.get(FONT_ENV) or DEFAULT_FONT)


def css_path() -> Path:
    """The stylesheet naming each glyph's codepoint."""
    return Path(os.environ.get(CSS_ENV) or DEFAULT_CSS)


@lru_cache(maxsize=4)
def _parse(css: str, font: str) -> dict[str, int]:
    if not Path(font).is_file():
        return {}
    try:
        text = Path(css).read_text(encoding="utf-8")
    except OSError:
        return {}
    return {name: int(code, 16) for name, code in _RULE.findall(text)}


def glyph_codepoints() -> dict[str, int]:
    """Every glyph name the font has with its codepoint ({} when the font package is missing)."""
    return _parse(str(css_path()), str(font_path()))


def available() -> bool:
    """Is the icon font installed (and its names readable)?"""
    return bool(glyph_codepoints())
