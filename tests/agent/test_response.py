"""Replies split into Observation / Thought / Action; completion and choice answers read tolerantly."""

from __future__ import annotations

import pytest

from droidpilot.agent.actions import ActionParseError
from droidpilot.agent.response import format_response, parse_choice, parse_completion, parse_response


def test_standard_reply() -> None:
    reply = parse_response("Observation: the home screen\nThought: open Settings\n"
                           "Action: open App (Settings)")
    assert (reply.observation, reply.thought, reply.action_text) == (
        "the home screen", "open Settings", "open App (Settings)")


def test_markdown_chinese_colon_and_action_on_next_line() -> None:
    reply = parse_response("**Observation**： list\n**Thought:** scroll\n**Action:**\n`page down`\n"
                           "extra words")
    assert reply.action_text == "`page down`"
    assert reply.thought == "scroll"


def test_chinese_labels() -> None:
    reply = parse_response("观察：桌面\n思考：打开设置\n操作：open App (设置)")
    assert reply.action_text == "open App (设置)" and reply.observation == "桌面"


def test_type_argument_is_never_taken_from_the_thought() -> None:
    reply = parse_response("Thought: I will type (secret)\nAction: back")
    assert reply.action_text == "back"


def test_bare_action_is_accepted_but_prose_without_action_is_not() -> None:
    assert parse_response("tap (10, 20)").action_text == "tap (10, 20)"
    with pytest.raises(ActionParseError, match="no 'Action:' line"):
        parse_response("Observation: x\nThought: y")
    with pytest.raises(ActionParseError, match="empty"):
        parse_response("Observation: x\nAction:   ")


def test_format_response_parses_back() -> None:
    text = format_response("o", "t", "click text (OK)")
    assert parse_response(text).action_text == "click text (OK)"


@pytest.mark.parametrize(("text", "done"), [
    ("Completed: yes\nReason: the note is saved.", True),
    ("Completed: no\nReason: not saved yet.", False),
    ("Completed: **No**", False),
    ("No, the email was not sent.", False),
    ("Yes.", True),
    ("Completed: 是", True),
    ("Completed: 否\nReason: 还没保存", False),
    ("I am not sure what you mean", False),
    ("The weather is nice", None),
])
def test_completion_answers(text: str, done: bool | None) -> None:
    assert parse_completion(text).done is done


def test_completion_reason() -> None:
    assert parse_completion("Completed: no\nReason: the search was not submitted.").reason == \
        "the search was not submitted."


def test_choice() -> None:
    assert parse_choice("2", 3) == 2
    assert parse_choice("The answer is 3.", 3) == 3
    assert parse_choice("7", 3) is None
    assert parse_choice("none", 3) is None
