"""Prompt files in English and Chinese, filled without re-reading substituted text."""

from __future__ import annotations

import pytest

from droidpilot.agent.brains.base import HistoryEntry
from droidpilot.agent.prompting import choice_prompt, completion_prompt, operation_prompt
from droidpilot.agent.prompts import LANGUAGES, fill, message, messages, template
from droidpilot.errors import InputError


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_template_and_message_exists_in_every_language(language: str) -> None:
    for name in ("operation", "extended", "history", "completion", "choose"):
        assert "{{" in template(name, language)
    assert set(messages(language)) == set(messages("en"))


def test_substituted_text_is_not_reinterpreted() -> None:
    assert fill("say {{a}}", {"a": "{{b}} {x}"}) == "say {{b}} {x}"
    with pytest.raises(KeyError, match="no value"):
        fill("{{missing}}", {})


def test_operation_prompt_has_instruction_history_feedback_and_the_eight_actions() -> None:
    history = [HistoryEntry(1, "open App (Notes)", "open notes", "", "done")]
    text = operation_prompt("Create a note", history, "The screen did not change.", "en", False, "device")
    assert "Instruction: Create a note" in text
    assert "Step 1: Action: open App (Notes)" in text
    assert "The screen did not change." in text
    for action in ("open App", "click text", "click icon", "page down", "type", "back", "exit", "stop"):
        assert action in text
    assert "tap (x, y)" not in text
    assert "tap (x, y)" in operation_prompt("x", [], "", "en", True, "thousand")


def test_chinese_prompts() -> None:
    assert "指令：发消息" in operation_prompt("发消息", [], "", "zh", False, "device")
    assert "Completed" in completion_prompt("发消息", [], "zh")
    assert "1. 发送" in choice_prompt("发消息", "click text (发送)", ["发送", "发送"], "zh")


def test_unknown_language_is_an_input_error() -> None:
    with pytest.raises(InputError, match="unknown prompt language"):
        message("unchanged", "fr", action="x")
