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
from typing import Any

from droidpilot.bench.ledger import Emit, Ledger, RunOutcome, drive
from droidpilot.bench.worker import RunConfig, worker_main
from droidpilot.errors import DroidpilotError

__all__ = ["RunOutcome", "run_suite"]


class _Slot:
    """One phone and the worker process driving it."""

    def __init__(self, wid: int, spec: str) -> None:
        self.wid, self.spec = wid, spec
        self.process: Any = None
        self.task: str | None = None
        self.step = ""
        self.fatal = ""
        self.messages: Any = None


def run_suite(config: RunConfig, devices: Sequence[str], *, task_ids: list[str] | None = None,
              resume: bool = False, on_event: Callable[[str, dict[str, Any]], None] | None = None
              ) -> RunOutcome:
    """Run the suite's tasks (or ``task_ids``) on ``devices`` ("sim" entries are SimPhones)."""
    def dispatch(config: RunConfig, ledger: Ledger, emit: Emit) -> None:
        _dispatch(config, devices, ledger.pending, ledger.rows, ledger.error, ledger.save, emit)

    return drive(config, devices, task_ids, resume, on_event, dispatch)


def _dispatch(config: RunConfig, devices: Sequence[str], pending: list[str], rows: dict[str, dict[str, Any]],
              error: Callable[[str, str, str], dict[str, Any]], save: Callable[[], Any],
              emit: Callable[[str, dict[str, Any]], None]) -> None:
    ctx = mp.get_context("spawn")
    tasks_q: Any = ctx.Queue()
    for tid in pending:
        tasks_q.put(tid)
    slots = [_Slot(i, spec) for i, spec in enumerate(devices[:max(1, min(len(devices), len(pending)))])]
    for _ in slots:
        tasks_q.put(None)
    parent = os.getpid()

    def spawn(slot: _Slot) -> None:
        # Each worker reports on its own queue: a worker killed while writing holds that queue's lock
        # for ever, and a shared queue would then block every other worker (and the run) with it.
        if slot.messages is not None:
            slot.messages.close()
            slot.messages.cancel_join_thread()
        slot.messages = ctx.Queue()
        slot.process = ctx.Process(target=worker_main, args=(slot.wid, slot.spec, config, tasks_q,
                                                              slot.messages, parent), daemon=True)
        slot.process.start()

    for slot in slots:
        spawn(slot)
    remaining = set(pending)
    try:
        while remaining:
            msg = _next_message(slots)
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
                    rows[tid] = error(tid, message, slot.spec)
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
                    rows[tid] = error(tid, "no worker took this task", "")
                save()
                break
    finally:
        for slot in slots:
            if slot.process is not None and slot.process.is_alive():
                slot.process.join(timeout=5)
                if slot.process.is_alive():
                    slot.process.terminate()


def _next_message(slots: list[_Slot], wait_s: float = 0.5) -> tuple[Any, ...] | None:
    """The next report of any worker, waiting up to ``wait_s``; None when none came."""
    deadline = time.monotonic() + wait_s
    while True:
        for slot in slots:
            if slot.messages is None:
                continue
            try:
                return slot.messages.get_nowait()  # type: ignore[no-any-return]
            except queue.Empty:
                continue
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.02)


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
