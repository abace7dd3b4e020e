"""What the loop tests on SimPhone share: the two-app task they run, running it with a loop, reading the
trace's steps back, and the check that a wrong page was gone back from."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from droidpilot.agent.brains.base import Brain
from droidpilot.agent.memory.store import MemoryStore
from droidpilot.bench.execute import run_task
from droidpilot.bench.suite import load_suite
from droidpilot.device.sim.phone import SimDevice
from droidpilot.verify.options import VerifierOptions


def read_steps(folder: Path) -> list[dict[str, Any]]:
    """The records of a trace's steps.jsonl, in order."""
    return [json.loads(line) for line in (folder / "steps.jsonl").read_text().splitlines()]


def multi_task() -> Any:
    """Mobile-Eval's multi-1: read today's date in Calendar, then write it in a new note."""
    return next(t for t in load_suite("mobile-eval").tasks if t.id == "multi-1")


def run_multi(brain: Brain, folder: Path, ocr_engine: Any, loop: str, memory: Path | None = None,
              **options: Any) -> dict[str, Any]:
    """multi-1 on a fresh SimPhone with ``loop``; with ``memory`` the E loop's store there, evolving."""
    if memory is not None:
        options.update(memory=MemoryStore(memory), evolve=True)
    return run_task(multi_task(), SimDevice(), brain, folder, ocr_engine=ocr_engine,
                    options=VerifierOptions(), loop=loop, **options)


def assert_went_back_from_the_wrong_page(folder: Path, feedback: str) -> None:
    """Step 3 tapped Mail instead of Notes: the reflector said B, the loop pressed back (the step's second
    frame is a back action), and the next step was told ``feedback``."""
    steps = read_steps(folder)
    wrong = steps[2]
    assert wrong["reflection"]["outcome"] == "B" and wrong["outcome"] == "wrong_page" and wrong["went_back"]
    assert len(wrong["frames"]) == 2  # the tap on Mail, then the back the loop pressed
    actions = json.loads((folder / "actions.json").read_text())["actions"]
    assert actions[wrong["frames"][1] - 1]["type"] == "back"
    assert feedback in steps[3]["feedback_given"]
