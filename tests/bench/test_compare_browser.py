"""The run diff in Chromium: it opens on the changed tasks, and a task's side-by-side page shows both runs'
screenshots aligned with the first divergent step highlighted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from droidpilot.cli import _discover, app

from .compare_support import make_runs

pytestmark = pytest.mark.slow


def test_compare_opens_on_changes_and_shows_a_task_side_by_side(chromium: Any, tmp_path: Path) -> None:
    run_a, run_b = make_runs(tmp_path, extra_tasks=20)
    _discover()
    assert CliRunner().invoke(app, ["bench", "compare", str(run_a), str(run_b)]).exit_code == 0
    context = chromium.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = context.new_page()
        page.goto((run_b / "compare.html").as_uri())
        first_rows = page.locator("#diff tr[data-change]").evaluate_all("rs => rs.map(r => r.dataset.change)")
        assert first_rows == ["fixed", "broken", "cause changed", "only in A"]
        assert page.locator("#unchanged").get_attribute("open") is None  # 21 unchanged tasks folded away
        assert page.locator("#unchanged table tr[data-change=same]").count() == 21
        assert page.locator("#unchanged tr[data-change=same]").first.is_visible() is False
        assert page.locator("#settings-diff").is_visible()
        ended = page.locator("#diff tr[data-change=fixed] td.ended").first
        assert ended.evaluate("e => getComputedStyle(e).color") != "rgb(165, 14, 14)"  # completed: not red
        page.click("#unchanged summary")
        page.locator("tr[data-change=same]", has_text="t-same").locator("a.pair").click()
        page.wait_for_selector("#first-divergence")
        page.click("text=first divergent step")
        first = page.locator("#first-divergence")
        assert first.is_visible() and "recents" in first.text_content()
        colour = first.locator("td").first.evaluate("e => getComputedStyle(e).backgroundColor")
        assert colour == "rgb(252, 232, 230)"  # highlighted
        page.wait_for_function("[...document.images].every(i => i.complete && i.naturalWidth > 0)")
        assert page.evaluate("document.images.length") == 10
    finally:
        context.close()
