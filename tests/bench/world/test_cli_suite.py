"""`droidpilot suite list|show|validate` and the bench flags of template suites."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from droidpilot.cli import _discover, app

_discover()


def test_list_and_show() -> None:
    result = CliRunner().invoke(app, ["suite", "list", "--templates", "clock-*"])
    assert result.exit_code == 0, result.output
    rows = [line.split("\t") for line in result.stdout.splitlines()]  # piped: tab-separated, a header first
    assert rows[0] == ["template", "apps", "kind", "tier", "instruction (seed 0)"]
    listed = {r[0]: r[1:3] for r in rows[1:]}
    assert listed["clock-add"] == ["clock", "data-entry"] and all(len(r) == 5 for r in rows)
    assert all(name.startswith("clock-") for name in listed)
    assert "templates over 1 apps" in result.stderr
    shown = CliRunner().invoke(app, ["suite", "show", "clock-label", "--seed", "4"])
    assert shown.exit_code == 0, shown.output
    doc = json.loads(shown.output[: shown.output.index("\ntask_id:")])
    assert doc["id"] == "clock-label-4-0" and doc["kind"] == "retrieval"
    assert doc["reference"][-1]["action"].startswith("answer (")
    assert "task_id: clock-label-4-0" in shown.output


def test_validate_reports_problems_with_exit_2(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "_suite.yaml").write_text("type: templates\n", encoding="utf-8")
    (folder / "a.yaml").write_text(
        "app: notes\ntemplates:\n  - id: solved\n    kind: edit\n    instruction: Keep the grocery note.\n"
        "    reference: [back]\n    checkpoints: [[Notes]]\n"
        "    oracle: {path: notes.notes, contains: Milk}\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(app, ["suite", "validate", str(folder), "--seeds", "1"])
    assert result.exit_code == 2
    assert "already satisfied at the start state" in result.output and "solved-0-0" in result.output
    missing = CliRunner().invoke(app, ["suite", "show", "nope"])
    assert missing.exit_code == 2 and "no template 'nope'" in missing.output


def test_validate_reports_depth_and_fails_a_template_that_never_varies(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "_suite.yaml").write_text("type: templates\n", encoding="utf-8")
    template = (
        "app: notes\ntemplates:\n  - id: same\n    kind: data-entry\n{static}"
        "    instruction: Write a note that says hello.\n    reference: [back]\n    checkpoints: [[Notes]]\n"
        "    oracle: {{path: notes.notes, contains: hello}}\n"
    )
    (folder / "a.yaml").write_text(template.format(static=""), encoding="utf-8")
    result = CliRunner().invoke(app, ["suite", "validate", str(folder), "--seeds", "1"])
    assert result.exit_code == 2
    said = " ".join(result.output.split())  # the console wraps long lines
    assert "depth over 50 seeds: instructions min 1, median 1" in said
    assert "template 'same' gives 1 distinct instructions over 50 seeds" in said
    (folder / "a.yaml").write_text(template.format(static="    static: a fixed greeting\n"), encoding="utf-8")
    ok = CliRunner().invoke(app, ["suite", "validate", str(folder), "--seeds", "1"])
    assert ok.exit_code == 0, ok.output
    assert "1 templates marked static" in " ".join(ok.output.split())


def test_bench_rejects_a_bad_tier(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        [
            "bench",
            "--suite",
            "world",
            "--tier",
            "extreme",
            "--brain",
            "reference",
            "--out",
            str(tmp_path / "out"),
        ],
    )
    assert result.exit_code == 2 and "--tier 'extreme' is not one of easy, medium, hard" in result.output
