"""Running a suite's own validation on one task instance: the reference (must pass), a truncated and a
wrong-final reference (must fail), the degenerate baselines of ``brains`` (should fail); for every run, the
oracle's verdict and the rule's, with the UI dump and from screenshots only (OCR), so agreement can be
measured."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from droidpilot.bench.execute import run_task, verify_trace
from droidpilot.bench.metrics import SUCCESS_TERMINATION
from droidpilot.bench.reference import ReferenceBrain
from droidpilot.bench.task import BenchTask
from droidpilot.bench.world.brains import BASELINES, make_baseline

MODES = ("reference", "truncated", "wrong_final", "heuristic", *(b.replace("-", "_") for b in BASELINES))
WRONG_FINAL = "back"


@dataclass
class Verdicts:
    """One run's verdicts: the oracle, the rule with the UI dump, the rule from screenshots only."""

    task: str
    mode: str
    oracle: bool
    rule: bool
    rule_ocr: bool

    def to_dict(self) -> dict[str, Any]:
        """As plain data."""
        return vars(self).copy()


def brain_for(task: BenchTask, mode: str, seed: int = 0) -> Any:
    """The brain that plays ``mode`` on ``task``."""
    if mode == "reference":
        return ReferenceBrain(task.reference)
    if mode == "truncated":
        return ReferenceBrain(task.reference[:-1])
    if mode == "wrong_final":
        return ReferenceBrain(task.reference, wrong_final=WRONG_FINAL)
    if mode.replace("_", "-") in BASELINES:
        return make_baseline(mode.replace("_", "-"), task, seed)
    if mode == "heuristic":
        from droidpilot.agent.brains.heuristic import HeuristicBrain

        return HeuristicBrain()
    raise ValueError(f"unknown validation mode {mode!r}; one of {', '.join(MODES)}")


def judge_run(task: BenchTask, brain: Any, device: Any, folder: Path, *, ocr_engine: Any, options: Any,
              mode: str = "", ocr: bool = True) -> Verdicts:
    """Run ``task`` with ``brain`` on ``device`` into ``folder``; the three verdicts (``rule_ocr`` False
    without ``ocr``, which skips reading the screenshots again)."""
    row = run_task(task, device, brain, folder, ocr_engine=ocr_engine, options=options)
    # Su from screenshots only, held to the same terms as the other two: the verdict and a completed run
    finished = row.get("termination") == SUCCESS_TERMINATION
    ocr_only = ocr and finished and verify_trace(task, folder, options, use_xml=False).ok
    return Verdicts(task.id, mode, bool(row.get("su_oracle")), bool(row.get("su")), bool(ocr_only))


def run_mode(
    task: BenchTask, mode: str, device: Any, folder: Path, *, ocr_engine: Any, options: Any, seed: int = 0
) -> Verdicts:
    """Run ``task`` in ``mode`` on ``device`` into ``folder``; the three verdicts."""
    return judge_run(task, brain_for(task, mode, seed), device, folder, ocr_engine=ocr_engine,
                     options=options, mode=mode)
