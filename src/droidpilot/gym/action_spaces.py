"""The three action interfaces an environment offers, and how each becomes droidpilot's ``Action``.

``text``: a model's reply as any of droidpilot's reply parsers read it (Mobile-Agent operations, JSON,
UI-TARS calls, ...). ``structured``: a ``Dict`` of an action type, normalised coordinates and a text.
``touch``: android_env's spec (touch / lift / repeat and a touch position in [0, 1]^2), turned into taps,
long presses and swipes by ``TouchGestures``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces

from droidpilot.agent.actions import Action, ActionParseError
from droidpilot.agent.replies import ReplyParseError, parse_reply
from droidpilot.gym.text_space import UnicodeText

ACTION_MODES = ("text", "structured", "touch")
# The structured action types, in the order of the ``action_type`` index.
STRUCTURED_TYPES = ("tap", "long_press", "swipe", "type", "click_text", "open_app", "page_up", "page_down",
                    "back", "home", "enter", "wait", "stop", "answer")
TEXT_TYPES = ("type", "click_text", "open_app", "answer")
TOUCH, LIFT, REPEAT = 0, 1, 2  # android_env's ActionType values for touch screens
TOUCH_TYPES = ("touch", "lift", "repeat")


class ActionError(ValueError):
    """An action the environment cannot read; the message says what was wrong and how to write it."""


def action_space(mode: str, max_text: int) -> spaces.Space[Any]:
    """The Gymnasium space of ``mode``; ActionError for an unknown mode."""
    if mode == "text":
        return UnicodeText(max_text)
    if mode == "structured":
        return spaces.Dict({
            "action_type": spaces.Discrete(len(STRUCTURED_TYPES)),
            "coords": spaces.Box(0.0, 1.0, shape=(4,), dtype=np.float32),
            "text": UnicodeText(max_text),
        })
    if mode == "touch":
        return spaces.Dict({
            "action_type": spaces.Discrete(len(TOUCH_TYPES)),
            "touch_position": spaces.Box(0.0, 1.0, shape=(2,), dtype=np.float32),
        })
    raise ActionError(f"action mode {mode!r} is not one of: {', '.join(ACTION_MODES)}")


@dataclass(frozen=True)
class Decoded:
    """An action read from the agent, with the words around it (the reasoning recorded in the trace)."""

    action: Action
    space: str  # the coordinate space of action.coords: "normalized" or the text mode's space
    reasoning: str = ""
    reply_format: str = ""


def from_text(reply: Any, coord_space: str) -> Decoded:
    """Read a text reply; ActionError quoting the parser's advice when it names no single action."""
    if not isinstance(reply, str):
        raise ActionError(f"a text action is a str (a model's reply), got {type(reply).__name__}")
    try:
        parsed = parse_reply(reply)
    except (ReplyParseError, ActionParseError) as exc:
        raise ActionError(f"the reply names no action the parsers read: {exc}") from None
    return Decoded(parsed.action, coord_space, parsed.thought, parsed.format)


def from_structured(value: Any) -> Decoded:
    """Read a structured action ``{"action_type", "coords", "text"}``; ActionError naming the bad field."""
    if not isinstance(value, dict) or "action_type" not in value:
        raise ActionError("a structured action is a dict with action_type (int), coords (4 floats in "
                          "[0, 1]: x, y and, for swipe, the end x, y) and text")
    try:
        index = int(value["action_type"])
    except (TypeError, ValueError):
        raise ActionError(f"action_type must be an int, got {value['action_type']!r}") from None
    if not 0 <= index < len(STRUCTURED_TYPES):
        raise ActionError(f"action_type {index} is out of range 0..{len(STRUCTURED_TYPES) - 1} "
                          f"({', '.join(f'{i}={t}' for i, t in enumerate(STRUCTURED_TYPES))})")
    name = STRUCTURED_TYPES[index]
    coords = np.asarray(value.get("coords", np.zeros(4)), dtype=np.float64).reshape(-1)
    if coords.size != 4 or not np.all(np.isfinite(coords)):
        raise ActionError(f"coords must be 4 finite numbers in [0, 1], got {value.get('coords')!r}")
    coords = np.clip(coords, 0.0, 1.0)
    text = str(value.get("text") or "")
    if name in TEXT_TYPES and not text.strip():
        raise ActionError(f"action_type {index} ({name}) needs a non-empty text")
    if name in ("tap", "long_press"):
        return Decoded(Action(name, coords=(float(coords[0]), float(coords[1]))), "normalized")
    if name == "swipe":
        return Decoded(Action(name, coords=tuple(float(c) for c in coords)), "normalized")
    if name in TEXT_TYPES:
        return Decoded(Action(name, text=text.strip() if name != "type" else text), "normalized")
    if name == "wait":
        return Decoded(Action("wait", seconds=1.0), "normalized")
    return Decoded(Action(name), "normalized")


class TouchGestures:
    """android_env's touch stream made into gestures: touches from a touch to the next lift form one
    gesture; on the lift it becomes a tap (short, in place), a long press (in place, held for
    ``long_steps`` steps or more) or a swipe (from the first to the last touch)."""

    def __init__(self, long_steps: int = 4, slop: float = 0.02) -> None:
        self.long_steps = long_steps
        self.slop = slop
        self.points: list[tuple[float, float]] = []
        self.last: tuple[int, tuple[float, float]] = (LIFT, (0.0, 0.0))

    def reset(self) -> None:
        self.points = []
        self.last = (LIFT, (0.0, 0.0))

    def feed(self, value: Any) -> Action | None:
        """The gesture a lift completes (normalised coordinates), else None; ActionError for bad input."""
        if not isinstance(value, dict) or "action_type" not in value:
            raise ActionError("a touch action is a dict with action_type (0 touch, 1 lift, 2 repeat) and "
                              "touch_position (x, y in [0, 1])")
        try:
            kind = int(value["action_type"])
        except (TypeError, ValueError):
            raise ActionError(f"action_type must be an int, got {value['action_type']!r}") from None
        if kind not in (TOUCH, LIFT, REPEAT):
            raise ActionError(f"action_type {kind} is not 0 (touch), 1 (lift) or 2 (repeat)")
        pos = np.asarray(value.get("touch_position", (0.0, 0.0)), dtype=np.float64).reshape(-1)
        if pos.size != 2 or not np.all(np.isfinite(pos)):
            raise ActionError(f"touch_position must be 2 finite numbers in [0, 1], got "
                              f"{value.get('touch_position')!r}")
        point = (float(np.clip(pos[0], 0, 1)), float(np.clip(pos[1], 0, 1)))
        if kind == REPEAT:
            kind, point = self.last
        self.last = (kind, point)
        if kind == TOUCH:
            self.points.append(point)
            return None
        points, self.points = self.points, []
        if not points:
            return None  # a lift with the finger up: nothing happens, as on a touch screen
        (x1, y1), (x2, y2) = points[0], points[-1]
        if abs(x2 - x1) <= self.slop and abs(y2 - y1) <= self.slop:
            name = "long_press" if len(points) >= self.long_steps else "tap"
            return Action(name, coords=(x1, y1))
        return Action("swipe", coords=(x1, y1, x2, y2))
