"""``verify-batch --ray``: a pool of verifier actors on a real (one-node, loopback) Ray cluster gives the
same lines as the process batch, in completion order, one per trace, each actor loading its engines once
and verifying many traces; the traces travel as bytes, as they would to other machines."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.support.ray_cluster import LoopbackCluster, short_temp_dir

from droidpilot.verify.batch import find_traces, run_batch
from droidpilot.verify.examples import example_dir
from droidpilot.verify.ray_batch import run_batch_ray
from droidpilot.verify.setup import VerifierChoices

pytestmark = pytest.mark.slow

EXAMPLE = example_dir()


@pytest.fixture(scope="module")
def cluster() -> Iterator[LoopbackCluster]:
    with short_temp_dir() as root:
        running = LoopbackCluster(root / "r").start({"num_cpus": 2}, {})
        try:
            yield running
        finally:
            running.shutdown()


@pytest.fixture(scope="module")
def traces(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Eight copies of the example trace, one cut short (fails), and a broken frame list."""
    folder = tmp_path_factory.mktemp("traces")
    for i in range(8):
        shutil.copytree(EXAMPLE / "trace", folder / f"good_{i}")
    short = folder / "short"
    shutil.copytree(EXAMPLE / "trace", short)
    meta = json.loads((short / "actions.json").read_text())
    meta["actions"] = meta["actions"][:2]
    (short / "actions.json").write_text(json.dumps(meta))
    (short / "react.json").write_text(json.dumps(json.loads((short / "react.json").read_text())[:2]))
    (folder / "zz_broken.json").write_text("[{", encoding="utf-8")
    return find_traces([folder])


def test_same_lines_as_the_process_batch(cluster: LoopbackCluster, traces: list[Path],
                                         tmp_path: Path) -> None:
    choices = VerifierChoices(ocr="rapidocr")
    rule = EXAMPLE / "rule.yaml"
    local = {line["trace"]: line for line in run_batch(rule, traces, choices, jobs=1).lines}
    sink = (tmp_path / "lines.jsonl").open("w", encoding="utf-8")
    seen: list[str] = []
    with sink:
        summary = run_batch_ray(rule, traces, choices, address=cluster.address(), actors=2, sink=sink,
                                on_done=lambda line: seen.append(str(line["trace"])))
    written = [json.loads(line) for line in (tmp_path / "lines.jsonl").read_text().splitlines()]
    assert [line["trace"] for line in written] == seen == [line["trace"] for line in summary.lines]
    assert sorted(seen) == sorted(local)  # each trace exactly once, named by its path on the driver
    for line in written:
        assert line == local[line["trace"]]
    assert (summary.passed, summary.failed, summary.errors) == (8, 1, 1)
    assert "not valid JSON" in {Path(k).name: v for k, v in local.items()}["zz_broken.json"]["error"]
    # two actors, each with its rule and OCR engine built once, shared the ten traces between them
    assert len(summary.workers) == 2 and len({w["pid"] for w in summary.workers}) == 2
    assert sum(w["verified"] for w in summary.workers) == len(traces)
    assert all(w["verified"] >= 2 and w["ocr"] for w in summary.workers), summary.workers
