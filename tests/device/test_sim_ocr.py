"""The dump never lies about the pixels: every label a widget declares is read back by OCR (RapidOCR,
the project's default engine) from the screenshot, cropped at the label's declared bounds."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from PIL import Image
from rapidfuzz import fuzz
from tests.device.sim_driver import Driver

from droidpilot.device.sim.phone import SimDevice
from droidpilot.perception.ocr import OcrEngine, make_ocr_engine

Step = Callable[[Driver], None]


def _search(app: str, query: str) -> Step:
    def go(ui: Driver) -> None:
        ui.d.open_app(app)
        ui.type_into("search_box", query, submit=True)
    return go


def _open(app: str, *taps: str) -> Step:
    def go(ui: Driver) -> None:
        ui.d.open_app(app)
        for label in taps:
            ui.tap(label) if not label.startswith("@") else ui.tap(desc=label[1:])
    return go


def _then(first: Step, *taps: str) -> Step:
    def go(ui: Driver) -> None:
        first(ui)
        for label in taps:
            ui.tap(label) if not label.startswith("@") else ui.tap(desc=label[1:])
    return go


SCREENS: dict[str, Step] = {
    "launcher": lambda ui: None,
    "network": _open("settings", "Network & internet"),
    "mail-dialog": _then(_open("mail", "Compose"), "@Send"),
    "browser-lakers": _search("browser", "Lakers game"),
    "maps-place": _then(_search("maps", "West Lake"), "Hangzhou West Lake"),
    "store-install": _then(_search("store", "WhatsApp"), "WhatsApp Messenger", "Install"),
    "shop-item": _then(_search("shop", "caps"), "Embroidered Sports Cap, Quick Dry"),
    "clips": _open("clips"),
    "tube-video": _open("tube", "Lofi beats to study and relax"),
    "calendar": _open("calendar"),
    "weather": _open("weather"),
    "chat-window": _open("微聊", "张伟"),
    "video-results": _search("星视频", "西湖"),
    "dark-720-mail": _open("mail"),
    "dark-720-chat": _open("微聊", "@通讯录"),
}
OPTIONS = {"dark-720-mail": {"theme": "dark", "size": (720, 1600)},
           "dark-720-chat": {"theme": "dark", "size": (720, 1600)}}
STITCH_HEIGHT = 2000  # keeps text legible after detection scales the sheet to 960 pixels


def _norm(text: str) -> str:
    return re.sub(r"[^0-9a-z\u2e80-\u9fff]", "", text.lower())


@pytest.fixture(scope="module")
def engine() -> OcrEngine:
    found = make_ocr_engine("rapidocr")
    assert found is not None
    return found


def _read_back(engine: OcrEngine, shot: Image.Image, boxes: list[tuple[int, int, int, int]]) -> list[str]:
    """OCR each box of ``shot``; the crops are stacked into sheets so one engine call reads many labels."""
    pad = 12
    w, h = shot.size
    crops = [shot.crop((max(x1 - pad, 0), max(y1 - pad, 0), min(x2 + pad, w), min(y2 + pad, h)))
             for x1, y1, x2, y2 in boxes]
    found = [""] * len(crops)
    start = 0
    while start < len(crops):
        end, height = start, 0
        while end < len(crops) and (end == start or height + crops[end].height + 32 <= STITCH_HEIGHT):
            height += crops[end].height + 32
            end += 1
        sheet = Image.new("RGB", (max(c.width for c in crops[start:end]), height), "white")
        spans, y = [], 0
        for crop in crops[start:end]:
            sheet.paste(crop, (0, y))
            spans.append((y, y + crop.height))
            y += crop.height + 32
        for line in engine.recognize(sheet):
            mid = (line.box[1] + line.box[3]) / 2
            for i, (a, b) in enumerate(spans):
                if a <= mid <= b:
                    found[start + i] += line.text
        start = end
    return found


@pytest.mark.parametrize("name", list(SCREENS))
def test_every_declared_label_reads_back_at_its_bounds(name: str, engine: OcrEngine) -> None:
    dev = SimDevice(**OPTIONS.get(name, {}))
    SCREENS[name](Driver(dev))
    labels = [(text, box) for text, box in dev.labels() if len(_norm(text)) >= 2]
    assert labels, f"{name}: no labels on screen"
    read = _read_back(engine, dev.screenshot(), [box for _, box in labels])
    misses = [f"{text!r} at {box} read as {got!r}" for (text, box), got in zip(labels, read, strict=True)
              if fuzz.ratio(_norm(text), _norm(got)) < 80]
    assert not misses, f"{name}: " + "; ".join(misses)
