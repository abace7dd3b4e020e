"""Build the three prompts the loop asks (next operation, completion check, choice among crops).

The texts live in ``agent/prompts/`` (English and Chinese); this module only fills them with the
instruction, the operation history and the last step's feedback.
"""

from __future__ import annotations

from droidpilot.agent.brains.base import HistoryEntry
from droidpilot.agent.coords import CoordSpace
from droidpilot.agent.prompts import message, render

_SPACE_WORDS = {
    "en": {"device": "device pixels of the screenshot", "normalized": "fractions of the width and height "
           "(0 to 1)", "thousand": "a 0-1000 scale of the width and height",
           "image": "pixels of the screenshot image you see"},
    "zh": {"device": "截图的设备像素", "normalized": "宽和高的比例（0 到 1）",
           "thousand": "宽和高的 0-1000 刻度",
           "image": "你看到的截图图片的像素"},
}


def history_text(history: list[HistoryEntry], language: str, keep_last: int = 12) -> str:
    """The operation history block (the latest ``keep_last`` steps)."""
    if not history:
        return render("history", language, entries=message("history_empty", language)).strip()
    entries = [message("history_entry", language, step=h.step, action=h.action,
                       thought=_one_line(h.thought) or "-", result=h.result or "-")
               for h in history[-keep_last:]]
    return render("history", language, entries="\n".join(entries)).strip()


def _one_line(text: str, limit: int = 300) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def operation_prompt(instruction: str, history: list[HistoryEntry], feedback: str, language: str,
                     extended: bool, coord_space: CoordSpace) -> str:
    """The prompt for the next action."""
    block = ""
    if feedback:
        block = f"{message('feedback_header', language)}\n{feedback}\n"
    ext = render("extended", language, coord_space=_SPACE_WORDS[language][coord_space]) if extended else ""
    return render("operation", language, instruction=instruction, history=history_text(history, language),
                  feedback=block, extended=ext)


def completion_prompt(instruction: str, history: list[HistoryEntry], language: str) -> str:
    """The prompt of the completion check asked when the brain says ``stop``."""
    return render("completion", language, instruction=instruction, history=history_text(history, language))


def choice_prompt(instruction: str, action_text: str, descriptions: list[str], language: str) -> str:
    """The prompt asking which of the numbered crops to tap."""
    choices = "\n".join(f"{i}. {d}" for i, d in enumerate(descriptions, 1))
    return render("choose", language, instruction=instruction, action=action_text, count=len(descriptions),
                  choices=choices)
