"""Reference demonstrations: seeds parsed strictly, the same seeds give the same bytes whether recorded in
one process, in two, or as Ray tasks on two nodes, and the CLI is a thin, clear front."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from droidpilot.errors import InputError
from droidpilot.gym.demos import make_demos, parse_seeds

# templates the gym's reference policy wins on every seed (notes-from-clipboard has a long press at task
# coordinates, played at the observation's size)
TEMPLATES = "contacts-add,notes-write,notes-titled,notes-read,notes-from-clipboard"
SEEDS = [0, 1, 2, 3]


@pytest.mark.parametrize(("text", "seeds"), [("0-3", [0, 1, 2, 3]), ("7", [7]), (" 2 - 3 ,0", [0, 2, 3]),
                                             ("1,1,0-1", [0, 1])])
def test_seed_lists_and_ranges(text, seeds):
    assert parse_seeds(text) == seeds


@pytest.mark.parametrize(("text", "why"), [("0-", "not a seed"), ("a-3", "not a seed"), ("-1", "not a seed"),
                                           ("5-2", "runs backwards; write 2-5"), ("1,,2", "not a seed"),
                                           ("0-99999999", "not a seed"), ("0-1000000", "more than")])
def test_almost_seed_lists_are_refused_with_the_reason(text, why):
    with pytest.raises(InputError, match=why):
        parse_seeds(text)


def _files(out: Path) -> dict[str, bytes]:
    """Every file below ``out`` (the export names the screenshots by absolute path: ``out`` becomes OUT)."""
    return {p.relative_to(out).as_posix(): p.read_bytes().replace(str(out).encode(), b"OUT")
            for p in sorted(out.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("demos") / "one"
    summary = make_demos(out, SEEDS, templates=TEMPLATES)
    assert (summary.episodes, summary.succeeded, summary.failed) == (4, 4, [])
    return out


def test_demonstrations_are_traces_and_exported_records(recorded):
    names = sorted(p.name for p in (recorded / "traces").iterdir())
    assert [n[:7] for n in names] == ["0000000", "0000001", "0000002", "0000003"]
    lines = (recorded / "demos.qwen-mobile-use.jsonl").read_text(encoding="utf-8").splitlines()
    summary = json.loads((recorded / "demos.json").read_text())
    assert summary["records"] == len(lines) > 4 and summary["seeds"] == "0-3"
    assert [e["seed"] for e in summary["episodes_list"]] == SEEDS
    first = json.loads(lines[0])
    assert "mobile_use" in json.dumps(first)


def test_the_same_seeds_give_the_same_bytes_in_two_processes(recorded, tmp_path):
    make_demos(tmp_path / "two", SEEDS, templates=TEMPLATES, workers=2, chunk=2, seeds_text="0-3")
    assert _files(tmp_path / "two") == _files(recorded)


@pytest.mark.slow
def test_the_same_seeds_give_the_same_bytes_on_ray(recorded, tmp_path, ray_cluster):
    make_demos(tmp_path / "ray", SEEDS, templates=TEMPLATES, use_ray=True, ray_address=ray_cluster.address(),
               chunk=2, seeds_text="0-3")
    assert _files(tmp_path / "ray") == _files(recorded)


def test_bad_options_are_refused_before_recording(tmp_path):
    with pytest.raises(InputError, match="--format 'qwen' is not one of"):
        make_demos(tmp_path, SEEDS, fmt="qwen")
    with pytest.raises(InputError, match="--workers must be at least 1"):
        make_demos(tmp_path, SEEDS, workers=0)
    with pytest.raises(InputError, match="not a template suite"):
        make_demos(tmp_path, SEEDS, suite="mobile-eval")
    (tmp_path / "file").write_text("x")
    with pytest.raises(InputError, match="is not a folder"):
        make_demos(tmp_path / "file", SEEDS)
    assert not (tmp_path / "traces").exists()


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "droidpilot", "demos", *args], capture_output=True,
                          text=True, timeout=300, check=False)


def test_the_cli_writes_the_set_and_says_so(tmp_path):
    done = _cli("--seeds", "4", "--templates", "contacts-add", "--out", str(tmp_path / "d"), "--format",
                "sharegpt")
    assert done.returncode == 0, done.stderr
    assert "1 episodes (1 won)" in done.stdout and "demos.sharegpt.jsonl" in done.stdout
    assert (tmp_path / "d" / "demos.sharegpt.jsonl").stat().st_size > 0


def test_the_cli_refuses_bad_seeds_without_a_traceback(tmp_path):
    done = _cli("--seeds", "3-1", "--out", str(tmp_path))
    assert done.returncode == 2
    assert "runs backwards; write 1-3" in done.stderr and "Traceback" not in done.stderr
