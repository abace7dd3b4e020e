"""Glyphs on tiles: the glyph read clean of the tile's rim, at half its contrast, and tapped where it is."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw
from tests.support.glyphs import paint_glyph

from droidpilot.perception.icons import locate_icon
from droidpilot.perception.icons.describe import describe_region
from droidpilot.perception.icons.glyphs import available, glyph_mask, mask_descriptor
from droidpilot.perception.icons.glyphs.descriptor import shape_part
from droidpilot.perception.icons.glyphs.match import glyph_fits
from droidpilot.perception.icons.tiles import find_tile
from droidpilot.perception.types import Box

pytestmark = pytest.mark.skipif(not available(), reason="fonts-material-design-icons-iconfont not installed")
W, H = 720, 1600
BLUE = (26, 115, 232)


def _tile_crop(glyph: str, speck: bool) -> tuple[np.ndarray, np.ndarray, Box]:
    """A 76-px blue launcher tile with a white glyph, on a crop whose mask took in the page around it;
    with ``speck``, a pale bit of wallpaper on the tile's edge inside the outline (as real launchers)."""
    img = Image.new("RGBA", (88, 88), (205, 200, 225, 255))
    ImageDraw.Draw(img).rounded_rectangle((6, 6, 81, 81), 18, fill=(*BLUE, 255))
    box = paint_glyph(img, glyph, (24, 24), 40, (255, 255, 255))
    if speck:
        ImageDraw.Draw(img).rectangle((13, 70, 17, 74), fill=(220, 215, 235, 255))
    crop = cv2.cvtColor(np.asarray(img.convert("RGB")), cv2.COLOR_RGB2BGR)
    mask = np.ones(crop.shape[:2], np.uint8)  # the page around the tile differs from the ring: all "icon"
    return crop, mask, box


def test_a_speck_on_the_tiles_rim_is_not_part_of_its_glyph() -> None:
    clean = find_tile(*_tile_crop("person", speck=False)[:2])
    crop, mask, box = _tile_crop("person", speck=True)
    specked = find_tile(crop, mask)
    assert clean is not None and specked is not None
    assert specked.box == clean.box  # the glyph's own ink box, the speck left out
    assert box[0] - 1 <= specked.box[0] and specked.box[2] <= box[2] + 1
    assert glyph_fits([specked.descriptor], ["person"])[0] >= 0.9


def test_a_glyph_touching_the_core_rim_alone_is_still_read() -> None:
    # a glyph that fills its tile (nothing clear of the rim) keeps its ink rather than losing the glyph
    img = Image.new("RGBA", (60, 60), (255, 255, 255, 255))
    ImageDraw.Draw(img).rectangle((4, 4, 55, 55), fill=(*BLUE, 255))
    ImageDraw.Draw(img).rectangle((8, 8, 51, 51), outline=(255, 255, 255, 255), width=4)
    crop = cv2.cvtColor(np.asarray(img.convert("RGB")), cv2.COLOR_RGB2BGR)
    page = (np.abs(crop.astype(np.int16) - 255).max(axis=2) > 24).astype(np.uint8)
    tile = find_tile(crop, page)
    assert tile is not None and tile.box is not None
    assert tile.box[2] - tile.box[0] >= 40  # the whole frame


def _blurred_ring_tile() -> tuple[np.ndarray, np.ndarray]:
    """A blue disc with a thin white ring, blurred as a small JPEG'd screenshot blurs it."""
    big = np.full((240, 240, 3), 255, np.uint8)
    cv2.circle(big, (120, 120), 110, BLUE[::-1], -1, cv2.LINE_AA)
    cv2.circle(big, (120, 120), 40, (255, 255, 255), 12, cv2.LINE_AA)
    small = cv2.GaussianBlur(cv2.resize(big, (40, 40), interpolation=cv2.INTER_AREA), (3, 3), 1.2)
    mask = (np.abs(small.astype(np.int16) - 255).max(axis=2) > 24).astype(np.uint8)
    return small, mask


