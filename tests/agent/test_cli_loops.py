"""`--loop`, `--role-model`, `--memory` and `--evolve` on `droidpilot run` and `droidpilot bench`: bad
combinations exit 2 with the flag named; the v2 and e loops run from the command line on SimPhone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def _cli(command: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "droidpilot", command, *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=600)


@pytest.mark.parametrize(("args", "message"), [
    (["--loop", "v3"], "unknown agent loop 'v3'"),
    (["--loop", "v2", "--role-model", "reflector"], "write ROLE=MODEL"),
    (["--loop", "v2", "--role-model", "notetaker=m"], "the v2 loop has no role 'notetaker'"),
    (["--role-model", "reflector=m"], "the v1 loop has one model call per step and no roles"),
    (["--loop", "e", "--role-model", "reflector=m"], "needs --brain openai (not heuristic)"),
    (["--loop", "v2", "--memory", "mem"], "add --loop e (not v2)"),
    (["--loop", "e", "--evolve"], "add --memory DIR"),
])
def test_bad_loop_options_exit_2_naming_the_flag(tmp_path: Path, args: list[str], message: str) -> None:
    out = _cli("run", "go", *args, "--out", str(tmp_path / "t"), cwd=tmp_path)
    assert out.returncode == 2, out.stdout + out.stderr
    assert message in " ".join(out.stderr.split())
    assert "Traceback" not in out.stderr


def test_bench_evolve_needs_one_phone(tmp_path: Path) -> None:
    out = _cli("bench", "--loop", "e", "--memory", str(tmp_path / "m"), "--evolve", "--devices", "2",
               "--out", str(tmp_path / "o"), cwd=tmp_path)
    assert out.returncode == 2 and "run it on one phone" in " ".join(out.stderr.split()), out.stderr


def test_run_with_the_v2_loop_and_the_offline_brain(tmp_path: Path) -> None:
    """The heuristic brain reads no role prompts: it decides, and code answers planner and reflector."""
    out = _cli("run", "Turn on airplane mode", "--loop", "v2", "--max-steps", "6", "--out",
               str(tmp_path / "t"), cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "loop v2" in out.stdout and "roles" in out.stdout
    steps = [json.loads(x) for x in (tmp_path / "t" / "steps.jsonl").read_text().splitlines()]
    assert steps[0]["loop"] == "v2" and steps[0]["perception"]
    assert {e["role"]: e["by"] for e in steps[0]["roles"]} == {"decider": "brain", "reflector": "code"}
    run = json.loads((tmp_path / "t" / "run.json").read_text())
    assert run["settings"]["loop"] == "v2"


def test_bench_with_the_e_loop_records_loop_and_memory_version(tmp_path: Path) -> None:
    """The reference brain operates; it reads no role prompts, so nothing is learnt: no new version."""
    out = _cli("bench", "--suite", "mobile-eval", "--tasks", "multi-1", "--brain", "reference", "--loop", "e",
               "--memory", str(tmp_path / "mem"), "--evolve", "--out", str(tmp_path / "o"), cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "loop e" in " ".join(out.stdout.split())
    doc = json.loads((tmp_path / "o" / "results.json").read_text())
    row = doc["tasks"][0]
    assert row["su"] == 1 and row["loop"] == "e" and row["memory_version"] == 0
    assert row["memory_version_after"] == 0 and not (tmp_path / "mem").exists()
    assert doc["settings"]["loop"] == "e" and doc["settings"]["evolve"] is True
    assert doc["agent_loop"] == {"loop": "e", "role_models": [],
                                 "memory": {"folder": "mem", "version_at_start": 0, "evolve": True}}
    report = (tmp_path / "o" / "report.html").read_text()
    assert "roles:" in report and "after the task" in report
