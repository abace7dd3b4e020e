"""The driver's side of a run, shared by the local and the Ray runner: what to run, what an earlier run
already finished (``--resume``), and the one writer of ``results.json`` / ``results.csv``.

Only the driver writes: every finished row goes through :meth:`Ledger.record`, which rewrites both files
atomically, so an interrupted run keeps every task it finished, whichever runner ran it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from droidpilot.bench.results import load_results, write_results
from droidpilot.bench.suite import BenchTask, load_suite
from droidpilot.bench.worker import BRAINS, RunConfig
from droidpilot.errors import InputError


@dataclass
class RunOutcome:
    """What a run produced: the result rows (suite order), the results document and the wall time."""

    rows: list[dict[str, Any]]
    document: dict[str, Any]
    seconds: float
    skipped: list[str]


def run_meta(config: RunConfig, devices: Sequence[str]) -> dict[str, Any]:
    """The run-level fields of ``results.json`` (suite, brain, devices)."""
    return {"suite": Path(config.suite).name if Path(config.suite).is_dir() else config.suite,
            "brain": config.brain, "device": "sim" if all(d == "sim" for d in devices) else list(devices),
            "devices": len(devices), "wrong_final": config.wrong_final}


def previous_rows(config: RunConfig, resume: bool, tasks: list[BenchTask]) -> dict[str, dict[str, Any]]:
    """Finished rows of an earlier run in ``config.out`` (errors are run again); InputError without
    ``resume`` or when that run used another brain."""
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


class Ledger:
    """The rows of one run, in suite order, saved after every change."""

    def __init__(self, config: RunConfig, devices: Sequence[str], tasks: list[BenchTask],
                 resume: bool) -> None:
        self.config = config
        self.tasks = tasks
        self.by_id = {t.id: t for t in tasks}
        self.order = {t.id: i for i, t in enumerate(tasks)}
        self.done = previous_rows(config, resume, tasks)
        self.rows: dict[str, dict[str, Any]] = dict(self.done)
        self.pending = [t.id for t in tasks if t.id not in self.done]
        self.meta = run_meta(config, devices)

    def ordered(self) -> list[dict[str, Any]]:
        """The rows so far, in suite order."""
        return sorted(self.rows.values(), key=lambda r: self.order.get(r["id"], 0))

    def save(self) -> dict[str, Any]:
        """Rewrite results.json / results.csv (atomically); the results document."""
        return write_results(self.config.out, self.meta, self.ordered())

    def record(self, row: dict[str, Any]) -> None:
        """Keep a finished task's row and save at once."""
        self.rows[row["id"]] = row
        self.save()

    def skipped(self) -> list[str]:
        """Ids kept from an earlier run, in suite order."""
        return sorted(self.done, key=self.order.__getitem__)


def open_run(config: RunConfig, devices: Sequence[str], task_ids: list[str] | None, resume: bool
             ) -> tuple[RunConfig, Ledger]:
    """Check the brain and devices, load the suite and any earlier results: the config to ship to
    workers (absolute suite folder) and the run's ledger; InputError on bad input."""
    if config.brain not in BRAINS:
        raise InputError(f"--brain {config.brain!r} is not one of {', '.join(BRAINS)}")
    if not devices:
        raise InputError("no device to run on; use --device sim or give device serials")
    suite = load_suite(config.suite)
    tasks = suite.select(task_ids)
    config = RunConfig(**{**asdict(config), "suite": str(suite.folder), "out": Path(config.out)})
    return config, Ledger(config, devices, tasks, resume)
