"""The one action an Action section names, and which grammar reads it.

The section's action is in its code fence if it has one, else on its lines (an inline code span counts
when the line around it is prose: "**Action:** `back` to leave"). Lines written as actions on purpose
(a verb with its parenthesised or bracketed argument, a call, or a bare verb in code) are all read: two
different ones are an error, so the model is asked again rather than guessed for. With none such, the
first line is read as the grammar allows (``wait for content to load`` is a wait).
"""

from __future__ import annotations

import re

from droidpilot.agent.actions import Action, ActionParseError, is_bare_action, parse_action
from droidpilot.agent.replies import coordinates, json_actions, keyword_actions
from droidpilot.agent.replies.base import ParsedReply, ReplyParseError

_FENCED = re.compile(r"```[^\n`]*\n?(.*?)(?:```|\Z)", re.DOTALL)
_SPAN = re.compile(r"`([^`\n]+)`")
_VERB = re.compile(r"[\w .\-]+")
_OPENERS, _CLOSERS = "([<（", ")]>）"


def read_line(line: str) -> tuple[Action, str]:
    """(Action, format) of one action line: an OS-Atlas keyword, a call, or Mobile-Agent's grammar."""
    if keyword_actions.is_keyword(line):
        return keyword_actions.parse(line), "os-atlas"
    if coordinates.is_call(line):
        return coordinates.parse_call(line), "coordinates"
    try:
        return parse_action(line), "mobile-agent"
    except ActionParseError as exc:
        raise ReplyParseError(str(exc)) from None


def _entries(body: str) -> list[tuple[str, bool]]:
    """(line, written as code) for the lines that may hold the action: the fenced ones if any."""
    fenced = [ln.strip() for m in _FENCED.finditer(body) for ln in m.group(1).splitlines() if ln.strip()]
    if fenced:
        return [(ln, True) for ln in fenced]
    out = []
    for ln in body.splitlines():
        text = ln.strip()
        if text and text.strip("`"):
            out.append((text, text.startswith("`") and text.rstrip(".。").endswith("`")))
    return out


def _shaped(line: str, code: bool) -> bool:
    """Is ``line`` written as an action on purpose, not prose that happens to start with a verb?"""
    cleaned = re.sub(r"^(?:[-*>]\s+|\d+[.)]\s+)", "", line.strip()).strip("*_` ")
    cleaned = cleaned.rstrip(".。;；!").strip("*_` ")
    opener = next((i for i, ch in enumerate(cleaned) if ch in _OPENERS), -1)
    if opener > 0 and cleaned.endswith(tuple(_CLOSERS)) and _VERB.fullmatch(cleaned[:opener]):
        return True  # a verb and its bracketed argument: click text (OK), tap(1, 2), CLICK <point>..
    if keyword_actions.is_keyword(cleaned):
        return True
    return code and is_bare_action(cleaned)


def _read(line: str, code: bool) -> list[tuple[str, Action, str]]:
    """(text read, Action, format) of the purposeful action ``line`` is, else of each in its code spans."""
    out = []
    for text, in_code in [(line, code)] + [(s, True) for s in _SPAN.findall(line)]:
        if not _shaped(text, in_code):
            continue
        try:
            action, fmt = read_line(text)
        except ReplyParseError:
            continue
        out.append((text, action, fmt))
        if text == line:  # the whole line is the action: code spans inside it are its arguments
            break
    return out


def choose(body: str) -> str:
    """The text of the one action an Action section names (not yet checked against the grammar when no
    line is written as an action); ReplyParseError when the section is empty or names two actions."""
    entries = _entries(body)
    if not entries:
        raise ReplyParseError("the 'Action:' line is empty")
    found = [r for text, code in entries for r in _read(text, code)]
    distinct = list(dict.fromkeys(r[1] for r in found))
    if len(distinct) > 1:
        raise ReplyParseError(f"the Action names two different actions ({distinct[0].format()} and "
                              f"{distinct[1].format()}); give exactly one")
    return found[0][0] if found else entries[0][0]


def pick(body: str) -> tuple[str, Action, str]:
    """(action text, Action, format) an Action section names; ReplyParseError when it names none or two."""
    line = choose(body)
    action, fmt = read_line(line)
    return line, action, fmt


def read_body(body: str) -> ParsedReply:
    """The action of one Action section: a JSON action in it, else its one action line."""
    if json_actions.looks_like(body):
        return json_actions.parse(body)
    _, action, fmt = pick(body)
    return ParsedReply("", "", action, fmt, body)
