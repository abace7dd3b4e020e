"""Split a brain's reply into Observation, Thought and Action, and read its yes/no and number answers.

The labels are found by ``replies.sections`` (Markdown headings, bold, numbered, plain or Chinese labels,
code fences) and the action line by ``replies.action_text`` (a fenced or inline-code action, one only).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from droidpilot.agent.actions import GRAMMAR_HELP, ActionParseError
from droidpilot.agent.replies import action_text, sections
from droidpilot.agent.replies.base import ReplyParseError


@dataclass(frozen=True)
class ParsedResponse:
    """A reply split into its parts; ``action_text`` is the single line to give ``parse_action``."""

    observation: str
    thought: str
    action_text: str
    raw: str


def parse_response(text: str) -> ParsedResponse:
    """Split a Mobile-Agent reply (see ``replies.sections``); ActionParseError (with the fix) when it has
    no usable Action line or names two different actions. The loop reads every format through
    ``replies.parse_reply``."""
    raw = text or ""
    found = sections.split(raw)
    bodies = [s.body for s in found if s.name == "grounded"] or [s.body for s in found if s.name == "action"]
    observation, thought = sections.first(found, "observation") or "", sections.first(found, "thought") or ""
    if not bodies:
        lines = [ln.strip() for ln in raw.strip().splitlines() if ln.strip()]
        if len(lines) == 1 and not found:
            # A bare action line, as some self-grounding models answer.
            return ParsedResponse("", "", lines[0], raw)
        raise ActionParseError(
            "Your answer has no 'Action:' line. End it with 'Action: ' followed by one action. "
            + GRAMMAR_HELP)
    if not any(b.strip() for b in bodies):
        raise ActionParseError("The 'Action:' line is empty. " + GRAMMAR_HELP)
    try:
        lines = [action_text.choose(b) for b in bodies if b.strip()]
        if len(set(lines)) > 1 and len({action_text.read_line(ln)[0] for ln in lines}) > 1:
            raise ReplyParseError(f"the answer names two different actions ({lines[0]} and {lines[1]})")
    except ReplyParseError as exc:
        raise ActionParseError(f"{str(exc)[0].upper()}{str(exc)[1:]}. Give exactly one action. "
                               + GRAMMAR_HELP) from None
    return ParsedResponse(observation, thought, lines[0], raw)


def format_response(observation: str, thought: str, action: str) -> str:
    """The reply format every brain answers in."""
    return f"Observation: {observation}\nThought: {thought}\nAction: {action}"


_YES = re.compile(r"\b(yes|true|completed|done)\b|是|已完成|完成了", re.IGNORECASE)
_NO = re.compile(r"\b(no|not|false|incomplete)\b|否|没有|未完成|不", re.IGNORECASE)


@dataclass(frozen=True)
class CompletionAnswer:
    """The completion check's answer: ``done`` is None when the reply said neither yes nor no."""

    done: bool | None
    reason: str


def parse_completion(text: str) -> CompletionAnswer:
    """Read ``Completed: yes|no`` and ``Reason: ...``; tolerant of a bare yes/no answer."""
    raw = (text or "").strip()
    reason_match = re.search(r"(?:reason|原因|理由)[ \t*_]*[:：]\s*(.+)", raw, re.IGNORECASE | re.DOTALL)
    reason = reason_match.group(1).strip() if reason_match else ""
    verdict_match = re.search(r"(?:completed|complete|done|完成)[ \t*_]*[:：]\s*([^\n]+)", raw, re.IGNORECASE)
    head = verdict_match.group(1) if verdict_match else (raw.splitlines()[0] if raw else "")
    head = head.strip().strip("*_`.。").strip()
    no = _NO.search(head)
    yes = _YES.search(head)
    if no and (not yes or no.start() <= yes.start()):
        done: bool | None = False
    elif yes:
        done = True
    else:
        done = None
    if not reason:
        rest = raw.splitlines()[1:] if verdict_match is None else []
        reason = " ".join(s.strip() for s in rest if s.strip())
    return CompletionAnswer(done, reason)


def parse_choice(text: str, count: int) -> int | None:
    """The 1-based candidate number a reply names, or None when it names none in ``1..count``."""
    for match in re.finditer(r"\d+", text or ""):
        value = int(match.group(0))
        if 1 <= value <= count:
            return value
    return None
