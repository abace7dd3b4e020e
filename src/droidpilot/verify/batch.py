"""Verify many traces against one rule in parallel processes, one JSON line per trace as it completes.

Every immediate sub-folder (a runner trace folder) or ``.json`` file (a frame list) of each given folder
is a trace. A trace that cannot be read becomes an ``{"trace", "ok": false, "error"}`` line; the others
go on. Lines are appended and flushed one by one, so an interrupted batch keeps what it finished.
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from droidpilot.errors import DroidpilotError, InputError
from droidpilot.pathcheck import file_problem
from droidpilot.verify.options import VerifierOptions
from droidpilot.verify.rule import Task
from droidpilot.verify.setup import VerifierChoices, build_options

_WORKER_STATE: dict[str, Any] = {}


def find_traces(folders: Iterable[str | Path]) -> list[Path]:
    """The traces inside ``folders``: each immediate sub-folder and ``.json`` file, sorted by name (a
    folder that is itself a runner trace, with an actions.json, counts as one trace). A looping or
    dangling link counts too, so that its trace is reported as unreadable rather than left out."""
    found: list[Path] = []
    for folder in map(Path, folders):
        if not folder.is_dir():
            why = file_problem(folder) or "is a file"
            raise InputError(f"{folder} is not a folder of traces ({folder} {why})")
        if (folder / "actions.json").is_file():
            found.append(folder)
            continue
        found.extend(p for p in sorted(folder.iterdir()) if not p.name.startswith(".") and (
            p.is_dir() or p.suffix.lower() == ".json" or (p.is_symlink() and not p.exists())))
    if not found:
        raise InputError(f"no traces found in {', '.join(map(str, folders))} (expected trace folders or "
                         f".json frame lists inside)")
    return found


def _state(rule_path: str, choices: VerifierChoices) -> tuple[Task, VerifierOptions]:
    """The rule and options of this process, built once and reused for every trace it verifies."""
    key = (rule_path, choices)
    if _WORKER_STATE.get("key") != key:
        from droidpilot.verify.spec import load_rule

        spec_log = logging.getLogger("droidpilot.verify.spec")
        level = spec_log.level
        spec_log.setLevel(logging.ERROR)  # the caller has shown the rule's warnings once already
        try:
            task = load_rule(rule_path)
        finally:
            spec_log.setLevel(level)
        _WORKER_STATE.update(key=key, task=task, options=build_options(choices))
    return _WORKER_STATE["task"], _WORKER_STATE["options"]


def verify_one(rule_path: str, trace_path: str, choices: VerifierChoices,
               with_decisions: bool = False) -> dict[str, Any]:
    """Verify one trace; the JSON line for it (an ``error`` line when it cannot be verified)."""
    try:
        task, options = _state(rule_path, choices)
    except DroidpilotError as exc:
        return {"trace": trace_path, "ok": False, "error": str(exc)}
    except Exception as exc:  # reported with the trace; the batch goes on
        return {"trace": trace_path, "ok": False, "error": f"internal error: {type(exc).__name__}: {exc}"}
    return verify_loaded(task, options, trace_path, with_decisions)


def verify_loaded(task: Task, options: VerifierOptions, trace_path: str | Path, with_decisions: bool = False,
                  *, shown_as: str | None = None) -> dict[str, Any]:
    """Verify one trace with a rule and options already loaded (a long-lived worker's); its JSON line,
    naming the trace ``shown_as`` (default: its path)."""
    from droidpilot.verify.engine import verify
    from droidpilot.verify.trace import load_trace

    name = shown_as or str(trace_path)
    try:
        result = verify(task, load_trace(trace_path), options)
    except DroidpilotError as exc:
        return {"trace": name, "ok": False, "error": str(exc)}
    except Exception as exc:  # a bug met on one trace is reported with it; the batch goes on
        return {"trace": name, "ok": False, "error": f"internal error: {type(exc).__name__}: {exc}"}
    line: dict[str, Any] = {"trace": name, **result.to_dict()}
    if not with_decisions:
        line.pop("decisions")
    return line


@dataclass
class BatchSummary:
    """Counts of a finished batch, and the lines in the order they completed."""

    lines: list[dict[str, Any]] = field(default_factory=list)
    workers: list[dict[str, Any]] = field(default_factory=list)  # per Ray actor: pid, node, traces

    @property
    def passed(self) -> int:
        return sum(1 for line in self.lines if line.get("ok"))

    @property
    def errors(self) -> int:
        return sum(1 for line in self.lines if "error" in line)

    @property
    def failed(self) -> int:
        return len(self.lines) - self.passed - self.errors

    @property
    def manual_review(self) -> int:
        return sum(1 for line in self.lines if line.get("manual_review_needed"))


def line_emitter(summary: BatchSummary, sink: IO[str] | None,
                 on_done: Callable[[dict[str, Any]], None] | None) -> Callable[[dict[str, Any]], None]:
    """What every batch runner does with a finished line: keep it, write it to ``sink`` (flushed), tell
    ``on_done`` — shared by the process-pool and the Ray batch so both stream the same way."""

    def emit(line: dict[str, Any]) -> None:
        summary.lines.append(line)
        if sink is not None:
            sink.write(json.dumps(line, ensure_ascii=False) + "\n")
            sink.flush()
        if on_done is not None:
            on_done(line)

    return emit


def run_batch(rule_path: str | Path, traces: list[Path], choices: VerifierChoices, *, jobs: int = 0,
              sink: IO[str] | None = None, with_decisions: bool = False,
              on_done: Callable[[dict[str, Any]], None] | None = None) -> BatchSummary:
    """Verify ``traces`` with ``jobs`` processes (0: one per CPU; 1: in this process).

    Each line is written to ``sink`` (flushed) and passed to ``on_done`` as soon as its trace is done.
    """
    summary = BatchSummary()
    emit = line_emitter(summary, sink, on_done)
    rule = str(rule_path)
    jobs = min(jobs or os.cpu_count() or 1, len(traces)) or 1
    if jobs == 1:
        for trace in traces:
            emit(verify_one(rule, str(trace), choices, with_decisions))
        return summary
    _run_pooled(jobs, [str(t) for t in traces], lambda pool, t: pool.submit(verify_one, rule, t, choices,
                                                                             with_decisions), emit)
    return summary


def _run_pooled(jobs: int, traces: list[str],
                submit: Callable[[ProcessPoolExecutor, str], Future[dict[str, Any]]],
                emit: Callable[[dict[str, Any]], None]) -> None:
    """Run ``traces`` on a pool of ``jobs`` processes, at most one trace in flight per process.

    A worker killed mid-trace breaks the whole pool: the pool is replaced, and the traces that were in
    flight are re-run one at a time, so only a trace that kills its worker again is reported as failed
    and nothing still queued is lost (as the bench runner replaces a dead worker).
    """
    context = multiprocessing.get_context("spawn")
    todo, suspects = deque(traces), deque[str]()
    in_flight: dict[Future[dict[str, Any]], str] = {}
    alone: str | None = None  # the suspect running by itself, if any
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context)
    try:
        while todo or suspects or in_flight:
            if suspects and not in_flight:
                alone = suspects.popleft()
                in_flight[submit(pool, alone)] = alone
            while not suspects and alone is None and todo and len(in_flight) < jobs:
                trace = todo.popleft()
                in_flight[submit(pool, trace)] = trace
            done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
            broken: list[str] = []
            for future in done:
                trace = in_flight.pop(future)
                try:
                    emit(future.result())
                except BrokenProcessPool:
                    broken.append(trace)
                except Exception as exc:  # the task could not be sent or its result not returned
                    emit({"trace": trace, "ok": False,
                          "error": f"worker failed: {type(exc).__name__}: {exc}"})
            if alone is not None and not broken:
                alone = None
            if not broken:
                continue
            broken.extend(in_flight.values())  # the dead pool takes every trace in flight with it
            in_flight.clear()
            pool.shutdown(wait=False, cancel_futures=True)
            pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context)
            if alone is not None:  # it ran by itself, so it is the one whose worker died
                emit({"trace": alone, "ok": False, "error": "worker failed: the process verifying this trace "
                      "died (killed, or crashed in native code); the other traces went on"})
                alone = None
            else:
                suspects.extend(broken)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
