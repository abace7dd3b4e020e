"""Listing commands, run as a user runs them (a subprocess, stdout a pipe): plain tab-separated rows with
whole values, `--json` that parses and carries the same data, and no terminal controls (escapes, bidi
overrides) from task or screen text in any form."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from droidpilot.textsafe import json_safe, printable

RLO = "\u202e"
HOSTILE = f"Pay {RLO}txt.exe\u2066 now\x1b]0;pwned\x07\x9b2J\tand\nmore"


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "droidpilot", *args], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "COLUMNS": "80"})


@pytest.fixture(scope="module")
def hostile_suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A template suite whose instruction and id carry a right-to-left override and other controls."""
    folder = tmp_path_factory.mktemp("hostile") / "mine"
    folder.mkdir()
    (folder / "_suite.yaml").write_text("type: templates\n", encoding="utf-8")
    doc = {"app": "notes", "templates": [{
        "id": "note-a-very-long-template-id-that-a-table-would-cut", "kind": "data-entry",
        "instruction": HOSTILE, "reference": ["open App (Notes)"], "checkpoints": [["Notes"]],
        "oracle": {"path": "notes.notes", "length_at_least": 0}}]}
    (folder / "notes.yaml").write_text(json.dumps(doc), encoding="utf-8")  # JSON is YAML
    return folder


def _world_templates() -> list[object]:
    from droidpilot.bench.suite import suite_folder
    from droidpilot.bench.world.template import load_templates

    return list(load_templates(suite_folder("world")))


def test_suite_list_piped_is_tab_separated_with_whole_values() -> None:
    result = _cli("suite", "list")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split("\t") == ["template", "apps", "kind", "tier", "instruction (seed 0)"]
    rows = [line.split("\t") for line in lines[1:]]
    assert len(rows) == len(_world_templates()) and all(len(r) == 5 for r in rows)
    assert "bank-balance-to-note" in {r[0] for r in rows}  # the id a boxed 80-column table cut
    assert "…" not in result.stdout and "│" not in result.stdout and "\x1b" not in result.stdout
    listed = json.loads(_cli("suite", "list", "--json").stdout)
    assert [(d["template"], ",".join(d["apps"]), d["kind"], d["tier"], d["instruction"]) for d in listed] == \
        [tuple(r) for r in rows]


def test_untrusted_text_reaches_no_listing_raw(hostile_suite: Path) -> None:
    plain = _cli("suite", "list", "--suite", str(hostile_suite))
    assert plain.returncode == 0, plain.stderr
    row = plain.stdout.splitlines()[1].split("\t")
    assert row[0] == "note-a-very-long-template-id-that-a-table-would-cut"
    assert row[4] == "Pay txt.exe now and more"  # controls gone; tab and newline folded into the row
    as_json = _cli("suite", "list", "--suite", str(hostile_suite), "--json")
    assert json.loads(as_json.stdout)[0]["instruction"] == HOSTILE.strip()  # exact data
    shown = _cli("suite", "show", "note-a-very-long-template-id-that-a-table-would-cut", "--suite",
                 str(hostile_suite))
    one = _cli("suite", "show", "note-a-very-long-template-id-that-a-table-would-cut", "--suite",
               str(hostile_suite), "--json")
    assert json.loads(one.stdout)["instruction"] == HOSTILE.strip() and "rule" in json.loads(one.stdout)
    for out in (plain.stdout, as_json.stdout, shown.stdout, one.stdout):
        assert not any(ch in out for ch in (RLO, "\u2066", "\x1b", "\x07", "\x9b")), out


