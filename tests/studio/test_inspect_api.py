"""The inspector's HTTP calls on a live phone and on a trace frame: answers, and clear errors."""

from __future__ import annotations

from pathlib import Path

from droidpilot.device.sim.phone import SimDevice
from droidpilot.studio.manual import execute, resolve
from droidpilot.studio.recording import Recording
from droidpilot.studio.server import Studio

from .conftest import call


def test_live_tree_find_and_errors(studio: Studio) -> None:
    base = studio.url
    device = studio.sessions["phone2"].device  # shared with other files' tests: start from the launcher
    execute(device, resolve({"op": "key", "key": "home"}, device.size()))
    status, tree = call(base, "/api/phones/phone2/inspect")
    assert status == 200 and tree["size"] == [1080, 2400] and len(tree["nodes"]) > 3
    search = next(n for n in tree["nodes"] if n["attrs"]["text"] == "Search apps")
    status, found = call(base, "/api/phones/phone2/inspect/find", {"selector": search["selectors"]["u2"]})
    assert status == 200 and found["nodes"] == [search["id"]]
    for body, said in (({"x": "a", "y": 1}, "field 'x' must be a number"),
                       ({"x": 5000, "y": 1}, "point (5000, 1) is outside the 1080x2400 screen"),
                       ({"x": True, "y": 1}, "field 'x' must be a number")):
        status, answer = call(base, "/api/phones/phone2/inspect/words", body)
        assert status == 400 and said in answer["error"], answer
    status, answer = call(base, "/api/phones/phone2/inspect/find", {"selector": 5})
    assert status == 400 and "field 'selector' must be text" in answer["error"]
    status, answer = call(base, "/api/phones/phone2/inspect/nope", {})
    assert status == 404 and "use find or words" in answer["error"]


def test_a_frame_without_a_dump_says_so(studio: Studio, tmp_path: Path) -> None:
    phone = SimDevice()
    rec = Recording(tmp_path / "rec", "Go home.", {"serial": phone.serial})
    manual = resolve({"op": "key", "key": "home"}, phone.size())
    before = phone.screenshot()
    execute(phone, manual)
    rec.add(before, None, manual)  # a phone that gave no UI dump
    rec.stop(phone.screenshot(), None)
    status, tree = call(studio.url, "/api/review/inspect", {"path": str(tmp_path / "rec"), "n": 1})
    assert status == 200 and tree["nodes"] == [] and tree["note"] == "frame 1 has no UI dump (1.xml)"
    status, answer = call(studio.url, "/api/review/find", {"path": str(tmp_path / "rec"), "n": 1,
                                                           "selector": 'd(text="x")'})
    assert status == 400 and "this screen has no UI dump" in answer["error"]
    status, answer = call(studio.url, "/api/review/inspect", {"path": str(tmp_path / "rec"), "n": 9})
    assert status == 404 and "no frame 9" in answer["error"]


def test_an_agent_steps_grounding_candidates_are_overlaid(studio: Studio, tmp_path: Path) -> None:
    from droidpilot.agent.brains.replay import ReplayBrain
    from droidpilot.agent.loop import Agent, Limits
    from droidpilot.perception.cache import cached
    from droidpilot.perception.ocr import make_ocr_engine

    brain = ReplayBrain(["Thought: t\nAction: click text (Settings)", "Thought: t\nAction: stop",
                         {"text": "Yes", "kind": "complete"}])
    Agent(SimDevice(), brain, ocr_engine=cached(make_ocr_engine("rapidocr")), out_dir=tmp_path / "run",
          limits=Limits(max_steps=3, max_model_calls=8)).run("Open Settings.")
    status, seen = call(studio.url, "/api/review/perception", {"path": str(tmp_path / "run"), "n": 1})
    assert status == 200, seen
    assert [c["chosen"] for c in seen["candidates"]] == [True] and "Settings" in seen["candidates"][0]["text"]
    assert any(line["text"] == "Settings" for line in seen["ocr"]) and seen["icons"]
    hit = seen["hit"]
    status, tree = call(studio.url, "/api/review/inspect", {"path": str(tmp_path / "run"), "n": 1})
    assert tree["nodes"][hit]["attrs"]["text"] == "Settings"  # the launcher's Settings node, tapped
