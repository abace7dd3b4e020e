"""``type (...)`` types the model's text as written: only the grammar's own outer parentheses go."""

from __future__ import annotations

import pytest

from droidpilot.agent.actions import parse_action


@pytest.mark.parametrize(("line", "typed"), [
    ("type ('single quotes')", "'single quotes'"),
    ("type (<angle brackets>)", "<angle brackets>"),
    ('type ("double quotes")', '"double quotes"'),
    ("type (《书名》)", "《书名》"),
    ("type （你好，世界）", "你好，世界"),  # full-width parentheses are the grammar's; the comma is text
    ("**Action:** type (\"it's\").", "\"it's\""),
    ("type (t)", "t"),
    ("type (a (nested) text)", "a (nested) text"),
])
def test_type_keeps_quotes_and_brackets(line: str, typed: str) -> None:
    action = parse_action(line)
    assert action.name == "type" and action.text == typed