def test_a_thin_outlined_glyph_keeps_its_hole_on_a_high_contrast_tile() -> None:
    crop, mask = _blurred_ring_tile()
    tile = find_tile(crop, mask)
    assert tile is not None and tile.descriptor is not None
    ring, disc = np.zeros((64, 64), np.uint8), np.zeros((64, 64), np.uint8)
    cv2.circle(ring, (32, 32), 26, 1, 6)
    cv2.circle(disc, (32, 32), 29, 1, -1)
    like = {n: float(shape_part(tile.descriptor) @ shape_part(mask_descriptor(m)))
            for n, m in (("ring", ring), ("disc", disc))}
    assert like["ring"] > like["disc"] + 0.05, like  # a ring, not a disc its blur swelled


def _discs_with_glyphs(names: list[str | None]) -> tuple[np.ndarray, list[Box]]:
    """Blue discs in a column with white glyphs (or none), as a settings page lists its sections."""
    img = Image.new("RGBA", (W, H), (255, 255, 255, 255))
    draw = ImageDraw.Draw(img)
    discs = []
    for i, name in enumerate(names):
        cx, cy = 80, 300 + 160 * i
        draw.ellipse((cx - 40, cy - 40, cx + 40, cy + 40), fill=(*BLUE, 255))
        if name is not None:
            paint_glyph(img, name, (cx - 24, cy - 24), 48, (255, 255, 255))
        discs.append((cx - 40, cy - 40, cx + 41, cy + 41))
    return np.asarray(img.convert("RGB")), discs


def _inside(point: tuple[int, int], box: Box) -> bool:
    return box[0] <= point[0] < box[2] and box[1] <= point[1] < box[3]


@pytest.mark.parametrize("bell", ["notifications", "notifications_none"])  # filled and outlined bells
def test_the_disc_with_the_asked_glyph_is_found_among_discs_that_tie_on_colour_and_outline(bell: str) -> None:
    img, discs = _discs_with_glyphs(["wifi", "image", bell, "bluetooth", "settings"])
    result = locate_icon(img, "blue circle with bell", ocr_lines=[])
    assert result.status == "found", result.to_dict()
    assert _inside(result.candidates[0].point, discs[2])


@pytest.mark.parametrize(("query", "glyphs"), [
    ("blue circle with bell", ["shopping_bag", "image", None]),  # a bag is no bell
    ("blue circle with share nodes", ["arrow_back", "image", None]),  # nor a back arrow a share
    ("blue circle with map pin", ["water_drop", "image", None]),  # nor a drop a pin
])
def test_a_look_alike_glyph_on_a_disc_is_not_taken_for_the_asked_one(query: str, glyphs) -> None:
    img, discs = _discs_with_glyphs(glyphs)
    result = locate_icon(img, query, ocr_lines=[])
    assert not (result.status == "found" and _inside(result.candidates[0].point, discs[0])), result.to_dict()


def test_a_glyph_on_a_wide_chip_is_tapped_on_the_glyph() -> None:
    img = Image.new("RGBA", (W, H), (255, 255, 255, 255))
    ImageDraw.Draw(img).rounded_rectangle((20, 400, 200, 460), 30, fill=(230, 232, 236, 255))
    glyph = paint_glyph(img, "restaurant", (36, 412), 36, (32, 33, 36))
    result = locate_icon(np.asarray(img.convert("RGB")), "fork and knife", ocr_lines=[])
    assert result.status == "found", result.to_dict()
    assert _inside(result.candidates[0].point, glyph), (result.candidates[0].point, glyph)


def test_the_glyph_box_is_on_the_screen() -> None:
    img, discs = _discs_with_glyphs(["image"])
    desc = describe_region(cv2.cvtColor(img, cv2.COLOR_RGB2BGR), discs[0])
    assert desc.tile is not None and desc.tile.box is not None
    x1, y1, x2, y2 = desc.tile.box
    assert discs[0][0] < x1 < x2 < discs[0][2] and discs[0][1] < y1 < y2 < discs[0][3]
    ink = glyph_mask("image")
    assert abs((x2 - x1) / (y2 - y1) - ink.shape[1] / ink.shape[0]) < 0.15
    assert mask_descriptor(ink) is not None


