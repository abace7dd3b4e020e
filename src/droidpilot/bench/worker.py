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
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from droidpilot.bench.world.brains import BASELINES as BASELINE_BRAINS
from droidpilot.errors import DroidpilotError, InputError

BRAINS = ("heuristic", "openai", "replay", "reference", *BASELINE_BRAINS)


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
    max_steps: int | None = None  # None: each task's own limit
    lang: str | None = None  # None: each task's own language
    extended_actions: bool = False
    coord_space: str | None = None
    temperature: float | None = None  # None: the brain's default (0 for openai)
    seed: int | None = None  # fixed suites: SimPhone's seed (None: each task's own); template suites: the
    # seed instances are drawn from (None: 0), each instance keeping its own SimPhone state
    trials: int = 1
    image_max_side: int = 1024
    action_format: str = "text"  # how the openai brain answers: text | tools
    instances: int = 1  # template suites: instances per template
    templates: str | None = None  # template suites: comma-separated globs of template ids or apps
    tier: str | None = None  # template suites: easy | medium | hard
    loop: str = "v1"  # the agent loop: v1 | v2 | e
    role_models: tuple[str, ...] = ()  # ROLE=MODEL items: a role of the v2/e loop with its own model
    memory: str | None = None  # loop e: the memory folder of tips and shortcuts
    evolve: bool = False  # loop e: update the memory after each task, in task order

    def load(self) -> Any:
        """The suite of this run (a template suite is instantiated for seed, instances, templates, tier)."""
        from droidpilot.bench.suite import load_suite

        return load_suite(self.suite, seed=self.seed or 0, instances=self.instances, templates=self.templates,
                          tier=self.tier)


def work_key(task_id: str, trial: int, trials: int) -> str:
    """The runner's key of one attempt: the task id, or ``ID@K`` when each task runs several times."""
    return task_id if trials <= 1 else f"{task_id}@{trial}"


def split_key(key: str) -> tuple[str, int]:
    """(task id, trial) of a work key."""
    tid, _, trial = key.partition("@")
    return tid, int(trial) if trial else 1


def make_brain(config: RunConfig, task: Any) -> Any:
    """The brain for ``task``; InputError for a brain that cannot be built from the config."""
    name = config.brain
    if name == "reference":
        from droidpilot.bench.reference import ReferenceBrain

        return ReferenceBrain(task.reference, wrong_final=config.wrong_final)
    if name in BASELINE_BRAINS:  # degenerate agents: what a judge must not pass
        from droidpilot.bench.world.brains import make_baseline

        return make_baseline(name, task, config.seed or 0)
    if name not in BRAINS:
        raise InputError(f"unknown brain {name!r}; choose one of {', '.join(BRAINS)}")
    from droidpilot.agent.brains.factory import make_brain as make_agent_brain

    if name == "replay" and config.responses is None:
        raise InputError("--brain replay needs --responses DIR holding TASK_ID.json for each task")
    responses = None if config.responses is None else Path(config.responses) / f"{task.id}.json"
    return make_agent_brain(name, model=config.model, base_url=config.base_url, responses=responses,
                            coord_space=config.coord_space, image_max_side=config.image_max_side,
                            extended=config.extended_actions, action_format=config.action_format,
                            temperature=config.temperature)


def make_roles(config: RunConfig, task: Any, brain: Any) -> Any:
    """The RoleBrains of the v2/e loop: ``brain`` for every role but those ``--role-model`` names."""
    from droidpilot.agent.loops.roles import parse_role_models, role_brains

    table = parse_role_models(config.role_models, config.loop)
    return role_brains(brain, table, lambda model: make_brain(replace(config, model=model), task))


def make_device(spec: str, wid: int, config: RunConfig) -> tuple[Any, float]:
    """(device, settle seconds): ``sim`` -> a fresh SimPhone, anything else -> that ADB serial."""
    if spec == "sim":
        from droidpilot.device.sim.phone import SimDevice

        return SimDevice(serial=f"simphone-{wid + 1}"), 0.0
    from droidpilot.device.realphone import AdbDevice

    return AdbDevice(spec, host=config.adb_host, port=config.adb_port), 1.0


@dataclass
class Workbench:
    """What one worker sets up once and reuses for every task: the suite's tasks, its phone and engines."""

    tasks: dict[str, Any]
    device: Any
    settle: float
    ocr: Any
    options: Any
    spec: str


