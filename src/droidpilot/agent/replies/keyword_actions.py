"""OS-Atlas's upper-case keyword actions: ``CLICK <point>[[x, y]]</point>``, ``LONG_PRESS <point>...``,
``TYPE [text]``, ``SCROLL [UP]``, ``OPEN_APP [name]``, ``PRESS_BACK``, ``PRESS_HOME``, ``PRESS_RECENT``,
``ENTER``, ``WAIT``, ``COMPLETE``. Points are in the model's own space (OS-Atlas: 0-1000)."""

from __future__ import annotations

import re

from droidpilot.agent.actions import Action
from droidpilot.agent.replies.base import ReplyParseError, numbers
from droidpilot.agent.replies.json_actions import to_action

_LINE = re.compile(r"([A-Z][A-Z_]+)\s*(<point>.*?</point>|\[.*\])?", re.DOTALL)  # on a _bare() line, in full
_POINTED = {"CLICK": "click", "TAP": "click", "LONG_PRESS": "long_press"}
_TEXTUAL = {"TYPE": "type", "OPEN_APP": "open_app", "SCROLL": "scroll"}
_BARE = {"PRESS_BACK": "back", "PRESS_HOME": "home", "PRESS_RECENT": "recents", "PRESS_RECENTS": "recents",
         "ENTER": "enter", "PRESS_ENTER": "enter", "WAIT": "wait", "COMPLETE": "stop"}


def _bare(line: str) -> str:
    """``line`` without the backticks, spaces and final period around it."""
    return line.strip().strip("`").strip().removesuffix(".").rstrip().strip("`").strip()


def is_keyword(line: str) -> bool:
    """Is ``line`` one OS-Atlas keyword action (an upper-case name from the table, with its argument)?"""
    match = _LINE.fullmatch(_bare(line))
    if match is None:
        return False
    name, arg = match.group(1), match.group(2)
    return (name in _BARE and arg is None) or (name in _POINTED and arg is not None) or \
        (name in _TEXTUAL and arg is not None and arg.startswith("["))


def parse(line: str) -> Action:
    """The Action of one keyword line; ReplyParseError when it is not one or its argument is wrong."""
    match = _LINE.fullmatch(_bare(line))
    if match is None or not is_keyword(line):
        raise ReplyParseError(f"{line!r} is not an OS-Atlas action such as CLICK <point>[[x, y]]</point>")
    name, arg = match.group(1), match.group(2) or ""
    if name in _BARE:
        return Action(_BARE[name])
    if name in _POINTED:
        x, y = numbers(re.sub(r"</?point>", "", arg), 2, name)
        return to_action(_POINTED[name], {"coordinate": [x, y]})
    value = arg[1:-1].strip()
    if name == "SCROLL":
        return to_action("scroll", {"direction": value})
    return to_action(_TEXTUAL[name], {"text": value, "app_name": value})
