"""The report in headless Chromium: the task table filters (level, app, result, termination, cause, search)
and sorts; a task opens from the table; its screenshots step forward and back in the enlarged view with the
action as caption; the report still works after its output folder is moved."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow


def visible_ids(page: Any) -> list[str]:
    return page.eval_on_selector_all("#task-table tbody tr:not([hidden]) td:first-child",
                                     "cells => cells.map(c => c.textContent.trim())")


def test_filter_and_search(trials_run: dict[str, Any], page: Any) -> None:
    page.goto((trials_run["out"] / "report.html").as_uri())
    assert visible_ids(page) == ["music-3@1", "music-3@2", "settings-2@1", "settings-2@2"]
    assert page.locator("#f-count").text_content() == "4 of 4 tasks"
    page.select_option("#f-level", "2")
    assert visible_ids(page) == ["settings-2@1", "settings-2@2"]
    page.select_option("#f-level", "")
    page.select_option("#f-verdict", "passed")
    assert visible_ids(page) == ["music-3@1", "music-3@2"]
    page.select_option("#f-verdict", "")
    page.select_option("#f-term", "max_steps")
    assert visible_ids(page) == ["settings-2@1", "settings-2@2"]
    page.select_option("#f-term", "")
    page.select_option("#f-app", "music")
    assert visible_ids(page) == ["music-3@1", "music-3@2"]
    page.select_option("#f-app", "")
    page.fill("#f-q", "AIRPLANE")
    assert visible_ids(page) == ["settings-2@1", "settings-2@2"]
    assert page.locator("#f-count").text_content() == "2 of 4 tasks"
    page.fill("#f-q", "")
    page.locator("button.cause", has_text="max steps").click()  # the breakdown filters the table
    assert page.locator("#f-cause").input_value() == "max steps"
    assert visible_ids(page) == ["settings-2@1", "settings-2@2"]
    row = page.locator("#task-table tbody tr:not([hidden])").first
    assert "never stopped" in row.locator(".why").text_content()
    assert page.errors == []


def test_sort(trials_run: dict[str, Any], page: Any) -> None:
    page.goto((trials_run["out"] / "report.html").as_uri())
    level = page.locator('#task-table th[data-sort="level"]')
    level.click()
    assert [i.split("@")[0] for i in visible_ids(page)] == ["settings-2", "settings-2", "music-3", "music-3"]
    assert level.get_attribute("aria-sort") == "ascending"
    level.click()
    assert [i.split("@")[0] for i in visible_ids(page)] == ["music-3", "music-3", "settings-2", "settings-2"]
    assert level.get_attribute("aria-sort") == "descending"
    page.locator('#task-table th[data-sort="id"]').click()
    assert visible_ids(page) == ["music-3@1", "music-3@2", "settings-2@1", "settings-2@2"]
    assert page.errors == []


def test_open_a_task_and_step_through_screenshots(trials_run: dict[str, Any], page: Any) -> None:
    page.goto((trials_run["out"] / "report.html").as_uri())
    task = page.locator('details[id="task-settings-2@1"]')
    assert task.get_attribute("open") is None
    page.locator("a.open-task", has_text="settings-2@1").click()
    assert task.get_attribute("open") is not None
    steps = task.locator("li.step")
    assert steps.count() == 3
    first = steps.first
    assert first.locator("code.act").text_content() == "open App (Settings)"
    assert "found" in first.locator(".g").text_content()
    assert "tokens" in first.locator(".use").text_content()
    first.locator("details.raw > summary").click()
    assert "open App (Settings)" in first.locator("details.raw pre").text_content()
    assert task.locator(".links a", has_text="rule.yaml").get_attribute("href").endswith("/rule.yaml")
    assert "Wi-Fi says it is off for airplane mode" in task.locator("svg.dag").text_content()  # full name
    shots = task.locator("figure.shot")
    total = shots.count()
    assert total == 3
    shots.first.click()
    box = page.locator("#lightbox.open")
    assert box.locator(".lbcount").text_content() == f"1 / {total}"
    assert box.locator(".lbcap").text_content() == "step 1: open App (Settings) → ok"
    width = box.locator("figure.shot img").evaluate("img => img.getBoundingClientRect().width")
    assert width > 2 * shots.first.locator("img").evaluate("img => img.getBoundingClientRect().width")
    box.locator("button.lbnext").click()
    assert box.locator(".lbcount").text_content() == f"2 / {total}"
    assert box.locator(".lbcap").text_content().startswith("step 2: click text (Network")
    page.keyboard.press("ArrowRight")
    assert box.locator(".lbcount").text_content() == f"3 / {total}"
    assert box.locator("button.lbnext").is_disabled()
    page.keyboard.press("ArrowLeft")
    box.locator("button.lbprev").click()
    assert box.locator(".lbcount").text_content() == f"1 / {total}"
    page.keyboard.press("Escape")
    assert page.locator("#lightbox.open").count() == 0
    assert page.errors == []


def test_report_survives_moving_its_folder(trials_run: dict[str, Any], page: Any, tmp_path: Path) -> None:
    moved = tmp_path / "elsewhere" / "copy"
    shutil.copytree(trials_run["out"], moved)
    page.goto((moved / "report.html").as_uri() + "#task-music-3@2")
    task = page.locator('details[id="task-music-3@2"]')
    assert task.get_attribute("open") is not None  # a link with the task's anchor opens it
    image = task.locator("figure.shot img").first
    image.scroll_into_view_if_needed()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())
    assert page.locator("svg.chart text.val").count() >= 6  # value labels on the charts
    assert page.errors == []
