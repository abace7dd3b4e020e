"""Episodes as training records: AndroidControl-style episodes, Qwen2.5-VL ``mobile_use`` tool-call
conversations, and ShareGPT multimodal messages as LLaMA-Factory reads them. One JSON object per line.

Coordinates: AndroidControl keeps screenshot pixels; Qwen2.5-VL points at the image as its processor
resizes it (sides rounded to multiples of 28 within its pixel budget), so points are scaled to that
size; ShareGPT records the action as droidpilot's grammar writes it (screenshot pixels).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import Any

from droidpilot.export.episodes import Episode, Step

FORMATS = ("androidcontrol", "qwen-mobile-use", "sharegpt")
QWEN_FACTOR, QWEN_MIN_PIXELS, QWEN_MAX_PIXELS = 28, 3136, 12845056
SCROLL = {"up": "down", "down": "up", "left": "right", "right": "left"}  # finger direction -> content
QWEN_TOOL = {
    "name": "mobile_use",
    "description": "Use a touchscreen to interact with a mobile device. Coordinates are pixels of the "
                   "screenshot as shown to you.",
    "parameters": {"type": "object", "required": ["action"], "properties": {
        "action": {"type": "string", "enum": ["key", "click", "long_press", "swipe", "type", "system_button",
                                              "open", "wait", "answer", "terminate"]},
        "coordinate": {"type": "array"}, "coordinate2": {"type": "array"}, "text": {"type": "string"},
        "time": {"type": "number"}, "button": {"type": "string", "enum": ["Back", "Home", "Menu", "Enter"]},
        "status": {"type": "string", "enum": ["success", "failure"]}}},
}


def smart_resize(width: int, height: int) -> tuple[int, int]:
    """The size Qwen2.5-VL's processor gives an image: sides multiples of 28, pixels within budget."""
    w = max(QWEN_FACTOR, round(width / QWEN_FACTOR) * QWEN_FACTOR)
    h = max(QWEN_FACTOR, round(height / QWEN_FACTOR) * QWEN_FACTOR)
    if w * h > QWEN_MAX_PIXELS:
        beta = math.sqrt(width * height / QWEN_MAX_PIXELS)
        w = math.floor(width / beta / QWEN_FACTOR) * QWEN_FACTOR
        h = math.floor(height / beta / QWEN_FACTOR) * QWEN_FACTOR
    elif w * h < QWEN_MIN_PIXELS:
        beta = math.sqrt(QWEN_MIN_PIXELS / (width * height))
        w = math.ceil(width * beta / QWEN_FACTOR) * QWEN_FACTOR
        h = math.ceil(height * beta / QWEN_FACTOR) * QWEN_FACTOR
    return w, h


def _point(action: dict[str, Any], prefix: str = "") -> tuple[int, int]:
    return int(action.get(f"{prefix}position_x", 0)), int(action.get(f"{prefix}position_y", 0))


def androidcontrol_action(step: Step) -> dict[str, Any]:
    """The step in AndroidControl's action vocabulary (pixel coordinates)."""
    a, kind = step.action, step.action.get("type")
    if kind == "click" and a.get("app"):
        return {"action_type": "open_app", "app_name": str(a["app"])}
    if kind in ("click", "long_press"):
        x, y = _point(a)
        return {"action_type": kind, "x": x, "y": y}
    if kind == "swipe":
        return {"action_type": "scroll", "direction": SCROLL.get(str(a.get("direction")), "down")}
    if kind == "input":
        return {"action_type": "input_text", "text": str(a.get("text") or "")}
    if kind == "answer":
        return {"action_type": "answer", "text": str(a.get("text") or "")}
    return {"action_type": {"back": "navigate_back", "home": "navigate_home", "enter": "enter",
                            "wait": "wait"}.get(str(kind), str(kind))}


def qwen_call(step: Step) -> dict[str, Any]:
    """The step as ``mobile_use`` arguments, points scaled to the image Qwen2.5-VL sees."""
    a, kind = step.action, step.action.get("type")
    rw, rh = smart_resize(*step.size)

    def scaled(point: tuple[int, int]) -> list[int]:
        return [round(point[0] * rw / step.size[0]), round(point[1] * rh / step.size[1])]

    if kind == "click" and a.get("app"):
        return {"action": "open", "text": str(a["app"])}
    if kind == "click":
        return {"action": "click", "coordinate": scaled(_point(a))}
    if kind == "long_press":
        return {"action": "long_press", "coordinate": scaled(_point(a)), "time": 0.8}
    if kind == "swipe":
        return {"action": "swipe", "coordinate": scaled(_point(a, "press_")),
                "coordinate2": scaled(_point(a, "release_"))}
    if kind == "input":
        return {"action": "type", "text": str(a.get("text") or "")}
    if kind == "answer":
        return {"action": "answer", "text": str(a.get("text") or "")}
    if kind == "wait":
        return {"action": "wait", "time": 1}
    return {"action": "system_button", "button": {"back": "Back", "home": "Home", "enter": "Enter"}.get(
        str(kind), "Back")}


def _tool_call(arguments: dict[str, Any]) -> str:
    body = json.dumps({"name": "mobile_use", "arguments": arguments}, ensure_ascii=False)
    return f"<tool_call>\n{body}\n</tool_call>"


def records(episode: Episode, fmt: str) -> Iterator[dict[str, Any]]:
    """The training records of ``episode`` in ``fmt`` (one per episode for AndroidControl, one per step
    otherwise, each with the goal, the steps done so far and the screen)."""
    verdict = {"success": episode.success, "verdict": episode.verdict}
    if fmt == "androidcontrol":
        yield {"episode_id": episode.folder.name, "goal": episode.goal,
               "screenshots": [str(s.image) for s in episode.steps],
               "screenshot_widths": [s.size[0] for s in episode.steps],
               "screenshot_heights": [s.size[1] for s in episode.steps],
               "actions": [androidcontrol_action(s) for s in episode.steps],
               "step_instructions": [s.instruction for s in episode.steps], **verdict}
        return
    history: list[str] = []
    for i, step in enumerate(episode.steps):
        done = "; ".join(f"Step {n}: {h}" for n, h in enumerate(history, start=1)) or "none"
        prompt = f"The user query: {episode.goal}\nTask progress (the operations done so far): {done}"
        meta = {"episode_id": episode.folder.name, "step": i, **verdict}
        if fmt == "qwen-mobile-use":
            system = ("You are a helpful assistant.\n\n# Tools\n\n<tools>\n"
                      + json.dumps({"type": "function", "function": QWEN_TOOL}, ensure_ascii=False)
                      + "\n</tools>\n\nFor each function call, return a json object within <tool_call> tags.")
            reply = _tool_call(qwen_call(step))
            if i == len(episode.steps) - 1 and episode.success and step.action.get("type") != "answer":
                reply += "\n" + _tool_call({"action": "terminate", "status": "success"})
            yield {"messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": [{"type": "image", "image": str(step.image)},
                                             {"type": "text", "text": prompt}]},
                {"role": "assistant", "content": f"{step.instruction}\n{reply}"}], **meta}
        elif fmt == "sharegpt":
            answer = f"Thought: {step.instruction}\nAction: {step.command or step.instruction}"
            yield {"messages": [{"role": "user", "content": f"<image>{prompt}\nWhat is the next action?"},
                                {"role": "assistant", "content": answer}],
                   "images": [str(step.image)], **meta}
        else:
            raise ValueError(f"format {fmt!r} is not one of: {', '.join(FORMATS)}")
        history.append(step.instruction)
