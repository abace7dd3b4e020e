"""The AndroidWorld mapping: every task listed once with a template the suite has (or why none), and the
page docs/world-vs-androidworld.md is exactly what the mapping renders (so it cannot go stale)."""

from __future__ import annotations

from pathlib import Path

import pytest

from droidpilot.bench.suite import SUITES_DIR
from droidpilot.bench.world.coverage import CoverageError, load_mapping, render, unknown_templates
from droidpilot.bench.world.template import load_templates

DOCS = Path(__file__).resolve().parents[3] / "docs"


@pytest.fixture(scope="module")
def kinds() -> dict[str, str]:
    return {t.id: t.kind for t in load_templates(SUITES_DIR / "world")}


def test_every_androidworld_task_is_listed_once_and_every_template_exists(kinds: dict[str, str]) -> None:
    mapping = load_mapping(DOCS / "world-vs-androidworld.yaml")
    assert len(mapping.entries) == 116
    assert unknown_templates(mapping, set(kinds)) == []
    assert "Apache-2.0" in mapping.source


def test_the_page_is_what_the_mapping_renders(kinds: dict[str, str]) -> None:
    mapping = load_mapping(DOCS / "world-vs-androidworld.yaml")
    page = (DOCS / "world-vs-androidworld.md").read_text(encoding="utf-8")
    assert page == render(mapping, kinds), "run benchmarks/world_androidworld.py to regenerate the page"
    assert f"**{len(mapping.covered)} of 116 AndroidWorld tasks are covered**" in page


def _write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "map.yaml"
    path.write_text("source: test\ntasks:\n" + body, encoding="utf-8")
    return path


def test_a_template_id_one_letter_off_is_reported_with_its_task(tmp_path: Path,
                                                                kinds: dict[str, str]) -> None:
    mapping = load_mapping(_write(tmp_path, "  - {task: A, difficulty: easy, template: clock-timer-entri}\n"
                                            "  - {task: B, difficulty: easy, template: clock-timer-entry}\n"))
    assert unknown_templates(mapping, set(kinds)) == ["A: no template 'clock-timer-entri' in the suite"]


@pytest.mark.parametrize(("body", "message"), [
    ("  - {task: A, difficulty: easy}\n", r"tasks\[0\] \(A\): give either `template`"),
    ("  - {task: A, difficulty: easy, template: x, none: why}\n", r"not both or neither"),
    ("  - {task: A, difficulty: easy, none: why}\n  - {task: A, difficulty: hard, none: why}\n",
     r"tasks\[1\]: task 'A' is listed twice"),
    ("  - {task: A, difficulty: trivial, none: why}\n",
     r"difficulty 'trivial'; use one of easy, medium, hard"),
    ("  - {task: A, difficulty: easy, none: why, level: 3}\n", r"tasks\[0\]: an entry has task"),
])
def test_a_bad_entry_is_refused_naming_it(tmp_path: Path, body: str, message: str) -> None:
    with pytest.raises(CoverageError, match=message):
        load_mapping(_write(tmp_path, body))


def test_text_that_would_break_the_table_is_escaped(kinds: dict[str, str], tmp_path: Path) -> None:
    mapping = load_mapping(_write(tmp_path, "  - {task: A, difficulty: easy, none: \"a | b\"}\n"))
    assert "| A | easy | none | a \\| b |" in render(mapping, kinds)
