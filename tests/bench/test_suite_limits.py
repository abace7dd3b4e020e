"""Suite task files that nest thousands of levels deep or explode through aliases: a SuiteError, no crash."""

from __future__ import annotations

from pathlib import Path

import pytest

from droidpilot.bench.suite import SuiteError, load_suite, load_task
from droidpilot.datalimits import MAX_DEPTH


def test_a_deeply_nested_task_file_is_a_suite_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text("id: deep\nreference: " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    with pytest.raises(SuiteError, match=rf"deep\.yaml:2: too large: nested more than {MAX_DEPTH}"):
        load_task(path)
    with pytest.raises(SuiteError, match="too large"):
        load_suite(str(tmp_path))


def test_an_alias_bomb_task_file_is_a_suite_error(tmp_path: Path) -> None:
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    lines += [f"a{k}: &a{k} [" + ", ".join([f"*a{k - 1}"] * 10) + "]" for k in range(1, 10)]
    path = tmp_path / "bomb.yaml"
    path.write_text("\n".join(lines) + "\nid: bomb\nreference: *a9\n", encoding="utf-8")
    with pytest.raises(SuiteError, match="too large: expands to more than"):
        load_task(path)


def test_a_5000_digit_number_in_a_task_file_is_a_suite_error(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("id: big\nseed: " + "9" * 5000 + "\n", encoding="utf-8")
    with pytest.raises(SuiteError, match=r"big\.yaml.*a number with 5,000 digits"):
        load_task(path)
