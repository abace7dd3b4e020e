"""Draw a localization result on a copy of the screenshot: numbered boxes and tap points, best first.

What a person debugging an agent's taps wants to see: where each candidate is, which one would be tapped.
"""

from __future__ import annotations

from PIL import Image, ImageDraw, ImageFont

from droidpilot.perception.types import LocateResult

PALETTE = [(230, 25, 75), (60, 180, 75), (0, 130, 200), (245, 130, 48), (145, 30, 180), (70, 240, 240),
           (240, 50, 230), (128, 128, 0)]


def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return ImageFont.truetype("DejaVuSans-Bold.ttf", size)
    except OSError:
        return ImageFont.load_default()


def annotate(image: Image.Image, result: LocateResult) -> Image.Image:
    """A copy of ``image`` with each candidate's box, rank number and tap point (a cross) drawn."""
    out = image.convert("RGB").copy()
    draw = ImageDraw.Draw(out)
    width = max(3, min(out.size) // 250)
    fnt = _font(max(16, min(out.size) // 35))
    for rank, cand in enumerate(result.candidates, start=1):
        color = PALETTE[(rank - 1) % len(PALETTE)]
        draw.rectangle(cand.box, outline=color, width=width)
        px, py = cand.point
        arm = width * 5
        draw.line((px - arm, py, px + arm, py), fill=color, width=width)
        draw.line((px, py - arm, px, py + arm), fill=color, width=width)
        tag = str(rank)
        tx, ty = cand.box[0], max(0, cand.box[1] - int(getattr(fnt, "size", 12)) - 2 * width)
        bbox = draw.textbbox((tx, ty), tag, font=fnt)
        draw.rectangle((bbox[0] - width, bbox[1] - width, bbox[2] + width, bbox[3] + width), fill=color)
        draw.text((tx, ty), tag, font=fnt, fill=(255, 255, 255))
    return out
