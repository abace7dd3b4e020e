"""SimPhone's icons from the Material icon font: app-data glyph names -> Material glyphs (data), rendered.

``material_glyphs.yaml`` says which Material glyph each SimPhone glyph name is drawn with; the font and its
name -> codepoint table come from ``droidpilot.iconfont`` (shared with perception's glyph library). When
the font is not installed, ``font_mask`` answers None and SimPhone draws its own shapes instead, after one
warning naming the package to install.
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path

import yaml
from PIL import Image, ImageDraw, ImageFont

from droidpilot import iconfont
from droidpilot.errors import InputError

MAP_FILE = Path(__file__).with_name("material_glyphs.yaml")
_log = logging.getLogger(__name__)


@functools.cache
def material_names() -> dict[str, str]:
    """SimPhone glyph name -> Material icon name, as ``material_glyphs.yaml`` says."""
    data = yaml.safe_load(MAP_FILE.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) and v
                                             for k, v in data.items()):
        raise InputError(f"{MAP_FILE}: expected a mapping of SimPhone glyph names to Material icon names "
                         "(name: material_name, one a line)")
    return data


@functools.cache
def _warn_missing(what: str) -> None:
    _log.warning("SimPhone: %s; drawing its own icon shapes instead (install %s: sudo make demo-deps)",
                 what, iconfont.PACKAGE)


@functools.cache
def _font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


def font_mask(name: str, size: int) -> Image.Image | None:
    """The "L" coverage of SimPhone glyph ``name`` drawn from the Material font in a ``size`` square (the
    font's em box, as Android draws a 24dp icon), or None when the name is not mapped or the font is
    missing (the caller then draws the glyph's own shape)."""
    material = material_names().get(name)
    if material is None:
        return None
    return material_mask(material, size, name)


def material_mask(material: str, size: int, name: str | None = None) -> Image.Image | None:
    """The "L" coverage of the font's glyph ``material`` in a ``size`` square; None (after one warning)
    when the font or the glyph is missing. ``name``: the SimPhone glyph it stands for, for the warning."""
    codes = iconfont.glyph_codepoints()
    if not codes:
        _warn_missing(f"the Material icon font is missing ({iconfont.font_path()})")
        return None
    code = codes.get(material)
    if code is None:
        _warn_missing(f"the icon font has no glyph {material!r} (for {name or material!r}, {MAP_FILE.name})")
        return None
    try:
        font = _font(str(iconfont.font_path()), size)
    except OSError:
        _warn_missing(f"the Material icon font {iconfont.font_path()} cannot be read")
        return None
    mask = Image.new("L", (size, size), 0)
    ImageDraw.Draw(mask).text((0, 0), chr(code), font=font, fill=255)
    return mask
