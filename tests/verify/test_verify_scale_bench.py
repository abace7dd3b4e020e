"""benchmarks/verify_scale.py on small cases: its rules survive a dump and a load as `droidpilot verify`
reads them, and its traces pass or fail as built (the benchmark broke once when the rule model changed)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
import yaml
from tests.support.benchmarks import load_benchmark

from droidpilot.verify.engine import verify
from droidpilot.verify.spec import load_rule
from droidpilot.verify.trace import load_trace


@pytest.fixture(scope="module")
def bench() -> Any:
    return load_benchmark("verify_scale")


def _trace(tmp_path: Path, frames: list[dict[str, object]]) -> Any:
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(frames), encoding="utf-8")
    return load_trace(path)


@pytest.mark.parametrize("shape", ["chain", "ladder"])
def test_big_rules_dump_load_and_pass_as_verify_reads_them(bench: Any, shape: str, tmp_path: Path) -> None:
    built, frames = bench.big(shape, 60, 12)
    dumped = bench.compact(built.model_dump(exclude_none=True))
    rule = tmp_path / "rule.yaml"
    rule.write_text(yaml.safe_dump(dumped), encoding="utf-8")
    task = load_rule(rule)
    assert [n.id for n in task.nodes] == [n.id for n in built.nodes]
    assert [n.next for n in task.nodes] == [n.next for n in built.nodes]
    assert all("deps" not in node for node in dumped["nodes"])  # empty lists are left out, as people write
    assert verify(task, _trace(tmp_path, frames)).ok


def test_chain_passes_only_when_its_last_step_happens(bench: Any, tmp_path: Path) -> None:
    for holds in (True, False):
        task, frames = bench.chain(6, 30, holds)
        result = verify(task, _trace(tmp_path, frames))
        assert result.ok is holds
        assert result.checker_calls <= len(frames) + len(task.nodes)


def test_random_dag_is_seeded_and_its_success_nodes_exist(bench: Any, tmp_path: Path) -> None:
    task, frames = bench.random_dag(40, 80, random.Random(7))
    again, frames_again = bench.random_dag(40, 80, random.Random(7))
    assert task == again and frames == frames_again
    assert task.success.all_of and set(task.success.all_of) <= {n.id for n in task.nodes}
    assert verify(task, _trace(tmp_path, frames)).ok == verify(again, _trace(tmp_path, frames_again)).ok
