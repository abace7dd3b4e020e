"""What every reply parser returns, and the small readers they share (code fences, JSON objects, points)."""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from typing import Any

from droidpilot.agent.actions import GRAMMAR_HELP, Action, ActionParseError
from droidpilot.pyliteral import plain_escapes

REPLY_GRAMMAR = (
    "Answer in this format: 'Observation: <what the screen shows>' then 'Thought: <what to do next>' "
    "then 'Action: <one action>'. " + GRAMMAR_HELP +
    " A JSON object such as {\"action\": \"click\", \"coordinate\": [x, y]} is also accepted."
)


@dataclass(frozen=True)
class ParsedReply:
    """One model answer read into the project's Action, with its reasoning and the format it came in."""

    observation: str
    thought: str
    action: Action
    format: str
    raw: str

    def to_dict(self) -> dict[str, Any]:
        return {"format": self.format, "observation": self.observation, "thought": self.thought,
                "action": self.action.to_dict()}


class ReplyParseError(ActionParseError):
    """No parser could read the answer; the message says what was wrong and how to answer instead."""


_FENCE = re.compile(r"```[\w+-]*[ \t]*\n?(.*?)```", re.DOTALL)


def strip_fences(text: str) -> str:
    """``text`` with Markdown code fences removed (their content kept)."""
    return _FENCE.sub(lambda m: m.group(1), text or "")


def json_objects(text: str) -> list[dict[str, Any]]:
    """Every top-level JSON object in ``text`` (inside fences, tags or prose), in order; a Python dict
    literal (single quotes, None), as ShowUI and GUI-R1 write theirs, counts too."""
    decoder = json.JSONDecoder()
    out: list[dict[str, Any]] = []
    source = strip_fences(text)
    i = source.find("{")
    while i != -1:
        try:
            value, end = decoder.raw_decode(source, i)
        except (json.JSONDecodeError, RecursionError):
            value, end = _python_dict(source, i)
            if value is None:
                i = source.find("{", i + 1)
                continue
        if isinstance(value, dict):
            out.append(value)
        i = source.find("{", end)
    return out


# An action dict is small and shallow; bigger or deeper text is not read as one (and costs no time).
_DICT_CHARS, _DICT_DEPTH = 20_000, 8


def _python_dict(source: str, start: int) -> tuple[Any, int]:
    """(dict, end) for a Python dict literal opening at ``start``, or (None, start) when there is none."""
    depth, quote, i = 0, "", start
    while i < min(len(source), start + _DICT_CHARS):
        ch = source[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "{":
            depth += 1
            if depth > _DICT_DEPTH:
                return None, start
        elif ch == "}":
            depth -= 1
            if depth == 0:
                try:
                    value = ast.literal_eval(plain_escapes(source[start:i + 1]))
                except (ValueError, SyntaxError, MemoryError, RecursionError):
                    return None, start
                return (value, i + 1) if isinstance(value, dict) else (None, start)
        i += 1
    return None, start




def numbers(value: Any, count: int, what: str) -> tuple[float, ...]:
    """``count`` numbers from a list, a dict with x/y or a string "(x, y)"; ReplyParseError otherwise."""
    if isinstance(value, dict) and "x" in value and "y" in value:
        value = [value["x"], value["y"]]
    if isinstance(value, str):
        value = re.findall(r"-?\d+(?:\.\d+)?", value)
    if isinstance(value, (list, tuple)) and len(value) == 1 and isinstance(value[0], (list, tuple)):
        value = value[0]
    try:
        found = tuple(float(v) for v in value)  # type: ignore[union-attr]
    except (TypeError, ValueError):
        found = ()
    if len(found) != count:
        raise ReplyParseError(f"{what} needs {count} numbers, got {value!r}")
    return found


def point_of(value: Any, what: str) -> tuple[float, float]:
    """A point from [x, y], or the centre of a box [x1, y1, x2, y2]."""
    raw = value
    if isinstance(raw, str):
        raw = re.findall(r"-?\d+(?:\.\d+)?", raw)
    if isinstance(raw, (list, tuple)) and len(raw) == 4:
        x1, y1, x2, y2 = numbers(raw, 4, what)
        return (x1 + x2) / 2, (y1 + y2) / 2
    x, y = numbers(raw, 2, what)
    return x, y


def text_of(value: Any) -> str:
    """A JSON value as plain text ('' for None)."""
    return "" if value is None else str(value).strip()
