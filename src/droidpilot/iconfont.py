"""The Material icon font: where it is and which codepoint each glyph name has (shared by both sides).

Debian's ``fonts-material-design-icons-iconfont`` (Apache-2.0, in the Makefile's SYSTEM_PACKAGES and
DEMO_PACKAGES) ships the font and a stylesheet with one ``.material-icons.NAME:before { content:
"\\XXXX"; }`` rule per glyph. ``DROIDPILOT_ICON_FONT`` / ``DROIDPILOT_ICON_CSS`` point elsewhere. Both
the perception side (the named glyph library icon queries match against) and SimPhone (which draws its
icons with the same glyphs) read the font through here, so neither imports the other's internals.
Without the package the name table is empty and each side falls back to its own drawn shapes. The
font is the first of the icon families (``droidpilot.iconfamilies``), which reads every family alike.
"""

from __future__ import annotations

from pathlib import Path

from droidpilot import iconfamilies

_MATERIAL = iconfamilies.family("material")
FONT_ENV, CSS_ENV = _MATERIAL.font_env, _MATERIAL.css_env
PACKAGE = _MATERIAL.package
DEFAULT_FONT = _MATERIAL.font_default
DEFAULT_CSS = _MATERIAL.css_default


def font_path() -> Path:
    """The icon font file (may not exist; see ``available``)."""
    return _MATERIAL.font


def css_path() -> Path:
    """The stylesheet naming each glyph's codepoint."""
    return _MATERIAL.stylesheet


def glyph_codepoints() -> dict[str, int]:
    """Every glyph name the font has with its codepoint ({} when the font package is missing)."""
    return iconfamilies.codepoints(_MATERIAL)


def available() -> bool:
    """Is the icon font installed (and its names readable)?"""
    return bool(glyph_codepoints())
