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


TRIAL_TASKS = ["music-3", "settings-2"]


@pytest.fixture(scope="session")
def trials_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """``droidpilot bench`` from the command line (piped, as in CI) with run's options: two trials of
    TRIAL_TASKS, a step limit settings-2 cannot finish in, a seed and a language."""
    from typer.testing import CliRunner

    from droidpilot.cli import _discover, app

    out = tmp_path_factory.mktemp("bench") / "trials"
    _discover()
    result = CliRunner().invoke(app, ["bench", "--brain", "reference", "--tasks", ",".join(TRIAL_TASKS),
                                      "--trials", "2", "--max-steps", "3", "--seed", "0", "--lang", "en",
                                      "--temperature", "0.5", "--coord-space", "device", "--devices", "2",
                                      "--out", str(out)])
    return {"out": out, "result": result}


@pytest.fixture(scope="session")
def browser(chromium: Any) -> Any:
    """The session's one headless Chromium (tests/conftest.py), shared by every report test."""
    return chromium


@pytest.fixture()
def page(browser: Any) -> Any:
    """A fresh page (1280x900) whose console errors and page errors are collected in ``page.errors``."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    the_page = context.new_page()
    errors: list[str] = []
    the_page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    the_page.on("pageerror", lambda e: errors.append(str(e)))
    the_page.errors = errors
    try:
        yield the_page
    finally:
        context.close()
