"""Side effects on real SimPhone runs: the reference of templates that declare effects passes, and the same
reference with one wrong completion (an extra alarm deleted, ten times the amount, a timed event for an
all-day one) fails, with oracle.json naming the change. The whole suite: benchmarks/world_effects.py."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from droidpilot.bench.execute import run_task
from droidpilot.bench.reference import ReferenceBrain
from droidpilot.bench.suite import BenchTask, RefOp, load_suite

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def engines(world_engines: dict[str, Any]) -> dict[str, Any]:
    """The session's SimPhone, OCR engine and verifier options (conftest.py), not a second set."""
    return world_engines


def _run(task: BenchTask, ops: list[RefOp], engines: dict[str, Any], folder: Path) -> dict[str, Any]:
    run_task(task, engines["device"], ReferenceBrain(ops), folder, ocr_engine=engines["ocr_engine"],
             options=engines["options"])
    return json.loads((folder / "oracle.json").read_text(encoding="utf-8"))


def _other_alarm(task: BenchTask) -> RefOp:
    alarms = task.setup["state"]["clock.alarms"]
    other = next(a for a in alarms[:5] if a["time"] != task.params["target"]["time"])
    return RefOp(f"click text ({other['time']})")


def _tenfold(task: BenchTask) -> list[RefOp]:
    amount = str(task.params["amount"])
    return [RefOp(f"type ({amount}0)") if op.action == f"type ({amount})" else op for op in task.reference]


def _timed(task: BenchTask) -> list[RefOp]:
    ops = list(task.reference)
    return [*ops[:-1], RefOp("click text (Time (e.g. 14:00))"), RefOp("type (09:00)"), ops[-1]]


WRONG = {
    "clock-delete": (lambda t: [*t.reference, _other_alarm(t), RefOp("click text (Delete alarm)")],
                     "clock.alarms: also removed"),
    "bank-send-memo": (_tenfold, "bank.transfers: also added"),
    "calendar-all-day": (_timed, "calendar.events: also added"),
}


@pytest.mark.parametrize("template", sorted(WRONG))
def test_the_reference_passes_and_a_wrong_completion_fails_naming_the_change(
    template: str, engines: dict[str, Any], tmp_path: Path
) -> None:
    task = load_suite("world", seed=0, templates=template).tasks[0]
    assert task.effects and all(isinstance(v, dict) for v in task.effects.values())  # declared, not default
    ok = _run(task, list(task.reference), engines, tmp_path / "reference")
    assert ok["ok"] and ok["effects"]["ok"] and ok["effects"]["changes"], ok
    wrong_ops, problem = WRONG[template]
    bad = _run(dataclasses.replace(task), wrong_ops(task), engines, tmp_path / "wrong")
    assert not bad["ok"], bad
    assert any(p.startswith(problem) for p in bad["effects"]["problems"]), bad["effects"]
