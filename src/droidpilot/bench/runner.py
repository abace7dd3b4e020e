"""Run a suite in parallel across phones: one worker process per SimPhone (or real device).

Tasks go out through a queue; each worker runs one at a time from a reset phone. Results are written
to ``results.json`` / ``results.csv`` after every task (atomically), so an interrupted run loses at most
the tasks in progress, and ``resume`` skips every task already in the results. A worker that dies
mid-task has that task recorded as an error and is replaced; the rest go on.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import queue
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from droidpilot.bench.results import load_results, write_results
from droidpilot.bench.suite import BenchTask
from droidpilot.bench.worker import BRAINS, RunConfig, error_row, worker_main
from droidpilot.errors import DroidpilotError, InputError


@dataclass
class RunOutcome:
    """What a run produced: the result rows (suite order), the results document and the wall time."""

    rows: list[dict[str, Any]]
    document: dict[str, Any]
    seconds: float
    skipped: list[str]


class _Slot:
    """One phone and the worker process driving it."""

    def __init__(self, wid: int, spec: str) -> None:
        self.wid, self.spec = wid, spec
        self.process: Any = None
        self.task: str | None = None
        self.step = ""
        self.fatal = ""


def _meta(config: RunConfig, devices: Sequence[str]) -> dict[str, Any]:
    return {"suite": Path(config.suite).name if Path(config.suite).is_dir() else config.suite,
            "brain": config.brain, "device": "sim" if all(d == "sim" for d in devices) else list(devices),
            "devices": len(devices), "wrong_final": config.wrong_final}


def _previous_rows(config: RunConfig, resume: bool, tasks: list[BenchTask]) -> dict[str, dict[str, Any]]:
    data = load_results(config.out)
    if data is None:
        return {}
    if not resume:
        raise InputError(f"{config.out} already holds benchmark results; pass --resume to continue that "
                         f"run, or choose another --out folder")
    if data.get("brain") != config.brain:
        raise InputError(f"{config.out}: the earlier run used --brain {data.get('brain')}, not "
                         f"{config.brain}; resume with the same brain or choose another --out folder")
    known = {t.id for t in tasks}
    return {r["id"]: r for r in data["tasks"] if isinstance(r, dict) and r.get("id") in known
            and not r.get("error")}


def run_suite(config: RunConfig, devices: Sequence[str], *, task_ids: list[str] | None = None,
              resume: bool = False, on_event: Callable[[str, dict[str, Any]], None] | None = None
              ) -> RunOutcome:
    """Run the suite's tasks (or ``task_ids``) on ``devices`` ("sim" entries are SimPhones)."""
    if config.brain not in BRAINS:
        raise InputError(f"--brain {config.brain!r} is not one of {', '.join(BRAINS)}")
    if not devices:
        raise InputError("no device to run on; use --device sim or give device serials")
    suite = config.load()
    tasks = suite.select(task_ids)
    config = RunConfig(**{**asdict(config), "suite": str(suite.folder), "out": Path(config.out)})
    done = _previous_rows(config, resume, tasks)
    rows: dict[str, dict[str, Any]] = dict(done)
    pending = [t.id for t in tasks if t.id not in done]
    meta = _meta(config, devices)
    order = {t.id: i for i, t in enumerate(tasks)}
    by_id = {t.id: t for t in tasks}

    def save() -> dict[str, Any]:
        return write_results(config.out, meta, sorted(rows.values(), key=lambda r: order.get(r["id"], 0)))

    document = save()
    started = time.monotonic()
    emit = on_event or (lambda kind, info: None)
    emit("begin", {"total": len(tasks), "done": len(done), "devices": list(devices), "pending": pending})
    if pending:
        _dispatch(config, devices, pending, rows, by_id, save, emit)
    document = save()
    emit("end", {"summary": document["summary"]})
    ordered = sorted(rows.values(), key=lambda r: order.get(r["id"], 0))
    return RunOutcome(ordered, document, time.monotonic() - started, sorted(done, key=order.get))


def _dispatch(config: RunConfig, devices: Sequence[str], pending: list[str], rows: dict[str, dict[str, Any]],
              by_id: dict[str, BenchTask], save: Callable[[], Any],
              emit: Callable[[str, dict[str, Any]], None]) -> None:
    ctx = mp.get_context("spawn")
    tasks_q: Any = ctx.Queue()
    messages: Any = ctx.Queue()
    for tid in pending:
        tasks_q.put(tid)
    slots = [_Slot(i, spec) for i, spec in enumerate(devices[:max(1, min(len(devices), len(pending)))])]
    for _ in slots:
        tasks_q.put(None)
    parent = os.getpid()

    def spawn(slot: _Slot) -> None:
        slot.process = ctx.Process(target=worker_main, args=(slot.wid, slot.spec, config, tasks_q, messages,
                                                              parent), daemon=True)
        slot.process.start()

    for slot in slots:
        spawn(slot)
    remaining = set(pending)
    try:
        while remaining:
            try:
                msg = messages.get(timeout=0.5)
            except queue.Empty:
                msg = None
            if msg is not None:
                _handle(msg, slots, rows, remaining, save, emit)
                continue
            for slot in slots:
                if slot.process is None or slot.process.is_alive() or slot.fatal:
                    continue
                code = slot.process.exitcode
                if slot.task is not None:  # died mid-task: record it, replace the worker
                    tid, slot.task = slot.task, None
                    message = f"the worker process died (exit code {code})"
                    rows[tid] = error_row(by_id[tid], message, slot.spec)
                    remaining.discard(tid)
                    save()
                    emit("done", {"wid": slot.wid, "task": tid, "row": rows[tid]})
                    spawn(slot)  # the dead worker never took its end marker: the new one will
                elif remaining and code not in (0, None):
                    spawn(slot)
            alive = [s for s in slots if not s.fatal]
            if not alive:
                raise DroidpilotError("no worker could start: " + "; ".join(sorted({s.fatal for s in slots})))
            if remaining and all(s.process is not None and not s.process.is_alive() for s in alive):
                for tid in sorted(remaining):
                    rows[tid] = error_row(by_id[tid], "no worker took this task", "")
                save()
                break
    finally:
        for slot in slots:
            if slot.process is not None and slot.process.is_alive():
                slot.process.join(timeout=5)
                if slot.process.is_alive():
                    slot.process.terminate()


def _handle(msg: tuple[Any, ...], slots: list[_Slot], rows: dict[str, dict[str, Any]], remaining: set[str],
            save: Callable[[], Any], emit: Callable[[str, dict[str, Any]], None]) -> None:
    kind, wid = msg[0], msg[1]
    slot = slots[wid]
    if kind == "fatal":
        slot.fatal = msg[2]
        emit("fatal", {"wid": wid, "message": msg[2]})
    elif kind == "start":
        slot.task, slot.step = msg[2], "starting"
        emit("start", {"wid": wid, "task": msg[2], "device": slot.spec})
    elif kind == "step":
        slot.step = f"step {msg[3]}: {msg[4]}"
        emit("step", {"wid": wid, "task": msg[2], "step": msg[3], "action": msg[4]})
    elif kind == "done":
        tid, row = msg[2], msg[3]
        rows[tid] = row
        remaining.discard(tid)
        slot.task = None
        save()
        emit("done", {"wid": wid, "task": tid, "row": row})
