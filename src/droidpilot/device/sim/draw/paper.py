"""Photos of paper carrying text (a shop receipt, a handwritten-style note on a table): the text is drawn
into the picture's pixels with the UI font, so OCR reads it, while the image node itself carries no text,
as a real photo's does not. The table and the paper's tilt-free placement are seeded by the text."""

from __future__ import annotations

import random
import zlib

from droidpilot.device.sim.draw.canvas import Canvas

TABLES = ("#8D6E63", "#5D4037", "#A1887F", "#607D8B", "#795548")
PAPER = "#FAFAF5"
INK = "#263238"
LINE_H = 64
TEXT_SIZE = 44


def draw_paper(c: Canvas, x1: float, y1: float, x2: float, y2: float, text: str) -> None:
    """A sheet on a table with ``text``'s lines on it, top-down, each line kept to the sheet's width."""
    rng = random.Random(zlib.crc32(text.encode("utf-8")))
    c.rect(x1, y1, x2, y2, TABLES[rng.randrange(len(TABLES))])
    lines = text.split("\n")
    w = x2 - x1
    px1, px2 = x1 + w * rng.uniform(0.08, 0.12), x2 - w * rng.uniform(0.08, 0.12)
    height = LINE_H * len(lines) + 120
    py1 = y1 + max(20.0, (y2 - y1 - height) * rng.uniform(0.2, 0.5))
    c.rect(px1 + 10, py1 + 12, px2 + 10, py1 + height + 12, "#00000033")  # its shadow
    c.rect(px1, py1, px2, py1 + height, PAPER)
    for i, line in enumerate(lines):
        c.text(px1 + 48, py1 + 90 + i * LINE_H, line, TEXT_SIZE, INK, bold=i == 0,
               max_width=px2 - px1 - 96)
