"""Lines drawn at an angle are cut out upright and read; upright lines keep the common path.

Real crops come from ../shared/reference/mobile-eval-real (Mobile-Agent v1's Mobile-Eval screens, MIT,
X-PLUG/MobileAgent; see its LICENSE): Google Maps street and metro names drawn along their roads, which the
axis-aligned hull crop read as nothing or as half a name.
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw

from droidpilot.perception.line_memo import LineMemo
from droidpilot.perception.normalize import match_key
from droidpilot.perception.rapid import RapidOcrEngine
from droidpilot.perception.synth import font
from droidpilot.perception.upright import MAX_UPRIGHT_TILT, TiltedLine, line_crop, tilt_of, tilted_line

REAL = Path(__file__).resolve().parents[3] / "shared" / "reference" / "mobile-eval-real"
real_screens = pytest.mark.skipif(not REAL.is_dir(), reason=f"{REAL} (real-phone screens) is absent")


def rectangle(cx: float, cy: float, length: float, height: float, degrees: float, start: int = 0,
              clockwise: bool = True) -> np.ndarray:
    """The corners of a ``length`` x ``height`` rectangle turned ``degrees`` anticlockwise on screen,
    listed from corner ``start`` in either direction (detection lists them in no fixed order)."""
    a = math.radians(degrees)
    u, v = np.array([math.cos(a), -math.sin(a)]), np.array([math.sin(a), math.cos(a)])
    corners = [np.array([cx, cy]) + sx * u * length / 2 + sy * v * height / 2
               for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    order = [(start + k) % 4 for k in range(4)]
    return np.array([corners[i] for i in (order if clockwise else order[::-1])], np.float32)


def scene(items: list[tuple[str, int, float, tuple[int, int]]], size: tuple[int, int]) -> Image.Image:
    """Dark text on white: (text, font size, degrees anticlockwise, top-left of its turned layer)."""
    img = Image.new("RGB", size, "white")
    for text, px, degrees, (x, y) in items:
        fnt = font(px)
        _, _, w, h = fnt.getbbox(text)
        layer = Image.new("L", (w + 8, h + 8), 0)
        ImageDraw.Draw(layer).text((4, 4), text, font=fnt, fill=255)
        layer = layer.rotate(degrees, resample=Image.BICUBIC, expand=True)
        img.paste((40, 40, 40), (x, y, x + layer.width, y + layer.height), layer)
    return img


def keys(lines: list) -> list[str]:
    return [match_key(ln.text) for ln in lines]


# -- geometry: which lines leave the common path ----------------------------------------------------------

@pytest.mark.parametrize(("degrees", "length", "height"), [
    (0, 300, 30), (2, 300, 30), (MAX_UPRIGHT_TILT - 0.05, 300, 30), (-2.5, 300, 30), (180, 300, 30),
    (3.1, 54, 25),  # a short label a few degrees off by detection noise: its hull is hardly taller
    (14, 45, 20), (5.5, 300, 30),  # hulls under twice the line's height (curved lettering, a long line)
    (45, 40, 32),  # too square to have a direction (one character, an icon)
    (32.8, 62, 34),  # a check mark's diagonal stroke (1.85): read upright it was a confident "L"
])
def test_upright_lines_and_square_boxes_keep_the_common_path(degrees: float, length: float,
                                                              height: float) -> None:
    for start in range(4):
        assert tilted_line(rectangle(200, 200, length, height, degrees, start)) is None


@pytest.mark.parametrize(("degrees", "reads"), [
    (6, (1, -1)), (30, (1, -1)), (-50, (1, 1)), (150, (1, 1)), (-120, (1, -1)),
    (90, (0, -1)), (-90, (0, -1)),  # upright: bottom to top
])
def test_a_tilted_line_reads_left_to_right_or_bottom_to_top_whatever_order_its_corners_come_in(
        degrees: float, reads: tuple[int, int]) -> None:
    for start in range(4):
        for clockwise in (True, False):
            line = tilted_line(rectangle(200, 200, 300, 30, degrees, start, clockwise))
            assert line is not None
            ux, uy = line.along
            assert (np.sign(round(ux, 6)), np.sign(round(uy, 6))) == reads
            assert line.length == pytest.approx(300, abs=0.01) and line.height == pytest.approx(30, abs=0.01)
            assert line.centre == pytest.approx((200, 200), abs=0.01)
            assert line.tilt == pytest.approx(tilt_of(rectangle(0, 0, 300, 30, degrees)), abs=1e-4)


def test_a_vertical_strip_is_its_hull_turned_as_before_and_read_both_ways_up() -> None:
    bgr = np.arange(40 * 30 * 3, dtype=np.uint8).reshape(40, 30, 3)
    box = (5, 2, 15, 38)  # 10 wide, 36 tall
    hull = bgr[2:38, 5:15]
    upright = tilted_line(rectangle(10, 20, 36, 10, 90))
    crop, both = line_crop(bgr, box, upright)
    assert both and np.array_equal(crop, np.rot90(hull))
    crop, both = line_crop(bgr, box, None)
    assert not both and np.array_equal(crop, np.rot90(hull))  # common path: the same crop, read once
    crop, both = line_crop(bgr, (2, 10, 28, 20), None)
    assert not both and np.array_equal(crop, bgr[10:20, 2:28])


def test_a_tilted_line_is_cut_out_along_its_own_rectangle() -> None:
    bgr = np.full((200, 200, 3), 255, np.uint8)
    line = tilted_line(rectangle(100, 100, 120, 20, 40))
    assert line is not None
    corners = line.corners().astype(np.int32)
    cv2.fillPoly(bgr, [corners], (0, 0, 0))  # the line's own rectangle black, the rest of its hull white
    crop, both = line_crop(bgr, (50, 50, 150, 150), line)
    assert both and crop.shape[:2] == (20, 120)
    assert crop[2:-2, 2:-2].max() == 0  # nothing of the hull around it



def test_a_line_read_both_ways_is_remembered_apart_from_the_same_pixels_read_once() -> None:
    crop = np.zeros((12, 40, 3), np.uint8)
    assert LineMemo.key(crop, 160) != LineMemo.key(crop, 160, both_ways=True)
    assert LineMemo.key(crop, 160, both_ways=True) == LineMemo.key(crop.copy(), 160, both_ways=True)


# -- reading ------------------------------------------------------------------------------------------------

@real_screens
@pytest.mark.parametrize(("screen", "region", "expected"), [
    # a metro line's name along its track at 54 degrees: the hull crop read nothing there
    ("Google Maps/2/7.jpg", (230, 300, 390, 490), ["Jingda Line"]),
    # a street name at 47 degrees (the hull read "北山"), a horizontal hotel name beside it, a street name
    # running up the screen's right edge, bottom to top (the hull, turned the other way, "Yanaa Rd")
    ("Google Maps/3/5.jpg", (140, 240, 540, 350), ["北山街", "Hyatt Regency Hangzhou", "Yan'an Rd"]),
])
def test_map_labels_drawn_at_an_angle_on_a_real_screen_are_read(rapid_engine: RapidOcrEngine, screen: str,
                                                                region: tuple[int, int, int, int],
                                                                expected: list[str]) -> None:
    crop = Image.open(REAL / screen).convert("RGB").crop(region)
    read = keys(rapid_engine.recognize(crop))
    for text in expected:
        assert match_key(text) in read, (text, read)


@real_screens
@pytest.mark.parametrize(("screen", "box", "common", "upright"), [
    # a name running up the map's edge: read the other way up it is far likelier
    ("Google Maps/3/5.jpg", (518, 269, 540, 348), "Yanaa Rd", "Yan'an Rd"),
    # a keyboard key's "i" under its "8", one tall box: the other way up ("一00" at 0.70) is a guess no
    # likelier than the common path's ("co" at 0.68), which stays
    ("Chrome/1/3.jpg", (395, 830, 412, 875), "co", "co"),
])
def test_a_strip_running_up_the_screen_is_turned_over_only_when_that_reads_clearly_better(
        rapid_engine: RapidOcrEngine, screen: str, box: tuple[int, int, int, int], common: str,
        upright: str) -> None:
    reader = rapid_engine._direct()
    bgr = np.ascontiguousarray(np.asarray(Image.open(REAL / screen).convert("RGB"))[:, :, ::-1])
    x1, y1, x2, y2 = box
    line = TiltedLine(((x1 + x2) / 2, (y1 + y2) / 2), (0.0, -1.0), y2 - y1, x2 - x1, 90.0)
    assert reader.recognize(bgr, [box], 160)[0][0] == common
    assert reader.recognize(bgr, [box], 160, tilted=[line])[0][0] == upright


def test_a_tall_box_too_short_to_be_a_line_keeps_the_common_path() -> None:
    """Two glyphs stacked (a key's letter under its digit: 45 x 17 after detection's margin) are not a line
    running up the screen; Yan'an Rd's box (79 x 24) is."""
    assert tilted_line(rectangle(403, 852, 45, 17, 90)) is None
    assert tilted_line(rectangle(403, 858, 28, 12, 86.6)) is None  # an upright "i", a little off
    assert tilted_line(rectangle(60, 211, 91, 39, 84.5)) is None
    assert tilted_line(rectangle(403, 852, 45, 17, 60)) is not None  # the same box along a road
    assert tilted_line(rectangle(529, 308, 79, 24, 88.6)) is not None


def test_a_horizontal_line_inside_a_tilted_lines_hull_is_read_apart_from_it(
        rapid_engine: RapidOcrEngine) -> None:
    img = scene([("Central Avenue", 22, 40, (20, 20)), ("Open", 20, 0, (130, 140))], (320, 200))
    bgr = np.ascontiguousarray(np.asarray(img)[:, :, ::-1])
    found = rapid_engine._direct().detect_lines(bgr, rapid_engine.det_side(*img.size), 0.5)
    tilted = [f for f in found if f.tilted is not None]
    upright = [f for f in found if f.tilted is None]
    assert len(tilted) == 1 and len(upright) == 1
    t, o = tilted[0].box, upright[0].box
    assert min(t[2], o[2]) > max(t[0], o[0]) and min(t[3], o[3]) > max(t[1], o[1])  # the hulls overlap
    assert sorted(keys(rapid_engine.recognize(img))) == ["centralavenue", "open"]


def test_a_slightly_tilted_line_takes_the_common_path_and_is_read(rapid_engine: RapidOcrEngine) -> None:
    img = scene([("Opening hours today", 22, 2, (20, 40))], (320, 120))
    bgr = np.ascontiguousarray(np.asarray(img)[:, :, ::-1])
    reader = rapid_engine._direct()
    found = reader.detect_lines(bgr, rapid_engine.det_side(*img.size), 0.5)
    assert [f.tilted for f in found] == [None]
    plan = reader.plan(bgr, [f.box for f in found], 160, tilted=[f.tilted for f in found])
    x1, y1, x2, y2 = found[0].box
    assert not plan.both_ways and np.array_equal(plan.crops[0], bgr[y1:y2, x1:x2])
    assert keys(rapid_engine.recognize(img)) == ["openinghourstoday"]


def test_vertical_labels_read_whichever_way_up_they_run(rapid_engine: RapidOcrEngine) -> None:
    """Bottom to top (a map's street name) and top to bottom (a book's spine): both read, by reading the
    turned strip both ways up."""
    img = scene([("Harbour Road", 22, 90, (40, 20)), ("Harbour Road", 22, -90, (120, 20))], (200, 200))
    lines = rapid_engine.recognize(img)
    assert keys(lines) == ["harbourroad", "harbourroad"]
    assert lines[0].box[3] - lines[0].box[1] > 3 * (lines[0].box[2] - lines[0].box[0])  # boxes stay upright


def test_a_check_mark_icon_is_not_read_upright_as_a_letter(rapid_engine: RapidOcrEngine) -> None:
    """SimPhone's Notes editor saves with a check mark (an icon, content-desc "Save"); cut out along its
    diagonal stroke it read "L" at 0.96, which a recorder then wrote as ``click text (L)``. The shortest map
    label read upright, a three-character street name, is 2.08 times as long as high; this stroke 1.85."""
    import re

    from droidpilot.device.sim.phone import SimDevice

    def bounds(xml: str, desc: str) -> tuple[int, ...]:
        found = re.search(rf'content-desc="{desc}"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"', xml)
        assert found, desc
        return tuple(int(v) for v in found.groups())

    phone = SimDevice()
    phone.open_app("Notes")
    x1, y1, x2, y2 = bounds(phone.ui_xml(), "New note")
    phone.tap((x1 + x2) // 2, (y1 + y2) // 2)
    x1, y1, x2, y2 = bounds(phone.ui_xml(), "Save")
    inside = [ln for ln in rapid_engine.recognize(phone.screenshot())
              if x1 <= (ln.box[0] + ln.box[2]) / 2 <= x2 and y1 <= (ln.box[1] + ln.box[3]) / 2 <= y2]
    assert all(not ln.text.isalnum() for ln in inside), inside
    assert tilted_line(rectangle(197, 285, 62, 29.5, 47.9)) is not None  # 北山街 (2.1) still leaves the path
