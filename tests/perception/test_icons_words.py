"""Glyph words: a word brings its glyph's style variants (outlined, filled), a glyph is named by an
everyday word, and candidates offered to the model are named after the glyph they look like, never a drawn
symbol class (star, arrow, plus) a real icon only vaguely resembles. Real crops are from
../shared/reference/mobile-eval-real (MIT, X-PLUG/MobileAgent; see its LICENSE)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from droidpilot.perception.icons.describe import describe_region
from droidpilot.perception.icons.glyphs import available, glyph_fits, phrase_glyphs
from droidpilot.perception.icons.glyphs.vocabulary import (
    glyph_word,
    longest_glyph_phrase,
    with_style_variants,
)
from droidpilot.perception.icons.imageio import to_bgr
from droidpilot.perception.icons.rank import locate_icon
from droidpilot.perception.icons.readings import readings_of
from droidpilot.perception.types import Box

REAL = Path(__file__).resolve().parents[3] / "shared" / "reference" / "mobile-eval-real"
needs_font = pytest.mark.skipif(not available(), reason="fonts-material-design-icons-iconfont not installed")
needs_real = pytest.mark.skipif(not REAL.is_dir(), reason=f"{REAL} (real-phone screens) is absent")


def _screen(path: str) -> np.ndarray:
    return np.asarray(Image.open(REAL / path).convert("RGB"))


def test_style_variants_follow_their_glyph_and_nothing_else() -> None:
    names = {"check_circle", "check_circle_outline", "home", "home_filled", "star", "star_half", "star_rate"}
    assert with_style_variants(["check_circle"], names) == ["check_circle", "check_circle_outline"]
    assert with_style_variants(["home"], names) == ["home", "home_filled"]
    assert with_style_variants(["star"], names) == ["star"]  # a half star is another icon, not a style


@needs_font
def test_a_word_brings_the_outlined_and_filled_glyphs() -> None:
    assert "check_circle_outline" in phrase_glyphs("check circle")
    assert "home_filled" in phrase_glyphs("house")
    assert "star_half" not in phrase_glyphs("star")


def test_glyphs_are_named_by_everyday_words() -> None:
    assert glyph_word("settings") == "gear"
    assert glyph_word("favorite_border") == "heart"  # the style suffix dropped
    assert glyph_word("shopping_cart_checkout") == "shopping cart checkout"  # not in the table: its name


def _best_fit(image: np.ndarray, box: Box, words: str) -> float:
    desc = describe_region(to_bgr(image), box)
    wanted = phrase_glyphs(words)
    return max(glyph_fits([r.descriptor for r in readings_of(desc)], wanted))


@needs_font
@needs_real
def test_real_outlined_and_filled_variants_fit_the_plain_word() -> None:
    # Google Maps' house is the font's home_filled; Notes' check in a circle its check_circle_outline
    # (each fitted about 0.55 when the word named the plain glyph only)
    assert _best_fit(_screen("Google Maps/2/3.jpg"), (35, 199, 55, 222), "house") >= 0.7
    notes = _screen("Notes/1/3.jpg")
    check = _best_fit(notes, (51, 705, 81, 735), "check circle")
    assert check >= 0.7
    # a ring as well, but not an "i" (the line drawings alone fitted "info" 0.85 while look-alike ring
    # glyphs were not counted as its rivals)
    assert _best_fit(notes, (51, 705, 81, 735), "info") <= 0.5 * check


@needs_font
@needs_real
def test_closest_candidates_name_real_shapes_not_drawn_symbols() -> None:
    result = locate_icon(_screen("Amazon Music/1/2.jpg"), "purple bell, top", ocr_lines=[])
    assert result.status == "not_found"
    assert "white bell (top left)" in result.closest
    for words in result.closest:  # 'orange star', 'brown arrow' before: real icons are not drawn symbols
        assert not {"star", "arrow", "plus"} & set(words.split()), result.closest


@needs_font
def test_the_longest_phrases_of_the_synonym_table_are_read_whole() -> None:
    # four- and five-word entries were never reached when phrases stopped at three words
    assert longest_glyph_phrase(["up", "and", "down", "arrows"], 0) == (4, ("swap_vert", "import_export"))
    assert longest_glyph_phrase(["three", "dots", "in", "a", "circle"], 0)[0] == 5
    assert longest_glyph_phrase(["up", "and", "away"], 0)[0] < 3  # a near miss stays short


def test_a_glyph_drawn_exactly_like_another_is_named_by_the_common_word() -> None:
    # the font draws "grade" and "star" alike: a yellow star must be offered as a star whichever fits first
    assert glyph_word("grade") == "star"
    assert glyph_word("star") == "star"
    assert glyph_word("grading") != "star"  # only the listed twin is renamed, not names that start alike
