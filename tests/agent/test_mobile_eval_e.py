"""A sample of the mobile-eval-e tasks (Mobile-Eval-E's tasks on SimPhone; the slow
tests/bench/test_full_reference.py runs all 25) with the reference brain in every loop: each passes with
every rubric milestone met (Satisfaction Score 1); a run that stops early scores the rubrics it met."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from droidpilot.bench.execute import run_task
from droidpilot.bench.reference import ReferenceBrain
from droidpilot.bench.suite import load_suite
from droidpilot.device.sim.phone import SimDevice
from droidpilot.verify.options import VerifierOptions

TASKS = {t.id: t for t in load_suite("mobile-eval-e").tasks}
SAMPLE = ["mee-02", "mee-04"]  # one Maps task, one Maps + Notes task: short, so three loops stay quick


@pytest.mark.parametrize("loop", ["v1", "v2", "e"])
@pytest.mark.parametrize("task_id", SAMPLE)
def test_the_reference_brain_passes_a_sample_in_every_loop(task_id: str, loop: str, ocr_engine: Any,
                                                           tmp_path: Path) -> None:
    task = TASKS[task_id]
    row = run_task(task, SimDevice(), ReferenceBrain(task.reference), tmp_path / "t", ocr_engine=ocr_engine,
                   options=VerifierOptions(), loop=loop)
    assert row["su"] == 1 and row["su_oracle"] == 1 and row["ss"] == 1.0 and row["loop"] == loop, row


def test_a_run_cut_short_scores_the_rubrics_it_met(ocr_engine: Any, tmp_path: Path) -> None:
    task = TASKS["mee-04"]
    brain = ReferenceBrain(task.reference[:7])  # stays in Maps: 4 of the 6 rubrics (never opens Notes)
    row = run_task(task, SimDevice(), brain, tmp_path / "t", ocr_engine=ocr_engine, options=VerifierOptions())
    assert row["su"] == 0 and row["ss"] == round(4 / 6, 4), row
    assert set(row["milestones"]) == {"opened", "nearby", "cakes", "phone"}
