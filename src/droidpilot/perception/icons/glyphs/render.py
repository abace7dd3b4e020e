"""Render named glyphs of the icon fonts to masks (cached), the references candidates are matched to."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from droidpilot import iconfamilies
from droidpilot.perception.icons.glyphs.catalogue import font_path, glyph_codepoints
from droidpilot.perception.icons.glyphs.drawn import DRAWN, drawn_mask
from droidpilot.perception.icons.glyphs.families import Reference, family_references

RENDER_SIZE = 64  # font size in pixels; masks are normalised afterwards, so this only sets the detail


@lru_cache(maxsize=16)
def _font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


def _ink(font: ImageFont.FreeTypeFont, code: int, size: int) -> np.ndarray:
    canvas = Image.new("L", (2 * size, 2 * size), 0)
    ImageDraw.Draw(canvas).text((size // 2, size // 2), chr(code), font=font, fill=255)
    ink = np.asarray(canvas) >= 128
    ys, xs = np.nonzero(ink)
    if len(xs) == 0:
        return np.zeros((1, 1), np.uint8)
    out = ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.uint8)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=4096)
def glyph_mask(name: str, size: int = RENDER_SIZE) -> np.ndarray:
    """The glyph's ink as a uint8 0/1 mask cropped to its bounding box (a drawn shape's own, at the render
    size; a name only other families draw, its first family's drawing); KeyError for unknown names."""
    if name in DRAWN:
        return drawn_mask(name)
    codes = glyph_codepoints()
    if name not in codes:
        return reference_mask(family_references()[name][0], size)
    return _ink(_font(str(font_path()), size), codes[name], size)


@lru_cache(maxsize=8192)
def reference_mask(ref: Reference, size: int = RENDER_SIZE) -> np.ndarray:
    """One family's drawing of a glyph as a mask, as ``glyph_mask``."""
    fam = iconfamilies.family(ref.family)
    return _ink(_font(str(fam.font), size), ref.codepoint, size)


def draw_glyph(name: str, size: int, colour: tuple[int, int, int] = (0, 0, 0)) -> Image.Image:
    """An RGBA image of the glyph ``size`` pixels tall (the font's em box), in ``colour``, for drawing."""
    code = glyph_codepoints()[name]
    font = _font(str(font_path()), size)
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((0, 0), chr(code), font=font, fill=(*colour, 255))
    return img
