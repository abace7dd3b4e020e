"""The driver's side of a run, shared by the local and the Ray runner: what to run, what an earlier run
already finished (``--resume``), and the one writer of ``results.json`` / ``results.csv``.

Only the driver writes: every finished row goes through :meth:`Ledger.record`, which rewrites both files
atomically, so an interrupted run keeps every task it finished, whichever runner ran it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from droidpilot import limits
from droidpilot.bench.provenance import run_metadata, settings, settings_changed
from droidpilot.bench.results import load_results, write_results
from droidpilot.bench.rowcheck import Expected, problem
from droidpilot.bench.task import BenchTask
from droidpilot.bench.worker import BRAINS, RunConfig, error_row, split_key, work_key
from droidpilot.errors import InputError


@dataclass
class RunOutcome:
    """What a run produced: the result rows (suite order), the results document and the wall time."""

    rows: list[dict[str, Any]]
    document: dict[str, Any]
    seconds: float
    skipped: list[str]


def run_meta(config: RunConfig, devices: Sequence[str]) -> dict[str, Any]:
    """The run-level fields of ``results.json`` (suite, brain, devices, trials)."""
    return {"suite": Path(config.suite).name if Path(config.suite).is_dir() else config.suite,
            "brain": config.brain, "device": "sim" if all(d == "sim" for d in devices) else list(devices),
            "devices": len(devices), "wrong_final": config.wrong_final, "trials": config.trials}


def row_key(row: dict[str, Any]) -> str:
    """The work key of a result row (task id, with ``@K`` for trial K of a run with several trials)."""
    trace = str(row.get("trace") or "")
    name = trace.rsplit("/", 1)[-1]
    return name if name.split("@")[0] == row.get("id") else str(row.get("id"))


def _same_run(data: dict[str, Any], config: RunConfig, meta: dict[str, Any]) -> None:
    """InputError unless the earlier results ``data`` come from this suite, brain and settings."""
    where, fix = config.out, "choose another --out folder"
    if data.get("suite") != meta.get("suite"):
        raise InputError(f"{where}: the earlier results are of suite {data.get('suite')!r}, not "
                         f"{meta.get('suite')!r}; resume with --suite {data.get('suite')} or {fix}")
    if data.get("brain") != config.brain:
        raise InputError(f"{where}: the earlier run used --brain {data.get('brain')}, not "
                         f"{config.brain}; resume with the same brain or {fix}")
    before, now = data.get("settings"), meta.get("settings", settings(config))
    now = json.loads(json.dumps(now, default=str))  # as results.json holds them (tuples are lists there)
    if not isinstance(before, dict):
        raise InputError(f"{where}: the earlier results record no settings, so nothing says they match "
                         f"this run's; {fix}")
    changed = settings_changed(before, now)
    if changed:
        raise InputError(f"{where}: the earlier run used other settings ({'; '.join(changed)}); resume "
                         f"with the same settings or {fix}")
    info = data.get("suite_info")
    old_sha = info.get("sha256") if isinstance(info, dict) else None
    new_sha = (meta.get("suite_info") or {}).get("sha256")
    if old_sha and new_sha and old_sha != new_sha:
        raise InputError(f"{where}: the suite's task files changed since the earlier run (SHA-256 "
                         f"{str(old_sha)[:12]} -> {new_sha[:12]}); its rows may not hold for these tasks: "
                         f"{fix}")


def previous_rows(config: RunConfig, resume: bool, tasks: list[BenchTask], meta: dict[str, Any] | None = None
                  ) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """Finished rows of an earlier run in ``config.out`` by work key, and the rows that will run again
    with the reason (errored, incomplete or not this run's: ``rowcheck``; a row with no task id is listed
    as ``row N``, dropped); InputError without ``resume``, or when that run was of another suite, brain or
    settings."""
    data = load_results(config.out)
    if data is None:
        return {}, {}
    if not resume:
        raise InputError(f"{config.out} already holds benchmark results; pass --resume to continue that "
                         f"run, or choose another --out folder")
    _same_run(data, config, meta if meta is not None else run_meta(config, []))
    expected = {}
    for task in tasks:
        seed = task.seed if config.seed is None or task.template else config.seed
        for k in range(1, config.trials + 1):
            key = work_key(task.id, k, config.trials)
            expected[key] = Expected(task, k, seed, config.max_steps or task.step_limit(),
                                     f"{config.traces_dir}/{key}")
    done: dict[str, dict[str, Any]] = {}
    rerun: dict[str, str] = {}
    for index, row in enumerate(data["tasks"]):
        key = row_key(row) if isinstance(row, dict) else ""
        if key not in expected:
            if not isinstance(row, dict) or not isinstance(row.get("id"), str):
                rerun[f"row {index + 1}"] = "it has no task id"
            continue
        why = problem(row, expected[key], config.out)
        if why is None:
            done[key] = row
            rerun.pop(key, None)
        else:
            done.pop(key, None)
            rerun[key] = why
    return done, rerun


class Ledger:
    """The rows of one run, in suite order, saved after every change."""

    def __init__(self, config: RunConfig, devices: Sequence[str], tasks: list[BenchTask],
                 resume: bool, meta: dict[str, Any] | None = None) -> None:
        self.config = config
        self.tasks = tasks
        self.by_id = {t.id: t for t in tasks}
        keys = [work_key(t.id, k, config.trials) for k in range(1, config.trials + 1) for t in tasks]
        self.keys = keys
        self.order = {work_key(t.id, k, config.trials): i * config.trials + k - 1
                      for i, t in enumerate(tasks) for k in range(1, config.trials + 1)}
        self.meta = meta if meta is not None else run_meta(config, devices)
        self.done, self.rerun = previous_rows(config, resume, tasks, self.meta)
        self.rows: dict[str, dict[str, Any]] = dict(self.done)
        self.pending = [k for k in keys if k not in self.done]

    def task_of(self, key: str) -> BenchTask:
        """The task a work key (``ID`` or ``ID@K``) runs."""
        return self.by_id[key.split("@", 1)[0]]

    def ordered(self) -> list[dict[str, Any]]:
        """The rows so far, in suite order (trials of a task together)."""
        return sorted(self.rows.values(), key=lambda r: self.order.get(row_key(r), 0))

    def save(self) -> dict[str, Any]:
        """Rewrite results.json / results.csv (atomically); the results document."""
        return write_results(self.config.out, self.meta, self.ordered())

    def record(self, row: dict[str, Any], key: str | None = None) -> None:
        """Keep a finished attempt's row (under its work key) and save at once."""
        self.rows[key or row_key(row)] = row
        self.save()

    def error(self, key: str, message: str, device: str) -> dict[str, Any]:
        """The error row of the attempt ``key`` (a task that could not run or whose worker died)."""
        row = error_row(self.task_of(key), message, device)
        row["trial"] = split_key(key)[1]
        return row

    def skipped(self) -> list[str]:
        """Work keys kept from an earlier run, in suite order."""
        return sorted(self.done, key=lambda k: self.order.get(k, 0))


