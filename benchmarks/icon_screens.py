"""Held-out icon screens for benchmarks/icon_accuracy.py: real-looking app screens built from Material glyphs.

Each screen has a status bar (wifi, signal, battery, clock), a top app bar (plain or coloured) with a
navigation glyph and 2-3 actions, list rows with a leading glyph and a title, a floating action button
(a white glyph on a coloured disc), badges, and a bottom navigation bar with labels. The queries are
written from PERSON_NAMES (how a person names each glyph), not from the matcher's synonym table, and
say colour the way a person would for icons on tiles (the tile's colour, or the glyph's own).
``split`` "tune" and "report" use disjoint seeds: figures are quoted on "report" only.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from droidpilot.perception.icons.glyphs import draw_glyph
from droidpilot.perception.types import Box, OcrLine

TEXT_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

# How a person names each glyph (written by looking at the glyphs, before looking at the matcher).
PERSON_NAMES: dict[str, list[str]] = {
    "menu": ["hamburger menu", "three lines"], "more_vert": ["three dots", "vertical dots"],
    "search": ["magnifying glass", "search"], "arrow_back": ["back arrow", "left arrow"],
    "close": ["x", "close"], "add": ["plus"], "favorite": ["heart"], "star": ["star"], "share": ["share"],
    "notifications": ["bell"], "home": ["house", "home"], "shopping_cart": ["cart", "shopping cart"],
    "bookmark": ["bookmark"], "mic": ["microphone", "mic"], "photo_camera": ["camera"],
    "person": ["person", "profile"], "delete": ["trash"], "edit": ["pencil"], "tune": ["sliders"],
    "layers": ["layers"], "backspace": ["backspace"], "send": ["paper plane", "send"],
    "place": ["map pin", "location pin"], "call": ["phone"], "mail": ["envelope"],
    "chat_bubble": ["speech bubble"], "check": ["checkmark"], "refresh": ["refresh"],
    "play_arrow": ["play"], "lock": ["padlock", "lock"], "visibility": ["eye"], "thumb_up": ["thumbs up"],
    "calendar_today": ["calendar"], "schedule": ["clock"], "language": ["globe"],
    "attach_file": ["paperclip"],
    "arrow_upward": ["up arrow"], "settings": ["gear", "settings"], "download": ["download"],
}
PALETTE: dict[str, list[tuple[tuple[int, int, int], str]]] = {  # RGB -> the word a person uses
    "tile": [((229, 57, 53), "red"), ((30, 136, 229), "blue"), ((67, 160, 71), "green"),
             ((0, 137, 123), "green"), ((251, 140, 0), "orange"), ((142, 36, 170), "purple"),
             ((216, 27, 96), "pink"), ((26, 115, 232), "blue")],
    "ink_light": [((95, 99, 104), "gray"), ((32, 33, 36), "black"), ((26, 115, 232), "blue"),
                  ((217, 48, 37), "red"), ((24, 128, 56), "green")],
    "ink_dark": [((232, 234, 237), "white"), ((154, 160, 166), "gray"), ((138, 180, 248), "blue")],
}
STATUS_GLYPHS = ("wifi", "signal_cellular_alt", "battery_full")


@dataclass
class Target:
    """One icon placed on a screen and the query a person would write for it."""

    glyph: str
    box: Box
    query: str


@dataclass
class Screen:
    """A rendered screen (RGB array), its text lines (true boxes) and the icon queries on it."""

    image: np.ndarray
    lines: list[OcrLine]
    targets: list[Target]


def _paste(canvas: Image.Image, glyph: str, centre: tuple[int, int], size: int,
           colour: tuple[int, int, int]) -> Box:
    g = draw_glyph(glyph, size, colour)
    x, y = centre[0] - size // 2, centre[1] - size // 2
    canvas.alpha_composite(g, (x, y))
    bbox = g.getchannel("A").getbbox() or (0, 0, size, size)
    return (x + bbox[0], y + bbox[1], x + bbox[2], y + bbox[3])


def _text(draw: ImageDraw.ImageDraw, lines: list[OcrLine], xy: tuple[int, int], text: str, size: int,
          colour: tuple[int, int, int]) -> None:
    font = ImageFont.truetype(TEXT_FONT, size)
    draw.text(xy, text, fill=colour, font=font)
    lines.append(OcrLine(text, tuple(int(v) for v in draw.textbbox(xy, text, font=font)), 0.99))  # type: ignore[arg-type]


def make_screen(rng: random.Random, width: int = 1080, height: int = 2400) -> Screen:
    """One screen with its targets; sizes scale with the width like dp on a phone."""
    dp = width / 411
    dark = rng.random() < 0.35
    page = (18, 18, 18) if dark else rng.choice([(255, 255, 255), (248, 249, 250), (243, 246, 252)])
    ink = PALETTE["ink_dark" if dark else "ink_light"]
    canvas = Image.new("RGBA", (width, height), (*page, 255))
    draw = ImageDraw.Draw(canvas)
    lines: list[OcrLine] = []
    targets: list[Target] = []
    nav = rng.choice(["menu", "arrow_back"])
    glyphs = [g for g in PERSON_NAMES if g not in ("menu", "arrow_back", "more_vert")]
    rng.shuffle(glyphs)
    used = iter(glyphs)
    taken: set[tuple[str, str]] = set()

    def target(glyph: str, box: Box, colour_word: str, where: str = "") -> None:
        name = rng.choice(PERSON_NAMES[glyph])
        if (colour_word, name) in taken:
            return  # two icons a person would describe the same way: not a fair query
        taken.add((colour_word, name))
        targets.append(Target(glyph, box, f"{colour_word} {name}" + (f", {where}" if where else "")))

    # status bar: system glyphs and the clock (never targets)
    sb = round(24 * dp)
    sb_ink = (232, 234, 237) if dark else (60, 64, 67)
    _text(draw, lines, (round(16 * dp), round(4 * dp)), f"{rng.randint(1, 12)}:{rng.randint(10, 59)}",
          round(13 * dp), sb_ink)
    for k, g in enumerate(STATUS_GLYPHS):
        _paste(canvas, g, (width - round((20 + 20 * k) * dp), sb // 2), round(16 * dp), sb_ink)
    # top app bar
    bar_h = round(56 * dp)
    coloured_bar = rng.random() < 0.4
    bar_fill, _ = rng.choice(PALETTE["tile"]) if coloured_bar else (page, "")
    draw.rectangle((0, sb, width, sb + bar_h), fill=bar_fill)
    bar_ink, bar_ink_word = ((255, 255, 255), "white") if coloured_bar else rng.choice(ink)
    cy = sb + bar_h // 2
    target(nav, _paste(canvas, nav, (round(28 * dp), cy), round(24 * dp), bar_ink), bar_ink_word, "top left")
    _text(draw, lines, (round(72 * dp), cy - round(11 * dp)), rng.choice(["Inbox", "Library", "Orders",
          "Explore", "Messages"]), round(20 * dp), bar_ink)
    for k, g in enumerate(["more_vert", *[next(used) for _ in range(rng.randint(1, 2))]]):
        box = _paste(canvas, g, (width - round((28 + 48 * k) * dp), cy), round(24 * dp), bar_ink)
        target(g, box, bar_ink_word, "top right")
    # list rows: a leading glyph in the ink colour (sometimes on a light round tile) and a title
    y = sb + bar_h + round(16 * dp)
    for _ in range(rng.randint(4, 7)):
        g = next(used)
        colour, word = rng.choice(ink)
        cx, cyr = round(36 * dp), y + round(28 * dp)
        if rng.random() < 0.3:  # on a tinted disc
            tile, tile_word = rng.choice(PALETTE["tile"])
            r = round(20 * dp)
            draw.ellipse((cx - r, cyr - r, cx + r, cyr + r), fill=tile)
            _paste(canvas, g, (cx, cyr), round(22 * dp), (255, 255, 255))
            target(g, (cx - r, cyr - r, cx + r, cyr + r), rng.choice([tile_word, "white"]))
        else:
            target(g, _paste(canvas, g, (cx, cyr), round(24 * dp), colour), word)
        _text(draw, lines, (round(72 * dp), cyr - round(10 * dp)), rng.choice(["Account", "Recent items",
              "Saved places", "Notifications", "Your orders", "Help & feedback", "Privacy"]),
              round(16 * dp), ink[0][0] if not dark else (232, 234, 237))
        y += round(56 * dp)
    # floating action button: a white glyph on a coloured disc, named by the disc's colour
    g = next(used)
    tile, tile_word = rng.choice(PALETTE["tile"])
    r = round(28 * dp)
    fx, fy = width - round(44 * dp), height - round(140 * dp)
    draw.ellipse((fx - r, fy - r, fx + r, fy + r), fill=tile)
    _paste(canvas, g, (fx, fy), round(24 * dp), (255, 255, 255))
    target(g, (fx - r, fy - r, fx + r, fy + r), tile_word, "bottom right")
    # bottom navigation with labels; one badge
    nav_y = height - round(40 * dp)
    items = [next(used) for _ in range(4)]
    for k, g in enumerate(items):
        cx = round(width * (k + 0.5) / 4)
        colour, word = rng.choice(ink)
        box = _paste(canvas, g, (cx, nav_y - round(8 * dp)), round(24 * dp), colour)
        target(g, box, word, "bottom")
        _text(draw, lines, (cx - round(18 * dp), nav_y + round(8 * dp)), g.split("_")[0].title()[:7],
              round(12 * dp), colour)
        if k == 1 and rng.random() < 0.6:
            br = round(8 * dp)
            bx, by = box[2], box[1]
            draw.ellipse((bx - br, by - br, bx + br, by + br), fill=(229, 57, 53))
            _text(draw, lines, (bx - round(4 * dp), by - round(7 * dp)), str(rng.randint(1, 9)),
                  round(11 * dp), (255, 255, 255))
    rgb = np.asarray(canvas.convert("RGB")).copy()
    return Screen(rgb, lines, targets)


def screens(split: str, count: int, sizes: tuple[tuple[int, int], ...] = ((1080, 2400), (720, 1600))
            ) -> list[Screen]:
    """``count`` screens of a split ("tune" seeds 0.., "report" seeds 100000..), alternating sizes."""
    base = {"tune": 0, "report": 100000}[split]
    return [make_screen(random.Random(base + i), *sizes[i % len(sizes)]) for i in range(count)]