def setup_worker(spec: str, wid: int, config: RunConfig) -> Workbench:
    """Load the suite, open the phone and the OCR engine (once per worker); InputError when impossible."""
    from droidpilot.perception.cache import cached
    from droidpilot.perception.ocr import make_ocr_engine
    from droidpilot.verify.setup import VerifierChoices, build_options

    suite = config.load()
    device, settle = make_device(spec, wid, config)
    engine = make_ocr_engine(config.ocr)
    if engine is None:
        raise InputError("the agent needs an OCR engine; use --ocr rapidocr or tesseract")
    return Workbench({t.id: t for t in suite.tasks}, device, settle, cached(engine),
                     build_options(VerifierChoices(ocr=config.ocr)), spec)


def execute_task(bench: Workbench, key: str, config: RunConfig, traces_root: Path,
                 on_step: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Run the attempt ``key`` (a task id, ``ID@K`` for trial K) into ``traces_root/key``; its result row
    (an error row when the task crashed).

    Both runners call this: the local one with ``traces_root`` inside ``--out``, the Ray one with a
    folder on the worker's node that is shipped back to the driver."""
    from droidpilot.bench.execute import run_task

    tid, trial = split_key(key)
    task = bench.tasks[tid]
    folder = Path(traces_root) / key
    try:
        brain = make_brain(config, task)
        roles, memory = make_roles(config, task, brain), None
        if config.memory is not None:
            from droidpilot.agent.memory.store import MemoryStore

            memory = MemoryStore(config.memory)
        row = run_task(task, bench.device, brain, folder, ocr_engine=bench.ocr,
                       options=bench.options, settle_s=bench.settle,
                       check_completion=config.check_completion, on_step=on_step,
                       max_steps=config.max_steps, language=config.lang,
                       seed=None if task.template else config.seed,  # an instance keeps its own state
                       loop=config.loop, roles=roles, memory=memory, evolve=config.evolve)
    except Exception as exc:  # one task's crash is recorded; the others go on
        detail = str(exc) if isinstance(exc, DroidpilotError) else traceback.format_exc(limit=4)
        row = error_row(task, f"{type(exc).__name__}: {detail}", getattr(bench.device, "serial", bench.spec))
    row["trace"] = f"{config.traces_dir}/{key}"
    row["trial"] = trial
    return row


def _parent_gone(parent: int) -> bool:
    return os.getppid() != parent


def worker_main(wid: int, spec: str, config: RunConfig, tasks: Any, messages: Any, parent: int) -> None:
    """Process entry point: set up, then run work keys (``ID`` or ``ID@K``) from ``tasks`` until a None
    arrives."""
    try:
        bench = setup_worker(spec, wid, config)
    except DroidpilotError as exc:
        messages.put(("fatal", wid, str(exc)))
        return
    except Exception as exc:  # set-up failures are reported, never a silent dead worker
        messages.put(("fatal", wid, f"{type(exc).__name__}: {exc}"))
        return
    messages.put(("ready", wid))
    while True:
        try:
            key = tasks.get(timeout=1.0)
        except queue.Empty:
            if _parent_gone(parent):
                os._exit(3)
            continue
        if key is None:
            return
        messages.put(("start", wid, key))

        def on_step(record: dict[str, Any], key: str = key) -> None:
            if _parent_gone(parent):
                os._exit(3)
            action = (record.get("action") or {}).get("text") or record.get("outcome") or ""
            messages.put(("step", wid, key, int(record.get("step", 0)), str(action)))

        row = execute_task(bench, key, config, Path(config.out) / config.traces_dir, on_step)
        messages.put(("done", wid, key, row))


def error_row(task: Any, message: str, device: str = "") -> dict[str, Any]:
    """The result row of a task that could not be run to the end."""
    return {"id": task.id, "suite": task.suite, "level": task.level, "app": task.app,
            "scenario": task.scenario, "instruction": task.instruction, "su": 0, "su_oracle": 0, "cr": 0.0,
            "re": None, "ps": 0.0, "steps": 0, "effective_steps": 0, "reference_steps": task.reference_steps,
            "termination": "error", "manual_review_needed": False, "seconds": 0.0, "model_calls": 0,
            "prompt_tokens": 0, "completion_tokens": 0, "milestones": [], "reason": "", "error": message,
            "device": device, "trace": "", "trial": 1, "rule_ok": 0, "oracle_ok": None}
