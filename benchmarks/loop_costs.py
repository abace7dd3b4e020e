"""Cost per step of the agent loops (v1, v2, e) with scripted brains on SimPhone: model calls, prompt
tokens (estimated: prompt characters / 4, images not counted) and wall time per step, Su, and the
Satisfaction Score (rubric milestones met / rubrics, Mobile-Eval-E's measure) with the reference brain.

The acting role (v1's operate, v2's decider, E's operator) plays each task's reference operations (the
reference brain); every other role gets a fixed, well-formed answer, so the figures measure the loops'
own overhead, not a model. No model weights are involved. Prints one figure per line.

    .venv/bin/python benchmarks/loop_costs.py [--suite mobile-eval] [--tasks multi-1,multi-2 | all]
                                              [--loops v1,v2,e] [--templates 'contacts-*'] [--rounds 1]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

from droidpilot.agent.brains.base import BrainReply, BrainRequest
from droidpilot.bench.execute import run_task
from droidpilot.bench.reference import ReferenceBrain
from droidpilot.bench.suite import load_suite
from droidpilot.device.sim.phone import SimDevice
from droidpilot.perception.cache import cached
from droidpilot.perception.ocr import make_ocr_engine
from droidpilot.verify.options import VerifierOptions

ROLE_ANSWERS = {
    "planner": "Progress: the task goes on as planned",
    "reflector": "Outcome: A\nError: None",
    "manager": "Plan: 1. follow the instruction\nSubgoal: the next operation",
    "notetaker": "Notes: None",
    "tip_reflector": "```yaml\ntips: []\n```",
    "shortcut_reflector": "```yaml\nshortcuts: []\n```",
}


class ScriptedRoles:
    """The reference brain for the acting role, fixed answers for the others; tokens estimated."""

    name = "scripted-reference"
    answers_roles = True

    def __init__(self, task: Any) -> None:
        self.reference = ReferenceBrain(task.reference)
        self.coord_space = self.reference.coord_space

    def decide(self, request: BrainRequest) -> BrainReply:
        role = request.kind == "role"
        text = ROLE_ANSWERS[request.role] if role else self.reference.decide(request).text
        return BrainReply(text, prompt_tokens=len(request.prompt) // 4 + 1,
                          completion_tokens=len(text) // 4 + 1)

    def describe(self) -> dict[str, Any]:
        return {"model": "scripted"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="mobile-eval")
    parser.add_argument("--tasks", default="multi-1,multi-2,multi-3")
    parser.add_argument("--loops", default="v1,v2,e")
    parser.add_argument("--templates", default=None, help="template suites (world): globs of template ids")
    parser.add_argument("--rounds", type=int, default=2,
                        help="runs of every loop; only the last is measured (the first fills the OCR cache, "
                             "so no loop pays for recognising screens another loop saw first)")
    args = parser.parse_args()
    suite = load_suite(args.suite, templates=args.templates)
    wanted = [t.strip() for t in args.tasks.split(",") if t.strip()] if args.tasks != "all" else []
    tasks = [t for t in suite.tasks if not wanted or t.id in wanted]
    engine = cached(make_ocr_engine("rapidocr"))
    options = VerifierOptions(ocr_engine=engine)  # as bench verifies: rubrics read by OCR are decided
    print(f"suite {args.suite}, tasks {len(tasks)}: {', '.join(t.id for t in tasks)}")
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.rounds - 1):
            for loop in args.loops.split(","):
                for task in tasks:
                    run_task(task, SimDevice(), ScriptedRoles(task), Path(tmp) / "warm" / loop / task.id,
                             ocr_engine=engine, options=options, loop=loop)
        for loop in args.loops.split(","):
            calls = tokens = steps = solved = 0
            wall = satisfaction = 0.0
            ended: dict[str, int] = {}
            for task in tasks:
                start = time.perf_counter()
                row = run_task(task, SimDevice(), ScriptedRoles(task), Path(tmp) / loop / task.id,
                               ocr_engine=engine, options=options, loop=loop)
                wall += time.perf_counter() - start
                n = max(1, int(row["steps"]) + 1)  # the stop step costs calls too
                calls, tokens, steps = calls + row["model_calls"], tokens + row["prompt_tokens"], steps + n
                solved += int(row["su"] == 1)
                satisfaction += float(row["ss"] or 0.0)
                if row["termination"] != "completed":
                    ended[row["termination"]] = ended.get(row["termination"], 0) + 1
            print(f"{loop}: model calls per step {calls / steps:.2f}")
            print(f"{loop}: prompt tokens per step (estimated) {tokens / steps:.0f}")
            print(f"{loop}: wall time per step {wall / steps:.2f} s")
            print(f"{loop}: Su {solved}/{len(tasks)}")
            print(f"{loop}: Satisfaction Score {satisfaction / max(1, len(tasks)):.3f}")
            print(f"{loop}: ended early {', '.join(f'{k} {v}' for k, v in sorted(ended.items())) or 'none'}")


if __name__ == "__main__":
    main()
