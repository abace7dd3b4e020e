"""Crops of the region around a candidate with its box drawn, for the model to choose between candidates.

As in Mobile-Agent, the box is enlarged outwards so the crop keeps the context (neighbouring text, the
row it sits in) and the box itself is drawn on the crop.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from droidpilot.perception.types import Box

BOX_COLOR = (255, 0, 0)


def context_region(box: Box, size: tuple[int, int], min_pad: int = 60) -> Box:
    """``box`` enlarged by its own width sideways and twice its height up and down, inside the image."""
    width, height = size
    bw, bh = box[2] - box[0], box[3] - box[1]
    pad_x = max(min_pad, bw)
    pad_y = max(min_pad, 2 * bh)
    return (max(0, box[0] - pad_x), max(0, box[1] - pad_y), min(width, box[2] + pad_x),
            min(height, box[3] + pad_y))


def crop_with_box(image: Image.Image, box: Box, min_pad: int = 60) -> Image.Image:
    """The region around ``box`` (a new RGB image) with ``box`` outlined in red."""
    region = context_region(box, image.size, min_pad)
    crop = image.crop(region).convert("RGB")
    draw = ImageDraw.Draw(crop)
    line = max(2, min(crop.size) // 100)
    x1, y1 = box[0] - region[0], box[1] - region[1]
    x2, y2 = box[2] - region[0], box[3] - region[1]
    draw.rectangle((x1 - line, y1 - line, x2 + line, y2 + line), outline=BOX_COLOR, width=line)
    return crop
