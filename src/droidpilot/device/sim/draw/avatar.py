"""Procedural avatars: a small portrait (gradient backdrop, shoulders, neck, head with a skin tone, one of
several hair styles, sometimes glasses) or, for some people, a monogram on a patterned disc. Drawn from a
seed text (a person's name and the phone's seed), so each contact has a face of their own that stays the
same from screen to screen, and cached per (seed text, size) so a list of contacts costs a paste each.

Monograms are single Latin capitals in a large size on a busy disc: OCR engines skip them or read a lone
letter, which no checkpoint looks for; Chinese names always get a portrait.
"""

from __future__ import annotations

import functools
import random
import zlib

import numpy as np
from PIL import Image, ImageDraw

from droidpilot.device.sim.draw.fonts import font_for
from droidpilot.device.sim.draw.theme import mix, rgb

BACKDROPS = (
    ("#90CAF9", "#1565C0"), ("#FFCC80", "#EF6C00"), ("#A5D6A7", "#2E7D32"), ("#CE93D8", "#6A1B9A"),
    ("#80DEEA", "#00838F"), ("#F48FB1", "#AD1457"), ("#B0BEC5", "#37474F"), ("#FFE082", "#FF8F00"),
)
SKINS = ("#FFDFC4", "#F0C8A0", "#E0AC69", "#C68642", "#8D5524", "#5C3A21")
HAIRS = ("#2B1B12", "#4E342E", "#8D6E63", "#D7B56D", "#B71C1C", "#9E9E9E", "#111111")
SHIRTS = ("#263238", "#1E88E5", "#43A047", "#E53935", "#FDD835", "#6D4C41", "#FFFFFF", "#8E24AA")
SUPERSAMPLE = 2


def _c(value: str) -> tuple[int, int, int]:
    r, g, b = rgb(value)[:3]
    return (r, g, b)


def _backdrop(im: Image.Image, n: int, top: str, bottom: str) -> None:
    """A vertical gradient from ``top`` to ``bottom`` over the whole picture: each row the colour ``mix``
    gives (same rounding), filled at once rather than drawn as ``n`` lines (a tenth of the time)."""
    a, b = np.array(rgb(top)[:3], dtype=np.float64), np.array(rgb(bottom)[:3], dtype=np.float64)
    t = np.arange(n, dtype=np.float64) / max(n - 1, 1)
    rows = np.round(a + (b - a) * t[:, None]).astype(np.uint8)
    im.paste(Image.fromarray(np.ascontiguousarray(np.broadcast_to(rows[:, None, :], (n, n, 3)))))


