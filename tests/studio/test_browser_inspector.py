"""The inspector in Chromium: on the live screen (hover, click to select the deepest node, properties,
copied selectors, search with matches outlined, hostile text shown as text) and on a recorded trace's frame
(the step's OCR lines and icon candidates overlaid, with the node the tap hit)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from droidpilot.device.sim.phone import SimDevice
from droidpilot.perception.cache import cached
from droidpilot.perception.ocr import make_ocr_engine
from droidpilot.studio.manual import execute, faithful, resolve
from droidpilot.studio.recording import Recording
from droidpilot.studio.server import Studio

from .conftest import phone_page, press_key, sim_label_center

pytestmark = [pytest.mark.slow]
HOSTILE = '<img src=x onerror="window.__pwned=1">'


@pytest.fixture(scope="module")
def page(studio: Studio, chromium: Any) -> Iterator[Any]:
    with phone_page(studio, chromium, expected=(400, 409)) as pg:  # 400: the bad selector searched
        pg.context.grant_permissions(["clipboard-read", "clipboard-write"])
        yield pg


def _screen_click(page: Any, x: int, y: int, selector: str = "#frame") -> None:
    box = page.locator(selector).bounding_box()
    page.mouse.click(box["x"] + x * box["width"] / 1080, box["y"] + y * box["height"] / 2400)


def test_click_selects_the_deepest_node_and_its_selectors_copy(page: Any, studio: Studio) -> None:
    device = studio.sessions["phone1"].device
    press_key(page, "home")  # answered before Notes opens: a late Home would leave the launcher showing
    device.inner.open_app("Notes")
    device.changed()
    page.check("#inspect-toggle")
    page.wait_for_function("window.__studio.inspector.tree && window.__studio.inspector.tree.nodes.some("
                           "n => n.attrs['content-desc'] === 'New note')")
    before = device.current_app(), device.ui_xml()
    box = page.locator("#frame").bounding_box()
    page.mouse.move(box["x"] + 935 * box["width"] / 1080, box["y"] + 2120 * box["height"] / 2400)
    page.wait_for_function("document.querySelectorAll('#insp-overlay .insp-hover').length === 1")
    _screen_click(page, 935, 2120)  # the "+" button: selected, not tapped
    page.wait_for_function("document.querySelector('.insp-node.sel') !== null")
    assert (device.current_app(), device.ui_xml()) == before
    assert "New note" in page.locator(".insp-node.sel").text_content()
    assert "com.simphone.notes:id/new_note" in page.locator(".insp-props").text_content()
    u2 = page.locator(".insp-sel.u2 code").text_content()
    assert u2 == 'd(resourceId="com.simphone.notes:id/new_note", description="New note")'
    page.click(".insp-sel.u2 button")
    assert page.evaluate("navigator.clipboard.readText()") == u2
    assert page.locator(".insp-sel.xpath code").text_content() == \
        '//android.widget.ImageButton[@resource-id="com.simphone.notes:id/new_note"]'
    page.wait_for_function("document.querySelector('.insp-sel.words code').textContent"
                           ".startsWith('click icon (')", timeout=60_000)


def test_search_outlines_the_matches_in_each_form(page: Any) -> None:
    for selector, count in (('d(text="Groceries")', 1), ("//android.widget.TextView", 3),
                            ("click text (Groceries)", 1), ('d(text="groceries")', 0)):
        page.fill(".insp-query", selector)
        page.click(".insp-find")
        page.wait_for_function("!document.querySelector('.insp-count').textContent.startsWith('searching')",
                               timeout=60_000)
        assert page.locator(".insp-count").text_content().startswith(f"{count} match"), selector
        if count:
            assert page.locator("#insp-overlay .insp-match").count() >= 1
    page.fill(".insp-query", 'd(txt="x")')
    page.click(".insp-find")
    page.wait_for_function("document.querySelector('.insp-count').textContent.includes('unknown keyword')")


def test_hostile_text_in_the_dump_is_shown_as_text(page: Any, studio: Studio) -> None:
    device = studio.sessions["phone1"].device
    device.inner.key("home")
    x, y = sim_label_center(device.ui_xml(), "Search apps")
    device.inner.tap(x, y)
    device.inner.type_text(HOSTILE)
    device.changed()
    page.wait_for_function("[...document.querySelectorAll('.insp-node')].some(r => r.textContent.includes("
                           "'<img src=x'))")
    assert page.evaluate("window.__pwned === undefined && document.querySelectorAll('#inspector img').length"
                         " === 0")
    page.uncheck("#inspect-toggle")
    device.inner.key("back")
    device.inner.key("home")
    device.changed()


def test_a_recorded_steps_perception_is_overlaid_with_the_node_hit(page: Any, studio: Studio,
                                                                   tmp_path: Path) -> None:
    phone, ocr = SimDevice(), cached(make_ocr_engine("rapidocr"))
    phone.open_app("Notes")
    rec = Recording(tmp_path / "rec", "Start a note.", {"serial": phone.serial})
    before, xml = phone.screenshot(), phone.ui_xml()
    manual = resolve({"op": "click", "x": 935, "y": 2120, "view_w": 1080, "view_h": 2400}, phone.size())
    execute(phone, manual)
    rec.add(before, xml, faithful(manual, before, ocr))
    rec.stop(phone.screenshot(), phone.ui_xml())
    page.goto(studio.url + "review?path=" + str(tmp_path / "rec"))
    page.wait_for_function("window.__review.trace && window.__review.trace.frames.length === 2")
    page.check("#inspect-toggle")
    page.wait_for_function("window.__review.inspector.tree && "
                           "window.__review.inspector.tree.nodes.length > 3")
    page.check(".insp-perception")
    page.wait_for_function("document.querySelector('.insp-perc-note').textContent.includes('OCR lines')",
                           timeout=60_000)
    note = page.locator(".insp-perc-note").text_content()
    assert 'the tap hit ImageButton "New note"' in note, note
    assert page.locator("#insp-overlay .insp-ocr").count() >= 3
    assert page.locator("#insp-overlay .insp-icon").count() >= 1
    assert page.locator("#insp-overlay .insp-hit").count() == 1
    _screen_click(page, 300, 510, "#shot")  # click on the frame: the Groceries title
    page.wait_for_function("document.querySelector('.insp-node.sel') !== null")
    assert "Groceries" in page.locator(".insp-node.sel").text_content()
    page.click("#next")  # the last frame: the tree follows
    page.wait_for_function("window.__review.inspector.tree && window.__review.inspector.tree.nodes.some("
                           "n => n.attrs['content-desc'] === 'Save')")
