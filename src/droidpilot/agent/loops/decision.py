"""Read the acting role's reply (v2's decider, E's operator): an atomic action, a perception-list element
("tap 7"), or (E) a shortcut call; plus the role's extra fields (v2's ``Memory:``).

Reply formats are read by ``agent.replies`` as in v1; only the element and shortcut forms are added here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from droidpilot.agent.actions import Action, ActionParseError
from droidpilot.agent.brains.base import BrainReply
from droidpilot.agent.loops.perception_list import PerceptionItem, element_reference
from droidpilot.agent.loops.role_replies import fields
from droidpilot.agent.memory.shortcuts import ShortcutError, parse_call
from droidpilot.agent.prompts import message
from droidpilot.agent.replies import ReplyParseError, parse_reply
from droidpilot.agent.response import parse_response


@dataclass
class Decision:
    """What the acting role chose. Exactly one of ``action`` and ``shortcut`` is set."""

    thought: str
    observation: str
    action: Action | None = None
    element: PerceptionItem | None = None
    shortcut: tuple[str, dict[str, str]] | None = None
    extra: dict[str, str] = field(default_factory=dict)
    format: str = "mobile-agent"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"thought": self.thought, "observation": self.observation,
                               "format": self.format}
        if self.action is not None:
            out["action"] = self.action.to_dict()
        if self.element is not None:
            out["element"] = self.element.to_dict()
        if self.shortcut is not None:
            out["shortcut"] = {"name": self.shortcut[0], "args": self.shortcut[1]}
        if self.extra:
            out["fields"] = dict(self.extra)
        return out


def parse_decision(reply: BrainReply, items: list[PerceptionItem], language: str,
                   shortcuts: bool = False) -> Decision:
    """The decision in ``reply``; ReplyParseError (with how to fix it) when none can be read."""
    extra = {k: v for k, v in fields(reply.text).items() if k in ("memory",)}
    try:
        split = parse_response(reply.text)
    except ActionParseError:
        split = None
    if split is not None and not reply.tool_calls:
        line = split.action_text
        ref = element_reference(line)
        if ref is not None:
            verb, number = ref
            if not 1 <= number <= len(items):
                raise ReplyParseError(message("element_unknown", language, number=number, count=len(items)))
            item = items[number - 1]
            action = Action(verb, coords=item.point)
            return Decision(split.thought, split.observation, action, item, extra=extra, format="element")
        if shortcuts:
            try:
                call = parse_call(line)
            except ShortcutError as exc:
                error = message("shortcut_bad_call", language, call=line, error=str(exc))
                raise ReplyParseError(error) from None
            if call is not None:
                return Decision(split.thought, split.observation, shortcut=call, extra=extra,
                                format="shortcut")
    parsed = parse_reply(reply.text, reply.tool_calls)
    return Decision(parsed.thought, parsed.observation, parsed.action, extra=extra, format=parsed.format)
