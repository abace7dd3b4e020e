"""OpenAI tool calls: the function schema sent with ``tools=`` (``--action-format tools``) and the reading
of the model's ``tool_calls`` into an Action. One function per action of the grammar."""

from __future__ import annotations

import json
from typing import Any

from droidpilot.agent.actions import Action
from droidpilot.agent.replies.base import ParsedReply, ReplyParseError, text_of
from droidpilot.agent.replies.json_actions import to_action

_STR = {"type": "string"}
_NUM = {"type": "number"}
_REASONING = {"observation": {"type": "string", "description": "What the screen shows."},
              "thought": {"type": "string", "description": "Why this action is next."}}
# name -> (description, parameters, required)
_BASIC: dict[str, tuple[str, dict[str, Any], list[str]]] = {
    "open_app": ("Open an app by the name under its icon.", {"app_name": _STR}, ["app_name"]),
    "click_text": ("Tap the text shown on screen.", {"text": _STR}, ["text"]),
    "click_icon": ("Tap an icon by colour and shape, optionally where it is.",
                   {"description": _STR, "position": {"type": "string", "description":
                                                      "one or two of top, bottom, left, right, center"}},
                   ["description"]),
    "type": ("Type text into the focused field.", {"text": _STR}, ["text"]),
    "page_up": ("Scroll up one page.", {}, []),
    "page_down": ("Scroll down one page.", {}, []),
    "back": ("Go back.", {}, []),
    "exit": ("Go to the home screen.", {}, []),
    "stop": ("The task is done.", {}, []),
}
_EXTENDED: dict[str, tuple[str, dict[str, Any], list[str]]] = {
    "tap": ("Tap a point.", {"x": _NUM, "y": _NUM}, ["x", "y"]),
    "long_press": ("Long-press a point.", {"x": _NUM, "y": _NUM}, ["x", "y"]),
    "swipe": ("Swipe from (x1, y1) to (x2, y2).", {"x1": _NUM, "y1": _NUM, "x2": _NUM, "y2": _NUM},
              ["x1", "y1", "x2", "y2"]),
    "enter": ("Press Enter.", {}, []),
    "home": ("Press Home.", {}, []),
    "wait": ("Wait, optionally some seconds.", {"seconds": _NUM}, []),
}


def tool_schema(extended: bool = False) -> list[dict[str, Any]]:
    """The ``tools=`` list: one function per action (the extended ones with ``extended``)."""
    table = {**_BASIC, **(_EXTENDED if extended else {})}
    out = []
    for name, (description, params, required) in table.items():
        out.append({"type": "function", "function": {
            "name": name, "description": description,
            "parameters": {"type": "object", "properties": {**_REASONING, **params}, "required": required}}})
    return out


def _arguments(raw: Any) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    if not str(raw or "").strip():
        return {}
    try:
        value = json.loads(str(raw))
    except json.JSONDecodeError as exc:
        raise ReplyParseError(f"the tool call's arguments are not JSON ({exc.msg}): "
                              f"{str(raw)[:120]!r}") from None
    if not isinstance(value, dict):
        raise ReplyParseError("the tool call's arguments must be a JSON object")
    return value


def _action(name: str, args: dict[str, Any]) -> Action:
    if name in ("tap", "long_press") and "x" in args:
        return to_action("click" if name == "tap" else name, {"x": args["x"], "y": args.get("y")})
    if name == "swipe" and "x1" in args:
        return to_action("swipe", {"coordinate": [args.get("x1"), args.get("y1")],
                                   "coordinate2": [args.get("x2"), args.get("y2")]})
    if name == "click_text":
        return to_action("click_text", args)
    return to_action(name, args)


def parse(tool_calls: list[dict[str, Any]], content: str = "") -> ParsedReply:
    """Read the first tool call (``{"name", "arguments"}``); the message text, if any, is the thought."""
    if not tool_calls:
        raise ReplyParseError("the answer has no tool call; call one of the action functions")
    call = tool_calls[0]
    name = text_of(call.get("name"))
    args = _arguments(call.get("arguments"))
    action = _action(name, args)
    thought = text_of(args.get("thought")) or content.strip()
    return ParsedReply(text_of(args.get("observation")), thought, action, "tool-call",
                       json.dumps({"content": content, "tool_calls": tool_calls}, ensure_ascii=False))
