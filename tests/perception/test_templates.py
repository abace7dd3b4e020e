"""Icon template matching: scales 0.5x-2.0x, NMS, masks, flat templates, caching, MobiFlow templates."""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from droidpilot.errors import InputError
from droidpilot.perception.icons.drawing import blank_screen, draw_icon
from droidpilot.perception.icons.imageio import read_image
from droidpilot.perception.icons.templates import (
    ScreenPyramid,
    load_template,
    match_template,
    search_template,
)

MOBIFLOW_ICONS = Path(__file__).resolve().parents[3] / "shared" / "reference" / "mobiflow" / "icons"


def _write(path: Path, img: np.ndarray) -> Path:
    ok, buf = cv2.imencode(path.suffix, img)
    assert ok
    path.write_bytes(buf.tobytes())
    return path


def _tile(kind: str) -> np.ndarray:
    """A 72x72 icon tile with some detail (shapes and a caption), like a cropped app icon."""
    tile = np.full((72, 72, 3), 245, np.uint8)
    if kind == "chat":
        draw_icon(tile, "rounded square", (36, 30), 44, "green")
        draw_icon(tile, "circle", (28, 30), 10, "white")
        draw_icon(tile, "circle", (44, 30), 10, "white")
        cv2.putText(tile, "Chat", (12, 66), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (40, 40, 40), 1, cv2.LINE_AA)
    else:
        draw_icon(tile, "star", (36, 30), 46, "orange")
        draw_icon(tile, "plus", (36, 32), 14, "white")
        cv2.putText(tile, "Fav", (20, 66), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (40, 40, 40), 1, cv2.LINE_AA)
    return tile


def _screen_with(tile: np.ndarray | None, scale: float, at: tuple[int, int]) -> np.ndarray:
    screen = blank_screen(1080, 2400, "light")
    for i, (shape, colour) in enumerate([("heart", "red"), ("circle", "blue"), ("magnifier", "gray"),
                                          ("triangle", "purple")]):
        draw_icon(screen, shape, (150 + i * 250, 300), 80, colour)  # clutter
    cv2.putText(screen, "Discover  Contacts  Me", (80, 1000), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (30, 30, 30), 3,
                cv2.LINE_AA)
    if tile is not None:
        scaled = cv2.resize(tile, None, fx=scale, fy=scale,
                            interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
        x, y = at
        screen[y:y + scaled.shape[0], x:x + scaled.shape[1]] = scaled
    return screen


@pytest.fixture(scope="module")
def chat_png(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _write(tmp_path_factory.mktemp("icons") / "chat.png", _tile("chat"))


@pytest.mark.parametrize("scale", [0.5, 0.75, 1.0, 1.5, 2.0])
def test_template_found_at_every_scale(chat_png: Path, scale: float) -> None:
    at = (600, 1700)
    matches = match_template(_screen_with(_tile("chat"), scale, at), chat_png)
    assert matches, "not found"
    best = matches[0]
    assert abs(best.box[0] - at[0]) <= 4 and abs(best.box[1] - at[1]) <= 4, best
    assert best.scale == pytest.approx(scale, rel=0.08)
    assert best.score >= 0.8
    assert len(matches) == 1  # NMS: one icon, one match, whatever the scales that saw it


def test_absent_template_is_not_found_but_best_guess_is_reported(chat_png: Path, tmp_path: Path) -> None:
    fav = _write(tmp_path / "fav.png", _tile("fav"))
    screen = _screen_with(_tile("chat"), 1.0, (600, 1700))
    matches, best = search_template(screen, fav)
    assert matches == []
    assert best is None or best.score < 0.8


def test_two_copies_are_two_matches(chat_png: Path) -> None:
    screen = _screen_with(_tile("chat"), 1.0, (100, 1500))
    screen[2000:2072, 800:872] = _tile("chat")
    matches = match_template(ScreenPyramid(cv2.cvtColor(screen, cv2.COLOR_BGR2GRAY)), chat_png)
    assert sorted((m.box[0], m.box[1]) for m in matches) == [(100, 1500), (800, 2000)]


def test_threshold_decides(chat_png: Path) -> None:
    screen = _screen_with(_tile("chat"), 1.0, (300, 1300))[1000:1700]
    noisy = np.clip(screen.astype(int) + np.random.default_rng(0).normal(0, 40, screen.shape), 0, 255)
    noisy = noisy.astype(np.uint8)
    _, best = search_template(noisy, chat_png, threshold=0.99)
    assert best is not None and best.score < 0.99
    assert match_template(noisy, chat_png, threshold=0.99) == []
    assert match_template(noisy, chat_png, threshold=best.score - 0.05)


def test_transparent_pixels_of_a_png_template_are_ignored(tmp_path: Path) -> None:
    bgr = np.zeros((64, 64, 3), np.uint8)
    draw_icon(bgr, "heart", (32, 32), 56, "red")
    draw_icon(bgr, "circle", (24, 26), 10, "white")
    icon = np.dstack([bgr, np.where(bgr.max(axis=2) > 0, 255, 0).astype(np.uint8)])
    path = _write(tmp_path / "heart.png", icon)
    screen = np.full((1200, 800, 3), (40, 160, 230), np.uint8)  # an orange page, not the template's black
    opaque = icon[:, :, 3] > 0
    screen[500:564, 300:364][opaque] = icon[:, :, :3][opaque]
    assert load_template(path).mask is not None
    matches = match_template(screen, path)
    assert matches and matches[0].box[:2] == (300, 500)


def test_flat_template_is_an_input_error(tmp_path: Path) -> None:
    path = _write(tmp_path / "flat.png", np.full((40, 40, 3), 128, np.uint8))
    with pytest.raises(InputError, match="flat colour"):
        load_template(path)


def test_unreadable_template_is_an_input_error(tmp_path: Path) -> None:
    (tmp_path / "bad.png").write_bytes(b"not a png")
    with pytest.raises(InputError, match=r"bad\.png"):
        load_template(tmp_path / "bad.png")
    with pytest.raises(InputError, match="cannot read"):
        load_template(tmp_path / "missing.png")


def test_templates_are_decoded_once_per_file_version(tmp_path: Path) -> None:
    path = _write(tmp_path / "chat.png", _tile("chat"))
    first = load_template(path)
    assert load_template(path) is first
    _write(path, _tile("fav"))
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10_000_000))
    assert load_template(path) is not first


@pytest.mark.skipif(not MOBIFLOW_ICONS.is_dir(), reason=f"MobiFlow reference icons absent ({MOBIFLOW_ICONS})")
@pytest.mark.parametrize("scale", [0.6, 1.3])
def test_real_mobiflow_template(scale: float) -> None:
    contacts = MOBIFLOW_ICONS / "weixin" / "icon_001_通讯录.jpg"
    send = MOBIFLOW_ICONS / "weixin" / "icon_002_发送.jpg"
    tile = read_image(contacts)
    screen = _screen_with(tile, scale, (420, 2200))
    matches = match_template(screen, contacts)
    assert matches and abs(matches[0].box[0] - 420) <= 4 and abs(matches[0].box[1] - 2200) <= 4
    assert match_template(screen, send) == []
