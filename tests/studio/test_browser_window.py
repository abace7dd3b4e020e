"""The smaller points of the studio in Chromium: the phone view fits the window (1366x768 and 700 px wide,
checked on screenshots for overflow), typing on the screen, the touch echo, a second tab taking control, and
clear errors for an unknown app or typing with nothing focused."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from droidpilot.device.sim.phone import SimDevice
from droidpilot.studio.recording import Recording
from droidpilot.studio.server import Studio

from .conftest import phone_page, sim_label_center, tap_device

pytestmark = [pytest.mark.slow]
LONG = "Open the Notes app and " + "write down every single thing on the shopping list " * 8 + "then save it."


def _no_overflow(page: Any, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot = Image.open(io.BytesIO(page.screenshot(full_page=True)))
    assert shot.width == width  # a page wider than the window would make a wider full-page screenshot


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (700, 900)])
def test_the_phone_view_fits_the_window(studio: Studio, chromium: Any, width: int, height: int) -> None:
    with phone_page(studio, chromium, "phone2", width=width, height=height, control=False) as page:
        page.wait_for_function("document.getElementById('frame').naturalWidth > 0")
        box = page.locator("#frame").bounding_box()
        assert box["y"] + box["height"] <= height  # the navigation bar at the bottom of the screen shows
        assert box["width"] / box["height"] == pytest.approx(1080 / 2400, rel=0.02)
        _no_overflow(page, width)


@pytest.mark.parametrize("width", [1366, 700])
def test_the_review_keeps_a_long_instruction_inside(studio: Studio, chromium: Any, tmp_path: Path,
                                                    width: int) -> None:
    phone = SimDevice()
    rec = Recording(tmp_path / "long", LONG, {"serial": phone.serial})
    rec.stop(phone.screenshot(), phone.ui_xml())
    context = chromium.new_context(viewport={"width": width, "height": 768})
    try:
        page = context.new_page()
        page.goto(studio.url + "review?path=" + str(tmp_path / "long"))
        page.wait_for_function("window.__review.trace && document.getElementById('shot').naturalWidth > 0")
        _no_overflow(page, width)
        title, shot = page.locator("#instruction").bounding_box(), page.locator("#shot").bounding_box()
        assert title["width"] <= shot["width"] + 1  # wrapped to the screenshot's width
    finally:
        context.close()


def test_typing_echo_errors_and_a_second_tab(studio: Studio, chromium: Any) -> None:
    device = studio.sessions["phone2"].device
    with phone_page(studio, chromium, "phone2", expected=(400, 409)) as page:
        page.fill("#app", "Nonexistent")
        page.click("#open")
        page.wait_for_function("document.getElementById('msg').textContent.includes("
                               "\"unknown app 'Nonexistent'\")")
        page.click("button[data-key=home]")
        page.wait_for_function("document.getElementById('msg').textContent === ''")
        page.fill("#text", "nowhere")
        page.click("#type")
        page.wait_for_function("document.getElementById('msg').textContent.includes("
                               "'nothing on the screen is focused')")
        box = page.locator("#frame").bounding_box()
        x, y = sim_label_center(device.ui_xml(), "Search apps")
        page.mouse.move(box["x"] + x * box["width"] / 1080, box["y"] + y * box["height"] / 2400)
        page.mouse.down()
        assert page.locator("#screen .echo").count() == 1  # the touch echo, at once
        before = page.evaluate("window.__studio.frames.length")
        page.mouse.up()
        page.wait_for_function(f"window.__studio.frames.length > {before}")
        page.keyboard.type("Mail")  # the screen has the keyboard focus after the click
        page.wait_for_function("document.getElementById('msg').textContent === ''")
        page.wait_for_timeout(400)  # the batch is sent 250 ms after the last key
        page.wait_for_function("document.getElementById('msg').textContent === ''")
        assert device.state()["foreground"]["fields"]["query"] == "Mail"
        with phone_page(studio, chromium, "phone2", control=False) as other:
            other.wait_for_function("document.getElementById('take').textContent === "
                                    "'Take control from the other viewer'")
            other.click("#take")
            other.wait_for_function("window.__studio.status.controller === window.__studio.client")
            page.wait_for_function("document.getElementById('control').textContent"
                                   ".startsWith('Someone else')")
            tap_device(other, 540, 2330)  # the new controller operates the phone
        device.inner.key("back")
        device.inner.key("home")
        device.changed()


def test_a_click_on_a_scrolled_page_lands_where_it_was_made(studio: Studio, chromium: Any) -> None:
    """Focusing the screen (for typing) must not scroll the page between pointer down and up."""
    device = studio.sessions["phone2"].device
    device.inner.open_app("Notes")
    device.changed()
    with phone_page(studio, chromium, "phone2", width=1366, height=768, control=False) as page:
        page.check("#inspect-toggle")
        page.wait_for_function("window.__studio.inspector.tree && window.__studio.inspector.tree.nodes.some("
                               "n => n.attrs['content-desc'] === 'New note')")
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")  # the screen's top is cut
        assert page.evaluate("scrollY") > 60
        box = page.locator("#frame").bounding_box()
        page.mouse.click(box["x"] + 935 * box["width"] / 1080, box["y"] + 2120 * box["height"] / 2400)
        page.wait_for_function("document.querySelector('.insp-node.sel') !== null")
        assert "New note" in page.locator(".insp-node.sel").text_content()
    device.inner.key("home")
    device.changed()