def test_a_bench_run_prints_no_controls_from_task_text(hostile_suite: Path, tmp_path: Path) -> None:
    """The live lines and summary of a run over the hostile suite carry no controls either."""
    result = _cli("bench", "--suite", str(hostile_suite), "--brain", "reference", "--no-report", "--out",
                  str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    assert "note-a-very-long-template-id" in result.stdout
    assert not any(ch in result.stdout + result.stderr for ch in (RLO, "\u2066", "\x1b", "\x07", "\x9b"))


@pytest.mark.parametrize("ch", [RLO, "\u202a", "\u202b", "\u202c", "\u202d", "\u2066", "\u2067", "\u2068",
                                "\u2069", "\u200e", "\u200f", "\u061c", "\u2028", "\u2029"])
def test_bidi_controls_are_removed_and_escaped_in_json(ch: str) -> None:
    assert printable(f"a{ch}b") == "ab"
    text = json.dumps({"k": f"a{ch}b"}, ensure_ascii=False)
    safe = json_safe(text)
    assert ch not in safe and json.loads(safe) == {"k": f"a{ch}b"}


def test_joiners_and_scripts_are_kept() -> None:
    """Near misses: the zero-width joiner of emoji sequences, Arabic and Hebrew letters stay."""
    for text in ("👩\u200d💻", "مرحبا", "שלום", "中文 é ✓"):
        assert printable(text) == text and json_safe(json.dumps(text, ensure_ascii=False)) == \
            json.dumps(text, ensure_ascii=False)


def test_bench_compare_piped_and_json(tmp_path: Path) -> None:
    """Two results folders written by hand in the results format: TSV levels, a blank line, TSV tasks;
    --json the same comparison as data."""
    def results(folder: Path, su: int) -> Path:
        folder.mkdir()
        row = {"id": "task-with-a-long-id-for-the-table", "level": 1, "app": "notes", "instruction": HOSTILE,
               "su": su, "su_oracle": su, "cr": float(su), "re": 1.0, "ps": 1.0, "steps": 2,
               "reference_steps": 2, "termination": "completed", "reason": "" if su else f"why {RLO}x",
               "trace": "traces/task-with-a-long-id-for-the-table"}
        (folder / "results.json").write_text(json.dumps({"suite": "s", "brain": "reference",
                                                         "tasks": [row]}), encoding="utf-8")
        return folder
    a, b = results(tmp_path / "a", 1), results(tmp_path / "b", 0)
    piped = _cli("bench", "compare", str(a), str(b))
    assert piped.returncode == 0, piped.stderr
    levels, tasks = piped.stdout.split("\n\n")
    assert levels.splitlines()[0].startswith("group\ttasks A\ttasks B\tSu A")
    row = tasks.splitlines()[1].split("\t")
    assert row[:5] == ["task-with-a-long-id-for-the-table", "L1", "broken", "pass", "fail"]
    assert row[-1].endswith(": why x") and RLO not in piped.stdout
    assert "1 broken" in piped.stderr
    doc = json.loads(_cli("bench", "compare", str(a), str(b), "--json").stdout)
    assert doc["counts"]["broken"] == 1 and doc["tasks"][0]["id"] == "task-with-a-long-id-for-the-table"
    assert doc["html"].endswith("compare.html")


def test_icons_list_piped_and_json(tmp_path: Path) -> None:
    shot = tmp_path / "home.png"
    assert _cli("sim", "shot", str(shot)).returncode == 0
    piped = _cli("icons", "list", str(shot))
    assert piped.returncode == 0, piped.stderr
    lines = piped.stdout.splitlines()
    assert lines[0].split("\t") == ["#", "description", "confidence", "where", "tap point", "box"]
    rows = [line.split("\t") for line in lines[1:]]
    listed = json.loads(_cli("icons", "list", str(shot), "--json").stdout)
    assert len(rows) == len(listed) > 0
    assert [r[1] for r in rows] == [d["description"] for d in listed]


def test_verify_json_and_batch_lines_escape_bidi_from_the_screen(tmp_path: Path) -> None:
    """verify --json and verify-batch's JSON lines keep screen text and paths exact but write U+202E as
    \\u202e."""
    import shutil

    from droidpilot.verify.examples import example_dir

    example = example_dir()
    trace = tmp_path / f"trace{RLO}gnp.exe"  # the folder name reaches verify-batch's lines
    shutil.copytree(example / "trace", trace)
    for dump in trace.glob("*.xml"):
        text = dump.read_text(encoding="utf-8")
        dump.write_text(text.replace("Search products", f"Search products {RLO}x"), encoding="utf-8")
    one = _cli("verify", str(example / "rule.yaml"), str(trace), "--json")
    lines = _cli("verify-batch", str(example / "rule.yaml"), str(trace), "--jobs", "1")
    for out in (one.stdout, lines.stdout):
        assert out.strip() and RLO not in out and "\\u202e" in out
    assert f"Search products {RLO}x" in json.dumps(json.loads(one.stdout), ensure_ascii=False)


@pytest.mark.parametrize(("text", "message"), [
    ('{"tasks": [{"id": "t", "level": 1, "su": NaN}]}', "task 't' has su = nan, not a finite number"),
    ('{"tasks": [{"id": "t", "level": 1, "su": 1e999}]}', "beyond the range of numbers"),
    ('{"tasks": [7]}', "task row 1 is not a result row"),
    ('{"tasks": ' + "[" * 5000 + "]" * 5000 + "}", "nested more than 100 levels deep"),
])
def test_bench_compare_refuses_broken_results_clearly(tmp_path: Path, text: str, message: str) -> None:
    good = tmp_path / "good"
    good.mkdir()
    (good / "results.json").write_text('{"tasks": [{"id": "t", "level": 1, "su": 1}]}', encoding="utf-8")
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "results.json").write_text(text, encoding="utf-8")
    for as_json in ([], ["--json"]):
        done = _cli("bench", "compare", str(good), str(bad), *as_json)
        assert done.returncode == 2, done.stdout + done.stderr
        assert message in " ".join(done.stderr.split()) and "Traceback" not in done.stderr
