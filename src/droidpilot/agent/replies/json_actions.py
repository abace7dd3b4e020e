"""JSON actions: ``{"action": "click", "coordinate": [x, y]}``, AndroidWorld's JSONAction
(``{"action_type": "click", "x": .., "y": ..}``), Qwen-VL's ``mobile_use`` tool call and MobiAgent's
decider (``{"reasoning", "action", "parameters": {"target_element", "bbox"}}``) with its grounder's box,
Mobile-Agent-E's ``{"name": "Tap", "arguments": {"x", "y"}}``, ShowUI's and GUI-R1's Python-literal dicts
(``{'action': 'TAP', 'position': [x, y]}``) and AgentCPM-GUI's compact ``{"POINT": [x, y]}`` (``agentcpm``).

``to_action`` is the one mapping from an action name plus fields to the project's Action; the
coordinate and tool-call parsers reuse it.
"""

from __future__ import annotations

import re
from typing import Any

from droidpilot.agent.actions import POSITIONS, Action
from droidpilot.agent.replies import agentcpm
from droidpilot.agent.replies.base import (
    ParsedReply,
    ReplyParseError,
    json_objects,
    numbers,
    point_of,
    text_of,
)

_NAME_KEYS = ("action", "action_type", "type", "name")
_POINT_KEYS = ("coordinate", "coordinates", "point", "position", "start_box", "start_point", "start_coords",
               "start_coordinate", "from_coord", "start", "bbox", "box", "element")
_END_KEYS = ("coordinate2", "end_coordinate", "end_point", "end_box", "end_coords", "to_coord", "end")
_TEXT_KEYS = ("text", "content", "input_text", "value", "message")
_THOUGHT_KEYS = ("thought", "thoughts", "reasoning", "reason", "think")
_OBSERVATION_KEYS = ("observation", "description", "screen")

_ALIASES = {
    "tap": "click", "click": "click", "double_tap": "click", "left_click": "click", "press": "click",
    "long_press": "long_press", "longpress": "long_press",
    "type": "type", "input_text": "type", "input": "type", "type_text": "type", "write": "type",
    "open_app": "open_app", "open": "open_app", "launch": "open_app", "launch_app": "open_app",
    "scroll": "scroll", "swipe": "swipe", "drag": "swipe",
    "navigate_back": "back", "back": "back", "press_back": "back",
    "navigate_home": "home", "home": "home", "press_home": "home",
    "keyboard_enter": "enter", "enter": "enter", "press_enter": "enter",
    "recents": "recents", "press_recents": "recents", "app_switch": "recents", "overview": "recents",
    "switch_app": "recents",
    "wait": "wait", "sleep": "wait",
    "status": "stop", "done": "stop", "finished": "stop", "finish": "stop", "terminate": "stop",
    "stop": "stop", "complete": "stop", "end": "stop", "answer": "answer",
    "awake": "open_app",  # MAI-UI: opens an app by name, like "open"
    "exit": "exit", "click_text": "click_text", "click_icon": "click_icon",
    "page_up": "page_up", "page_down": "page_down", "scroll_up": "page_up", "scroll_down": "page_down",
    "system_button": "button", "key": "button", "hotkey": "button", "press_key": "button",
    "key_press": "button",
}
_BUTTONS = {"back": "back", "keycode_back": "back", "home": "home", "keycode_home": "home",
            "enter": "enter", "keycode_enter": "enter", "return": "enter",
            "recents": "recents", "keycode_app_switch": "recents"}


def _first(fields: dict[str, Any], keys: tuple[str, ...]) -> Any:
    return next((fields[k] for k in keys if fields.get(k) not in (None, "", [])), None)


def _numeric(value: Any) -> bool:
    """Does ``value`` hold coordinates (numbers, or text with digits), not an element's name?"""
    return not isinstance(value, str) or bool(re.search(r"\d", value))


