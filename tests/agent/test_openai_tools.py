"""`--action-format tools`: the openai brain sends a function schema with ``tools=`` and acts on the
model's tool calls, through the official client against a real OpenAI-compatible server on loopback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.support.openai_server import OpenAITestServer, Reply, openai_server_fixture

from droidpilot.agent.brains.openai import OpenAIBrain
from droidpilot.agent.loop import Agent
from droidpilot.errors import InputError

openai_server = openai_server_fixture()


def test_tool_calls_drive_the_loop_and_the_schema_is_sent(
        openai_server: OpenAITestServer, paper_phone: Any, ocr_engine: Any, tmp_path: Path) -> None:
    openai_server.push(
        Reply(text="Notes holds the note.",
              tool_calls=[{"name": "open_app", "arguments": {"app_name": "Notes"}}]),
        Reply(tool_calls=[{"name": "click_text", "arguments": '{"text": "Save", "thought": "save it"}'}]),
        "2",
        Reply(tool_calls=[{"name": "stop", "arguments": "{}"}]),
        "Completed: yes\nReason: the note is saved.",
    )
    brain = OpenAIBrain(model="test-model", base_url=openai_server.base_url, action_format="tools",
                        max_retries=0)
    result = Agent(paper_phone, brain, ocr_engine=ocr_engine, out_dir=tmp_path).run("Save a note")
    assert result.termination == "completed" and paper_phone.screen == "saved"
    requests = openai_server.chat_requests
    operate, choose, complete = requests[0].body, requests[2].body, requests[4].body
    names = {t["function"]["name"] for t in operate["tools"]}
    assert {"open_app", "click_text", "stop"} <= names and "tap" not in names  # basic actions only
    assert operate["tool_choice"] == "auto"
    assert "tools" not in choose and "tools" not in complete  # yes/no and number answers stay text
    steps = [json.loads(x) for x in (tmp_path / "steps.jsonl").read_text().splitlines()]
    assert steps[0]["reply_format"] == "tool-call" and steps[0]["thought"] == "Notes holds the note."
    assert steps[0]["tool_calls"] == [{"name": "open_app", "arguments": '{"app_name": "Notes"}'}]
    assert steps[1]["thought"] == "save it" and steps[1]["action"]["text"] == "click text (Save)"


def test_unknown_tool_gets_the_reprompt_then_a_text_answer_is_read(
        openai_server: OpenAITestServer, paper_phone: Any, ocr_engine: Any, tmp_path: Path) -> None:
    openai_server.push(
        Reply(tool_calls=[{"name": "teleport", "arguments": "{}"}]),
        "Observation: home\nThought: open it\nAction: open App (Mail)",
    )
    brain = OpenAIBrain(model="test-model", base_url=openai_server.base_url, action_format="tools",
                        max_retries=0)
    agent = Agent(paper_phone, brain, ocr_engine=ocr_engine, out_dir=tmp_path, check_completion=False)
    agent.run("Open Mail")
    steps = [json.loads(x) for x in (tmp_path / "steps.jsonl").read_text().splitlines()]
    assert "unknown action 'teleport'" in steps[0]["reprompt"]["error"]
    assert steps[0]["tool_calls"][0]["name"] == "teleport"  # the raw answer is kept
    assert steps[0]["action"]["text"] == "open App (Mail)" and paper_phone.screen == "mail"


def test_unknown_action_format_is_an_input_error() -> None:
    with pytest.raises(InputError, match="--action-format"):
        OpenAIBrain(model="m", base_url="http://127.0.0.1:9/v1", action_format="xml")
