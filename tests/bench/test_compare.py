"""`droidpilot bench compare RUN_A RUN_B`: Su per level side by side and the per-task changes, in the
terminal (whole tables when piped at 80 columns) and as HTML linking into both runs' reports."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.table import Table
from typer.testing import CliRunner

from droidpilot.bench.compare import compare_runs
from droidpilot.cli import _discover, app
from droidpilot.cli._tables import print_whole

pytestmark = pytest.mark.slow


def test_compare_lines_up_tasks_and_levels(reference_run: dict[str, Any], trials_run: dict[str, Any]) -> None:
    comparison = compare_runs(reference_run["out"], trials_run["out"])
    changes = {t.id: t.change for t in comparison.tasks}
    assert changes == {"music-3": "same", "settings-2": "broken"}
    overall = comparison.levels[-1]
    assert overall["group"] == "overall" and (overall["su_a"], overall["su_b"]) == (1.0, 0.5)
    assert overall["delta"] == pytest.approx(-0.5)
    broken = next(t for t in comparison.tasks if t.id == "settings-2")
    assert broken.b is not None and broken.b["termination"] == "max_steps"
    assert "max steps" in broken.b["reason"]


def test_compare_command_terminal_and_html(reference_run: dict[str, Any], trials_run: dict[str, Any],
                                           tmp_path: Path) -> None:
    _discover()
    html = tmp_path / "cmp" / "compare.html"
    html.parent.mkdir()
    result = CliRunner().invoke(app, ["bench", "compare", str(reference_run["out"]), str(trials_run["out"]),
                                      "--html", str(html)])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "…" not in out and "│" not in out  # piped: tab-separated rows, nothing cut
    levels, tasks = (block.splitlines() for block in out.split("\n\n"))
    assert levels[0].split("\t") == ["group", "tasks A", "tasks B", "Su A", "Su B", "Δ Su", "Su-oracle A",
                                     "Su-oracle B"]
    assert "why it failed" in tasks[0].split("\t")
    assert tasks[1].split("\t")[:3] == ["settings-2", "L2", "broken"]
    assert any("-50 pts" in line.split("\t") for line in levels)
    assert "1 broken, 1 same" in result.stderr
    page = html.read_text(encoding="utf-8")
    assert 'id="levels"' in page and 'data-change="broken"' in page
    assert "../" in page and "report.html#task-settings-2" in page  # relative links into both reports


def test_compare_needs_results(tmp_path: Path, reference_run: dict[str, Any]) -> None:
    _discover()
    result = CliRunner().invoke(app, ["bench", "compare", str(tmp_path), str(reference_run["out"])])
    assert result.exit_code == 2 and "RUN_A" in result.output and "no results.json" in result.output


def test_piped_tables_are_whole() -> None:
    table = Table(title="results")
    for name in ("group", "tasks", "Su", "Su-oracle", "agree", "CR", "RE", "steps/ref", "PS", "s/step",
                 "model calls", "tokens"):
        table.add_column(name)
    table.add_row("level 1 with a long name", *["100%"] * 11)
    buffer = io.StringIO()
    print_whole(Console(file=buffer, width=80), table)
    text = buffer.getvalue()
    assert "…" not in text and "level 1 with a long name" in text and "model calls" in text
    assert max(len(line) for line in text.splitlines()) > 80
