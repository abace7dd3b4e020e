"""Reading model answers, whatever format they come in, into the project's one Action.

One parser per format (``mobile_agent``, ``json_actions``, ``coordinates``, ``keyword_actions``,
``agentcpm``, ``tool_calls``); ``sections`` finds the labelled parts however they are written (Markdown
headings, bold, numbered, Chinese) and ``action_text`` the one action an Action section names.
``parse_reply`` puts them together in a fixed order. ``REPLY_GRAMMAR`` is quoted in the one corrective
re-prompt an unreadable answer gets.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from droidpilot.agent.replies import action_text, json_actions, sections, tool_calls
from droidpilot.agent.replies.base import REPLY_GRAMMAR, ParsedReply, ReplyParseError, strip_fences

__all__ = ["REPLY_GRAMMAR", "ParsedReply", "ReplyParseError", "parse_reply"]

# <think>/<thinking> hold the reasoning, <answer>/<action> the action (AutoGLM, GUI-R1, UI-R1)
_THINK = re.compile(r"<(think|thinking|thought)>(.*?)</\1>", re.DOTALL | re.IGNORECASE)
_ANSWER = re.compile(r"<(answer|action)>(.*?)(?:</\1>|\Z)", re.DOTALL | re.IGNORECASE)  # may be unclosed


def parse_reply(text: str, calls: list[dict[str, Any]] | None = None) -> ParsedReply:
    """The action an answer asks for: tool calls first, then the labelled Action (or CogAgent's Grounded
    Operation), then a JSON action or an <answer> tag anywhere, then a reply that is one bare action line.
    ReplyParseError says why none fits, or that the answer names two different actions."""
    if calls:
        return tool_calls.parse(calls, text or "")
    raw = text or ""
    found = sections.split(raw)
    observation = sections.first(found, "observation") or ""
    thought = sections.first(found, "thought") or _tagged_thought(raw)
    bodies = [s.body for s in found if s.name == "grounded"] or [s.body for s in found if s.name == "action"]
    tagged = [m.group(2) for m in _ANSWER.finditer(raw)]
    if bodies:
        parsed = _one_of(bodies)
    elif json_actions.looks_like(raw):
        parsed = json_actions.parse(raw)
        if parsed.thought or parsed.observation:
            return replace(parsed, raw=raw)
        # "Thought: ... {json}": the labels carry the reasoning, the JSON the action
        thought = _before_json(thought)
    elif tagged:
        parsed = _one_of(tagged)
    else:
        lines = [ln.strip() for ln in strip_fences(raw).strip().splitlines() if ln.strip()]
        if len(lines) != 1 or found:
            raise ReplyParseError("the answer has no 'Action:' line and no JSON action")
        parsed = _one_of(lines)
    return ParsedReply(parsed.observation or observation, parsed.thought or thought, parsed.action,
                       parsed.format, raw)


def _one_of(bodies: list[str]) -> ParsedReply:
    """The action the Action sections name: the same one in each, or ReplyParseError."""
    read = [action_text.read_body(b) for b in bodies if b.strip()]
    if not read:
        raise ReplyParseError("the 'Action:' line is empty")
    for other in read[1:]:
        if other.action != read[0].action:
            raise ReplyParseError(f"the answer names two different actions ({read[0].action.format()} and "
                                  f"{other.action.format()}); give exactly one")
    return read[0]


def _tagged_thought(raw: str) -> str:
    match = _THINK.search(raw)
    return match.group(2).strip() if match else ""


def _before_json(text: str) -> str:
    """A labelled section up to a JSON object that follows it on the same line, if any."""
    return text.split("{", 1)[0].strip()
