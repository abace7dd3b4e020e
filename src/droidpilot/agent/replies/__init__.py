"""Reading model answers, whatever format they come in, into the project's one Action.

One parser per format (``mobile_agent``, ``json_actions``, ``coordinates``, ``tool_calls``); ``parse_reply``
tries them in a fixed order. ``REPLY_GRAMMAR`` is quoted in the one corrective re-prompt an unreadable
answer gets.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from droidpilot.agent.replies import coordinates, json_actions, mobile_agent, tool_calls
from droidpilot.agent.replies.base import REPLY_GRAMMAR, ParsedReply, ReplyParseError

__all__ = ["REPLY_GRAMMAR", "ParsedReply", "ReplyParseError", "parse_reply"]


def parse_reply(text: str, calls: list[dict[str, Any]] | None = None) -> ParsedReply:
    """The action an answer asks for: tool calls first, then a JSON action, then labelled or bare text
    (whose action line may be a UI-TARS/Qwen call). ReplyParseError says why none fits."""
    if calls:
        return tool_calls.parse(calls, text or "")
    raw = text or ""
    found = mobile_agent.sections(raw)
    if json_actions.looks_like(raw):
        parsed = json_actions.parse(raw)
        if parsed.thought or parsed.observation:
            return parsed
        # "Thought: ... Action: {json}": the labels carry the reasoning, the JSON the action
        return replace(parsed, observation=found.get("observation", ""),
                       thought=_before_json(found.get("thought", "")))
    body = found.get("action")
    if body is None:
        lines = [ln.strip() for ln in mobile_agent.strip_fences(raw).strip().splitlines() if ln.strip()]
        if len(lines) != 1 or found:
            raise ReplyParseError("the answer has no 'Action:' line and no JSON action")
        line = lines[0]
    else:
        line = mobile_agent.action_line(body)
    if coordinates.is_call(line):
        action = coordinates.parse_call(line)
        return ParsedReply(found.get("observation", ""), found.get("thought", ""), action, "coordinates", raw)
    return mobile_agent.parse(raw)


def _before_json(text: str) -> str:
    """A labelled section up to a JSON object that follows it on the same line, if any."""
    return text.split("{", 1)[0].strip()
