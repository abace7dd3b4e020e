"""The driver's side of a run, shared by the local and the Ray runner: what to run, what an earlier run
already finished (``--resume``), and the one writer of ``results.json`` / ``results.csv``.

Only the driver writes: every finished row goes through :meth:`Ledger.record`, which rewrites both files
atomically, so an interrupted run keeps every task it finished, whichever runner ran it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from droidpilot.bench.provenance import run_metadata, settings, settings_changed
from droidpilot.bench.results import load_results, write_results
from droidpilot.bench.suite import BenchTask
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


def previous_rows(config: RunConfig, resume: bool, tasks: list[BenchTask]) -> dict[str, dict[str, Any]]:
    """Finished rows of an earlier run in ``config.out`` by work key (errors are run again); InputError
    without ``resume``, or when that run used another brain or other settings."""
    data = load_results(config.out)
    if data is None:
        return {}
    if not resume:
        raise InputError(f"{config.out} already holds benchmark results; pass --resume to continue that "
                         f"run, or choose another --out folder")
    if data.get("brain") != config.brain:
        raise InputError(f"{config.out}: the earlier run used --brain {data.get('brain')}, not "
                         f"{config.brain}; resume with the same brain or choose another --out folder")
    changed = settings_changed(data.get("settings") or {}, settings(config))
    if changed:
        raise InputError(f"{config.out}: the earlier run used other settings ({'; '.join(changed)}); resume "
                         f"with the same settings or choose another --out folder")
    known = {work_key(t.id, k, config.trials) for t in tasks for k in range(1, config.trials + 1)}
    rows = (r for r in data["tasks"] if isinstance(r, dict) and not r.get("error"))
    return {row_key(r): r for r in rows if row_key(r) in known}


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
        self.done = previous_rows(config, resume, tasks)
        self.rows: dict[str, dict[str, Any]] = dict(self.done)
        self.pending = [k for k in keys if k not in self.done]
        self.meta = meta if meta is not None else run_meta(config, devices)

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
                   "pending": ledger.pending})
    if ledger.pending:
        dispatch(config, ledger, emit)
    document = ledger.save()
    emit("end", {"summary": document["summary"]})
    return RunOutcome(ledger.ordered(), document, time.monotonic() - started, ledger.skipped())
