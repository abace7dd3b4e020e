"""Mobile-Agent's ``Observation: ... Thought: ... Action: ...`` replies, on one line or several.

Labels are matched case-insensitively anywhere a label can start (line start, or after a sentence on the
same line), with Markdown bold/italics, code fences, an English or Chinese colon, and the Chinese labels
观察 / 思考 / 操作 (动作). The action is the first non-empty line after ``Action:``.
"""

from __future__ import annotations

import re

from droidpilot.agent.actions import ActionParseError, parse_action
from droidpilot.agent.replies.base import ParsedReply, ReplyParseError, strip_fences

LABELS = {
    "observation": ("observation", "观察"),
    "thought": ("thought", "thinking", "reasoning", "思考", "想法"),
    "action": ("action", "操作", "动作"),
}
_WORDS = "|".join(re.escape(w) for ws in LABELS.values() for w in ws)
# A label at a line start (with emphasis, quote or heading marks around it) ...
_LINE_LABEL = re.compile(r"^[ \t>#*_`-]*(" + _WORDS + r")[ \t*_`]*[:：][*_ \t]*",
                         re.IGNORECASE | re.MULTILINE)
# ... or, for replies written on one line, inline after whitespace or punctuation ("... Thought: ...").
_INLINE_LABEL = re.compile(r"(?:^|(?<=[\s.。;；,，)）*_`]))[*_`]*(" + _WORDS + r")[ \t*_`]*[:：][*_ \t]*",
                           re.IGNORECASE | re.MULTILINE)


def _section(label: str) -> str:
    low = label.lower()
    return next(name for name, words in LABELS.items() if low in words)


def sections(text: str) -> dict[str, str]:
    """The labelled parts of ``text`` (the first of each name wins).

    A label at a line start counts in any case; an inline one ("... Thought: ...", for replies written on
    one line) only when capitalised or Chinese, so a thought saying "the next action: ..." stays a thought.
    """
    source = strip_fences(text)
    starts = {m.start(1): m for m in _LINE_LABEL.finditer(source)}
    for m in _INLINE_LABEL.finditer(source):
        if m.start(1) not in starts and not m.group(1)[0].islower():
            starts[m.start(1)] = m
    matches = [starts[k] for k in sorted(starts)]
    out: dict[str, str] = {}
    for i, match in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(source)
        body = source[match.end():end].strip().strip("*_").strip()
        out.setdefault(_section(match.group(1)), body)
    return out


def action_line(body: str) -> str:
    """The action part of an ``Action:`` section: its first non-empty line (fences and quotes left)."""
    lines = [ln.strip() for ln in body.splitlines() if ln.strip() and ln.strip().strip("`") != ""]
    return lines[0] if lines else ""


def parse(text: str) -> ParsedReply:
    """Read a labelled reply, or a reply that is one bare action line; ReplyParseError when neither."""
    found = sections(text)
    body = found.get("action")
    if body is None:
        lines = [ln.strip() for ln in strip_fences(text).strip().splitlines() if ln.strip()]
        if len(lines) == 1 and not found:  # a bare action line, as some self-grounding models answer
            return _with_action("", "", lines[0], text)
        raise ReplyParseError("the answer has no 'Action:' line")
    line = action_line(body)
    if not line:
        raise ReplyParseError("the 'Action:' line is empty")
    return _with_action(found.get("observation", ""), found.get("thought", ""), line, text)


def _with_action(observation: str, thought: str, line: str, raw: str) -> ParsedReply:
    try:
        action = parse_action(line)
    except ActionParseError as exc:
        raise ReplyParseError(str(exc)) from None
    return ParsedReply(observation, thought, action, "mobile-agent", raw)