def _point(fields: dict[str, Any], name: str) -> tuple[float, float] | None:
    value = next((fields[k] for k in _POINT_KEYS
                  if fields.get(k) not in (None, "", []) and _numeric(fields[k])), None)
    if value is None and fields.get("x") is not None and fields.get("y") is not None:
        value = [fields["x"], fields["y"]]
    return None if value is None else point_of(value, name)


def _scroll(direction: str, finger: bool) -> Action:
    """A page scroll: ``finger`` says the direction is the finger's (swipe up = see what is below)."""
    d = direction.lower()
    if d not in ("up", "down"):
        raise ReplyParseError(f"a {'swipe' if finger else 'scroll'} {direction!r} cannot be done without "
                              "coordinates; give start and end points, e.g. swipe (900, 1200, 100, 1200)")
    below = (d == "up") if finger else (d == "down")
    return Action("page_down" if below else "page_up")


def to_action(name: str, fields: dict[str, Any]) -> Action:
    """The Action for a named action and its fields (any of the spellings listed in this module)."""
    kind = _ALIASES.get(name.strip().lower().replace(" ", "_").replace("-", "_"))
    if kind is None:
        raise ReplyParseError(f"unknown action {name!r}; use one of click, long_press, type, open_app, "
                              "scroll, swipe, navigate_back, navigate_home, keyboard_enter, wait, status")
    text = text_of(_first(fields, _TEXT_KEYS))
    if kind == "click":
        point = _point(fields, name)
        if point is not None:
            return Action("tap", coords=point)
        target = text or text_of(fields.get("target_element") or fields.get("element"))
        if target:
            return Action("click_text", text=target)
        if fields.get("index") is not None:
            raise ReplyParseError("a click by element index needs the element list, which is not given; "
                                  "click by coordinate instead, e.g. {\"action_type\": \"click\", "
                                  "\"x\": 540, \"y\": 1200}")
        raise ReplyParseError(f"{name} needs a coordinate, e.g. {{\"action\": \"click\", "
                              "\"coordinate\": [x, y]}")
    if kind == "long_press":
        point = _point(fields, name)
        if point is None:
            raise ReplyParseError(f"{name} needs a coordinate, e.g. [540, 1200]")
        return Action("long_press", coords=point)
    if kind == "type":
        if not text:
            raise ReplyParseError(f"{name} needs the text to type, e.g. {{\"action\": \"type\", "
                                  "\"text\": \"hi\"}")
        return Action("type", text=text)
    if kind == "answer":
        if not text:
            raise ReplyParseError(f"{name} needs the reply text, e.g. {{\"action\": \"answer\", "
                                  "\"text\": \"42\"}")
        return Action("answer", text=text)
    if kind == "open_app":
        app = text_of(fields.get("app_name") or fields.get("app")) or text
        if not app:
            raise ReplyParseError(f"{name} needs app_name, e.g. {{\"action_type\": \"open_app\", "
                                  "\"app_name\": \"Settings\"}")
        return Action("open_app", text=app)
    if kind in ("scroll", "swipe"):
        start, end = _first(fields, _POINT_KEYS), _first(fields, _END_KEYS)
        if start is not None and end is not None:
            return Action("swipe", coords=(*point_of(start, name), *point_of(end, name)))
        if all(fields.get(k) is not None for k in ("x1", "y1", "x2", "y2")):  # Mobile-Agent-E
            return Action("swipe", coords=numbers([fields[k] for k in ("x1", "y1", "x2", "y2")], 4, name))
        four = _first(fields, ("coords", "points"))
        if four is not None:
            return Action("swipe", coords=numbers(four, 4, name))
        direction = text_of(fields.get("direction") or fields.get("scroll_direction"))
        if not direction and text.lower() in ("up", "down", "left", "right"):  # GUI-R1: in input_text
            direction = text
        if not direction:
            raise ReplyParseError(f"{name} needs a direction (up/down) or start and end coordinates")
        return _scroll(direction, finger=kind == "swipe")
    if kind == "button":
        button = text_of(fields.get("button") or fields.get("key") or fields.get("keycode")) or text
        mapped = _BUTTONS.get(button.lower())
        if mapped is None:
            raise ReplyParseError(f"button {button!r} is not supported; use Back, Home, Enter or Recents")
        return Action(mapped)
    if kind == "wait":
        raw = _first(fields, ("time", "seconds", "duration"))
        return Action("wait", seconds=float(raw) if isinstance(raw, (int, float)) else None)
    if kind == "click_icon":
        where = text_of(fields.get("position"))
        position = tuple(w for w in where.lower().replace(",", " ").split() if w in POSITIONS)
        return Action("click_icon", description=text_of(fields.get("description")) or text, position=position)
    if kind == "click_text":
        if not text:
            raise ReplyParseError("click_text needs the text to click")
        return Action("click_text", text=text)
    return Action(kind)


