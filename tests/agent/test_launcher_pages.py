"""Opening an app on a launcher with home pages and an app drawer (agent.launcher.seek_app).

SimPhone's launcher has one screen and a search field; real launchers page sideways and keep every app in
a drawer opened by swiping up. ``PagedLauncher`` is such a launcher drawn with Pillow (a real Device: seek_app
sees only its screenshots, through the real OCR engine), without a search field, so pages and the drawer
are the only ways to an app.
"""

from __future__ import annotations

from typing import Any, ClassVar

from PIL import Image, ImageDraw, ImageFont

from droidpilot.agent.grounding import Grounder
from droidpilot.agent.launcher import seek_app
from droidpilot.device.base import DeviceError

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SIZE = (540, 1200)
COLOURS = [(220, 60, 50), (40, 120, 220), (30, 160, 90), (240, 170, 30), (140, 70, 200), (0, 150, 160)]


class PagedLauncher:
    """Home pages 0 and 1 (swipe left for the next, right for the previous), a drawer of all apps (swipe
    up), home and back keys; tapping an icon or its label opens the app."""

    serial = "paged-1"
    PAGES: ClassVar[list[list[str]]] = [["Notes", "Mail", "Phone"], ["Notes Pro", "Camera", "Maps"]]
    DRAWER: ClassVar[list[str]] = ["Camera", "Mail", "Maps", "Notes", "Notes Pro", "Phone", "Radio"]
    WIDGET = "Camera roll synced"  # a text on page 0 that is no app's label

    def __init__(self) -> None:
        self.where: str | int = 0  # a page number, "drawer", or an open app's name
        self.swipes = 0
        self._font = ImageFont.truetype(FONT, 30)

    def _apps(self) -> list[str]:
        if self.where == "drawer":
            return self.DRAWER
        return self.PAGES[self.where] if isinstance(self.where, int) else []

    def _cells(self) -> list[tuple[str, tuple[int, int, int, int]]]:
        """(app, cell box): two columns (labels far enough apart for OCR to read them one by one), rows of
        200 px from y=300."""
        return [(app, (i % 2 * 270, 300 + i // 2 * 200, i % 2 * 270 + 270, 300 + i // 2 * 200 + 190))
                for i, app in enumerate(self._apps())]

    def screenshot(self) -> Image.Image:
        img = Image.new("RGB", SIZE, (245, 245, 250))
        draw = ImageDraw.Draw(img)
        if isinstance(self.where, str) and self.where != "drawer":
            draw.text((60, 500), f"{self.where} app", fill="black", font=self._font)
            return img
        if self.where == 0:
            draw.text((40, 150), self.WIDGET, fill="black", font=self._font)
        if self.where == "drawer":
            draw.text((40, 150), "All apps", fill="black", font=self._font)
        for app, (x1, y1, x2, _) in self._cells():
            colour = COLOURS[sum(map(ord, app)) % len(COLOURS)]
            draw.rounded_rectangle((x1 + 95, y1 + 20, x2 - 95, y1 + 100), 16, fill=colour)
            width = draw.textlength(app, font=self._font)
            draw.text(((x1 + x2 - width) / 2, y1 + 130), app, fill="black", font=self._font)
        return img

    def ui_xml(self) -> str:
        raise DeviceError("paged launcher: no UI dump")

    def size(self) -> tuple[int, int]:
        return SIZE

    def tap(self, x: int, y: int) -> None:
        for app, (x1, y1, x2, y2) in self._cells():
            if x1 <= x <= x2 and y1 <= y <= y2:
                self.where = app
                return

    def long_press(self, x: int, y: int, duration_ms: int = 800) -> None:
        self.tap(x, y)

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        self.swipes += 1
        dx, dy = x2 - x1, y2 - y1
        if isinstance(self.where, int) and abs(dx) > abs(dy):
            self.where = max(0, min(len(self.PAGES) - 1, self.where + (1 if dx < 0 else -1)))
        elif isinstance(self.where, int) and dy < -200:
            self.where = "drawer"

    def type_text(self, text: str) -> None:
        """Nothing is focused on this launcher: typed text goes nowhere."""

    def key(self, key: str) -> None:
        if key in ("home", "back"):
            self.where = 0

    def open_app(self, name_or_package: str) -> None:
        raise DeviceError("seek_app must not open apps by name")

    def current_app(self) -> str:
        return str(self.where)

    def wait(self, seconds: float) -> None:
        """Nothing moves by itself here."""


def _open(name: str, ocr: Any) -> tuple[Any, PagedLauncher]:
    phone = PagedLauncher()
    found = seek_app(phone, name, Grounder(), ocr)
    if found.ok:
        assert found.grounding.point is not None
        phone.tap(*found.grounding.point)
    return found, phone


def test_an_app_on_the_second_home_page_is_found_by_swiping_left(ocr_engine: Any) -> None:
    found, phone = _open("Maps", ocr_engine)
    assert phone.where == "Maps"
    assert found.moves == ["home", "swipe left"]


def test_an_app_only_in_the_drawer_is_found_by_swiping_up(ocr_engine: Any) -> None:
    found, phone = _open("Radio", ocr_engine)
    assert phone.where == "Radio"
    assert found.moves[-1] == "swipe up"
    # Page 1 is the last: the second swipe left changes nothing and ends that way of looking.
    assert found.moves.count("swipe left") == 2 and found.moves.count("swipe right") == 1


def test_a_name_that_is_a_prefix_of_another_opens_the_right_app(ocr_engine: Any) -> None:
    found, phone = _open("Notes", ocr_engine)
    assert phone.where == "Notes" and found.moves == []
    found, phone = _open("Notes Pro", ocr_engine)  # page 0 shows "Notes": not the app asked for
    assert phone.where == "Notes Pro"
    assert "swipe left" in found.moves


def test_a_longer_name_that_starts_with_the_one_asked_for_is_not_opened(ocr_engine: Any) -> None:
    # On page 1, "Notes Pro" is the only label containing "Notes"; plain text grounding would take it.
    phone = PagedLauncher()
    phone.where = 1
    found = seek_app(phone, "Notes", Grounder(), ocr_engine)
    assert found.ok and found.grounding.point is not None
    phone.tap(*found.grounding.point)
    assert phone.where == "Notes" and found.moves == ["home"]


def test_a_text_that_only_mentions_the_app_is_not_taken_for_its_label(ocr_engine: Any) -> None:
    # Page 0 shows "Camera roll synced"; the Camera app is on page 1.
    found, phone = _open("Camera", ocr_engine)
    assert phone.where == "Camera"
    assert found.moves == ["home", "swipe left"]


def test_a_missing_app_is_given_up_after_the_pages_and_the_drawer(ocr_engine: Any) -> None:
    found, phone = _open("Zorblax", ocr_engine)
    assert not found.ok and found.grounding.status == "not_found"
    assert "Zorblax" in found.grounding.message
    assert phone.where == 0  # left on the home screen
    assert phone.swipes <= 6  # two left (the second moves nothing), one right, up to the drawer and once more
