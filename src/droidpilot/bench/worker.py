"""One benchmark worker process: owns one phone (a SimPhone or a real device), runs the tasks it is given.

The worker reports through a queue: ``("ready", wid)``, ``("start", wid, task)``, ``("step", wid, task,
n, action)``, ``("done", wid, task, row)`` and ``("fatal", wid, message)`` when its phone or engines
cannot be set up. A task that raises is reported as a row with ``error``; the worker goes on. A worker
whose parent has died exits at once, so a killed run leaves no process writing into its folder.
"""

from __future__ import annotations

import os
import queue
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from droidpilot.errors import DroidpilotError, InputError

BRAINS = ("heuristic", "openai", "replay", "reference")


@dataclass(frozen=True)
class RunConfig:
    """Everything a worker needs, picklable: which suite, brain and phone, and where to write."""

    suite: str
    brain: str = "reference"
    out: Path = Path("bench-out")
    ocr: str = "rapidocr"
    model: str | None = None
    base_url: str | None = None
    responses: Path | None = None
    adb_host: str = "127.0.0.1"
    adb_port: int = 5037
    wrong_final: str | None = None
    check_completion: bool = True
    traces_dir: str = "traces"
    seed: int = 0
    instances: int = 1
    templates: str | None = None
    tier: str | None = None

    def load(self) -> Any:
        """The suite of this run (a template suite is instantiated for seed, instances, templates, tier)."""
        from droidpilot.bench.suite import load_suite

        return load_suite(self.suite, seed=self.seed, instances=self.instances, templates=self.templates,
                          tier=self.tier)


def make_brain(config: RunConfig, task: Any) -> Any:
    """The brain for ``task``; InputError for a brain that cannot be built from the config."""
    name = config.brain
    if name == "reference":
        from droidpilot.bench.reference import ReferenceBrain

        return ReferenceBrain(task.reference, wrong_final=config.wrong_final)
    if name == "heuristic":
        from droidpilot.agent.brains.heuristic import HeuristicBrain

        return HeuristicBrain()
    if name == "openai":
        from droidpilot.agent.brains.openai import OpenAIBrain

        return OpenAIBrain(model=config.model, base_url=config.base_url)
    if name == "replay":
        from droidpilot.agent.brains.replay import ReplayBrain

        if config.responses is None:
            raise InputError("--brain replay needs --responses DIR holding TASK_ID.json for each task")
        return ReplayBrain(Path(config.responses) / f"{task.id}.json")
    raise InputError(f"unknown brain {name!r}; choose one of {', '.join(BRAINS)}")


def make_device(spec: str, wid: int, config: RunConfig) -> tuple[Any, float]:
    """(device, settle seconds): ``sim`` -> a fresh SimPhone, anything else -> that ADB serial."""
    if spec == "sim":
        from droidpilot.device.sim.phone import SimDevice

        return SimDevice(serial=f"simphone-{wid + 1}"), 0.0
    from droidpilot.device.adb import AdbDevice

    return AdbDevice(spec, host=config.adb_host, port=config.adb_port), 1.0


def _parent_gone(parent: int) -> bool:
    return os.getppid() != parent


def worker_main(wid: int, spec: str, config: RunConfig, tasks: Any, messages: Any, parent: int) -> None:
    """Process entry point: set up, then run task ids from ``tasks`` until a None arrives."""
    try:
        from droidpilot.bench.execute import run_task
        from droidpilot.perception.cache import cached
        from droidpilot.perception.ocr import make_ocr_engine
        from droidpilot.verify.setup import VerifierChoices, build_options

        suite = config.load()
        by_id = {t.id: t for t in suite.tasks}
        device, settle = make_device(spec, wid, config)
        engine = make_ocr_engine(config.ocr)
        if engine is None:
            raise InputError("the agent needs an OCR engine; use --ocr rapidocr or tesseract")
        ocr = cached(engine)
        options = build_options(VerifierChoices(ocr=config.ocr))
    except DroidpilotError as exc:
        messages.put(("fatal", wid, str(exc)))
        return
    except Exception as exc:  # set-up failures are reported, never a silent dead worker
        messages.put(("fatal", wid, f"{type(exc).__name__}: {exc}"))
        return
    messages.put(("ready", wid))
    while True:
        try:
            tid = tasks.get(timeout=1.0)
        except queue.Empty:
            if _parent_gone(parent):
                os._exit(3)
            continue
        if tid is None:
            return
        task = by_id[tid]
        messages.put(("start", wid, tid))

        def on_step(record: dict[str, Any], tid: str = tid) -> None:
            if _parent_gone(parent):
                os._exit(3)
            action = (record.get("action") or {}).get("text") or record.get("outcome") or ""
            messages.put(("step", wid, tid, int(record.get("step", 0)), str(action)))

        folder = Path(config.out) / config.traces_dir / tid
        try:
            row = run_task(task, device, make_brain(config, task), folder, ocr_engine=ocr, options=options,
                           settle_s=settle, check_completion=config.check_completion, on_step=on_step)
        except Exception as exc:  # one task's crash is recorded; the others go on
            detail = str(exc) if isinstance(exc, DroidpilotError) else traceback.format_exc(limit=4)
            row = error_row(task, f"{type(exc).__name__}: {detail}", getattr(device, "serial", spec))
        row["trace"] = f"{config.traces_dir}/{tid}"
        messages.put(("done", wid, tid, row))


def error_row(task: Any, message: str, device: str = "") -> dict[str, Any]:
    """The result row of a task that could not be run to the end."""
    return {"id": task.id, "suite": task.suite, "level": task.level, "app": task.app,
            "scenario": task.scenario, "instruction": task.instruction, "su": 0, "su_oracle": 0, "cr": 0.0,
            "re": None, "ps": 0.0, "steps": 0, "effective_steps": 0, "reference_steps": task.reference_steps,
            "termination": "error", "manual_review_needed": False, "seconds": 0.0, "model_calls": 0,
            "prompt_tokens": 0, "completion_tokens": 0, "milestones": [], "reason": "", "error": message,
            "device": device, "trace": ""}
