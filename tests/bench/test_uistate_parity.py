"""One definition of the ``ui`` state: a rule that reads only ``ui`` gets the same verdict on the same
benchmark trace whether the benchmark verifies it or ``droidpilot verify`` does."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from droidpilot.bench.execute import verify_trace
from droidpilot.bench.suite import load_suite
from droidpilot.cli import _discover, app
from droidpilot.verify.setup import VerifierChoices, build_options
from droidpilot.verify.spec import load_rule_text

pytestmark = pytest.mark.slow

UI_ONLY = """task_id: settings-2
nodes:
  - id: airplane_on
    name: "Airplane mode is switched on"
    condition: {type: ui, params: {key: "checked.Airplane mode", equals: true}}
success: {any_of: [airplane_on]}
"""


@pytest.mark.parametrize(("key", "ok"), [("Airplane mode", True), ("No such switch", False)])
def test_ui_rule_same_verdict_in_bench_and_verify(reference_run: dict[str, Any], tmp_path: Path,
                                                  key: str, ok: bool) -> None:
    trace = reference_run["out"] / "traces" / "settings-2"
    rule_text = UI_ONLY.replace("checked.Airplane mode", f"checked.{key}")
    rule = tmp_path / "ui.yaml"
    rule.write_text(rule_text, encoding="utf-8")
    task = load_suite("mobile-eval").select(["settings-2"])[0]
    bench_task = replace(task, rule=load_rule_text(rule_text, source=str(rule)), rule_text=rule_text)
    in_bench = verify_trace(bench_task, trace, build_options(VerifierChoices(ocr="none")))
    _discover()
    result = CliRunner().invoke(app, ["verify", str(rule), str(trace), "--json", "--ocr", "none"])
    assert result.stdout.strip(), result.output
    under_verify = json.loads(result.stdout)
    assert in_bench.ok is ok
    assert under_verify["ok"] is ok
    assert result.exit_code == (0 if ok else 1)