def _scored_at(box: Box, shape: float, position: float):
    from droidpilot.perception.icons.candidates import Region
    from droidpilot.perception.icons.describe import IconDescription
    from droidpilot.perception.icons.scored import ScoredIcon

    desc = IconDescription("gray", 1.0, "unknown", 0.0)
    score = (0.05 + 0.95 * shape) * (0.1 + 0.9 * position)
    return ScoredIcon(Region(box, "mask"), desc, None, shape, position, None, score, "icon", shape)


def test_a_candidate_a_hair_short_of_fitting_keeps_the_fitting_one_from_being_tapped_unasked() -> None:
    from droidpilot.perception.icons.outcome import icon_outcome as _outcome
    from droidpilot.perception.icons.query import parse_icon_query

    # TikTok's inbox tab fits "inbox" 0.40, just under the 0.45 a shape must fit; a tray-like icon
    # mid-screen fits 0.54: tapping the one that fits is a guess, and a wrong tap costs more than asking
    page = np.full((1170, 540, 3), 255, np.uint8)
    query = parse_icon_query("inbox, bottom")
    middle, tab = _scored_at((41, 700, 102, 761), 0.535, 0.83), _scored_at((361, 1083, 395, 1117), 0.40, 1.0)
    result = _outcome(page, query, sorted([middle, tab], key=lambda s: -s.score))
    # the two tie on looks; the place words then pick the tab, clearly the further toward the bottom
    assert result.status == "found" and _inside(result.candidates[0].point, tab.region.box), result.to_dict()
    far = _scored_at((361, 1083, 395, 1117), 0.10, 1.0)  # clearly no inbox: the fitting one is found
    assert _outcome(page, query, [middle, far]).candidates[0].point == middle.point
    beside = _scored_at((61, 1083, 95, 1117), 0.43, 1.0)  # level with another fitting one: ask
    level = _scored_at((200, 1080, 240, 1120), 0.535, 1.0)
    assert _outcome(page, query, sorted([level, beside], key=lambda s: -s.score)).status == "ambiguous"


def _selected_lens_and_play_disc() -> tuple[np.ndarray, Box, Box]:
    """A dark tab bar's selected search tab (a cyan lens drawn as a ring, a dark gap and a cyan inner
    disc, with a handle) and a cyan play button (a cyan disc with a black triangle), as a music app
    draws them."""
    page = np.full((1170, 540, 3), 30, np.uint8)  # BGR, dark
    cyan = (212, 188, 0)
    big = np.full((124, 124, 3), 30, np.uint8)
    cv2.circle(big, (52, 52), 44, cyan, -1, cv2.LINE_AA)
    cv2.circle(big, (52, 52), 32, (30, 30, 30), 6, cv2.LINE_AA)
    cv2.line(big, (86, 86), (116, 116), cyan, 12, cv2.LINE_AA)
    page[1074:1105, 152:183] = cv2.resize(big, (31, 31), interpolation=cv2.INTER_AREA)
    cv2.circle(page, (463, 941), 36, cyan, -1, cv2.LINE_AA)
    tri = np.array([(452, 922), (452, 960), (482, 941)], np.int32)
    cv2.fillPoly(page, [tri], (0, 0, 0), cv2.LINE_AA)
    return cv2.cvtColor(page, cv2.COLOR_BGR2RGB), (152, 1074, 183, 1105), (427, 905, 500, 978)


def test_a_two_tone_selected_lens_is_not_a_cyan_circle_beside_a_cyan_disc() -> None:
    img, lens, disc = _selected_lens_and_play_disc()
    result = locate_icon(img, "turquoise circle", ocr_lines=[])
    assert result.status == "found" and _inside(result.candidates[0].point, disc), result.to_dict()
    assert _inside(locate_icon(img, "cyan magnifier", ocr_lines=[]).candidates[0].point, lens)


def test_a_look_alike_symbol_does_not_tie_with_the_asked_one() -> None:
    # "white x": a plus fits the x glyph 0.75 (a turned cross); that must not lift the plus discs to a
    # tie with the x disc (the glyph backs a tile's outline, not a symbol class it names itself)
    img, discs = _discs_with_glyphs(["add", "close", "add"])
    result = locate_icon(img, "white x", ocr_lines=[])
    assert result.status == "found" and _inside(result.candidates[0].point, discs[1]), result.to_dict()
