"""A small reference run shared by the runner, report and browser tests (two cheap tasks, two SimPhones)."""

from __future__ import annotations

from typing import Any

import pytest

REF_TASKS = ["music-3", "settings-2"]


@pytest.fixture(scope="session")
def reference_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Run the reference brain on REF_TASKS with two SimPhones, then write the report."""
    from droidpilot.bench.report import write_report
    from droidpilot.bench.runner import run_suite
    from droidpilot.bench.worker import RunConfig

    out = tmp_path_factory.mktemp("bench") / "run"
    events: list[tuple[str, dict[str, Any]]] = []
    outcome = run_suite(RunConfig(suite="mobile-eval", brain="reference", out=out), ["sim", "sim"],
                        task_ids=REF_TASKS, on_event=lambda kind, info: events.append((kind, info)))
    report = write_report(out)
    return {"out": out, "outcome": outcome, "events": events, "report": report}
