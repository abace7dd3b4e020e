"""Mobile-Agent's "open App": the tap lands on the icon above the app's label, whatever the launcher's
geometry (icon size, gap to the label, columns, theme), read from the screen rather than a fixed offset."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PIL import ImageDraw

from droidpilot.perception.launcher import column_half_width, icon_above
from droidpilot.perception.synth import THEMES, SynthScreen
from droidpilot.perception.text import locate_app
from droidpilot.perception.types import Box, OcrLine

APPS = ["Phone", "Chrome", "Settings", "YouTube", "微信", "支付宝"]


def inside(point: tuple[int, int], box: Box) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


@pytest.mark.parametrize("layout", [
    {},  # 4 columns, icons 76 px, labels 14 px below
    {"theme": "dark", "columns": 5, "icon_size": 56, "label_gap": 34, "row_gap": 150},
])
def test_open_app_taps_the_icon_above_the_label(launcher_screen: Callable[..., SynthScreen],
                                                read_lines: Callable, layout: dict) -> None:
    screen = launcher_screen(**layout)
    lines = read_lines(screen.image)
    for app in APPS:
        result = locate_app(lines, app, screen.image)
        assert result.status == "found", (app, result)
        cand = result.candidates[0]
        assert inside(cand.point, screen.icons[app]), (app, cand, screen.icons[app])
        assert cand.text == app and "icon" in (cand.description or "")


def test_the_offset_follows_the_screen_not_a_constant(launcher_screen: Callable[..., SynthScreen],
                                                      read_lines: Callable) -> None:
    near = launcher_screen()
    far = launcher_screen(theme="dark", columns=5, icon_size=56, label_gap=34, row_gap=150)
    offsets = []
    for screen in (near, far):
        result = locate_app(read_lines(screen.image), "Chrome", screen.image)
        label, icon, point = screen.label("Chrome").box, screen.icons["Chrome"], result.candidates[0].point
        assert icon[0] <= point[0] <= icon[2] and icon[1] <= point[1] <= icon[3]
        offsets.append(label[1] - point[1])
    # drawn 14 + 76/2 = 52 px and 34 + 56/2 = 62 px apart; OCR's label boxes may differ by a pixel or two
    assert abs(offsets[0] - offsets[1]) >= 6


def test_unknown_app_is_not_found_with_the_names_on_screen(launcher_screen: Callable[..., SynthScreen],
                                                           read_lines: Callable) -> None:
    screen = launcher_screen()
    result = locate_app(read_lines(screen.image), "Spotify", screen.image)
    assert result.status == "not_found" and result.closest


def test_an_invisible_icon_is_placed_from_the_layout(launcher_screen: Callable[..., SynthScreen],
                                                     read_lines: Callable) -> None:
    screen = launcher_screen()
    image = screen.image.copy()
    hidden = screen.icons["Maps"]  # second row, so there is a label row above to take the pitch from
    ImageDraw.Draw(image).rectangle(hidden, fill=THEMES["light"]["bg"])
    lines = read_lines(screen.image)
    label = next(ln for ln in lines if ln.text == "Maps")
    box, how = icon_above(image, label.box, lines)
    assert how == "layout" and box is not None
    centre = ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)
    assert inside(centre, hidden)


def test_without_icon_or_layout_the_label_itself_is_tapped() -> None:
    from PIL import Image

    image = Image.new("RGB", (540, 400), (250, 250, 250))
    lines = [OcrLine("Notes", (240, 300, 300, 320), 0.99)]
    result = locate_app(lines, "Notes", image)
    assert result.status == "found"
    assert result.candidates[0].box == (240, 300, 300, 320)
    assert "no icon" in (result.candidates[0].description or "")


def test_column_width_comes_from_the_neighbouring_labels() -> None:
    row = [OcrLine(t, (x - 30, 500, x + 30, 520), 0.9) for t, x in (("A1", 67), ("B1", 202), ("C1", 337))]
    assert column_half_width(row[1].box, row, 540) == pytest.approx(67.5)


def test_a_glyph_ocr_reads_as_one_character_is_still_the_icon() -> None:
    """OCR may read an app icon's glyph as a lone character (a calculator's +-x= as a CJK one): that line
    is not masked out as text, so the tap still lands on the icon, not on the label."""
    from PIL import Image

    image = Image.new("RGB", (540, 900), (250, 250, 250))
    draw = ImageDraw.Draw(image)
    for x1, y1, x2, y2 in ((100, 612, 174, 626), (100, 642, 174, 656), (130, 612, 144, 686),
                           (100, 672, 174, 686)):
        draw.rectangle((x1, y1, x2, y2), fill=(40, 40, 40))
    glyph = (97, 609, 177, 689)
    lines = [OcrLine("Calculator", (41, 764, 233, 811), 0.99), OcrLine("赵", (92, 605, 180, 694), 0.9)]
    box, how = icon_above(image, lines[0].box, lines)
    assert how == "blob" and box is not None
    assert inside(((box[0] + box[2]) // 2, (box[1] + box[3]) // 2), glyph)
    result = locate_app(lines, "Calculator", image)
    assert result.status == "found" and inside(result.candidates[0].point, glyph)
