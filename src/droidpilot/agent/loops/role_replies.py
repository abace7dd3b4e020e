"""Read the labelled fields of a role's reply (``Progress:``, ``Outcome:``, ``Memory:``, ``Plan:`` ...).

Each role answers in ``Label: value`` lines (English or Chinese labels, Markdown bold or headings
tolerated); a value runs until the next known label. A missing required field is a ``RoleReplyError``
whose message says what to write, so the loop can re-prompt once with it.
"""

from __future__ import annotations

import re

from droidpilot.agent.replies.base import ReplyParseError

# field -> the labels that name it (lower case)
LABELS: dict[str, tuple[str, ...]] = {
    "progress": ("progress", "task progress", "进度", "任务进度"),
    "outcome": ("outcome", "result", "结果", "判断"),
    "error": ("error", "error description", "错误", "错误描述"),
    "memory": ("memory", "focus content", "important content", "记忆", "重要内容"),
    "plan": ("plan", "计划"),
    "subgoal": ("subgoal", "current subgoal", "子目标", "当前子目标"),
    "notes": ("notes", "important notes", "笔记", "重要笔记"),
    "thought": ("thought", "思考"),
}
_LABEL_TO_FIELD = {label: name for name, labels in LABELS.items() for label in labels}
_LINE = re.compile(r"^[ \t]*(?:#+[ \t]*)?[*_]{0,2}([A-Za-z][A-Za-z ]{0,24}?|[\u4e00-\u9fff]{1,6})[*_]{0,2}"
                   r"[ \t]*[:：][*_]{0,2}[ \t]*(.*)$")
OUTCOMES = {"A": "as_intended", "B": "wrong_page", "C": "no_change"}
_OUTCOME_WORDS = {"as intended": "A", "as_intended": "A", "success": "A", "wrong page": "B",
                  "wrong_page": "B", "no change": "C", "no_change": "C", "nothing changed": "C",
                  "符合预期": "A", "错误页面": "B", "没有变化": "C"}


_EMPTY = ("", "none", "n/a", "na", "nothing", "-", "无", "没有")


class RoleReplyError(ReplyParseError):
    """A role's reply lacks a field it must give; the message says which and how to write it."""


def fields(text: str) -> dict[str, str]:
    """Every known labelled field of ``text`` (the first occurrence of each), stripped."""
    out: dict[str, str] = {}
    current: str | None = None
    buffer: list[str] = []
    for raw in (text or "").replace("```", "").splitlines():
        match = _LINE.match(raw)
        name = _LABEL_TO_FIELD.get(match.group(1).strip().lower()) if match else None
        if name is not None and match is not None:
            if current is not None and current not in out:
                out[current] = "\n".join(buffer).strip()
            current, buffer = name, [match.group(2)]
        elif current is not None:
            buffer.append(raw)
    if current is not None and current not in out:
        out[current] = "\n".join(buffer).strip()
    return out


def require(text: str, name: str, example: str) -> str:
    """The value of field ``name``; RoleReplyError naming the field and showing ``example`` otherwise."""
    value = fields(text).get(name)
    if value is None:
        raise RoleReplyError(f"the answer has no '{LABELS[name][0].title()}:' line; write for example "
                             f"'{example}'")
    return value


def outcome(text: str) -> tuple[str, str]:
    """(A | B | C, error description) of a reflector's reply; RoleReplyError when it names none of them."""
    value = require(text, "outcome", "Outcome: A")
    head = value.strip().strip("*_`.。").strip()
    letter = head[:1].upper() if head[:1].upper() in OUTCOMES and (len(head) == 1 or not head[1].isalpha()) \
        else next((v for k, v in _OUTCOME_WORDS.items() if k in head.lower()), None)
    if letter is None:
        raise RoleReplyError(f"the outcome {head[:40]!r} is not A, B or C; write 'Outcome: A' (as intended), "
                             "'Outcome: B' (wrong page) or 'Outcome: C' (nothing changed)")
    return letter, fields(text).get("error", "")


def none_if_empty(value: str | None) -> str:
    """A field's value with placeholder answers (None, N/A, 无) read as empty."""
    text = (value or "").strip()
    return "" if text.lower().strip(".。") in _EMPTY else text
