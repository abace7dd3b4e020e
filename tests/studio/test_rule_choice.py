"""The rule each trace is verified against: given, its own, the task it started from, or the suite task with
its instruction; never the previous trace's, and a clear refusal when there is none."""

from __future__ import annotations

from pathlib import Path

import pytest

from droidpilot.bench.suite import load_task, suite_folder
from droidpilot.device.sim.phone import SimDevice
from droidpilot.studio.errors import NotFound, StudioError
from droidpilot.studio.recording import Recording
from droidpilot.studio.rule_choice import choose_rule
from droidpilot.studio.startstate import StartState

NOTES_2 = suite_folder("mobile-eval") / "notes-2.yaml"


def _trace(folder: Path, instruction: str, start: dict[str, object] | None = None) -> Path:
    phone = SimDevice()
    rec = Recording(folder, instruction, {"serial": phone.serial}, start=start)
    rec.stop(phone.screenshot(), phone.ui_xml())
    return folder


def test_each_source_in_order(tmp_path: Path) -> None:
    task = load_task(NOTES_2)
    plain = _trace(tmp_path / "a", "Turn on the airplane mode.")  # settings-2's instruction
    assert choose_rule(plain, "", "Turn on the airplane mode.").name == \
        "the rule of suite task mobile-eval/settings-2 (same instruction)"
    spaced = choose_rule(plain, None, "  turn on the   airplane mode. ")  # written differently, same task
    assert spaced.source == "suite" and spaced.rule.task_id == "settings-2"
    started = _trace(tmp_path / "b", "Anything.", {**StartState(0, str(NOTES_2)).to_dict()})
    assert choose_rule(started, "", "Anything.").rule.task_id == "notes-2"
    (started / "rule.yaml").write_text(task.rule_text.replace("notes-2", "own-rule"))
    own = choose_rule(started, "", "Anything.")
    assert own.source == "trace" and own.rule.task_id == "own-rule"
    given = choose_rule(started, str(NOTES_2), "Anything.")
    assert given.source == "given" and given.name.startswith("the rule of suite task notes-2")


def test_no_rule_is_a_refusal_not_a_guess(tmp_path: Path) -> None:
    trace = _trace(tmp_path / "t", "Turn on the airplane mode!!")  # almost settings-2's, but not it
    with pytest.raises(NotFound, match="no rule for this trace"):
        choose_rule(trace, "", "Turn on the airplane mode, please.")
    with pytest.raises(NotFound, match="no such rule or suite task file"):
        choose_rule(trace, str(tmp_path / "missing.yaml"))
    bad = tmp_path / "bad.yaml"
    bad.write_text("task_id: x\nnodes: []\n")
    with pytest.raises(StudioError, match="the rule has no nodes"):
        choose_rule(trace, str(bad))