def _flatten(obj: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
    """(action name, fields) of one object: nested ``parameters`` / ``arguments`` are merged in."""
    fields = dict(obj)
    for nest in ("parameters", "arguments", "params", "args"):
        inner = fields.get(nest)
        if isinstance(inner, dict):
            fields = {**fields, **inner}
    name = None
    # Qwen-VL's mobile_use call: {"name": "mobile_use", "arguments": {"action": "click", ...}}
    for key in ("action", "action_type", "type", "name"):
        value = fields.get(key)
        if isinstance(value, str) and value.strip().lower().replace(" ", "_") in _ALIASES:
            name = value
            break
    if name is None:  # AgentCPM-GUI names the action by its key: {"POINT": [x, y]}, {"TYPE": "hi"}
        named = agentcpm.as_named(fields)
        if named is not None:
            return named
    if name is None:  # an action key with a name no format knows: reported as an unknown action
        name = next((v for k in ("action", "action_type") if isinstance(v := fields.get(k), str)), None)
    return name, fields


def _format_of(obj: dict[str, Any]) -> str:
    if "action_type" in obj:
        return "androidworld-json"
    if obj.get("name") == "mobile_use":
        return "qwen-mobile-use"
    if isinstance(obj.get("arguments"), dict) or (obj.get("name") and "arguments" in obj):
        return "json-call"
    if agentcpm.as_named(obj) is not None and not any(k in obj for k in _NAME_KEYS):
        return "agentcpm-gui"
    if isinstance(obj.get("parameters"), dict) or "target_element" in obj:
        return "mobiagent"
    return "json"


def looks_like(text: str) -> bool:
    """Does ``text`` hold a JSON object naming an action (or a grounder's box)?"""
    return any(_flatten(o)[0] is not None or "bbox" in o for o in json_objects(text))


def _one_action(action: Action, later: list[dict[str, Any]]) -> None:
    """ReplyParseError when a later object names a different action: the answer must name one."""
    for obj in later:
        name, fields = _flatten(obj)
        if name is None:
            continue
        try:
            other = to_action(name, fields)
        except ReplyParseError:
            continue
        if other != action:
            raise ReplyParseError(f"the answer names two different actions ({action.format()} and "
                                  f"{other.format()}); give exactly one")


def parse(text: str) -> ParsedReply:
    """Read the first JSON object that names an action; a later object with only a box grounds it."""
    objects = json_objects(text)
    for i, obj in enumerate(objects):
        name, fields = _flatten(obj)
        if name is None:
            continue
        if _point(fields, name) is None:  # MobiAgent: the grounder's box follows the decider's answer
            box = next((o for o in objects[i + 1:]
                        if _flatten(o)[0] is None and _first(o, _POINT_KEYS)), None)
            if box is not None:
                fields = {**fields, "bbox": _first(box, _POINT_KEYS)}
        action = to_action(name, fields)
        _one_action(action, objects[i + 1:])
        thought = text_of(_first(fields, _THOUGHT_KEYS))
        observation = text_of(_first(fields, _OBSERVATION_KEYS))
        return ParsedReply(observation, thought, action, _format_of(obj), text)
    raise ReplyParseError("no JSON object in the answer names an action (an \"action\" or "
                          "\"action_type\" key)")
