"""Icon styles: the same glyph drawn filled or outlined, thin, regular or bold (``icon_styles.yaml``).

Real apps draw their icons from many sets; SimPhone draws each app in one of several styles, named in the
app's data or chosen from the phone's seed, so an agent tuned on SimPhone is not tuned to one font. A style
only transforms a glyph's coverage mask; which glyph is drawn stays ``glyphs.glyph_mask``'s business.
"""

from __future__ import annotations

import functools
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import yaml
from PIL import Image, ImageFilter

from droidpilot.errors import InputError

STYLE_FILE = Path(__file__).with_name("icon_styles.yaml")
DEFAULT = "filled"
FILLS, WEIGHTS = ("filled", "outlined"), ("thin", "regular", "bold")
MIN_WEIGHTED_PX = 32  # smaller icons keep the regular weight: one pixel more or less would change the shape


@dataclass(frozen=True)
class IconStyle:
    """One way of drawing every glyph: ``fill`` (filled / outlined) and ``weight`` (thin / regular / bold)."""

    name: str
    fill: str
    weight: str


@functools.cache
def _table() -> tuple[dict[str, IconStyle], dict[str, str]]:
    data = yaml.safe_load(STYLE_FILE.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not isinstance(data.get("styles"), dict) or not data["styles"]:
        raise InputError(f"{STYLE_FILE}: expected 'styles:' mapping style names to {{fill, weight}}")
    styles = {}
    for name, spec in data["styles"].items():
        fill, weight = (spec or {}).get("fill"), (spec or {}).get("weight")
        if fill not in FILLS or weight not in WEIGHTS:
            raise InputError(f"{STYLE_FILE}: style {name!r} needs fill: one of {', '.join(FILLS)} and "
                             f"weight: one of {', '.join(WEIGHTS)}; got {spec!r}")
        styles[str(name)] = IconStyle(str(name), fill, weight)
    if DEFAULT not in styles:
        raise InputError(f"{STYLE_FILE}: the default style {DEFAULT!r} must be listed")
    outlined = data.get("outlined") or {}
    if not isinstance(outlined, dict) or not all(isinstance(v, str) for v in outlined.values()):
        raise InputError(f"{STYLE_FILE}: 'outlined:' maps SimPhone glyph names to the font's outlined glyphs")
    return styles, {str(k): v for k, v in outlined.items()}


def style_names() -> list[str]:
    """Every style an app's ``icon_style:`` may name, the default first."""
    styles = _table()[0]
    return [DEFAULT, *sorted(n for n in styles if n != DEFAULT)]


def style(name: str) -> IconStyle:
    """The style called ``name``; InputError naming the known ones otherwise."""
    styles = _table()[0]
    if name not in styles:
        raise InputError(f"unknown icon style {name!r}; use one of {', '.join(style_names())} "
                         f"({STYLE_FILE.name})")
    return styles[name]


def outlined_glyph(name: str) -> str | None:
    """The icon font's own outlined glyph for SimPhone glyph ``name``, if ``icon_styles.yaml`` names one."""
    return _table()[1].get(name)


def choose(seed: int, app: str, pinned: str | None = None, varied: bool = True) -> str:
    """The style app ``app`` draws in on a phone reset with ``seed``: ``pinned`` (the app's own
    ``icon_style:``) when given; else, when ``varied``, one of the styles picked by a hash of the seed and the
    app's name, and the default style when not (a phone's ``icon_styles="fixed"``)."""
    if pinned is not None:
        return style(pinned).name
    if not varied:
        return DEFAULT
    names = style_names()
    return names[zlib.crc32(f"{seed}:{app}".encode()) % len(names)]


def _grow(mask: Image.Image, px: int) -> Image.Image:
    return mask.filter(ImageFilter.MaxFilter(2 * px + 1))


def _shrink(mask: Image.Image, px: int) -> Image.Image:
    return mask.filter(ImageFilter.MinFilter(2 * px + 1))


def contour(mask: Image.Image, stroke: int) -> Image.Image:
    """The outline of a filled ``mask``: its ink minus the ink ``stroke`` pixels in from the edge."""
    ink, inner = np.asarray(mask, np.int16), np.asarray(_shrink(mask, stroke), np.int16)
    return Image.fromarray(np.clip(ink - inner, 0, 255).astype(np.uint8), "L")


def apply(mask: Image.Image, icon_style: IconStyle, outlined: Image.Image | None = None) -> Image.Image:
    """``mask`` (a glyph's filled coverage) drawn in ``icon_style``; ``outlined`` is the font's own
    outlined glyph when there is one (used instead of the derived contour)."""
    size = mask.width
    unit = max(1, round(size / 24))  # one unit of Material's 24-unit grid
    out = mask
    if icon_style.fill == "outlined":
        out = outlined if outlined is not None else contour(mask, max(1, round(2 * size / 24)))
    if size >= MIN_WEIGHTED_PX and icon_style.weight == "bold":
        out = _grow(out, max(1, unit // 2))
    elif size >= MIN_WEIGHTED_PX and icon_style.weight == "thin":
        thinner = _shrink(out, 1)
        # a thin stroke must keep most of its ink, or the glyph would break apart
        if np.asarray(thinner, np.uint32).sum() >= 0.45 * np.asarray(out, np.uint32).sum():
            out = thinner
    return out
