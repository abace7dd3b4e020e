"""The studio in headless Chromium (the distribution's chromium through Playwright), on one server and one
browser for the whole module: the live screen, clicking and typing on it, a recorded demonstration that
`droidpilot verify` passes, the heuristic agent started from the page and steered, and a trace labelled."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from droidpilot.bench.suite import load_task, suite_folder
from droidpilot.studio.server import Studio

from .conftest import phone_page, press_key, sim_label_center, tap_device

pytestmark = [pytest.mark.slow]


@pytest.fixture(scope="module")
def page(studio: Studio, chromium: Any) -> Iterator[Any]:
    """phone1's page (in the session's Chromium), with control taken; console errors fail the module."""
    with phone_page(studio, chromium) as pg:
        yield pg


def _device(studio: Studio) -> Any:
    return studio.sessions["phone1"].device


def _tap(page: Any, x: int, y: int) -> None:
    tap_device(page, x, y)


def _tap_label(page: Any, studio: Studio, label: str) -> None:
    _tap(page, *sim_label_center(_device(studio).ui_xml(), label))


def _home(page: Any, studio: Studio) -> None:
    press_key(page, "home")
    while _device(studio).current_app() != "com.simphone.launcher":
        page.wait_for_timeout(50)


def test_live_screen_and_a_click_on_the_settings_icon(page: Any, studio: Studio) -> None:
    assert page.locator("#frame").evaluate("img => img.complete && img.naturalWidth > 0")
    assert _device(studio).current_app() == "com.simphone.launcher"
    _tap_label(page, studio, "Settings")
    assert _device(studio).current_app() == "com.android.settings"
    assert page.locator("#title").text_content() == "phone1 · simphone-1"


def test_type_into_a_field(page: Any, studio: Studio) -> None:
    _home(page, studio)
    _tap_label(page, studio, "Search apps")
    page.fill("#text", "Not<b>es")
    before = page.evaluate("window.__studio.frames.length")
    page.click("#type")
    page.wait_for_function(f"window.__studio.frames.length > {before}")
    assert _device(studio).state()["foreground"]["fields"]["query"] == "Not<b>es"


def test_recorded_demonstration_verifies(page: Any, studio: Studio, tmp_path_factory: Any) -> None:
    _home(page, studio)
    page.click("button[data-key=back]")  # leave the search field
    page.fill("#rec-instruction", "Turn on the airplane mode.")
    page.click("#rec-start")
    page.wait_for_function("document.getElementById('rec-status').textContent.startsWith('Recording')")
    for label in ("Settings", "Network & internet", "Airplane mode"):
        _tap_label(page, studio, label)
    page.wait_for_function("document.querySelectorAll('#rec-steps li').length === 3")
    page.click("#rec-stop")
    page.wait_for_function("document.getElementById('msg').textContent.startsWith('Saved 3 steps')")
    folder = Path(page.locator("#msg").text_content().split(" in ", 1)[1])
    steps = [json.loads(line) for line in (folder / "steps.jsonl").read_text().splitlines()]
    # The launcher's Settings node is tapped on its icon, so it is written as that icon; the rows as text.
    assert steps[0]["action"]["name"] == "click_icon"
    assert [s["action"]["text"] for s in steps[1:]] == ["click text (Network & internet)",
                                                        "click text (Airplane mode)"]
    page.wait_for_function("document.getElementById('rec-replay').textContent.includes('replays')")
    assert page.locator("#rec-replay").text_content().startswith("replays cleanly 3/3")
    assert page.locator("#rec-replay a").get_attribute("href").startswith("/review?path=")
    assert json.loads((folder / "run.json").read_text())["status"] == "finished"
    assert len(json.loads((folder / "responses.json").read_text())) == 5
    task = load_task(suite_folder("mobile-eval") / "settings-2.yaml")
    rule = tmp_path_factory.mktemp("rule") / "settings-2.yaml"
    rule.write_text(task.rule_text)
    done = subprocess.run([sys.executable, "-m", "droidpilot", "verify", str(rule), str(folder), "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr + done.stdout
    assert json.loads(done.stdout)["ok"] is True
    studio.sessions["phone1"].last_recording = folder  # type: ignore[attr-defined]


def test_agent_from_the_page_with_take_over_and_stop(page: Any, studio: Studio) -> None:
    _home(page, studio)
    page.fill("#ag-instruction", "Turn on the dark mode.")
    page.fill("#ag-steps", "8")
    page.click("#ag-start")
    page.wait_for_function("document.querySelectorAll('#ag-log > div').length >= 1", timeout=60_000)
    page.click("#ag-take")
    page.wait_for_function("window.__studio.status.agent && window.__studio.status.agent.state === 'paused'")
    steps = page.evaluate("document.querySelectorAll('#ag-log > div').length")
    press_key(page, "home")  # a person operates the paused agent's phone
    page.wait_for_timeout(300)
    assert page.evaluate("document.querySelectorAll('#ag-log > div').length") == steps  # paused: no steps
    last_step = page.evaluate("window.__studio.lastStep.step")
    assert f" · {last_step} steps · " in page.locator("#ag-status").text_content()  # counted live
    page.click("#ag-back")
    page.wait_for_function(f"document.querySelectorAll('#ag-log > div').length > {steps}", timeout=60_000)
    # The agent may finish the task on its own first, which disables Stop: a script click does nothing
    # then, where page.click would wait for the button to be enabled again.
    page.evaluate("document.getElementById('ag-stop').click()")
    page.wait_for_function("window.__studio.status.agent.state === 'finished'", timeout=60_000)
    result = page.evaluate("window.__studio.status.agent.result")
    assert result["termination"] in ("stopped", "completed"), result
    last = page.evaluate("window.__studio.lastStep")
    assert last["action"] and last["action"] in page.locator("#ag-current").text_content()
    assert page.locator("#caption").is_hidden()  # the caption over the screen goes with the run
    trace = Path(page.evaluate("window.__studio.status.agent.folder"))
    assert (trace / "steps.jsonl").is_file()
    assert json.loads((trace / "run.json").read_text())["status"] == "finished"
    records = [json.loads(line) for line in (trace / "steps.jsonl").read_text().splitlines()]
    manual = [r for r in records if r.get("by") == "person"]  # the person's Home is in the agent's trace
    assert [r["action"]["name"] for r in manual] == ["home"]
    actions = json.loads((trace / "actions.json").read_text())["actions"]
    assert actions[manual[0]["frame"] - 1]["type"] == "home"
    assert (trace / f"{manual[0]['frame']}.jpg").is_file()


def test_label_a_trace(page: Any, studio: Studio) -> None:
    folder: Path = studio.sessions["phone1"].last_recording  # type: ignore[attr-defined]
    page.goto(studio.url + "review?path=" + str(folder))
    page.wait_for_function("window.__review.trace && window.__review.trace.frames.length === 4")
    assert "airplane" in page.locator("#instruction").text_content()
    page.wait_for_function("document.getElementById('shot').naturalWidth > 0")
    page.click("#next")
    assert "Network & internet" in page.locator("#step").text_content()
    assert page.locator("#shot-overlay circle").count() == 1
    page.check("input[name=label][value=pass]")
    page.fill("#note", "<i>clean</i> run")
    page.click("#save-label")
    page.wait_for_function("document.getElementById('label-status').textContent === 'Labelled pass.'")
    label = json.loads((folder / "label.json").read_text())
    assert label["label"] == "pass" and label["note"] == "<i>clean</i> run"
    page.click("#export")
    page.wait_for_function("document.getElementById('msg').textContent.startsWith('Exported 1 labels')")
    exported = json.loads((folder / "labels.json").read_text())
    assert exported["labels"][0]["label"] == "pass"
