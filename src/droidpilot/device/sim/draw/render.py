"""The one renderer: executes draw ops with Pillow, caching whole frames by their op list and the
static layers (wallpaper gradients, glyph masks), so an unchanged screen costs nothing to re-render."""

from __future__ import annotations

import functools
import hashlib
from typing import Any

import cv2
import numpy as np
from PIL import Image, ImageDraw

from droidpilot.device.sim.draw.avatar import avatar_image
from droidpilot.device.sim.draw.fonts import font_for
from droidpilot.device.sim.draw.glyphs import glyph_mask
from droidpilot.device.sim.draw.theme import rgb


@functools.lru_cache(maxsize=8)
def _gradient(size: tuple[int, int], top: str, bottom: str, mode: str = "RGB") -> Image.Image:
    """The wallpaper gradient, in the ``mode`` of the image it is pasted on (converting it on every
    paste costs more than the paste)."""
    if mode != "RGB":
        return _gradient(size, top, bottom).convert(mode)
    a, b = rgb(top)[:3], rgb(bottom)[:3]
    column = Image.new("RGB", (1, 256))
    column.putdata([tuple(round(a[i] + (b[i] - a[i]) * t / 255) for i in range(3)) for t in range(256)])
    return column.resize(size, Image.Resampling.BILINEAR)


@functools.lru_cache(maxsize=512)
def _color(value: str) -> tuple[int, ...]:
    return rgb(value)


@functools.lru_cache(maxsize=8192)
def _text_mask(text: str, px: int, bold: bool) -> tuple[Image.Image, tuple[int, int]]:
    """The anti-aliased coverage of one line of text, and its offset from the (left, middle) anchor."""
    font = font_for(text, px, bold)
    x1, y1, x2, y2 = font.getbbox(text, anchor="lm")
    mask = Image.new("L", (max(x2 - x1, 1), max(y2 - y1, 1)), 0)
    ImageDraw.Draw(mask).text((-x1, -y1), text, fill=255, font=font, anchor="lm")
    return mask, (x1, y1)


