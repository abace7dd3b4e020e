"""Recording and review without a browser: the trace a demonstration writes, labels, export, save as task."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from tests.support.recorded import record

from droidpilot.bench.results import write_results
from droidpilot.bench.suite import load_task, suite_folder
from droidpilot.device.sim.phone import SimDevice
from droidpilot.studio import review
from droidpilot.studio.errors import Conflict, NotFound, StudioError
from droidpilot.studio.manual import execute, faithful, resolve
from droidpilot.studio.recording import Recording, save_as_task


@pytest.fixture(scope="module")
def bench_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A bench-results folder holding one recorded demonstration of settings-2 as its trace."""
    out = tmp_path_factory.mktemp("bench")
    folder = out / "traces" / "settings-2"
    rec = record(folder, "Turn on the airplane mode.", [
        {"op": "open_app", "app": "Settings"}, {"op": "key", "key": "recents"}, {"op": "key", "key": "back"}])
    with pytest.raises(Conflict, match="already stopped"):
        rec.stop(None, None)
    write_results(out, {"suite": "mobile-eval", "brain": "human", "device": "sim"},
                  [{"id": "settings-2", "su": 1, "trace": "traces/settings-2"}])
    return out


def test_a_recording_is_an_agent_trace(bench_folder: Path) -> None:
    trace = bench_folder / "traces" / "settings-2"
    actions = json.loads((trace / "actions.json").read_text())
    assert [a["type"] for a in actions["actions"]] == ["open_app", "recents", "back", "done"]
    replies = json.loads((trace / "responses.json").read_text())
    assert replies[0]["text"].endswith("Action: open App (Settings)") and replies[-1]["kind"] == "complete"
    assert yaml.safe_load((trace / "reference.yaml").read_text())["reference"] == [
        "open App (Settings)", "recents", "back"]
    shown = review.load(str(trace))
    assert [f["index"] for f in shown["frames"]] == [1, 2, 3, 4] and shown["frames"][0]["image"]
    assert shown["frames"][1]["step"]["action"]["text"] == "recents"
    assert review.image_path(str(trace), "2").name == "2.jpg"


def test_review_opens_bench_folders_and_refuses_what_is_not_a_trace(bench_folder: Path,
                                                                    tmp_path: Path) -> None:
    opened = review.open_folder(str(bench_folder))
    assert opened["kind"] == "bench" and opened["traces"][0]["name"] == "settings-2"
    with pytest.raises(NotFound, match="no such folder"):
        review.open_folder(str(tmp_path / "missing"))
    with pytest.raises(NotFound, match="holds no trace"):
        review.open_folder(str(tmp_path))
    with pytest.raises(NotFound, match="not a trace folder"):
        review.load(str(bench_folder))
    with pytest.raises(NotFound, match="no frame 9"):
        review.image_path(str(bench_folder / "traces" / "settings-2"), 9)
    with pytest.raises(StudioError, match="whole number"):
        review.image_path(str(bench_folder / "traces" / "settings-2"), "../x")
    with pytest.raises(NotFound, match="no such rule or suite task file"):
        review.verify_folder(str(bench_folder / "traces" / "settings-2"), str(tmp_path / "none.yaml"))


def test_labels_are_saved_beside_the_trace_and_exported(bench_folder: Path) -> None:
    trace = bench_folder / "traces" / "settings-2"
    with pytest.raises(StudioError, match="label must be one of pass, fail, unsure"):
        review.save_label(str(trace), "maybe")
    review.save_label(str(trace), "fail", "never turned airplane mode on")
    assert review.open_folder(str(bench_folder))["traces"][0]["label"] == "fail"
    exported = review.export_labels(str(bench_folder))
    assert exported["count"] == 1 and exported["labels"][0]["task"] == "settings-2"
    assert json.loads((bench_folder / "labels.json").read_text())["labels"][0]["label"] == "fail"


def test_a_demonstration_becomes_a_task_reference(bench_folder: Path, tmp_path: Path) -> None:
    trace = bench_folder / "traces" / "settings-2"
    out = save_as_task(trace, suite_folder("mobile-eval") / "settings-2.yaml", tmp_path / "my-task.yaml")
    task = load_task(out)
    assert task.id == "my-task" and task.instruction == "Turn on the airplane mode."
    assert [op.action for op in task.reference] == ["open App (Settings)", "recents", "back"]
    with pytest.raises(NotFound, match="no such task file"):
        save_as_task(trace, tmp_path / "none.yaml", tmp_path / "x.yaml")


def test_verify_a_trace_against_a_rule(bench_folder: Path, tmp_path: Path) -> None:
    rule = tmp_path / "rule.yaml"
    rule.write_text(load_task(suite_folder("mobile-eval") / "settings-2.yaml").rule_text)
    verdict = review.verify_folder(str(bench_folder / "traces" / "settings-2"), str(rule))
    assert verdict["ok"] is False and verdict["matched"][0]["node"] == "settings_open"
    assert verdict["rule"] == {"source": "given", "name": f"rule file {rule}"}
    assert verdict["decisions"] and {n["node"] for n in verdict["nodes"]} >= {"network_page", "airplane_on"}
    rule.write_text("task_id: x\nnodes: []\n")
    with pytest.raises(StudioError, match="rule"):
        review.verify_folder(str(bench_folder / "traces" / "settings-2"), str(rule))


@pytest.mark.slow
def test_a_recorded_demonstration_replays_with_the_replay_brain(tmp_path: Path) -> None:
    from droidpilot.agent.brains.factory import make_brain
    from droidpilot.agent.loop import Agent
    from droidpilot.perception.cache import cached
    from droidpilot.perception.ocr import make_ocr_engine

    from .conftest import sim_label_center

    phone, ocr = SimDevice(), cached(make_ocr_engine("rapidocr"))
    rec = Recording(tmp_path / "demo", "Turn on the airplane mode.", {"serial": phone.serial})
    for label in ("Settings", "Network & internet", "Airplane mode"):
        xml = phone.ui_xml()
        x, y = sim_label_center(xml, label)
        manual = resolve({"op": "click", "x": x, "y": y, "view_w": 1080, "view_h": 2400}, phone.size())
        before = phone.screenshot()
        execute(phone, manual)
        rec.add(before, xml, faithful(manual, before, ocr))
    rec.stop(phone.screenshot(), phone.ui_xml())
    assert phone.state()["settings"]["airplane_mode"] is True
    fresh = SimDevice()
    brain = make_brain("replay", responses=tmp_path / "demo" / "responses.json")
    result = Agent(fresh, brain, ocr_engine=ocr,
                   out_dir=tmp_path / "replayed").run("Turn on the airplane mode.")
    assert result.completed and fresh.state()["settings"]["airplane_mode"] is True
