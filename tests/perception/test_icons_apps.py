"""Icons named by their app or brand: the label under or beside a tile names the app, the brand table is
the fallback when no label does, and a name nobody shows is a clear not_found, never a refusal."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from droidpilot.errors import InputError
from droidpilot.perception.icons import locate_icon, parse_icon_query
from droidpilot.perception.icons.apps import app_labels, labelled, labels_naming
from droidpilot.perception.icons.brands import brand_table, parse_brands
from droidpilot.perception.icons.drawing import DrawnIcon, as_rgb, blank_screen, draw_icon
from droidpilot.perception.types import OcrLine

FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
W, H = 540, 1170


def _line(text: str, box: tuple[int, int, int, int]) -> OcrLine:
    return OcrLine(text, box, 0.99)


def _brands(*keys: str) -> list:
    return [brand_table()[k] for k in keys]


def _named(lines: list[OcrLine], query: str) -> list[str]:
    q = parse_icon_query(query, names_ok=True)
    return [lb.text for lb in labels_naming(lines, q.names, _brands(*q.brands), H)]


# -- parsing -------------------------------------------------------------------------------------------
def test_brand_words_are_understood_and_not_read_as_glyphs() -> None:
    for text in ("YouTube", "youtube app", "the YouTube logo", "red youtube icon"):
        q = parse_icon_query(text)
        assert q.brands == ("youtube",) and q.unknown == (), text
    store = parse_icon_query("play store triangle")
    assert store.brands == ("play store",) and store.shape == "triangle" and "store" not in store.glyphs
    maps = parse_icon_query("google maps pin")
    assert maps.brands == ("google maps",) and "map" not in maps.glyphs and "place" in maps.glyphs
    music = parse_icon_query("cyan amazon music icon")
    assert music.brands == ("amazon music",) and music.colour == "cyan"  # the longest name wins
    assert parse_icon_query("amazon icon").brands == ("amazon",)  # was refused: no colour, no shape


def test_near_miss_words_are_not_brands() -> None:
    assert parse_icon_query("red tube", names_ok=True).brands == ()
    assert parse_icon_query("you icon", names_ok=True).brands == ()
    assert parse_icon_query("x in a circle").brands == ()  # "x" alone is a glyph, not twitter's x


def test_a_name_nobody_knows_is_kept_for_the_labels_not_refused() -> None:
    with pytest.raises(InputError, match="names no colour and no shape"):
        parse_icon_query("frobnicator icon")  # the parser alone still says it was not understood
    q = parse_icon_query("frobnicator icon", names_ok=True)
    assert q.names == ("frobnicator",) and q.unknown == ("frobnicator",)
    with pytest.raises(InputError, match="names no colour and no shape"):
        parse_icon_query("the icon", names_ok=True)  # filler alone names nothing at all


def test_letters_in_an_icon_and_shapes_after_in() -> None:
    w = parse_icon_query("purple circle with letter W, top")
    assert w.texts == ("w",) and w.unknown == () and w.shape == "circle"
    assert parse_icon_query("circle with letter w").texts == ("w",)  # lower case after "letter"
    assert parse_icon_query("circle with dots").texts == ()  # "with" alone does not make text
    check = parse_icon_query("check in a circle")  # "in a circle" is the icon's shape, not a place
    assert check.shape == "circle" and check.container is None and "check_circle" in check.glyphs
    bar = parse_icon_query("camera icon in the search bar")
    assert bar.container == "search bar" and bar.shape is None
    assert parse_icon_query("sparkle icon on the cyan button").container == "cyan button"


# -- labels --------------------------------------------------------------------------------------------
def test_labels_that_name_the_app_and_near_misses() -> None:
    lines = [_line("Alibaba.com", (154, 888, 260, 910)), _line("Play Store", (414, 716, 504, 741)),
             _line("YouTube Music", (20, 300, 160, 325)), _line("Play Games", (200, 300, 320, 325)),
             _line("YouTube·2d", (86, 1013, 198, 1035))]
    assert _named(lines, "orange alibaba icon") == ["Alibaba.com"]  # the web suffix does not count
    assert _named(lines, "play store triangle") == ["Play Store"]
    assert _named(lines, "google play") == ["Play Store"]  # the brand's own other label
    assert _named(lines, "youtube icon") == []  # "YouTube Music" and "YouTube·2d" name more than it
    assert _named(lines, "youtube music") == ["YouTube Music"]
    assert _named(lines, "play games store") == ["Play Store", "Play Games"]  # equally named: both


def test_a_two_line_label_is_one_label_and_its_first_line_not_alone() -> None:
    lines = [_line("Amazon", (297, 887, 371, 912)), _line("Music", (304, 908, 362, 932)),
             _line("Instagram", (116, 800, 219, 827)), _line("Social • Networking", (117, 832, 287, 858))]
    texts = [lb.text for lb in app_labels(lines, H)]
    assert "Amazon Music" in texts and "Amazon" not in texts
    assert "Instagram" in texts  # a title over a left-aligned subtitle stays alone
    assert _named(lines, "cyan amazon music icon") == ["Amazon Music"]
    assert _named(lines, "amazon icon") == []  # the Amazon Music tile is not Amazon's


def test_a_store_title_names_the_app_it_opens_with() -> None:
    lines = [_line("Chamet - Live Video Chat&Meet", (119, 935, 432, 961)),
             _line("Bigo Live-Live Stream, Go Live", (118, 664, 418, 690))]
    assert _named(lines, "chamet icon") == ["Chamet - Live Video Chat&Meet"]
    assert _named(lines, "live icon") == []  # a word inside a title is not its app


def test_which_box_a_label_names() -> None:
    label = (53, 715, 108, 742)  # "Maps" under its launcher tile
    assert labelled((44, 632, 120, 708), label) > 0.7
    assert labelled((44, 461, 120, 537), label) == 0  # the tile a row above
    assert labelled((170, 632, 246, 708), label) == 0  # the next tile along the row
    assert labelled((42, 630, 170, 755), label) == 0  # a box holding the label itself
    row = (116, 800, 219, 827)  # "Instagram" beside its store tile
    assert labelled((18, 797, 104, 884), row) > 0
    assert labelled((84, 803, 110, 822), row) > labelled((18, 797, 104, 884), row)  # a chip's icon
    assert labelled((18, 500, 104, 587), row) == 0


# -- the brand table -----------------------------------------------------------------------------------
def test_a_name_written_on_a_tile_names_that_tile() -> None:
    # Google Play's Tigo listing: "Tigo" written on the purple logo tile (training screen Google Play/3/4)
    tigo, label = (352, 618, 507, 774), (386, 666, 476, 717)
    assert labelled(tigo, label) == 1.0
    assert labelled((184, 618, 338, 772), label) < 1.0  # the neighbour's tile beside it, less surely
    # near misses: a row or a card holding the title is wide, not a tile; a box far taller than the text
    assert labelled((20, 650, 520, 730), label) == 0.0
    assert labelled((380, 500, 480, 900), label) == 0.0
    assert labelled((372, 600, 490, 712), label) == 0.0  # a tile whose text is along its bottom edge


def test_a_label_saying_part_of_a_name_settles_the_words_running_on_from_it() -> None:
    from droidpilot.perception.icons.scene import name_run, read_scene

    assert name_run(["chicago", "bulls", "logo"], ("chicago", "bulls"), ("bulls",)) == {"chicago", "bulls"}
    # near misses: a label naming none; a place word between ("at the") breaks the run; a label naming a
    # word only with an OCR slip ("Shopping" for "showing") settles that word but runs on to no other
    assert name_run(["chicago", "bulls"], ("chicago", "bulls"), ("lakers",)) == set()
    assert name_run(["tree", "pin", "at", "the", "park"], ("tree", "pin", "park"), ("park",)) == {"park"}
    assert name_run(["tab", "switcher", "showing"], ("tab", "switcher", "showing"), ("shopping",)) \
        == {"showing"}
    page = blank_screen(540, 1170, "light")
    bulls = [OcrLine("Bulls", (461, 814, 522, 846), 0.99)]  # a scoreboard's team name under its logo
    query, scene = read_scene(page, parse_icon_query("chicago bulls logo", names_ok=True), bulls)
    assert scene.labels and query.unknown == ()
    lakers = [OcrLine("Lakers", (18, 815, 99, 845), 0.99)]
    query, scene = read_scene(page, parse_icon_query("chicago bulls logo", names_ok=True), lakers)
    assert not scene.labels and "chicago" in query.unknown  # nothing on screen says the name


def test_every_brand_look_is_a_description_the_parser_reads() -> None:
    for brand in brand_table().values():
        if brand.looks:
            q = parse_icon_query(brand.looks)
            assert q.unknown == () and (q.has_shape or q.colour), brand.key


def test_a_bad_brand_table_is_a_clear_error() -> None:
    with pytest.raises(InputError, match=r"brand 'acme'.*colour\(s\) ultraviolet"):
        parse_brands({"acme": {"colours": ["ultraviolet"]}}, "brands.yaml")
    with pytest.raises(InputError, match=r"unknown field.*shade"):
        parse_brands({"acme": {"shade": "red"}})
    with pytest.raises(InputError, match="expected a mapping"):
        parse_brands(["youtube"])


# -- locating on a drawn launcher ----------------------------------------------------------------------
def _launcher(apps: list[tuple[str, str, str]]) -> tuple[np.ndarray, dict[str, DrawnIcon], list[OcrLine]]:
    """Tiles in a row (label, drawn shape, colour) with their labels under them, drawn with Pillow."""
    img = blank_screen(W, H, "light")
    tiles: dict[str, DrawnIcon] = {}
    for k, (_, shape, colour) in enumerate(apps):
        tiles[apps[k][0]] = draw_icon(img, shape, (80 + 125 * k, 400), 70, colour)
    pil = Image.fromarray(cv2.cvtColor(img, cv2.COLOR_BGR2RGB))
    draw = ImageDraw.Draw(pil)
    font = ImageFont.truetype(str(FONT), 20) if FONT.exists() else ImageFont.load_default()
    lines = []
    for k, (label, _, _) in enumerate(apps):
        width = draw.textlength(label, font=font)
        at = (80 + 125 * k - width / 2, 450)
        draw.text(at, label, fill=(40, 40, 40), font=font)
        lines.append(OcrLine(label, tuple(int(v) for v in draw.textbbox(at, label, font=font)), 0.99))
    return cv2.cvtColor(np.asarray(pil), cv2.COLOR_RGB2BGR), tiles, lines


def _hit(result, icon: DrawnIcon) -> bool:
    x, y = result.candidates[0].point if result.candidates else (-1, -1)
    b = icon.box
    return result.status == "found" and b[0] <= x < b[2] and b[1] <= y < b[3]


def test_the_label_picks_the_tile_where_colours_alone_cannot() -> None:
    img, tiles, lines = _launcher([("Netflix", "rounded square", "red"), ("YouTube", "rounded square", "red"),
                                   ("Recorder", "circle", "red"), ("Maps", "square", "green")])
    for query in ("youtube icon", "red youtube icon", "the YouTube logo", "youtube app"):
        assert _hit(locate_icon(as_rgb(img), query, ocr_lines=lines), tiles["YouTube"]), query
    # a brand whose colours fit (red) but whose label names another app is not taken
    assert _hit(locate_icon(as_rgb(img), "red netflix icon", ocr_lines=lines), tiles["Netflix"])
    assert _hit(locate_icon(as_rgb(img), "red recorder", ocr_lines=lines), tiles["Recorder"])


def test_a_label_that_almost_names_the_app_is_not_taken() -> None:
    img, tiles, lines = _launcher([("YouTube Music", "rounded square", "red"),
                                   ("YouTube Kids", "rounded square", "red")])
    result = locate_icon(as_rgb(img), "youtube studio icon", ocr_lines=lines)
    assert result.status != "found" or not any(_hit(result, t) for t in tiles.values())


def test_a_name_nobody_shows_is_not_found_with_the_labels_on_screen() -> None:
    img, _, lines = _launcher([("Netflix", "rounded square", "red"), ("Maps", "square", "green")])
    result = locate_icon(as_rgb(img), "frobnicator icon", ocr_lines=lines)
    assert result.status == "not_found" and result.closest == ["Netflix", "Maps"]
    assert result.unknown_words == ["frobnicator"]
    blank = locate_icon(as_rgb(blank_screen(W, H, "light")), "the thing you tap")
    assert blank.status == "not_found" and blank.unknown_words == ["thing", "you", "tap"]


def test_a_brand_with_no_label_on_screen_is_found_by_its_logo() -> None:
    img = blank_screen(W, H, "light")
    play = draw_icon(img, "triangle", (150, 500), 70, "red", rotation=90)
    draw_icon(img, "heart", (380, 500), 70, "red")
    draw_icon(img, "triangle", (260, 800), 70, "blue", rotation=90)
    result = locate_icon(as_rgb(img), "youtube icon", ocr_lines=[])
    assert _hit(result, play)  # youtube: a red play button (brands.yaml), not the red heart
    chrome = locate_icon(as_rgb(img), "chrome icon", ocr_lines=[])  # no circle of its colours here
    assert chrome.status == "not_found" and chrome.closest  # a clear answer with what is there


def test_a_logo_letter_ocr_reads_elsewhere_is_left_to_the_logo_colours() -> None:
    img = blank_screen(W, H, "light")
    for k, colour in enumerate(("blue", "red", "yellow", "green")):  # a four-coloured disc, Google's colours
        rgb = {"blue": (66, 133, 244), "red": (234, 67, 53), "yellow": (251, 188, 5), "green": (52, 168, 83)}
        cv2.ellipse(img, (60, 110), (22, 22), 0, 90 * k, 90 * k + 90, rgb[colour][::-1], -1)
    draw_icon(img, "circle", (160, 110), 44, "blue")  # one colour of the four: not the logo
    key = OcrLine("g", (250, 930, 280, 960), 0.99)  # a keyboard's "g" key, far from the asked place
    result = locate_icon(as_rgb(img), "google G logo, top left", ocr_lines=[key])
    assert result.status == "found" and 38 <= result.candidates[0].point[0] < 83
    # the same letter read in the asked place is what is meant ("G" written on a disc)
    cv2.circle(img, (480, 110), 22, (60, 60, 60), -1)
    on_disc = OcrLine("G", (470, 98, 490, 122), 0.99)
    found = locate_icon(as_rgb(img), "google G logo, top right", ocr_lines=[key, on_disc])
    assert found.status == "found" and found.candidates[0].point[0] > 440
