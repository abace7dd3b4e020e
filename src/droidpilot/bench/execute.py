"""Run one benchmark task: reset the phone, run the agent into a trace folder, verify it, check the oracle.

The trace folder gets, besides the agent's files, ``verify.json`` (the verifier's verdict, witness,
node states and deciding checks), ``oracle.json`` and ``rule.yaml`` (the task's rule, runnable as is in
MobiFlow-compatible tools). The returned row is the task's line in ``results.json``.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from droidpilot.agent.loop import Limits
from droidpilot.agent.loops import calls_per_step, make_agent
from droidpilot.atomicio import atomic_write_bytes as atomic_write
from droidpilot.atomicio import atomic_write_json
from droidpilot.bench import oracle as oracle_lang
from droidpilot.bench.failures import failure_cause, failure_reason
from droidpilot.bench.metrics import read_steps, task_metrics
from droidpilot.bench.task import BenchTask
from droidpilot.errors import InputError
from droidpilot.verify.engine import verify
from droidpilot.verify.options import VerifierOptions
from droidpilot.verify.result import VerifyResult
from droidpilot.verify.trace import load_trace


def verify_trace(task: BenchTask, folder: Path, options: VerifierOptions, *, use_xml: bool = True
                 ) -> VerifyResult:
    """Verify a trace folder against the task's rule, as ``droidpilot verify`` would (frames derive their
    ``ui`` state from the XML in ``Frame.ui_state``); with ``use_xml=False`` the dumps are withheld, so
    only what OCR reads off the screenshots counts."""
    trace = load_trace(folder, task_description=task.instruction)
    if not use_xml:
        for frame in trace.frames:
            frame.xml_text = None
            frame._elements = []
    return verify(task.rule, trace, options)


def verification_record(result: VerifyResult) -> dict[str, Any]:
    """What ``verify.json`` holds: the verifier's JSON object plus witness details and node states."""
    out = result.to_dict()
    out["matched"] = [{"node": m.node, "frame": m.frame, "event": m.event, "name": m.name, "score": m.score}
                      for m in result.matched]
    out["nodes"] = [{"node": s.node, "name": s.name, "state": s.state, "event": s.event,
                     "frame": None if s.event is None or s.event < 0 else s.event // 2,
                     "yes": s.yes, "no": s.no, "undecided": s.undecided} for s in result.nodes]
    out["frame_count"] = result.frame_count
    return out


def _reset(device: Any, task: BenchTask, seed: int) -> None:
    reset = getattr(device, "reset", None)
    if callable(reset):
        reset(seed)
    else:  # a real phone: start from its home screen
        device.key("home")
    if task.setup:  # a template instance's seeded start state and distractors (SimPhone only)
        apply = getattr(device, "apply_setup", None)
        if not callable(apply):
            raise InputError(f"task {task.id} starts from a seeded SimPhone state; run it with --device sim")
        apply(task.setup)


def start_state(device: Any) -> dict[str, Any] | None:
    """The device's ``state()`` right after the set-up (None on a phone without one)."""
    state = getattr(device, "state", None)
    if not callable(state):
        return None
    value = state()
    return value if isinstance(value, dict) else None


def run_task(task: BenchTask, device: Any, brain: Any, folder: Path, *, ocr_engine: Any,
             options: VerifierOptions, settle_s: float = 0.0, check_completion: bool = True,
             on_step: Callable[[dict[str, Any]], None] | None = None, max_steps: int | None = None,
             language: str | None = None, seed: int | None = None, loop: str = "v1",
             roles: Any | None = None, memory: Any | None = None, evolve: bool = False
             ) -> dict[str, Any]:
    """Run ``task`` with ``brain`` on ``device`` into ``folder`` (replaced if it exists); the result row.
    ``max_steps``, ``language`` and ``seed`` override the task's own when given; ``loop`` is the agent loop
    (v1 | v2 | e), ``roles`` its RoleBrains, ``memory`` E's MemoryStore, ``evolve`` whether E updates it."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    atomic_write(folder / "rule.yaml", task.rule_text.encode("utf-8"))
    the_seed = task.seed if seed is None else seed
    _reset(device, task, the_seed)
    start = start_state(device)  # what the task's side effects are judged against
    started = time.monotonic()
    limit = max_steps or task.step_limit()
    calls = (2 + calls_per_step(loop)) * limit + 10
    agent = make_agent(loop, device, brain, roles=roles, memory=memory, evolve=evolve, ocr_engine=ocr_engine,
                       out_dir=folder, language=language or task.lang,
                       limits=Limits(max_steps=limit, max_model_calls=calls),
                       settle_s=settle_s, check_completion=check_completion, app_name=task.apps[0],
                       on_step=on_step)
    run = agent.run(task.instruction)
    state = run.final_state
    if state is not None:  # the agent's reply (answer action) is judged with the phone's state
        state = {**state, "agent": {"answer": run.answer}}
    oracle = (oracle_lang.evaluate(task.oracle, state, start=start, effects=task.effects)
              if state is not None else None)
    atomic_write_json(folder / "oracle.json", oracle.to_dict() if oracle else {"ok": None, "checks": []})
    result = verify_trace(task, folder, options)
    atomic_write_json(folder / "verify.json", verification_record(result))
    reached = [s.node for s in result.nodes if s.state == "reached"]
    row: dict[str, Any] = {
        "id": task.id, "suite": task.suite, "level": task.level, "app": task.app, "scenario": task.scenario,
        "instruction": task.instruction, "template": task.template, "kind": task.kind, "tier": task.tier,
        "answer": run.answer,
        **task_metrics(task.rule, task.reference_steps, read_steps(folder), result.ok, reached,
                       None if oracle is None else oracle.ok, run.termination),
        # Satisfaction Score (Mobile-Eval-E): the share of the rule's milestones (its rubrics) reached
        "ss": round(len(set(reached)) / len(task.rule.nodes), 4) if task.rule.nodes else None,
        "termination": run.termination, "manual_review_needed": result.manual_review_needed,
        "seconds": round(time.monotonic() - started, 3), "agent_seconds": round(run.seconds, 3),
        "loop": loop, **({"memory_version": agent.memory_version,
                          "memory_version_after": agent.memory_version_after} if loop == "e" else {}),
        "model_calls": run.model_calls, "prompt_tokens": run.prompt_tokens,
        "completion_tokens": run.completion_tokens,
        "timings": {k: round(v, 3) for k, v in run.timings.items()},
        "milestones": [m.node for m in result.matched], "reason": result.reason,
        "error": run.error if run.termination in ("brain_error", "device_error") else "",
        "device": getattr(device, "serial", ""), "trace": "", "seed": the_seed, "max_steps": limit,
    }
    steps = read_steps(folder)
    row["failure"], row["failure_reason"] = failure_cause(row, steps), failure_reason(row, steps)
    return row
