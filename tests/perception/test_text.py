"""Text localization outcomes (found, ambiguous with crops, too_many, not_found with closest texts) on
rendered screens read by the real engine, and the matching rules on hand-made OCR lines."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from PIL import Image, ImageDraw

from droidpilot.errors import InputError
from droidpilot.perception.rapid import RapidOcrEngine
from droidpilot.perception.synth import SynthScreen, draw_label, font
from droidpilot.perception.text import locate_text, locate_text_in_image
from droidpilot.perception.types import Box, OcrLine


def inside(point: tuple[int, int], box: Box, slack: int = 0) -> bool:
    return box[0] - slack <= point[0] <= box[2] + slack and box[1] - slack <= point[1] <= box[3] + slack


@pytest.fixture(scope="module")
def shop() -> SynthScreen:
    """A shopping list: three products with an "Add to cart" button each, six "Buy" chips in a grid."""
    img = Image.new("RGB", (540, 640), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    labels = [draw_label(draw, (24, 20), "Cart", font(30, bold=True), (0, 0, 0))]
    for i, name in enumerate(["Green tea", "Oolong", "Jasmine"]):
        y = 90 + i * 90
        labels.append(draw_label(draw, (24, y), name, font(24), (0, 0, 0)))
        draw.rounded_rectangle((330, y - 10, 510, y + 36), 10, fill=(26, 115, 232))
        labels.append(draw_label(draw, (348, y), "Add to cart", font(22), (255, 255, 255)))
    for i in range(6):
        row, col = divmod(i, 3)
        labels.append(draw_label(draw, (50 + col * 170, 420 + row * 90), "Buy", font(26), (0, 0, 0)))
    return SynthScreen(img, labels)


def test_found_prefers_the_exact_line_over_lines_containing_it(list_screen: Callable, read_lines: Callable
                                                               ) -> None:
    screen = list_screen()
    result = locate_text(read_lines(screen.image), "apps", screen.image.size, screen.image)
    assert result.status == "found"
    (cand,) = result.candidates
    assert cand.text == "Apps" and inside(cand.point, screen.label("Apps").box)


def test_text_inside_a_longer_line_taps_its_own_part(list_screen: Callable, read_lines: Callable) -> None:
    screen = list_screen()
    line = screen.label("Wi-Fi, mobile, data usage")
    result = locate_text(read_lines(screen.image), "Wi-Fi", screen.image.size)
    assert result.status == "found"
    point = result.candidates[0].point
    assert inside(point, line.box, slack=4)
    assert point[0] < (line.box[0] + line.box[2]) / 2  # the left part, where "Wi-Fi" is written


def test_misspelt_query_is_found_fuzzily(list_screen: Callable, read_lines: Callable) -> None:
    screen = list_screen()
    result = locate_text(read_lines(screen.image), "Notifcations", screen.image.size)
    assert result.status == "found" and result.candidates[0].text == "Notifications"
    assert result.candidates[0].score < 1.0


def test_chinese_text_is_found(list_screen: Callable, read_lines: Callable) -> None:
    screen = list_screen(lang="zh", theme="dark")
    result = locate_text(read_lines(screen.image), "隐私", screen.image.size)
    assert result.status == "found" and inside(result.candidates[0].point, screen.label("隐私").box)


def test_not_found_offers_the_closest_texts(list_screen: Callable, read_lines: Callable) -> None:
    screen = list_screen()
    result = locate_text(read_lines(screen.image), "Storage settings", screen.image.size)
    assert result.status == "not_found" and not result.candidates
    assert {"Storage", "Settings"} <= set(result.closest[:3])
    assert result.to_dict()["closest"] == result.closest


def test_ambiguous_gives_each_candidate_a_crop_with_its_box_drawn(shop: SynthScreen, read_lines: Callable
                                                                   ) -> None:
    result = locate_text(read_lines(shop.image), "Add to cart", shop.image.size, shop.image)
    assert result.status == "ambiguous" and len(result.candidates) == 3
    assert [c.point[1] for c in result.candidates] == sorted(c.point[1] for c in result.candidates)
    for cand in result.candidates:
        crop = cand.crop
        assert isinstance(crop, Image.Image)
        width, height = cand.box[2] - cand.box[0], cand.box[3] - cand.box[1]
        assert crop.width > width and crop.height > height  # context around the box
        pixels = np.asarray(crop)
        assert ((pixels[:, :, 0] > 200) & (pixels[:, :, 1] < 40) & (pixels[:, :, 2] < 40)).any()  # red box


def test_more_than_four_matches_is_too_many(shop: SynthScreen, read_lines: Callable) -> None:
    result = locate_text(read_lines(shop.image), "Buy", shop.image.size, shop.image)
    assert result.status == "too_many" and len(result.candidates) == 6
    assert all(c.crop is None for c in result.candidates)


def test_convenience_reads_the_image_with_the_engine(rapid_engine: RapidOcrEngine, text_image: Callable
                                                     ) -> None:
    img = text_image(["Cancel", "Continue"], size=26, width=300)
    result = locate_text_in_image(img, "continue", rapid_engine)
    assert result.status == "found" and result.candidates[0].text == "Continue"


SCREEN = (1080, 2400)


def line(text: str, box: Box) -> OcrLine:
    return OcrLine(text, box, 0.99)


def test_a_one_letter_line_never_matches_inside_a_long_query() -> None:
    lines = [line("A", (40, 100, 70, 140)), line("Add account", (100, 300, 400, 350))]
    result = locate_text(lines, "Add account", SCREEN)
    assert result.status == "found" and result.candidates[0].text == "Add account"
    assert locate_text([line("A", (40, 100, 70, 140))], "Add a new account", SCREEN).status == "not_found"


def test_boxes_covering_much_of_the_screen_are_ignored() -> None:
    lines = [line("Terms of service and privacy", (0, 0, 1080, 1400)),
             line("Privacy", (100, 1500, 300, 1550))]
    result = locate_text(lines, "Terms of service and privacy", SCREEN)
    assert result.status == "not_found"
    assert locate_text(lines, "Privacy", SCREEN).status == "found"


def test_a_label_split_into_two_lines_is_rejoined() -> None:
    lines = [line("Network &", (100, 500, 300, 550)), line("internet", (320, 500, 480, 550)),
             line("Google Play", (600, 900, 800, 940)), line("Store", (650, 950, 750, 990))]
    side = locate_text(lines, "Network & internet", SCREEN)
    assert side.status == "found" and side.candidates[0].box == (100, 500, 480, 550)
    stacked = locate_text(lines, "Google Play Store", SCREEN)
    assert stacked.status == "found" and stacked.candidates[0].box == (600, 900, 800, 990)


def test_a_list_title_wrapped_onto_left_aligned_overlapping_lines_is_rejoined() -> None:
    # As OCR reads a shop result: the second line starts at the same left edge, boxes overlap by 2 px.
    lines = [line("Classic Baseball Cap,", (422, 325, 858, 382)),
             line("Adjustable Cotton", (419, 380, 793, 440)), line("US$ 2.10", (419, 440, 591, 492))]
    result = locate_text(lines, "Classic Baseball Cap, Adjustable Cotton", SCREEN)
    assert result.status == "found" and result.candidates[0].box == (419, 325, 858, 440)


def test_case_matters_only_when_asked() -> None:
    lines = [line("OK", (100, 100, 160, 140)), line("ok", (100, 300, 160, 340))]
    assert locate_text(lines, "OK", SCREEN).status == "ambiguous"
    strict = locate_text(lines, "OK", SCREEN, ignore_case=False)
    assert strict.status == "found" and strict.candidates[0].box == (100, 100, 160, 140)


def test_full_width_and_confusions_still_match_exactly() -> None:
    lines = [line("Ｗｉ－Ｆｉ", (100, 100, 300, 140)), line("lnbox", (100, 300, 260, 340))]
    assert locate_text(lines, "Wi-Fi", SCREEN).candidates[0].score == 1.0
    assert locate_text(lines, "Inbox", SCREEN).candidates[0].score == 1.0


def test_empty_query_is_an_input_error() -> None:
    with pytest.raises(InputError, match="empty"):
        locate_text([], "  ", SCREEN)


def test_a_standalone_label_wins_over_the_same_word_ending_a_wrapped_label() -> None:
    # Amazon Music's tiles: "All-Access" over "Playlists" on one tile, "Playlists" alone on another.
    lines = [OcrLine("All-Access", (86, 900, 202, 930), 0.99),
             OcrLine("Playlists", (94, 935, 194, 967), 0.99),
             OcrLine("New Releases", (60, 830, 220, 860), 0.99),
             OcrLine("Playlists", (94, 1085, 194, 1116), 0.99)]
    result = locate_text(lines, "Playlists", (540, 1170))
    assert result.status == "found" and result.candidates[0].box == (94, 1085, 194, 1116)


def test_a_title_over_a_smaller_subtitle_is_not_a_wrapped_label() -> None:
    # "Jay Chou" over a smaller "Artist" (a list row), and "Jay Chou" alone: both stay for the model.
    lines = [OcrLine("Jay Chou", (118, 365, 224, 392), 0.99), OcrLine("Artist", (118, 395, 160, 412), 0.99),
             OcrLine("Jay Chou", (118, 590, 224, 617), 0.99)]
    assert locate_text(lines, "Jay Chou", (540, 1170)).status == "ambiguous"


def test_two_wrapped_labels_ending_alike_stay_ambiguous() -> None:
    lines = [OcrLine("All-Access", (86, 700, 202, 730), 0.99),
             OcrLine("Playlists", (94, 735, 194, 767), 0.99),
             OcrLine("Top", (120, 950, 170, 980), 0.99),
             OcrLine("Playlists", (94, 985, 194, 1016), 0.99)]
    assert locate_text(lines, "Playlists", (540, 1170)).status == "ambiguous"


def test_a_title_over_a_subtitle_of_nearly_its_height_is_not_a_wrapped_label() -> None:
    # SimPhone Maps after a search: the query in the search field, and the result's title over a subtitle
    # almost as tall ("Hotel · 1.3 km · ★ 4.2"); the title must stay a candidate (it was dropped as "wrapped")
    lines = [OcrLine("Campus Stay Hotel", (169, 156, 702, 223), 0.99),
             OcrLine("Campus Stay Hotel", (196, 327, 610, 379), 0.99),
             OcrLine("Hotel · 1.3 km · ★ 4.2", (193, 387, 572, 431), 0.99)]
    result = locate_text(lines, "Campus Stay Hotel", (1080, 2400))
    assert result.status == "ambiguous" and len(result.candidates) == 2


def test_a_left_aligned_address_over_a_title_is_not_a_wrapped_label() -> None:
    # SimPhone Browser: a score card's big title, then a result's address over the same title (left-aligned
    # lines of other widths, not a centred tile label): both titles stay candidates
    lines = [OcrLine("Lakers 118 - 112 Warriors", (45, 376, 983, 440), 0.99),
             OcrLine("sports.simsearch.dev > nba > lakers", (43, 501, 580, 542), 0.99),
             OcrLine("Lakers 118 - 112 Warriors", (45, 566, 620, 611), 0.99),
             OcrLine("Final. Today's game: Los Angeles Lakers beat Golden", (43, 624, 978, 670), 0.99)]
    result = locate_text(lines, "Lakers 118 - 112 Warriors", (1080, 2400))
    assert result.status == "ambiguous" and len(result.candidates) == 2
