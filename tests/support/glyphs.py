"""Paint a font glyph onto a test canvas and know where its ink landed (shared by the icon tests)."""

from __future__ import annotations

from PIL import Image

Box = tuple[int, int, int, int]


def paint_glyph(canvas: Image.Image, name: str, xy: tuple[int, int], size: int,
                rgb: tuple[int, int, int]) -> Box:
    """Composite glyph ``name`` at ``xy`` and return its ink box in canvas pixels."""
    from droidpilot.perception.icons.glyphs import draw_glyph

    g = draw_glyph(name, size, rgb)
    canvas.alpha_composite(g, xy)
    b = g.getchannel("A").getbbox()
    assert b is not None, f"glyph {name!r} drew no ink at size {size}"
    return (xy[0] + b[0], xy[1] + b[1], xy[0] + b[2], xy[1] + b[3])
