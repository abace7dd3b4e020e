"""Procedural photos: a landscape drawn from a seed text (sky, sun, hills, trees, water), so pictures in
SimPhone's apps look like photos with detail and differ from one another, instead of flat colour blocks."""

from __future__ import annotations

import random
import zlib

from droidpilot.device.sim.draw.canvas import Canvas
from droidpilot.device.sim.draw.theme import mix

SKIES = ("#87CEEB", "#FDB38A", "#6A7FDB", "#B3E5FC", "#F48FB1", "#90A4AE")
LANDS = ("#558B2F", "#8D6E63", "#2E7D32", "#C0CA33", "#6D4C41", "#00796B")


def draw_photo(c: Canvas, x1: float, y1: float, x2: float, y2: float, seed_text: str, tint: str = "") -> None:
    """Draw a landscape into the box, the same for the same ``seed_text``."""
    rng = random.Random(zlib.crc32(seed_text.encode("utf-8")))
    w, h = x2 - x1, y2 - y1
    sky = SKIES[rng.randrange(len(SKIES))]
    bands = 6
    for i in range(bands):  # a sky gradient in bands
        c.rect(
            x1,
            y1 + h * 0.6 * i / bands,
            x2,
            y1 + h * 0.6 * (i + 1) / bands + 1,
            mix(sky, "#FFFFFF", i * 0.08),
        )
    sx, sy, r = (
        x1 + w * rng.uniform(0.15, 0.85),
        y1 + h * rng.uniform(0.12, 0.35),
        min(w, h) * rng.uniform(0.06, 0.11),
    )
    c.ellipse(sx - r * 1.6, sy - r * 1.6, sx + r * 1.6, sy + r * 1.6, "#FFF59D55")
    c.ellipse(sx - r, sy - r, sx + r, sy + r, "#FFF176")
    land = tint or LANDS[rng.randrange(len(LANDS))]
    for layer in range(3):  # hills, far (light) to near (dark)
        shade = mix(land, "#FFFFFF", 0.45 - layer * 0.2)
        for _ in range(3):
            cx, rw = x1 + w * rng.uniform(-0.1, 1.1), w * rng.uniform(0.3, 0.6)
            top = y1 + h * (0.45 + layer * 0.12 + rng.uniform(0, 0.08))
            c.ellipse(cx - rw, top, cx + rw, min(y2, top + h * 0.4), shade)
        c.rect(x1, y1 + h * (0.62 + layer * 0.1), x2, y2, shade)  # the ground under the hills
    if rng.random() < 0.5:  # water in front
        c.rect(x1, y1 + h * 0.84, x2, y2, mix(sky, "#01579B", 0.45))
        for i in range(4):
            yy = y1 + h * (0.87 + i * 0.03)
            c.line(x1 + w * rng.uniform(0, 0.5), yy, x1 + w * rng.uniform(0.5, 1), yy, "#FFFFFF66", 3)
    for _ in range(rng.randint(2, 6)):  # trees
        tx, ty = x1 + w * rng.uniform(0.05, 0.95), y1 + h * rng.uniform(0.62, 0.8)
        th = h * rng.uniform(0.08, 0.16)
        c.rect(tx - 4, ty, tx + 4, ty + th * 0.5, "#4E342E")
        c.ellipse(tx - th * 0.35, ty - th * 0.6, tx + th * 0.35, ty + th * 0.15, mix(land, "#000000", 0.35))
