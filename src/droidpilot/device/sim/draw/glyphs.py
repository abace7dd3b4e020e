"""Icon glyphs drawn as vector shapes (heart, magnifier, gear, envelope, note, ...), anti-aliased.

Each glyph is drawn 4x oversized into a mask and scaled down, then cached per (name, size), so an
icon costs one paste per frame. Glyph names are what app data refers to in ``glyph:``. Most are drawn
from the Material icon font instead (``material_glyphs.yaml``, ``glyphs_font``); these shapes are the
fallback without the font, and the glyphs that are pictures rather than icons.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

from PIL import Image, ImageDraw

from droidpilot.device.sim.draw import icon_styles
from droidpilot.device.sim.draw.glyphs_font import font_mask, material_mask

_SS = 4
Pt = tuple[float, float]
Drawer = Callable[[ImageDraw.ImageDraw, Callable[[float, float], Pt], float], None]
GLYPHS: dict[str, Drawer] = {}


def glyph(name: str) -> Callable[[Drawer], Drawer]:
    def deco(fn: Drawer) -> Drawer:
        GLYPHS[name] = fn
        return fn
    return deco


def _box(u: Callable[[float, float], Pt], x1: float, y1: float, x2: float, y2: float) -> list[float]:
    a, b = u(x1, y1), u(x2, y2)
    return [a[0], a[1], b[0], b[1]]


@glyph("heart")
def _heart(d, u, w):
    d.ellipse(_box(u, .12, .2, .52, .6), fill=255)
    d.ellipse(_box(u, .48, .2, .88, .6), fill=255)
    d.polygon([u(.14, .5), u(.86, .5), u(.5, .9)], fill=255)


@glyph("heart_outline")
def _heart_outline(d, u, w):
    _heart(d, u, w)
    inner = lambda x, y: u(.5 + (x - .5) * .72, .52 + (y - .52) * .72)  # noqa: E731
    d.ellipse(_box(inner, .12, .2, .52, .6), fill=0)
    d.ellipse(_box(inner, .48, .2, .88, .6), fill=0)
    d.polygon([inner(.14, .5), inner(.86, .5), inner(.5, .9)], fill=0)


@glyph("magnifier")
def _magnifier(d, u, w):
    d.ellipse(_box(u, .14, .14, .66, .66), outline=255, width=int(w * 1.3))
    d.line([u(.58, .58), u(.86, .86)], fill=255, width=int(w * 1.6))


@glyph("gear")
def _gear(d, u, w):
    cx, cy = u(.5, .5)
    r_out, r_in = u(.92, 0)[0] - cx, u(.74, 0)[0] - cx
    pts = []
    for i in range(32):
        ang = math.pi * 2 * i / 32
        r = r_out if (i // 2) % 2 == 0 else r_in
        pts.append((cx + r * math.cos(ang), cy + r * math.sin(ang)))
    d.polygon(pts, fill=255)
    d.ellipse(_box(u, .36, .36, .64, .64), fill=0)


@glyph("envelope")
def _envelope(d, u, w):
    d.rectangle(_box(u, .12, .25, .88, .75), fill=255)
    d.line([u(.12, .27), u(.5, .55), u(.88, .27)], fill=0, width=int(w))


@glyph("note")
def _note(d, u, w):
    d.rounded_rectangle(_box(u, .2, .12, .8, .88), radius=u(.08, 0)[0] - u(0, 0)[0], fill=255)
    for y in (.34, .5, .66):
        d.line([u(.32, y), u(.68, y)], fill=0, width=int(w * .8))


@glyph("globe")
def _globe(d, u, w):
    d.ellipse(_box(u, .12, .12, .88, .88), outline=255, width=int(w))
    d.ellipse(_box(u, .34, .12, .66, .88), outline=255, width=int(w))
    d.line([u(.12, .5), u(.88, .5)], fill=255, width=int(w))
    d.line([u(.5, .12), u(.5, .88)], fill=255, width=int(w))


@glyph("pin")
def _pin(d, u, w):
    d.ellipse(_box(u, .22, .1, .78, .66), fill=255)
    d.polygon([u(.26, .48), u(.74, .48), u(.5, .92)], fill=255)
    d.ellipse(_box(u, .4, .27, .6, .47), fill=0)


@glyph("store")
def _store(d, u, w):
    d.polygon([u(.22, .12), u(.86, .5), u(.22, .88)], fill=255)
    d.line([u(.22, .12), u(.6, .62)], fill=0, width=int(w * .6))
    d.line([u(.22, .88), u(.6, .38)], fill=0, width=int(w * .6))


@glyph("bag")
def _bag(d, u, w):
    d.rounded_rectangle(_box(u, .16, .34, .84, .88), radius=u(.06, 0)[0] - u(0, 0)[0], fill=255)
    d.arc(_box(u, .32, .12, .68, .56), 180, 360, fill=255, width=int(w))


@glyph("cart")
def _cart(d, u, w):
    d.line([u(.08, .2), u(.22, .2), u(.32, .66), u(.8, .66)], fill=255, width=int(w), joint="curve")
    d.polygon([u(.24, .3), u(.9, .3), u(.8, .56), u(.3, .56)], fill=255)
    d.ellipse(_box(u, .3, .74, .42, .86), fill=255)
    d.ellipse(_box(u, .68, .74, .8, .86), fill=255)


@glyph("music")
def _music(d, u, w):
    d.ellipse(_box(u, .16, .62, .42, .86), fill=255)
    d.ellipse(_box(u, .56, .54, .82, .78), fill=255)
    d.line([u(.39, .74), u(.39, .2)], fill=255, width=int(w))
    d.line([u(.79, .66), u(.79, .12)], fill=255, width=int(w))
    d.polygon([u(.37, .14), u(.81, .06), u(.81, .22), u(.37, .3)], fill=255)


@glyph("clapper")
def _clapper(d, u, w):
    d.rectangle(_box(u, .14, .4, .86, .86), fill=255)
    d.polygon([u(.12, .24), u(.82, .1), u(.86, .3), u(.16, .44)], fill=255)
    d.polygon([u(.42, .52), u(.64, .63), u(.42, .74)], fill=0)


@glyph("play")
def _play(d, u, w):
    d.polygon([u(.3, .18), u(.84, .5), u(.3, .82)], fill=255)


@glyph("tube")
def _tube(d, u, w):
    d.rounded_rectangle(_box(u, .08, .22, .92, .78), radius=u(.16, 0)[0] - u(0, 0)[0], fill=255)
    d.polygon([u(.42, .36), u(.64, .5), u(.42, .64)], fill=0)


@glyph("calendar")
def _calendar(d, u, w):
    d.rounded_rectangle(_box(u, .14, .2, .86, .86), radius=u(.06, 0)[0] - u(0, 0)[0], fill=255)
    d.rectangle(_box(u, .2, .38, .8, .8), fill=0)
    d.line([u(.32, .1), u(.32, .28)], fill=255, width=int(w))
    d.line([u(.68, .1), u(.68, .28)], fill=255, width=int(w))
    for x in (.3, .46, .62):
        for y in (.48, .64):
            d.rectangle(_box(u, x, y, x + .09, y + .09), fill=255)


@glyph("sun")
def _sun(d, u, w):
    d.ellipse(_box(u, .3, .3, .7, .7), fill=255)
    for i in range(8):
        a = math.pi * i / 4
        d.line([u(.5 + .28 * math.cos(a), .5 + .28 * math.sin(a)),
                u(.5 + .42 * math.cos(a), .5 + .42 * math.sin(a))], fill=255, width=int(w))


@glyph("cloud")
def _cloud(d, u, w):
    d.ellipse(_box(u, .14, .4, .46, .72), fill=255)
    d.ellipse(_box(u, .3, .24, .7, .64), fill=255)
    d.ellipse(_box(u, .54, .38, .88, .72), fill=255)
    d.rectangle(_box(u, .3, .5, .72, .72), fill=255)


@glyph("rain")
def _rain(d, u, w):
    tr = lambda x, y: u(x, y - .12)  # noqa: E731
    _cloud(d, tr, w)
    for x in (.32, .5, .68):
        d.line([u(x, .7), u(x - .06, .88)], fill=255, width=int(w))


@glyph("partly")
def _partly(d, u, w):
    d.ellipse(_box(u, .12, .12, .5, .5), fill=255)
    d.ellipse(_box(u, .3, .3, .9, .84), fill=0)
    tr = lambda x, y: u(.3 + x * .62, .3 + y * .62)  # noqa: E731
    _cloud(d, tr, w)


@glyph("chat")
def _chat(d, u, w):
    d.ellipse(_box(u, .1, .14, .9, .78), fill=255)
    d.polygon([u(.24, .62), u(.4, .74), u(.14, .9)], fill=255)
    for x in (.32, .5, .68):
        d.ellipse(_box(u, x - .05, .41, x + .05, .51), fill=0)


@glyph("tv")
def _tv(d, u, w):
    d.rounded_rectangle(_box(u, .1, .26, .9, .84), radius=u(.1, 0)[0] - u(0, 0)[0], fill=255)
    d.line([u(.34, .1), u(.5, .26), u(.66, .1)], fill=255, width=int(w))
    d.rectangle(_box(u, .2, .36, .8, .74), fill=0)
    d.polygon([u(.44, .44), u(.6, .55), u(.44, .66)], fill=255)


@glyph("phone")
def _phone(d, u, w):
    d.ellipse(_box(u, .08, .08, .92, .92), outline=255, width=int(w))
    d.polygon([u(.3, .3), u(.42, .26), u(.48, .38), u(.42, .44), u(.56, .58), u(.62, .52), u(.74, .58),
               u(.7, .7), u(.56, .72), u(.3, .46)], fill=255)


@glyph("camera")
def _camera(d, u, w):
    d.rounded_rectangle(_box(u, .12, .12, .88, .88), radius=u(.24, 0)[0] - u(0, 0)[0], outline=255,
                        width=int(w))
    d.ellipse(_box(u, .32, .32, .68, .68), outline=255, width=int(w))
    d.ellipse(_box(u, .68, .22, .76, .3), fill=255)


@functools.cache
def glyph_mask(name: str, size: int, style: str = icon_styles.DEFAULT) -> Image.Image:
    """An anti-aliased "L" mask of glyph ``name`` in a ``size`` x ``size`` square (cached): the Material
    icon ``material_glyphs.yaml`` maps it to, from the icon font; else (unmapped, no font) its own shape;
    drawn in icon style ``style`` (``icon_styles``: filled or outlined, thin, regular or bold)."""
    if name not in GLYPHS:
        raise KeyError(name)
    base = font_mask(name, max(size, 4)) or drawn_mask(name, size)
    if style == icon_styles.DEFAULT:
        return base
    how = icon_styles.style(style)
    own = icon_styles.outlined_glyph(name) if how.fill == "outlined" else None
    outlined = material_mask(own, max(size, 4)) if own and font_mask(name, max(size, 4)) else None
    return icon_styles.apply(base, how, outlined)


@functools.cache
def drawn_mask(name: str, size: int) -> Image.Image:
    """Glyph ``name`` drawn from its own vector shape (the fallback when the icon font is missing)."""
    if name not in GLYPHS:
        raise KeyError(name)
    big = max(size, 4) * _SS
    mask = Image.new("L", (big, big), 0)
    draw = ImageDraw.Draw(mask)

    def unit(x: float, y: float) -> Pt:
        return (x * big, y * big)

    GLYPHS[name](draw, unit, max(big * 0.085, 2.0))
    return mask.resize((max(size, 4), max(size, 4)), Image.Resampling.LANCZOS)


def known_glyphs() -> list[str]:
    """Every glyph name app data may use."""
    return sorted(GLYPHS)


from droidpilot.device.sim.draw import glyphs_ui  # noqa: E402, F401  (registers the interface glyphs)
