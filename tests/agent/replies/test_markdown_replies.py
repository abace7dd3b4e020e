"""Markdown and other laid-out replies: every way of writing the labels and the action reads the same
action; a reply naming two different actions, or none, still gets the corrective re-prompt."""

from __future__ import annotations

import pytest

from droidpilot.agent.actions import ActionParseError
from droidpilot.agent.replies import ReplyParseError, parse_reply
from droidpilot.agent.response import parse_response

OBS, THOUGHT = "The Settings list.", "Dark mode is under Display."
LABELS = [  # how a label line is written: (observation, thought, action) label lines; body follows
    ("# Observation", "# Thought", "# Action"),
    ("### Observation", "### Thought", "### Action"),
    ("###### Observation", "###### Thought", "###### Action"),
    ("### Observation ###", "### Thought ###", "### Action ###"),
    ("## 观察", "## 思考", "## 操作"),
    ("**Observation:**", "**Thought:**", "**Action:**"),
    ("**Observation**:", "**Thought**:", "**Action**:"),
    ("**Observation**", "**Thought**", "**Action**"),
    ("Observation", "Thought", "Action"),
    ("1. Observation:", "2. Thought:", "3. Action:"),
    ("**1. Observation**", "**2. Thought**", "**3. Action**"),
    ("Observation -", "Thought -", "Action -"),
    ("观察：", "思考：", "动作："),
]
BODIES = ["```\nclick text (Display)\n```", "```text\nclick text (Display)\n```", "`click text (Display)`",
          "click text (Display)", "`click text (Display)` to open the display page.",
          "I will open it:\n```\nclick text (Display)\n```"]


@pytest.mark.parametrize("labels", LABELS, ids=[a for _, _, a in LABELS])
@pytest.mark.parametrize("body", BODIES)
def test_every_layout_reads_the_action(labels: tuple[str, str, str], body: str) -> None:
    obs, thought, action = labels
    reply = f"{obs}\n{OBS}\n\n{thought}\n{THOUGHT}\n\n{action}\n{body}\n"
    parsed = parse_reply(reply)
    assert parsed.action.format() == "click text (Display)"
    assert parsed.thought == THOUGHT and parsed.observation == OBS


def test_a_thought_quoting_an_example_takes_the_action_sections_action() -> None:
    reply = ("### Thought\nThe prompt's example is `click text (Settings)`, but I need Display, so not\n"
             "```\nclick text (Settings)\n```\n### Action\n```\nclick text (Display)\n```")
    assert parse_reply(reply).action.format() == "click text (Display)"


def test_labels_inside_a_fenced_example_do_not_open_sections() -> None:
    reply = ("**Thought:** last time this worked:\n```\nAction: click text (Settings)\n```\n"
             "**Action:** `click text (Display)`")
    assert parse_reply(reply).action.format() == "click text (Display)"


def test_a_json_example_in_the_thought_is_not_the_action() -> None:
    reply = ('Thought: back would be {"action_type": "navigate_back"}, but I tap instead.\n'
             'Action: {"action_type": "click", "x": 310, "y": 852}')
    assert parse_reply(reply).action.format() == "tap (310, 852)"


@pytest.mark.parametrize("reply", [
    "### Action\nclick text (Display)\n### Action\nclick text (Sound)",
    "Thought: go.\nAction: click text (Display)\nAction: back",
    "### Action\n```\nclick text (Display)\nback\n```",
    "**Action:** click text (Display)\nclick text (Sound)",
    "Action: `click text (Display)` or `back`",
    '{"action_type": "navigate_back"}\n{"action_type": "click", "x": 1, "y": 2}',
    "Action: 点击设置\nGrounded Operation: CLICK(box=[[1,2,3,4]])\nGrounded Operation: END()",
])
def test_two_different_actions_are_asked_again(reply: str) -> None:
    with pytest.raises(ReplyParseError, match="two different actions"):
        parse_reply(reply)


@pytest.mark.parametrize("reply", [
    "### Action\nclick text (Display)\n\n**Action:** click text (Display)",  # the same one twice
    "Action: click text (Save)\nDone.",  # a remark after the action, not a second action
    "Action: click text (Display)\nThen tap (OK) once it opens.",
    "### Action ###\nTap (540, 160)\n### Operation ###\nTap the search bar.",  # v2's summary is not read
    "Action_Summary: tap the Library tab.\nAction: click(start_box='(610,2280)')",
    "Thought: reply to Ana. Action: click text (Hello. Plan: meet at 5)",  # "Plan:" inside is text
])
def test_one_action_with_words_around_it_is_read(reply: str) -> None:
    assert parse_reply(reply).action.name in ("click_text", "tap")


@pytest.mark.parametrize(("reply", "error"), [
    ("### Observation\nThe Settings list.\n### Thought\nDisplay next.", "no 'Action:' line"),
    ("### Thought\nDisplay next.\n### Action\n\n### Summary\nnothing", "empty"),
    ("### Action\nI will open the display page.", "Unknown action"),
    ("Action: 点击页面顶部的搜索框。", "Unknown action"),  # CogAgent's prose with no Grounded Operation
    ("Action_Summary: click text (Display)", "no 'Action:' line"),
    ("thoughts:\nthe send button\nactions:\nCLICK <point>[[912]]</point>", "needs 2 numbers"),
])
def test_no_usable_action_is_asked_again(reply: str, error: str) -> None:
    with pytest.raises(ReplyParseError, match=error):
        parse_reply(reply)


def test_parse_response_reads_markdown_and_refuses_two_actions() -> None:
    reply = parse_response("### Observation\nlist\n### Thought\nopen it\n### Action\n"
                           "```\nclick text (Display)\n```")
    assert (reply.observation, reply.thought) == ("list", "open it")
    assert reply.action_text == "click text (Display)"
    with pytest.raises(ActionParseError, match="two different actions"):
        parse_response("### Action\nclick text (Display)\n### Action\nback")


def test_an_element_number_says_it_needs_the_element_list() -> None:
    with pytest.raises(ReplyParseError, match="element list"):
        parse_reply("Observation: list\nThought: item 5\nAction: tap(5)")
