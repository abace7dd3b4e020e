"""Replaying a demonstration on a fresh phone: "replays cleanly N/N", or the first step that diverges."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from droidpilot.agent.actions import Action
from droidpilot.agent.grounding import Grounding
from droidpilot.device.sim.phone import SimDevice
from droidpilot.studio.manual import Manual, execute, faithful, resolve
from droidpilot.studio.recording import Recording
from droidpilot.studio.replay import frame_reader, replay
from droidpilot.studio.startstate import StartState, fresh_phone

VIEW = {"view_w": 1080, "view_h": 2400}


@pytest.fixture(scope="module")
def ocr() -> Any:
    from droidpilot.perception.cache import cached
    from droidpilot.perception.ocr import make_ocr_engine

    return cached(make_ocr_engine("rapidocr"))


def _demonstrate(phone: SimDevice, folder: Path, ocr: Any) -> Recording:
    """Open Notes, tap "+", type, tap the check mark: as the studio records a person doing it."""
    recording = Recording(folder, "Write a note.", {"serial": phone.serial})
    ops = [{"op": "open_app", "app": "Notes"}, {"op": "click", "x": 935, "y": 2120, **VIEW},
           {"op": "type", "text": "Hello"}, {"op": "click", "x": 984, "y": 188, **VIEW}]
    for op in ops:
        before, xml = phone.screenshot(), phone.ui_xml()
        manual = resolve(op, phone.size())
        execute(phone, manual)
        recording.add(before, xml, faithful(manual, before, ocr))
    recording.stop(phone.screenshot(), phone.ui_xml())
    return recording


def test_a_demonstration_replays_cleanly_on_a_fresh_phone(tmp_path: Path, ocr: Any) -> None:
    recording = _demonstrate(SimDevice(seed=3), tmp_path / "rec", ocr)
    assert [m.action.name for m in recording.manuals] == ["open_app", "click_icon", "type", "click_icon"]
    records = [json.loads(line) for line in (recording.folder / "steps.jsonl").read_text().splitlines()]
    # A person's step has one schema, as in an agent run taken over: by "person", counted by "manual".
    assert [(r["by"], r["manual"], "source" in r) for r in records] == [("person", n, False)
                                                                        for n in (1, 2, 3, 4)]
    fresh = fresh_phone(SimDevice(), StartState(3))
    report = replay(fresh, recording.manuals, ocr, frame_reader(recording.folder))
    assert report.text == "replays cleanly 4/4" and report.clean
    assert "Hello" in str(fresh.state()["notes"])


def test_a_different_start_diverges_at_the_first_step(tmp_path: Path, ocr: Any) -> None:
    recording = _demonstrate(SimDevice(seed=3), tmp_path / "rec", ocr)
    other = SimDevice(seed=3)
    other.open_app("Settings")  # not the recorded start screen
    report = replay(other, recording.manuals, ocr, frame_reader(recording.folder))
    assert report.replayed == 0 and report.diverged is not None and report.diverged.step == 1
    assert "the screen before it differs from the recorded one" in report.text


def test_words_that_do_not_ground_diverge_with_the_reason(ocr: Any) -> None:
    phone = SimDevice()
    phone.open_app("Notes")
    steps = [Manual(Action("click_text", text="New note"), Grounding("direct", point=(935, 2120)))]
    report = replay(phone, steps, ocr)  # no recorded frames: only the grounding is judged
    assert not report.clean and report.replayed == 0
    assert report.text.startswith("replays 0/1: step 1 (click text (New note)) diverges: it does not ground")


def test_words_that_ground_elsewhere_diverge(ocr: Any) -> None:
    phone = SimDevice()
    steps = [Manual(Action("click_text", text="Settings"), Grounding("direct", point=(540, 2000),
                                                                      box=(500, 1950, 580, 2050)))]
    report = replay(phone, steps, ocr)
    assert report.diverged is not None
    assert "but the demonstration tapped (540, 2000)" in report.diverged.reason


def test_an_app_opened_by_name_replays_wherever_the_launcher_keeps_it(ocr: Any) -> None:
    """The studio opens an app by name; a replay, like the agent, finds it from the screen: on the first
    screen, or past it through the launcher's search. An app the phone does not have diverges."""
    on_screen = resolve({"op": "open_app", "app": "Notes"}, (1080, 2400))
    off_screen = resolve({"op": "open_app", "app": "Calculator"}, (1080, 2400))  # not on the first screen
    missing = resolve({"op": "open_app", "app": "Zorblax"}, (1080, 2400))
    assert replay(SimDevice(), [on_screen], ocr).text == "replays cleanly 1/1"
    phone = SimDevice()
    assert replay(phone, [off_screen], ocr).text == "replays cleanly 1/1"
    assert phone.current_app() == "com.simphone.calculator"
    report = replay(SimDevice(), [missing], ocr)
    assert report.text.startswith("replays 0/1: step 1 (open App (Zorblax)) diverges: it does not ground")
    assert "launcher's search" in report.text
