"""The HTML report: everything untrusted is escaped, and in headless Chromium (the distribution's
chromium through Playwright) the page loads without console errors, a task opens, a screenshot enlarges,
and a screenshot of the page is not blank."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from droidpilot.bench.report import write_report
from droidpilot.bench.report.steps import overlay
from droidpilot.bench.results import write_results

EVIL = '<script>alert("x")</script>'
EVIL_IMG = "<img src=x onerror=alert(1)>"
RULE = """task_id: evil-1
nodes:
  - id: shown
    name: "<b>bold</b> milestone"
    condition: {type: ocr_match, params: {any: ["<script>"]}}
"""


def _fake_run(out: Path) -> None:
    trace = out / "traces" / "evil-1"
    trace.mkdir(parents=True)
    Image.new("RGB", (108, 240), "white").save(trace / "1.jpg")
    (trace / "actions.json").write_text(json.dumps({"task_description": EVIL, "actions": [
        {"type": "input", "text": EVIL_IMG, "action_index": 1}]}))
    (trace / "react.json").write_text(json.dumps([{"reasoning": EVIL_IMG, "function": {"name": "input"},
                                                   "action_index": 1}]))
    record = {"step": 1, "frame": 1, "thought": EVIL_IMG, "outcome": "ok",
              "action": {"name": "type", "text": f"type ({EVIL})"}}
    (trace / "steps.jsonl").write_text(json.dumps(record) + "\n")
    (trace / "verify.json").write_text(json.dumps({"ok": False, "reason": EVIL, "matched": [], "decisions": [
        {"node": "shown", "frame": 0, "result": "no", "check": {"checker": "ocr_match", "result": "no",
                                                               "reason": EVIL_IMG}}]}))
    (trace / "oracle.json").write_text(json.dumps({"ok": False, "checks": [
        {"path": "notes.notes", "op": "contains", "expected": EVIL, "actual": EVIL_IMG, "ok": False}]}))
    (trace / "rule.yaml").write_text(RULE)
    row = {"id": "evil-1", "level": 1, "app": "<i>app</i>", "instruction": EVIL, "su": 0, "su_oracle": 0,
           "cr": 0.0, "re": 1.0, "ps": 0.0, "steps": 1, "reference_steps": 1, "termination": EVIL,
           "manual_review_needed": False, "seconds": 1.0, "trace": "traces/evil-1", "error": EVIL_IMG}
    row.update(failure=EVIL, failure_reason=EVIL_IMG, rule_ok=1, oracle_ok=0)
    record["response"] = EVIL
    record["completion_check"] = {"response": EVIL_IMG, "done": False, "reason": EVIL}
    record["grounding"] = {"status": "not_found", "target": EVIL, "message": EVIL_IMG}
    (trace / "steps.jsonl").write_text(json.dumps(record) + "\n")
    write_results(out, {"suite": EVIL, "brain": "reference", "device": "sim", "model": EVIL,
                        "endpoint_host": EVIL_IMG, "settings": {"lang": EVIL}, "seeds": {"evil-1": EVIL},
                        "droidpilot": {"version": EVIL, "revision": EVIL_IMG},
                        "suite_info": {"name": EVIL, "version": EVIL_IMG}, "machine": {"hostname": EVIL}},
                  [row])


def test_untrusted_text_is_escaped(tmp_path: Path) -> None:
    _fake_run(tmp_path)
    html = write_report(tmp_path).read_text(encoding="utf-8")
    for raw in (EVIL, EVIL_IMG, "<b>bold</b>", "<i>app</i>"):
        assert raw not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert html.count("<script>") == 1  # the report's own script only


def test_compare_page_escapes(tmp_path: Path) -> None:
    from droidpilot.bench.compare import compare_runs
    from droidpilot.bench.report.compare_page import render_compare

    _fake_run(tmp_path / "a")
    _fake_run(tmp_path / "b")
    html = render_compare(compare_runs(tmp_path / "a", tmp_path / "b"), tmp_path / "compare.html")
    for raw in (EVIL, EVIL_IMG, "<i>app</i>"):
        assert raw not in html
    assert html.count("<script>") == 1


def test_overlay_draws_each_kind_of_action() -> None:
    tap = overlay({"type": "click", "position_x": 500, "position_y": 900, "bounds": [400, 850, 600, 950]},
                  (1080, 2400))
    assert 'cx="500" cy="900"' in tap and 'class="tbox"' in tap
    swipe = overlay({"type": "swipe", "press_position_x": 540, "press_position_y": 1700,
                     "release_position_x": 540, "release_position_y": 700}, (1080, 2400))
    assert 'x1="540" y1="1700" x2="540" y2="700"' in swipe and "marker-end" in swipe
    typed = overlay({"type": "input", "text": "a < b"}, (1080, 2400))
    assert "a &lt; b" in typed


@pytest.mark.slow
def test_report_in_headless_chromium(reference_run: dict[str, Any], page: Any, tmp_path: Path) -> None:
    report: Path = reference_run["report"]
    shot = tmp_path / "page.png"
    page.goto(report.as_uri())
    page.wait_for_load_state("load")
    task = page.locator("details#task-settings-2")
    assert task.get_attribute("open") is None
    task.locator("> summary").click()
    assert task.get_attribute("open") is not None
    figure = task.locator("figure.shot").first
    figure.scroll_into_view_if_needed()
    assert figure.locator("img").evaluate("img => img.complete && img.naturalWidth > 0")
    figure.click()
    assert page.locator("#lightbox.open figure.shot").count() == 1
    page.screenshot(path=str(shot))
    page.keyboard.press("Escape")
    assert page.locator("#lightbox.open").count() == 0
    assert page.locator("svg.dag .reached").count() >= 3
    assert page.errors == []
    with Image.open(shot) as im:
        colours = im.convert("RGB").getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 50  # a real page, not a blank one


def test_report_without_results(tmp_path: Path) -> None:
    from droidpilot.errors import InputError

    with pytest.raises(InputError, match=r"no results\.json"):
        write_report(tmp_path)
    shutil.rmtree(tmp_path)


def test_the_task_section_shows_side_effects_escaped() -> None:
    from droidpilot.bench.report.task import effects_section

    problem = "clock.alarms: also removed {time: 09:30, label: <b>x</b>}"
    change = {"path": "clock.alarms", "added": [], "removed": [{"label": "<b>x</b>"}]}
    html = effects_section({"ok": False, "problems": [problem], "changes": [change]})
    assert "side effects: not allowed" in html and "also removed {time: 09:30" in html
    assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html
    assert effects_section(None) == ""


def test_summary_shows_satisfaction_score_and_early_ends_per_loop(tmp_path: Path) -> None:
    base = {"level": 2, "app": "maps", "instruction": "Find a bakery", "cr": 0.5, "re": 1.0, "ps": 1.0,
            "reference_steps": 4, "manual_review_needed": False, "seconds": 1.0, "trace": "", "error": ""}
    rows = [{**base, "id": "mee-1", "loop": "e", "su": 0, "su_oracle": 0, "ss": 0.5, "steps": 12,
             "termination": "max_steps"},
            {**base, "id": "mee-2", "loop": "e", "su": 1, "su_oracle": 1, "ss": 1.0, "steps": 4,
             "termination": "completed"}]
    write_results(tmp_path, {"suite": "mobile-eval-e", "brain": "reference"}, rows)
    html = write_report(tmp_path).read_text(encoding="utf-8")
    summary = html[html.index('<table class="summary">'):]
    summary = summary[:summary.index("</table>")]
    assert ">SS</th>" in summary and ">ended early</th>" in summary
    loop_row = next(r for r in summary.split("<tr>") if r.startswith("<td>loop e</td>"))
    assert '<td class="ss">75%</td>' in loop_row and '<td class="ended">max_steps 1</td>' in loop_row
    assert "<td>50%</td>" in loop_row  # Su
    assert '<span class="muted ss">SS 50%</span>' in html  # the task's own score in its section
