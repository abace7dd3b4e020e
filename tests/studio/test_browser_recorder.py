"""The faithful recorder in Chromium: icon taps recorded as icons, the replay after Stop, and a task saved
from the recording that passes its own reference check (the reference brain through the agent loop)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from droidpilot.bench.execute import run_task
from droidpilot.bench.reference import ReferenceBrain
from droidpilot.bench.suite import load_task, suite_folder
from droidpilot.device.sim.phone import SimDevice
from droidpilot.perception.cache import cached
from droidpilot.perception.ocr import make_ocr_engine
from droidpilot.studio.server import Studio
from droidpilot.verify.options import VerifierOptions

from .conftest import phone_page, tap_device

pytestmark = [pytest.mark.slow]
NOTES_2 = suite_folder("mobile-eval") / "notes-2.yaml"


@pytest.fixture(scope="module")
def page(studio: Studio, chromium: Any) -> Iterator[Any]:
    with phone_page(studio, chromium) as pg:
        yield pg


def _node_centre(xml: str, desc: str) -> tuple[int, int]:
    import xml.etree.ElementTree as ET

    for node in ET.fromstring(xml).iter("node"):
        if node.get("content-desc") == desc:
            a, b = node.get("bounds", "").strip("[]").split("][")
            x1, y1 = (int(v) for v in a.split(","))
            x2, y2 = (int(v) for v in b.split(","))
            return (x1 + x2) // 2, (y1 + y2) // 2
    raise AssertionError(f"no node described {desc!r}")


def _op_done(page: Any) -> None:
    page.wait_for_function("document.getElementById('msg').textContent === ''")


def test_icon_taps_replay_and_the_saved_task_passes_its_reference(page: Any, studio: Studio,
                                                                   tmp_path: Path) -> None:
    device = studio.sessions["phone1"].device
    page.fill("#rec-instruction", "Write \"Hello, this is a note\" in a new note and save it.")
    page.fill("#rec-task", str(NOTES_2))  # start from the task's own start state
    page.click("#rec-start")
    page.wait_for_function("document.getElementById('rec-status').textContent.startsWith('Recording')")
    page.fill("#app", "Notes")
    page.click("#open")
    page.wait_for_function("document.querySelectorAll('#rec-steps li').length === 1")
    tap_device(page, *_node_centre(device.ui_xml(), "New note"))  # the "+" button: an icon, no text
    page.wait_for_function("document.querySelectorAll('#rec-steps li').length === 2")
    page.fill("#text", "Hello, this is a note")
    page.click("#type")
    page.wait_for_function("document.querySelectorAll('#rec-steps li').length === 3")
    tap_device(page, *_node_centre(device.ui_xml(), "Save"))  # the check mark
    page.wait_for_function("document.querySelectorAll('#rec-steps li').length === 4")
    steps = page.evaluate("[...document.querySelectorAll('#rec-steps li')].map(li => li.textContent)")
    assert steps[1].startswith("click icon (") and steps[3].startswith("click icon (")
    assert not any("New note" in s or "(Save)" in s for s in steps)  # never the invisible content-desc
    page.click("#rec-stop")
    page.wait_for_function("document.getElementById('rec-replay').textContent.includes('replays')",
                           timeout=120_000)
    assert page.locator("#rec-replay").text_content().startswith("replays cleanly 4/4")
    folder = Path(page.locator("#msg").text_content().split(" in ", 1)[1])
    assert json.loads((folder / "replay.json").read_text())["clean"] is True
    assert json.loads((folder / "run.json").read_text())["start"]["task_file"] == str(NOTES_2)
    # Save it as a task from the review page (the task file is the one the recording started from).
    page.goto(studio.url + "review?path=" + str(folder))
    page.wait_for_function("window.__review.trace && window.__review.trace.frames.length === 5")
    out = tmp_path / "suite" / "notes-2-demo.yaml"
    page.fill("#task-out", str(out))
    page.click("#save-task")
    page.wait_for_function("document.getElementById('msg').textContent.startsWith('Wrote')")
    task = load_task(out)
    assert task.id == "notes-2-demo" and [op.action for op in task.reference] == steps
    row = run_task(task, SimDevice(), ReferenceBrain(task.reference), tmp_path / "check",
                   ocr_engine=cached(make_ocr_engine("rapidocr")), options=VerifierOptions())
    assert row["su"] == 1 and row["su_oracle"] == 1 and row["termination"] == "completed", row
