"""`droidpilot bench` refuses bad input with a message and exit status 2, before running anything."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from droidpilot.cli import _discover, app


@pytest.mark.parametrize(("args", "message"), [
    (["--tasks", "nope"], "no task 'nope' in suite mobile-eval"),
    (["--device", "sim", "--device", "SERIAL1"], "cannot be mixed"),
    (["--brain", "foo"], "is not one of heuristic, openai, replay, reference"),
    (["--suite", "no-such-suite"], "no suite 'no-such-suite'"),
    (["--devices", "0"], "--devices must be at least 1"),
    (["--jobs", "-1"], "--jobs must be 0"),
    (["--trials", "0"], "--trials must be at least 1"),
    (["--max-steps", "0"], "--max-steps must be positive"),
    (["--lang", "fr"], "--lang: unknown prompt language 'fr'"),
    (["--temperature", "5"], "--temperature must be between 0 and 2"),
    (["--coord-space", "pixels"], "unknown coordinate space 'pixels'"),
])
def test_bad_input_exits_2(tmp_path: Path, args: list[str], message: str) -> None:
    _discover()
    result = CliRunner().invoke(app, ["bench", "--out", str(tmp_path / "out"), *args])
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())
    assert not (tmp_path / "out" / "results.json").exists()


def test_the_results_table_has_a_row_per_loop_with_its_satisfaction_score() -> None:
    from rich.console import Console

    from droidpilot.bench.metrics import summarize
    from droidpilot.cli.bench import _summary_table

    rows = [{"id": "mee-01", "level": 2, "app": "maps", "loop": "e", "su": 0, "su_oracle": 0, "cr": 0.5,
             "ss": 0.5, "re": 1.0, "ps": 1.0, "steps": 4, "reference_steps": 4, "termination": "max_steps"}]
    console = Console(width=200, record=True)
    console.print(_summary_table(summarize(rows)))
    line = next(ln for ln in console.export_text().splitlines() if "loop e" in ln)
    assert "50%" in line.split("loop e", 1)[1]  # SS (and CR) of the e loop's runs
