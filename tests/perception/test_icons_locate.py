"""locate_icon on phone-sized screens rendered by the test: icons as coloured shapes plus text labels."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from droidpilot.errors import InputError
from droidpilot.perception.icons import locate_icon
from droidpilot.perception.icons.candidates import find_regions
from droidpilot.perception.icons.drawing import DrawnIcon, as_rgb, blank_screen, draw_icon
from droidpilot.perception.types import OcrLine

FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
W, H = 1080, 2400


def _text(img: np.ndarray, items: list[tuple[str, tuple[int, int], int]], colour: tuple[int, int, int]
          ) -> tuple[np.ndarray, list[OcrLine]]:
    """Draw text with Pillow; return the image and the true boxes as OCR lines."""
    pil = Image.fromarray(cv2.cvtColor(img, cv2.COLOR_BGR2RGB))
    draw = ImageDraw.Draw(pil)
    lines = []
    for text, (x, y), size in items:
        font = ImageFont.truetype(str(FONT), size) if FONT.exists() else ImageFont.load_default()
        draw.text((x, y), text, fill=colour, font=font)
        x1, y1, x2, y2 = draw.textbbox((x, y), text, font=font)
        lines.append(OcrLine(text, (int(x1), int(y1), int(x2), int(y2)), 0.99))
    return cv2.cvtColor(np.asarray(pil), cv2.COLOR_RGB2BGR), lines


def _screen(theme: str) -> tuple[np.ndarray, dict[str, DrawnIcon], list[OcrLine]]:
    img = blank_screen(W, H, theme)
    fg = (33, 33, 33) if theme == "light" else (230, 230, 230)
    bar = (235, 235, 238) if theme == "light" else (38, 38, 42)
    cv2.rectangle(img, (0, 2220), (W, H), bar, -1)
    icons = {
        "arrow": draw_icon(img, "arrow", (80, 150), 64, "black" if theme == "light" else "white", 180),
        "magnifier": draw_icon(img, "magnifier", (990, 150), 70, "gray"),
        "circle": draw_icon(img, "circle", (150, 700), 110, "blue"),
        "heart": draw_icon(img, "heart", (135, 2310), 78, "red"),
        "star": draw_icon(img, "star", (405, 2310), 84, "yellow"),
        "triangle": draw_icon(img, "triangle", (675, 2305), 76, "purple"),
        "plus": draw_icon(img, "plus", (945, 2310), 76, "green"),
        "square": draw_icon(img, "rounded square", (150, 1100), 110, "orange"),
    }
    labels = [("Messages", (180, 118), 56), ("Profile settings", (260, 670), 52),
              ("Wallpaper & style", (260, 1070), 52), ("Version 14.2 (build 77)", (80, 1500), 40)]
    img, lines = _text(img, labels, fg)
    return img, icons, lines


@pytest.fixture(scope="module", params=["light", "dark"])
def screen(request: pytest.FixtureRequest) -> tuple[np.ndarray, dict[str, DrawnIcon], list[OcrLine]]:
    return _screen(request.param)


def _inside(point: tuple[int, int], icon: DrawnIcon) -> bool:
    x1, y1, x2, y2 = icon.box
    return x1 <= point[0] <= x2 and y1 <= point[1] <= y2


QUERIES = [
    ("red heart", None, "heart"),
    ("red heart, bottom", None, "heart"),
    ("gray magnifier", "top right", "magnifier"),
    ("grey magnifying glass", None, "magnifier"),
    ("blue circle", "left", "circle"),
    ("yellow star", "bottom", "star"),
    ("purple triangle", None, "triangle"),
    ("green plus", "bottom right", "plus"),
    ("orange rounded square", None, "square"),
    ("arrow", "top left", "arrow"),
]


@pytest.mark.parametrize(("description", "position", "key"), QUERIES)
def test_icon_found_by_description_and_position(screen, description: str, position: str | None,
                                                 key: str) -> None:
    img, icons, lines = screen
    result = locate_icon(as_rgb(img), description, position, ocr_lines=lines)
    assert result.status == "found", result.to_dict()
    best = result.candidates[0]
    assert _inside(best.point, icons[key]), (best.to_dict(), icons[key])
    assert best.description is not None
    assert best.description.endswith(icons[key].shape), best.description


def test_without_ocr_lines_text_rows_are_not_icons(screen) -> None:
    img, icons, _ = screen
    result = locate_icon(as_rgb(img), "red heart", "bottom")
    assert result.status == "found"
    assert _inside(result.candidates[0].point, icons["heart"])


def test_two_alike_icons_are_ambiguous_with_crops_and_position_decides() -> None:
    img = blank_screen(W, H, "light")
    top = draw_icon(img, "heart", (540, 300), 80, "red")
    bottom = draw_icon(img, "heart", (540, 2100), 80, "red")
    result = locate_icon(as_rgb(img), "red heart")
    assert result.status == "ambiguous"
    assert len(result.candidates) == 2
    assert all(c.crop is not None and c.crop.size[0] > 80 for c in result.candidates)
    on_top = locate_icon(as_rgb(img), "red heart", "top")
    assert on_top.status == "found" and _inside(on_top.candidates[0].point, top)
    at_bottom = locate_icon(as_rgb(img), "(red heart, bottom)")
    assert at_bottom.status == "found" and _inside(at_bottom.candidates[0].point, bottom)


def test_many_alike_icons_are_too_many() -> None:
    img = blank_screen(W, H, "dark")
    for i in range(6):
        draw_icon(img, "circle", (200 + (i % 3) * 340, 600 + (i // 3) * 600), 90, "blue")
    result = locate_icon(as_rgb(img), "blue circle")
    assert result.status == "too_many"
    assert len(result.candidates) == 6


def test_absent_icon_is_not_found_with_what_is_on_screen(screen) -> None:
    img, _, lines = screen
    result = locate_icon(as_rgb(img), "pink star", ocr_lines=lines)
    assert result.status == "not_found"
    assert result.candidates == []
    assert any("yellow star" in c for c in result.closest), result.closest


def test_ocr_text_is_not_taken_for_an_icon() -> None:
    img = blank_screen(W, H, "light")
    img, lines = _text(img, [("Do", (400, 1000), 160)], (20, 20, 20))
    as_icons = locate_icon(as_rgb(img), "black circle", ocr_lines=[])  # [] = no text known: letters may match
    assert as_icons.status == "found"
    assert lines[0].box[0] <= as_icons.candidates[0].point[0] <= lines[0].box[2]
    assert locate_icon(as_rgb(img), "black circle", ocr_lines=lines).status == "not_found"


def test_icon_of_several_strokes_is_one_candidate() -> None:
    img = blank_screen(W, H, "light")
    for i in range(3):  # a "menu" icon: three bars
        cv2.rectangle(img, (500, 1000 + i * 24), (572, 1010 + i * 24), (60, 60, 60), -1)
    boxes = [r.box for r in find_regions(img, [])]
    assert any(b[0] <= 502 and b[1] <= 1002 and b[2] >= 570 and b[3] >= 1056 for b in boxes), boxes


def test_size_filters_drop_bars_and_specks() -> None:
    img = blank_screen(W, H, "light")
    cv2.rectangle(img, (0, 0), (W, 180), (200, 120, 40), -1)  # app bar across the screen
    cv2.circle(img, (300, 900), 2, (0, 0, 0), -1)  # a speck
    good = draw_icon(img, "star", (700, 1400), 80, "red")
    boxes = [r.box for r in find_regions(img, [])]
    assert not any(b[2] - b[0] > W * 0.5 for b in boxes)
    assert not any(b[0] <= 300 <= b[2] and b[1] <= 900 <= b[3] for b in boxes)
    assert any(abs(b[0] - good.box[0]) < 8 and abs(b[3] - good.box[3]) < 8 for b in boxes)


def test_icon_inside_a_coloured_bar_is_found() -> None:
    img = blank_screen(W, H, "light")
    cv2.rectangle(img, (0, 0), (W, 200), (210, 120, 25), -1)  # blue app bar (BGR)
    icon = draw_icon(img, "magnifier", (980, 100), 72, "white")
    result = locate_icon(as_rgb(img), "white magnifier", "top right")
    assert result.status == "found"
    assert _inside(result.candidates[0].point, icon)


def test_accepts_path_bytes_and_pil(tmp_path: Path) -> None:
    img = blank_screen(720, 1600, "light")
    icon = draw_icon(img, "star", (360, 800), 70, "orange")
    path = tmp_path / "s.png"
    ok, buf = cv2.imencode(".png", img)
    assert ok
    path.write_bytes(buf.tobytes())
    pil = Image.fromarray(cv2.cvtColor(img, cv2.COLOR_BGR2RGB))
    for source in (path, str(path), buf.tobytes(), pil):
        result = locate_icon(source, "orange star")
        assert result.status == "found" and _inside(result.candidates[0].point, icon)
    as_json = result.to_dict()
    assert as_json["candidates"][0]["description"] == "orange star"
    assert set(as_json["candidates"][0]) == {"box", "point", "score", "description", "details"}
    assert as_json["candidates"][0]["details"]["reading"] == "icon"
    assert as_json["query"]["colour"] == "orange" and as_json["query"]["unknown"] == []


def test_bad_descriptions_are_input_errors() -> None:
    img = blank_screen(360, 640, "light")
    with pytest.raises(InputError, match="names no colour and no shape"):
        locate_icon(as_rgb(img), "the icon")  # filler words alone; other words may name an app's label
    with pytest.raises(InputError, match="not a position"):
        locate_icon(as_rgb(img), "red heart", "sideways")
    with pytest.raises(InputError, match="not a readable image"):
        locate_icon(b"not an image", "red heart")


def test_a_star_rating_stays_icons_while_cjk_words_count_as_text() -> None:
    img = blank_screen(W, H, "light")
    for i in range(5):  # five identical stars, close together like a rating
        draw_icon(img, "star", (300 + i * 70, 900), 60, "yellow")
    assert locate_icon(as_rgb(img), "yellow star").status == "too_many"
    cjk = Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")
    if not cjk.exists():
        pytest.skip(f"CJK font absent ({cjk})")
    pil = Image.fromarray(cv2.cvtColor(img, cv2.COLOR_BGR2RGB))
    draw = ImageDraw.Draw(pil)
    draw.text((600, 1500), "昨天", fill=(120, 120, 120), font=ImageFont.truetype(str(cjk), 44))
    text_box = draw.textbbox((600, 1500), "昨天", font=ImageFont.truetype(str(cjk), 44))
    img = cv2.cvtColor(np.asarray(pil), cv2.COLOR_RGB2BGR)
    inside = [r.box for r in find_regions(img) if r.box[0] >= text_box[0] - 2 and r.box[2] <= text_box[2] + 2
              and r.box[1] >= text_box[1] - 2 and r.box[3] <= text_box[3] + 2]
    assert inside == []


MOBIFLOW_ICONS = Path(__file__).resolve().parents[3] / "shared" / "reference" / "mobiflow" / "icons"


@pytest.mark.skipif(not MOBIFLOW_ICONS.is_dir(), reason=f"MobiFlow reference icons absent ({MOBIFLOW_ICONS})")
def test_real_app_icons_found_by_words() -> None:
    """Crops of real app icons (MobiFlow's templates), described as a person would."""
    from droidpilot.perception.icons.imageio import read_image

    screen = blank_screen(W, H, "light")
    boxes = {}
    for k, (name, words) in enumerate([("bilibili/icon_001_搜索.jpg", "gray magnifier"),
                                       ("bilibili/icon_002_收藏.jpg", "gray star"),
                                       ("xiecheng/icon_000_添加.jpg", "white plus"),
                                       ("bilibili/icon_003_清除.jpg", "gray circle")]):
        tile = read_image(MOBIFLOW_ICONS / name)
        x, y = 80 + (k % 2) * 540, 500 + (k // 2) * 900
        screen[y:y + tile.shape[0], x:x + tile.shape[1]] = tile
        boxes[words] = DrawnIcon("real", words, (x, y, x + tile.shape[1], y + tile.shape[0]))
    for words, icon in boxes.items():
        result = locate_icon(as_rgb(screen), words)
        assert result.status == "found", (words, result.to_dict())
        assert _inside(result.candidates[0].point, icon), (words, result.to_dict())
