"""Lone characters OCR reads with high confidence: text, unless an asked glyph clearly fits the ink."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from droidpilot.perception.icons import locate_icon
from droidpilot.perception.icons.candidates import _lone_char, find_regions, iou
from droidpilot.perception.icons.glyphs import available, draw_glyph
from droidpilot.perception.types import OcrLine

pytestmark = pytest.mark.skipif(not available(), reason="fonts-material-design-icons-iconfont not installed")
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


@pytest.fixture(scope="module")
def feed() -> tuple[np.ndarray, list[OcrLine]]:
    """A short-video feed's action column: a white heart outline (which OCR reads as "3"), a count, and
    a real white "3" on the same orange photo."""
    img = Image.new("RGBA", (1080, 2400), (200, 140, 20, 255))
    img.alpha_composite(draw_glyph("favorite_border", 96, (255, 255, 255)), (930, 1076))
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 64)
    draw.text((960, 1500), "3", font=font, fill=(255, 255, 255))
    draw.text((924, 1188), "88.1K", font=ImageFont.truetype(FONT, 36), fill=(255, 255, 255))
    lines = [OcrLine("3", (950, 1087, 1022, 1150), 0.993), OcrLine("88.1K", (924, 1188, 1036, 1229), 1.0),
             OcrLine("3", (958, 1508, 1002, 1572), 0.999)]
    return np.asarray(img.convert("RGB")).copy(), lines


def test_an_outlined_glyph_ocr_read_as_a_digit_is_still_found(feed) -> None:
    img, lines = feed
    result = locate_icon(img, "white heart", position="right", ocr_lines=lines)
    assert result.status == "found"
    x, y = result.candidates[0].point
    assert 930 <= x <= 1026 and 1076 <= y <= 1172


def test_a_real_digit_stays_text(feed) -> None:
    img, lines = feed
    for query in ("white heart", "white circle", "white"):
        result = locate_icon(img, query, ocr_lines=lines)
        assert not any(1490 <= c.point[1] <= 1590 for c in result.candidates), query


def test_a_wide_box_read_as_one_digit_is_a_glyph_not_text() -> None:
    # Notes' disabled undo arrow: light grey on white, which OCR reads as "5" (0.99) in a box 1.8x as wide
    # as tall; a real "5" beside it, in a box taller than wide, stays text
    img = Image.new("RGBA", (1080, 2400), (250, 250, 250, 255))
    img.alpha_composite(draw_glyph("undo", 72, (185, 185, 185)), (440, 210))
    ImageDraw.Draw(img).text((700, 200), "5", font=ImageFont.truetype(FONT, 64), fill=(40, 40, 40))
    lines = [OcrLine("5", (440, 228, 512, 268), 0.99), OcrLine("5", (698, 208, 740, 270), 0.999)]
    rgb = np.asarray(img.convert("RGB")).copy()
    result = locate_icon(rgb, "undo arrow, top", ocr_lines=lines)
    assert result.status == "found"
    x, y = result.candidates[0].point
    assert 440 <= x <= 512 and 210 <= y <= 282
    assert _lone_char(lines[1]) and not _lone_char(lines[0])


REAL = Path(__file__).resolve().parents[3] / "shared" / "reference" / "mobile-eval-real"


@pytest.mark.skipif(not REAL.is_dir(), reason=f"{REAL} (real-phone screens) is absent")
def test_a_glyph_ocr_guessed_as_two_characters_stays_a_candidate() -> None:
    # Google Maps' "Restaurants" chip (training screen): RapidOCR reads its fork and knife "41" at 0.74
    image = np.asarray(Image.open(REAL / "Google Maps/3/2.jpg").convert("RGB"))[:, :, ::-1].copy()
    fork = (33, 186, 54, 209)
    lines = [OcrLine("41", (30, 183, 61, 210), 0.7427)]
    regions = find_regions(image, lines)
    assert any(iou(r.box, fork) >= 0.5 and r.source == "char" for r in regions)


@pytest.mark.parametrize(("line", "guess"), [
    (OcrLine("41", (30, 183, 61, 210), 0.74), True),  # unsure, one glyph wide: a guess at an icon
    (OcrLine("41", (30, 183, 61, 210), 0.97), False),  # read sure: a badge's number, text
    (OcrLine("41", (30, 183, 80, 210), 0.74), False),  # wider than a glyph: two real characters
    (OcrLine("4.", (30, 183, 61, 210), 0.74), False),  # a digit and a stop: not two characters
])
def test_two_characters_are_a_guess_only_when_unsure_and_glyph_sized(line: OcrLine, guess: bool) -> None:
    assert _lone_char(line) is guess