def open_run(config: RunConfig, devices: Sequence[str], task_ids: list[str] | None, resume: bool
             ) -> tuple[RunConfig, Ledger]:
    """Check the brain and devices, load the suite and any earlier results: the config to ship to
    workers (absolute suite folder) and the run's ledger; InputError on bad input."""
    if config.brain not in BRAINS:
        raise InputError(f"--brain {config.brain!r} is not one of {', '.join(BRAINS)}")
    if not devices:
        raise InputError("no device to run on; use --device sim or give device serials")
    if config.trials < 1:
        raise InputError(f"--trials must be at least 1, got {config.trials}")
    suite = config.load()
    tasks = suite.select(task_ids)
    limits.check_work(len(tasks) * config.trials, f"{len(tasks):,} tasks x {config.trials} trials")
    config = RunConfig(**{**asdict(config), "suite": str(suite.folder), "out": Path(config.out)})
    seeds = {t.id: t.seed if config.seed is None or t.template else config.seed for t in tasks}
    meta = {**run_meta(config, devices), **run_metadata(config, devices, suite, seeds)}
    return config, Ledger(config, devices, tasks, resume, meta)


Emit = Callable[[str, dict[str, Any]], None]


def drive(config: RunConfig, devices: Sequence[str], task_ids: list[str] | None, resume: bool,
          on_event: Emit | None, dispatch: Callable[[RunConfig, Ledger, Emit], None]) -> RunOutcome:
    """The frame both runners share: open the run, announce it, let ``dispatch`` run what is pending
    (recording rows in the ledger), save, announce the end; the outcome."""
    config, ledger = open_run(config, devices, task_ids, resume)
    ledger.save()
    started = time.monotonic()
    emit: Emit = on_event or (lambda kind, info: None)
    emit("begin", {"total": len(ledger.keys), "done": len(ledger.done), "devices": list(devices),
                   "pending": ledger.pending, "rerun": dict(ledger.rerun)})
    if ledger.pending:
        dispatch(config, ledger, emit)
    document = ledger.save()
    emit("end", {"summary": document["summary"]})
    return RunOutcome(ledger.ordered(), document, time.monotonic() - started, ledger.skipped())
