"""A uiautomator2-only scripted agent completes three Mobile-Eval tasks on SimPhone; `droidpilot verify`
passes the traces it recorded, and SimPhone's oracle agrees."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from tests.device.adbd_support import Front, running_front
from tests.device.u2_support import client_env, reset_phone

from droidpilot.bench.oracle import evaluate

pytestmark = pytest.mark.slow
SUITE = Path(__file__).resolve().parents[2] / "src/droidpilot/bench/suites/mobile-eval"
AGENT = Path(__file__).with_name("u2_agent.py")


@pytest.fixture(scope="module")
def front() -> Iterator[Front]:
    with running_front(1) as f:
        yield f


@pytest.mark.parametrize("task_id", ["notes-1", "store-1", "browser-1"])
def test_u2_agent_completes_the_task_and_its_trace_verifies(front: Front, task_id: str,
                                                            tmp_path: Path) -> None:
    reset_phone(front.server.phones[0])
    task = yaml.safe_load((SUITE / f"{task_id}.yaml").read_text(encoding="utf-8"))
    trace = tmp_path / "trace"
    proc = subprocess.run([sys.executable, str(AGENT), "simphone-1", task_id, str(trace)],
                          capture_output=True, text=True, timeout=120, env=client_env(front.port))
    assert proc.returncode == 0, proc.stderr
    oracle = evaluate(task["oracle"], front.sims[0].state())
    assert oracle.ok, oracle.checks
    rule = tmp_path / "rule.yaml"
    rule.write_text(yaml.safe_dump(task["rule"], allow_unicode=True), encoding="utf-8")
    verdict = subprocess.run([sys.executable, "-m", "droidpilot", "verify", str(rule), str(trace), "--json",
                              "--ocr", "none"], capture_output=True, text=True, timeout=120)
    assert verdict.returncode == 0, verdict.stdout + verdict.stderr
    result = json.loads(verdict.stdout)
    assert result["ok"] is True
