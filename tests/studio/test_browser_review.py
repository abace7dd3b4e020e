"""The review in Chromium: the trace browser (recent recordings, any folder), the rule chosen per trace and
named in the verdict (never the previous trace's), progress while verifying, the scrubber and keys, and
frames counted from 1 in the verdict as in the counter."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.support.recorded import VIEW, record

from droidpilot.bench.suite import suite_folder
from droidpilot.studio.server import Studio
from droidpilot.studio.startstate import StartState

pytestmark = [pytest.mark.slow]
NOTES_2 = suite_folder("mobile-eval") / "notes-2.yaml"


@pytest.fixture(scope="module")
def traces(studio: Studio) -> dict[str, Path]:
    root = studio.sessions["phone1"].out_root / "recordings"
    notes = record(root / "zz-notes", "Write a note.", [
        {"op": "open_app", "app": "Notes"}, {"op": "click", "x": 935, "y": 2120, **VIEW},
        {"op": "type", "text": "Hello, this is a note"}, {"op": "click", "x": 984, "y": 188, **VIEW}],
        StartState(0, str(NOTES_2)).to_dict()).folder
    airplane = record(root / "zz-airplane", "Turn on the airplane mode.",
                      [{"op": "open_app", "app": "Settings"}]).folder
    return {"notes": notes, "airplane": airplane}


@pytest.fixture(scope="module")
def page(studio: Studio, chromium: Any) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 1366, "height": 768})
    try:
        pg = context.new_page()
        pg.set_default_timeout(30_000)
        yield pg
    finally:
        context.close()


def test_recent_traces_rule_per_trace_progress_and_navigation(page: Any, studio: Studio,
                                                              traces: dict[str, Path]) -> None:
    page.goto(studio.url + "review")
    page.wait_for_function("[...document.querySelectorAll('#recent li')].some(li => li.textContent.includes("
                           "'Write a note.'))")
    page.locator("#recent li", has_text="Write a note.").first.click()
    page.wait_for_function("window.__review.trace && window.__review.trace.frames.length === 5")
    page.fill("#rule", "/nowhere/rule.yaml")  # typed for this trace, then another trace is opened
    page.locator("#recent li", has_text="Turn on the airplane mode.").first.click()
    page.wait_for_function("window.__review.trace && window.__review.trace.frames.length === 2")
    assert page.input_value("#rule") == ""  # not carried over to the next trace
    page.click("#verify")
    assert "Verifying 2 frames" in page.locator("#verdict").text_content()  # shown while it runs
    page.wait_for_function("document.querySelector('#verdict .rule-used') !== null", timeout=120_000)
    verdict = page.locator("#verdict").text_content()
    assert "FAIL" in verdict and "mobile-eval/settings-2 (same instruction)" in verdict
    page.locator("#recent li", has_text="Write a note.").first.click()
    page.wait_for_function("window.__review.trace && window.__review.trace.frames.length === 5")
    page.click("#verify")
    page.wait_for_function("document.querySelector('#verdict .rule-used') !== null", timeout=120_000)
    verdict = page.locator("#verdict").text_content()
    assert "PASS" in verdict and "the rule of suite task notes-2" in verdict
    # Frames from 1: the first milestone (the Notes list, on the screen after open App) is frame 2 = 2.jpg.
    first = page.locator("#verdict .matched").first
    assert first.text_content().endswith("at frame 2")
    first.click()
    assert page.locator("#counter").text_content() == "frame 2 of 5"
    page.locator("#shot").click()  # keys work once no text field has focus
    page.keyboard.press("End")
    assert page.locator("#counter").text_content() == "frame 5 of 5"
    page.keyboard.press("ArrowLeft")
    assert page.locator("#counter").text_content() == "frame 4 of 5"
    page.locator("#scrub").fill("0")
    assert page.locator("#counter").text_content() == "frame 1 of 5"


def test_browse_any_folder_by_clicking(page: Any, studio: Studio, traces: dict[str, Path]) -> None:
    page.goto(studio.url + "review")
    page.fill("#path", str(traces["notes"].parent.parent))
    page.click("#browse")
    page.locator("#browse-list li", has_text="recordings").click()
    page.locator("#browse-list li.browse-trace", has_text="zz-airplane").click()
    page.wait_for_function("window.__review.trace && window.__review.trace.instruction === "
                           "'Turn on the airplane mode.'")
