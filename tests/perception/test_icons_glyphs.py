"""The Material glyph library on real-looking screens: glyph words, tiles, badges, status bar, text glue."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont
from tests.support.glyphs import paint_glyph

from droidpilot.perception.icons import locate_icon
from droidpilot.perception.icons.colours import colour_distribution, colour_match
from droidpilot.perception.icons.glyphs import (
    available,
    best_glyphs,
    glyph_codepoints,
    glyph_mask,
    mask_descriptor,
    phrase_glyphs,
    synonyms,
)
from droidpilot.perception.icons.glyphs.catalogue import glyph_names
from droidpilot.perception.types import Box, OcrLine

pytestmark = pytest.mark.skipif(not available(), reason="fonts-material-design-icons-iconfont not installed")
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
W, H = 720, 1600


@pytest.fixture(scope="module")
def screen() -> tuple[np.ndarray, dict[str, Box], list[OcrLine]]:
    """A light app screen: status bar, toolbar glyphs, a glyph glued to a title, a FAB, a badge, text."""
    img = Image.new("RGBA", (W, H), (255, 255, 255, 255))
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 30)
    ink = (95, 99, 104)
    boxes = {"wifi": paint_glyph(img, "wifi", (620, 8), 36, ink)}
    lines = [OcrLine("9:41", (20, 12, 80, 40), 0.99)]
    draw.text((20, 10), "9:41", font=font, fill=ink)
    boxes["menu"] = paint_glyph(img, "menu", (24, 90), 48, ink)
    boxes["share"] = paint_glyph(img, "share", (520, 90), 48, ink)
    boxes["more"] = paint_glyph(img, "more_vert", (630, 90), 48, ink)
    boxes["back"] = paint_glyph(img, "arrow_back", (24, 300), 48, (32, 33, 36))
    draw.text((80, 306), "sustainable living", font=font, fill=(32, 33, 36))
    bb = draw.textbbox((80, 306), "sustainable living", font=font)
    lines.append(OcrLine("←sustainable living", (28, bb[1], bb[2], bb[3]), 0.93))  # OCR glued them
    boxes["settings"] = paint_glyph(img, "settings", (24, 500), 48, (26, 115, 232))
    draw.ellipse((560, 1360, 672, 1472), fill=(229, 57, 53))  # a red disc with a white up arrow
    paint_glyph(img, "arrow_upward", (592, 1392), 48, (255, 255, 255))
    boxes["fab"] = (560, 1360, 672, 1472)
    boxes["bell"] = paint_glyph(img, "notifications", (300, 1500), 56, ink)
    draw.ellipse((342, 1492, 366, 1516), fill=(229, 57, 53))  # a badge on the bell
    draw.text((600, 700), "1", font=font, fill=(32, 33, 36))
    lines.append(OcrLine("1", (598, 702, 620, 736), 0.99))
    return np.asarray(img.convert("RGB")).copy(), boxes, lines


def _hit(result, box: Box) -> bool:
    if result.status != "found":
        return False
    x, y = result.candidates[0].point
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def test_library_reads_the_installed_font_and_the_synonym_table() -> None:
    names = glyph_codepoints()
    assert len(names) > 1500 and names["settings"] == 0xE8B8
    library = set(glyph_names())  # the font's glyphs and our drawn shapes (drawn_*)
    assert all(n in library for glyphs in synonyms().values() for n in glyphs)
    assert phrase_glyphs("cog") == ("settings",) and phrase_glyphs("kebab") == ("more_vert",)
    assert phrase_glyphs("frobnicator") == ()


def test_matching_is_scale_invariant() -> None:
    import cv2

    for name in ("settings", "more_vert", "shopping_cart", "arrow_back"):
        mask = glyph_mask(name)
        for scale in (0.35, 1.7):
            size = (max(1, round(mask.shape[1] * scale)), max(1, round(mask.shape[0] * scale)))
            resized = cv2.resize(mask * 255, size, interpolation=cv2.INTER_AREA) > 100
            # (edge directions, part of the descriptor, change a little at 0.35x, about 20 px: more_vert
            # is 0.917 like itself there; the glyph is still the best or among the best three)
            assert best_glyphs(mask_descriptor(resized), 3)[0][1] > 0.9
            assert name in [n for n, _ in best_glyphs(mask_descriptor(resized), 3)]


@pytest.mark.parametrize(("query", "key"), [
    ("gray hamburger menu, top left", "menu"), ("gray share", "share"), ("three dots", "more"),
    ("blue gear", "settings"), ("gray bell", "bell"), ("black back arrow", "back"),
    ("red up arrow", "fab"), ("white arrow, bottom right", "fab"), ("red circle, bottom right", "fab"),
])
def test_open_vocabulary_queries_find_the_glyph(screen, query: str, key: str) -> None:
    img, boxes, lines = screen
    result = locate_icon(img, query, ocr_lines=lines)
    assert _hit(result, boxes[key]), result.to_dict()
    assert result.query is not None and result.query["unknown"] == []


def test_status_bar_icons_only_when_asked(screen) -> None:
    img, boxes, lines = screen
    away = locate_icon(img, "gray wifi", ocr_lines=lines)
    assert not any(boxes["wifi"][1] <= c.point[1] <= boxes["wifi"][3] for c in away.candidates)
    assert _hit(locate_icon(img, "gray wifi in the status bar", ocr_lines=lines), boxes["wifi"])


def test_lone_digit_read_by_ocr_is_text_not_an_icon(screen) -> None:
    img, _, lines = screen
    result = locate_icon(img, "black line", ocr_lines=lines)
    assert not any(690 <= c.point[1] <= 740 and c.point[0] > 590 for c in result.candidates)


def test_unknown_words_are_reported_and_the_model_gets_numbered_choices(screen) -> None:
    img, _, lines = screen
    result = locate_icon(img, "gray frobnicator", ocr_lines=lines)
    assert result.unknown_words == ["frobnicator"]
    assert result.status == "ambiguous" and 2 <= len(result.candidates) <= 4
    assert all(c.crop is not None for c in result.candidates)
    assert result.to_dict()["query"]["unknown"] == ["frobnicator"]


def test_colour_names_are_perceptual_and_logos_are_not_single_colours() -> None:
    teal = colour_distribution(np.array([[123, 137, 0]], np.uint8))  # BGR of Material teal
    assert colour_match(teal, "cyan") == 1.0 and colour_match(teal, "green") >= 0.6
    logo = {"blue": 0.32, "red": 0.26, "yellow": 0.2, "green": 0.22}
    assert colour_match(logo, "blue") < 0.6 <= colour_match({"blue": 0.9, "white": 0.1}, "blue")


def _discs_with_glyphs(names: list[str | None]) -> tuple[np.ndarray, list[Box]]:
    """Blue discs in a column, each with a white glyph (or none), as a settings page draws them."""
    img = Image.new("RGBA", (W, H), (255, 255, 255, 255))
    draw = ImageDraw.Draw(img)
    discs = []
    for i, name in enumerate(names):
        cx, cy = 120 + 240 * i, 700
        draw.ellipse((cx - 40, cy - 40, cx + 40, cy + 40), fill=(26, 115, 232, 255))
        if name is not None:
            paint_glyph(img, name, (cx - 24, cy - 24), 48, (255, 255, 255))
        discs.append((cx - 40, cy - 40, cx + 41, cy + 41))
    return np.asarray(img.convert("RGB")), discs


def test_the_disc_whose_glyph_fits_wins_over_discs_that_merely_are_blue_circles() -> None:
    img, discs = _discs_with_glyphs(["wifi", "bluetooth", "settings"])
    result = locate_icon(img, "blue wifi circle", ocr_lines=[])
    assert result.status == "found", result.status
    x, y = result.candidates[0].point
    assert discs[0][0] <= x < discs[0][2] and discs[0][1] <= y < discs[0][3]


def test_discs_of_which_none_carries_the_glyph_are_not_decided_by_the_drawn_class() -> None:
    img, _ = _discs_with_glyphs(["bluetooth", "settings", None])
    assert locate_icon(img, "blue wifi circle", ocr_lines=[]).status != "found"


def _scored(glyph: float, score: float):
    from droidpilot.perception.icons.candidates import Region
    from droidpilot.perception.icons.describe import IconDescription
    from droidpilot.perception.icons.scored import ScoredIcon

    desc = IconDescription("blue", 1.0, "circle", 1.0)
    return ScoredIcon(Region((0, 0, 10, 10), "mask"), desc, 1.0, score, None, None, score, "icon", glyph)


def test_a_glyph_fit_sets_the_best_apart_from_ties_on_the_drawn_class_alone() -> None:
    from droidpilot.perception.icons.outcome import glyph_over_drawn

    wifi, disc, disc2 = _scored(0.75, 0.762), _scored(0.0, 0.62), _scored(0.1, 0.62)
    assert glyph_over_drawn([wifi, disc, disc2]) == [wifi]
    rival = _scored(0.5, 0.62)  # another disc whose glyph fits two-thirds as well: still a tie
    assert glyph_over_drawn([wifi, disc, rival]) == [wifi, disc, rival]
    weak = _scored(0.2, 0.62)  # the best's own glyph fit is too weak to set it apart
    assert glyph_over_drawn([weak, disc]) == [weak, disc]


def test_a_modest_glyph_fit_alone_among_tiles_that_tie_decides_wherever_it_ranks() -> None:
    from droidpilot.perception.icons.outcome import glyph_over_drawn

    # a real bell drawn by another icon set fits 0.29; the discs beside it 0.14 and 0.02: their glyphs
    # are all that sets tiles of one colour and outline apart, in whatever order the ties came
    disc, bell, near = _scored(0.02, 0.62), _scored(0.29, 0.62), _scored(0.14, 0.62)
    assert glyph_over_drawn([disc, bell, near]) == [bell]
    rival = _scored(0.16, 0.62)  # more than half the bell's fit: the model is asked
    assert glyph_over_drawn([disc, bell, rival]) == [disc, bell, rival]
