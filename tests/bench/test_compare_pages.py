"""The run diff: changed tasks first (a new failure cause counts as a change), the settings that differ,
"completed" not in red on passing tasks, and one task's two runs side by side with the first divergence."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from droidpilot.bench.compare import compare_runs
from droidpilot.bench.report.compare_page import render_compare
from droidpilot.cli import _discover, app

from .compare_support import make_runs

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return make_runs(tmp_path_factory.mktemp("cmp"), extra_tasks=3)


def test_changes_causes_order_and_settings(runs: tuple[Path, Path]) -> None:
    comparison = compare_runs(*runs)
    assert [(t.id, t.change) for t in comparison.changed()] == [
        ("t-fixed", "fixed"), ("t-broken", "broken"), ("t-cause", "cause changed"), ("t-only-a", "only in A")]
    assert {t.id for t in comparison.unchanged()} == {"t-same", "x-000", "x-001", "x-002"}
    assert comparison.counts()["cause changed"] == 1 and comparison.counts()["same"] == 4
    keys = {d["key"]: (d["a"], d["b"]) for d in comparison.settings_diff()}
    assert keys == {"model": ("model-1", "model-2"), "settings.max_steps": (20, 30),
                    "droidpilot.revision": ("abc", "def")}  # the dates differ too, but always do


def test_the_page_opens_on_the_changed_tasks(runs: tuple[Path, Path], tmp_path: Path) -> None:
    page = render_compare(compare_runs(*runs), tmp_path / "compare.html")
    changed = page.index('id="diff"')
    assert changed < page.index('id="unchanged"') < page.index('id="levels"')  # unchanged folded, after
    assert page.index('id="settings-diff"') < changed
    passing = page[page.index('data-change="fixed"'):].split("</tr>")[0]
    assert '<td class="ended">completed' in passing and '<td class="why">max_steps' in passing
    cause = page[page.index('data-change="cause changed"'):].split("</tr>")[0]
    assert "cause: max steps" in cause and "cause: could not ground" in cause


def test_the_command_writes_a_side_by_side_page(runs: tuple[Path, Path], tmp_path: Path) -> None:
    _discover()
    html = tmp_path / "out" / "compare.html"
    html.parent.mkdir()
    result = CliRunner().invoke(app, ["bench", "compare", str(runs[0]), str(runs[1]), "--html", str(html)])
    assert result.exit_code == 0, result.output
    assert "settings that differ: droidpilot.revision, model, settings.max_steps" in result.stderr
    pair = html.parent / "compare-tasks" / "t-same.html"
    assert 'href="compare-tasks/t-same.html"' in html.read_text(encoding="utf-8")
    text = pair.read_text(encoding="utf-8")
    assert 'id="first-divergence"' in text and "first divergent step: row 2" in text
    first = text[text.index('id="first-divergence"'):].split("</tr>")[0]
    assert "B step 2</span> recents" in first and "(no step here)" in first
    assert text.count("<img ") == 4 + 6  # each step of A (4) and B (6) with the screen it was taken on
    shot = os.path.relpath(runs[0].resolve() / "traces" / "t-same" / "1.jpg", pair.parent.resolve())
    assert shot.startswith("../") and f'src="{shot}"' in text  # linked relatively, not copied
