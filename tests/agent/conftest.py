"""Fixtures of the agent tests: one cached RapidOCR engine per session (the persistent cache), and a
small phone drawn with Pillow whose screens exercise each grounding outcome of the loop."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import pytest
from PIL import Image, ImageDraw, ImageFont

from droidpilot.device.base import DeviceError

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SIZE = (540, 1200)


@pytest.fixture(scope="session")
def ocr_engine() -> Any:
    """The real default OCR engine behind the persistent cache ($DROIDPILOT_CACHE_DIR or the user cache),
    so screens seen by an earlier run are not recognised again."""
    from droidpilot.perception.cache import cached
    from droidpilot.perception.ocr import make_ocr_engine

    return cached(make_ocr_engine("rapidocr"))


class PaperPhone:
    """A three-screen phone drawn with Pillow: a home screen with two apps; a notes screen with a red
    circle button and two "Save" texts (only the lower one works); a saved screen. Implements Device."""

    serial = "paper-1"

    # screen -> list of (label, box, target screen or None); boxes are device pixels
    LAYOUT: ClassVar[dict[str, list[tuple[str, tuple[int, int, int, int], str | None]]]] = {
        "home": [("Notes", (60, 300, 200, 350), "notes"), ("Mail", (320, 300, 440, 350), "mail")],
        "notes": [("New note", (150, 250, 390, 300), None), ("Save", (210, 600, 330, 650), None),
                  ("Save", (210, 900, 330, 950), "saved")],
        "mail": [("Inbox", (180, 250, 360, 300), None)],
        "saved": [("Note saved", (130, 500, 410, 550), None)],
    }
    BUTTON = (400, 1000, 500, 1100)  # the red circle on the notes screen

    def __init__(self) -> None:
        self.screen = "home"
        self.taps: list[tuple[int, int]] = []
        self.typed: list[str] = []
        self.liked = False
        self.clock = 0
        self._font = ImageFont.truetype(FONT, 36)

    def state(self) -> dict[str, Any]:
        return {"screen": self.screen, "liked": self.liked, "typed": list(self.typed)}

    def size(self) -> tuple[int, int]:
        return SIZE

    def screenshot(self) -> Image.Image:
        img = Image.new("RGB", SIZE, "white")
        draw = ImageDraw.Draw(img)
        draw.text((20, 5), f"10:{self.clock % 60:02d}", fill="black", font=ImageFont.truetype(FONT, 20))
        if self.screen == "home":
            draw.rectangle((90, 180, 170, 260), fill=(240, 200, 40))
            draw.rectangle((340, 180, 420, 260), fill=(40, 120, 220))
        for label, box, _ in self.LAYOUT[self.screen]:
            draw.text((box[0] + 5, box[1] + 2), label, fill="black", font=self._font)
        if self.screen == "notes":
            draw.ellipse(self.BUTTON, fill=(220, 30, 30))
            if self.liked:
                draw.text((60, 1120), "Liked", fill="black", font=self._font)
        return img

    def ui_xml(self) -> str:
        raise DeviceError("paper phone: no UI dump")

    def tap(self, x: int, y: int) -> None:
        self.clock += 1
        self.taps.append((x, y))
        bx1, by1, bx2, by2 = self.BUTTON
        if self.screen == "notes" and bx1 <= x <= bx2 and by1 <= y <= by2:
            self.liked = True
            return
        for _, box, target in self.LAYOUT[self.screen]:
            icon = (box[0], box[1] - 130, box[2], box[3])  # the icon above a home-screen label counts too
            area = icon if self.screen == "home" else box
            if target and area[0] <= x <= area[2] and area[1] <= y <= area[3]:
                self.screen = target
                return

    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None:
        self.tap(x, y)

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        self.clock += 1

    def type_text(self, text: str) -> None:
        self.typed.append(text)

    def key(self, key: str) -> None:
        self.clock += 1
        if key in ("back", "home"):
            self.screen = "home"

    def open_app(self, name_or_package: str) -> None:
        self.screen = name_or_package.lower()

    def current_app(self) -> str:
        return self.screen

    def wait(self, seconds: float) -> None:
        self.clock += 1


@pytest.fixture
def paper_phone() -> Iterator[PaperPhone]:
    yield PaperPhone()