def _blend(im: Image.Image, box: tuple[int, int, int, int], fill: tuple[int, ...], radius: int,
           ellipse: bool) -> None:
    w, h = box[2] - box[0], box[3] - box[1]
    if w <= 0 or h <= 0:
        return
    im.paste(fill[:3], box, _shape_mask(w, h, min(radius, w // 2, h // 2), fill[3], ellipse))


@functools.lru_cache(maxsize=256)
def _shape_mask(w: int, h: int, radius: int, alpha: int, ellipse: bool) -> Image.Image:
    """The coverage of a translucent (rounded) rectangle or ellipse: scrims and ripples repeat on every
    frame, and drawing their mask took longer than blending it."""
    mask = Image.new("L", (w, h), 0)
    md = ImageDraw.Draw(mask)
    if ellipse:
        md.ellipse((0, 0, w - 1, h - 1), fill=alpha)
    else:
        md.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=alpha)
    return mask


def draw_ops(ops: list[tuple[Any, ...]], size: tuple[int, int]) -> Image.Image:
    """Execute ``ops`` on a fresh RGB image of ``size``; translucent fills are alpha-blended."""
    base, start = _base(ops, size)
    im = Image.new("RGB", size, base)
    _execute(ops[start:], im, size)
    return im


def draw_pixels(ops: list[tuple[Any, ...]], size: tuple[int, int]) -> np.ndarray:
    """The pixels ``draw_ops`` gives, as a (height, width, 3) ``uint8`` array, without Pillow's image to
    array conversion (which costs as much as drawing a frame): the ops are drawn in place into a numpy
    buffer mapped as an RGBX image, whose colour channels OpenCV then packs."""
    base, start = _base(ops, size)
    buffer = np.empty((size[1], size[0], 4), np.uint8)
    im = _mapped(buffer)
    if im is None:  # a Pillow that copies mapped images before drawing: the slow, sure way
        return np.asarray(draw_ops(ops, size), dtype=np.uint8)
    im.paste(_color(base)[:3], (0, 0, size[0], size[1]))
    _execute(ops[start:], im, size)
    return cv2.cvtColor(buffer, cv2.COLOR_RGBA2RGB)


def _mapped(buffer: np.ndarray) -> Image.Image | None:
    """An RGBX image drawing straight into ``buffer`` (height, width, 4), or None when this Pillow does
    not draw into mapped memory."""
    if not _draws_in_place():
        return None
    image = Image.frombuffer("RGBX", (buffer.shape[1], buffer.shape[0]), buffer, "raw", "RGBX", 0, 1)
    image.readonly = False  # the buffer is writable: Pillow need not copy it before drawing
    return image


@functools.cache
def _draws_in_place() -> bool:
    """Whether a pixel painted on a mapped RGBX image shows in its buffer (checked once per process)."""
    probe = np.zeros((1, 1, 4), np.uint8)
    image = Image.frombuffer("RGBX", (1, 1), probe, "raw", "RGBX", 0, 1)
    image.readonly = False
    image.paste((1, 2, 3), (0, 0, 1, 1))
    return probe[0, 0, :3].tolist() == [1, 2, 3]


def _base(ops: list[tuple[Any, ...]], size: tuple[int, int]) -> tuple[str, int]:
    """The frame's background colour and the first op left to draw: a first op filling the whole screen
    with an opaque colour is the background itself."""
    first = ops[0] if ops else None
    full = first is not None and first[0] == "rect" and first[1] == (0, 0, size[0], size[1])
    if full and first[2] and len(first[2]) == 7:
        return first[2], 1
    return "#FFFFFF", 0


def _execute(ops: list[tuple[Any, ...]], im: Image.Image, size: tuple[int, int]) -> None:
    """Draw ``ops`` in order onto ``im``."""
    draw = ImageDraw.Draw(im)
    for op in ops:
        kind = op[0]
        if kind == "rect":
            _, box, fill, radius, outline, width = op
            if box[2] <= box[0] or box[3] <= box[1]:
                continue
            fill_c = _color(fill) if fill else None
            if fill_c is not None and len(fill_c) == 4:
                _blend(im, box, fill_c, radius, ellipse=False)
                continue
            radius = min(radius, (box[2] - box[0]) // 2, (box[3] - box[1]) // 2)
            draw.rounded_rectangle(box, radius=radius, fill=fill_c,
                                   outline=_color(outline)[:3] if outline else None, width=width)
        elif kind == "ellipse":
            _, box, fill, outline, width = op
            fill_c = _color(fill) if fill else None
            if fill_c is not None and len(fill_c) == 4:
                _blend(im, box, fill_c, 0, ellipse=True)
                continue
            draw.ellipse(box, fill=fill_c, outline=_color(outline)[:3] if outline else None, width=width)
        elif kind == "line":
            _, box, color, width = op
            draw.line(box, fill=_color(color)[:3], width=width)
        elif kind == "text":
            _, xy, text, px, color, bold = op
            mask, (ox, oy) = _text_mask(text, px, bold)
            x, y = xy[0] + ox, xy[1] + oy
            im.paste(_color(color)[:3], (x, y, x + mask.width, y + mask.height), mask)
        elif kind == "glyph":
            _, name, xy, px, color, style = op
            col = _color(color)
            mask = glyph_mask(name, px, style)
            if len(col) == 4:
                mask = mask.point(lambda v, a=col[3]: v * a // 255)
            im.paste(col[:3], (xy[0], xy[1], xy[0] + px, xy[1] + px), mask)
        elif kind == "avatar":
            _, seed_text, xy, px = op
            picture, mask = avatar_image(seed_text, px)
            im.paste(picture, (xy[0], xy[1], xy[0] + px, xy[1] + px), mask)
        elif kind == "wallpaper":
            im.paste(_gradient(size, op[1], op[2], im.mode), (0, 0))


def ops_key(ops: list[tuple[Any, ...]], size: tuple[int, int]) -> str:
    """A digest identifying the frame ``ops`` draw: equal keys mean identical pixels."""
    return hashlib.blake2b(repr((size, ops)).encode(), digest_size=16).hexdigest()
