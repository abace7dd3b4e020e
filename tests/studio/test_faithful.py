"""The faithful recorder: a tap is written in words the agent's own grounding finds back at that point."""

from __future__ import annotations

from typing import Any

import pytest

from droidpilot.agent.actions import parse_action
from droidpilot.agent.screen import ScreenView
from droidpilot.device.sim.phone import SimDevice
from droidpilot.studio.faithful import contains, faithful_click, grounds_at, writable_text

from .conftest import sim_label_center


@pytest.fixture(scope="module")
def ocr() -> Any:
    from droidpilot.perception.cache import cached
    from droidpilot.perception.ocr import make_ocr_engine

    return cached(make_ocr_engine("rapidocr"))


def _node_box(xml: str, attr: str, value: str) -> tuple[int, int, int, int]:
    import xml.etree.ElementTree as ET

    for node in ET.fromstring(xml).iter("node"):
        if node.get(attr) == value:
            a, b = node.get("bounds", "").strip("[]").split("][")
            x1, y1 = (int(v) for v in a.split(","))
            x2, y2 = (int(v) for v in b.split(","))
            return x1, y1, x2, y2
    raise AssertionError(f"no node with {attr}={value!r}")


def _centre(box: tuple[int, int, int, int]) -> tuple[int, int]:
    return (box[0] + box[2]) // 2, (box[1] + box[3]) // 2


def _replays_at(image: Any, text: str, point: tuple[int, int], ocr: Any) -> bool:
    """Does the written action, parsed back from its text, ground where the tap was?"""
    return grounds_at(parse_action(text), ScreenView(image, ocr), point) is not None


def test_icon_only_buttons_are_icons_not_their_content_desc(ocr: Any) -> None:
    phone = SimDevice()
    phone.open_app("Notes")
    image, xml = phone.screenshot(), phone.ui_xml()
    plus = _centre(_node_box(xml, "content-desc", "New note"))
    action, grounding = faithful_click(image, plus, ocr)
    assert action.name == "click_icon" and "New note" not in action.format()
    assert grounding.point == plus and contains(grounding.box, plus)
    assert _replays_at(image, action.format(), plus, ocr)
    phone.tap(*plus)  # the editor: its check mark ("Save") is an icon too
    image, xml = phone.screenshot(), phone.ui_xml()
    save = _centre(_node_box(xml, "content-desc", "Save"))
    action, _ = faithful_click(image, save, ocr)
    assert action.name == "click_icon" and "Save" not in action.format()
    assert _replays_at(image, action.format(), save, ocr)


def test_visible_text_is_click_text_and_a_blank_spot_is_a_tap(ocr: Any) -> None:
    phone = SimDevice()
    image = phone.screenshot()
    settings = sim_label_center(phone.ui_xml(), "Settings")
    label = faithful_click(image, (settings[0], settings[1] + 100), ocr)[0]  # the label under the icon
    assert label.format() == "click text (Settings)"
    action, grounding = faithful_click(image, (540, 1500), ocr)
    assert action.format() == "tap (540, 1500)" and grounding.point == (540, 1500)


def test_without_ocr_a_text_tap_is_not_written_as_text() -> None:
    phone = SimDevice()
    image = phone.screenshot()
    x, y = sim_label_center(phone.ui_xml(), "Search apps")
    action, _ = faithful_click(image, (x, y))  # no OCR: the words cannot be read, so never click text
    assert action.name != "click_text"


@pytest.mark.parametrize(("text", "ok"), [
    ("Settings", True), ("Network & internet", True), ("10:30", True),
    ("7", True), ("X", True), ("微聊", True),
    ("+", False), ("□", False), ("个", False), ("十", False), ("", False), ("  ", False), ("a (b)", False),
    ("two\nlines", False),
])
def test_writable_text_near_misses(text: str, ok: bool) -> None:
    assert writable_text(text) is ok