def _portrait(im: Image.Image, d: ImageDraw.ImageDraw, n: int, rng: random.Random) -> None:
    top, bottom = BACKDROPS[rng.randrange(len(BACKDROPS))]
    _backdrop(im, n, mix(top, "#FFFFFF", 0.3), top if rng.random() < 0.5 else mix(top, bottom, 0.5))
    skin, hair = SKINS[rng.randrange(len(SKINS))], HAIRS[rng.randrange(len(HAIRS))]
    shirt = SHIRTS[rng.randrange(len(SHIRTS))]
    cx = n * rng.uniform(0.46, 0.54)
    head_w, head_h = n * rng.uniform(0.30, 0.36), n * rng.uniform(0.38, 0.44)
    head_top = n * rng.uniform(0.18, 0.26)
    style = rng.choice(("short", "long", "bun", "bald", "curly"))
    if style == "long":  # hair behind the shoulders
        d.rounded_rectangle((cx - head_w * 0.68, head_top, cx + head_w * 0.68, head_top + head_h * 1.35),
                            radius=int(head_w * 0.5), fill=_c(hair))
    d.ellipse((cx - n * 0.42, n * 0.74, cx + n * 0.42, n * 1.3), fill=_c(shirt))  # shoulders
    d.rectangle((cx - head_w * 0.18, head_top + head_h * 0.8, cx + head_w * 0.18, n * 0.8),
                fill=_c(mix(skin, "#000000", 0.12)))  # neck, in shadow
    d.ellipse((cx - head_w / 2, head_top, cx + head_w / 2, head_top + head_h), fill=_c(skin))
    if style in ("short", "long", "bun"):
        d.chord((cx - head_w * 0.56, head_top - head_h * 0.1, cx + head_w * 0.56, head_top + head_h * 0.7),
                180, 360, fill=_c(hair))
    if style == "bun":
        bun = head_w * 0.22
        d.ellipse((cx - bun, head_top - head_h * 0.32, cx + bun, head_top + head_h * 0.08), fill=_c(hair))
    if style == "curly":
        for i in range(7):
            a = head_w * (-0.5 + i / 6)
            r = head_w * 0.17
            d.ellipse((cx + a - r, head_top - r * 0.6, cx + a + r, head_top + r * 1.4), fill=_c(hair))
    eye_y, eye_dx, eye_r = head_top + head_h * 0.52, head_w * 0.18, max(n * 0.018, 1.5)
    for sx in (-1, 1):
        d.ellipse((cx + sx * eye_dx - eye_r, eye_y - eye_r, cx + sx * eye_dx + eye_r, eye_y + eye_r),
                  fill=(40, 30, 30))
    if rng.random() < 0.3:  # glasses
        gr = head_w * 0.13
        for sx in (-1, 1):
            d.ellipse((cx + sx * eye_dx - gr, eye_y - gr, cx + sx * eye_dx + gr, eye_y + gr),
                      outline=(30, 30, 30), width=max(1, n // 60))
    mouth_y = head_top + head_h * 0.76
    d.arc((cx - head_w * 0.14, mouth_y - head_h * 0.08, cx + head_w * 0.14, mouth_y + head_h * 0.05), 20, 160,
          fill=_c(mix(skin, "#8B0000", 0.5)), width=max(1, n // 70))


def _monogram(im: Image.Image, d: ImageDraw.ImageDraw, n: int, rng: random.Random, letter: str) -> None:
    top, bottom = BACKDROPS[rng.randrange(len(BACKDROPS))]
    _backdrop(im, n, top, bottom)
    step = n // rng.randint(5, 8)
    for k in range(-n, 2 * n, step):  # diagonal stripes: a textured disc, not a flat block
        d.line((k, 0, k + n, n), fill=_c(mix(top, "#FFFFFF", 0.25)), width=max(1, step // 3))
    font = font_for(letter, int(n * 0.56), True)
    d.text((n / 2 + n * 0.02, n / 2 + n * 0.03), letter, fill=_c(mix(bottom, "#000000", 0.4)), font=font,
           anchor="mm")  # a soft shadow
    d.text((n / 2, n / 2), letter, fill=(255, 255, 255), font=font, anchor="mm")


@functools.lru_cache(maxsize=1024)
def avatar_image(seed_text: str, px: int) -> tuple[Image.Image, Image.Image]:
    """(RGB picture, round mask) of the avatar for ``seed_text`` at ``px`` pixels square."""
    px = max(px, 4)
    rng = random.Random(zlib.crc32(seed_text.encode("utf-8")))
    n = px * SUPERSAMPLE
    im = Image.new("RGB", (n, n))
    d = ImageDraw.Draw(im)
    name = seed_text.split("#", 1)[0].strip()
    letter = next((ch for ch in name if ch.isalpha()), "")
    if rng.random() < 0.25 and letter.isascii() and letter:  # (a CJK name gets a portrait: OCR reads hanzi)
        _monogram(im, d, n, rng, letter.upper())
    else:
        _portrait(im, d, n, rng)
    mask = Image.new("L", (n, n), 0)
    ImageDraw.Draw(mask).ellipse((0, 0, n - 1, n - 1), fill=255)
    size = (px, px)
    return im.resize(size, Image.Resampling.LANCZOS), mask.resize(size, Image.Resampling.LANCZOS)
