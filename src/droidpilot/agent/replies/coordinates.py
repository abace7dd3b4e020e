"""UI-TARS and Qwen-VL coordinate actions written as calls: ``click(start_box='(235,512)')``,
``type(content='hello')``, ``scroll(start_box='<|box_start|>(500,500)<|box_end|>', direction='down')``,
``press_back()``, ``finished(content='done')``, ``click(point='<point>120 340</point>')``,
``click(x=1, y=2)``; CogAgent's grounded operations (``CLICK(box=[[x1,y1,x2,y2]], element_info='...')``,
``TYPE(box=..., text='...')``, ``SCROLL_DOWN(...)``, ``KEY_PRESS(key='Return')``, ``LAUNCH(app='...')``,
``END()``); Aguvis's module calls (``pyautogui.click(x=.., y=..)``, ``pyautogui.write(message='...')``,
``mobile.swipe(from_coord=[..], to_coord=[..])``, ``mobile.home()``, ``mobile.terminate(status=..)``);
AutoGLM's ``do(action="Tap", element=[x, y])`` and ``finish(message="...")``.
"""

from __future__ import annotations

import re
from typing import Any

from droidpilot.agent.actions import Action
from droidpilot.agent.replies.base import ReplyParseError
from droidpilot.agent.replies.json_actions import to_action

_CALL = re.compile(r"([A-Za-z_][\w.]*)\s*\((.*)\)", re.DOTALL)  # matched on a _bare() line, in full


def _bare(line: str) -> str:
    """``line`` without the backticks, spaces and final period around it."""
    return line.strip().strip("`").strip().removesuffix(".").rstrip().strip("`").strip()
_KWARG = re.compile(r"(\w+)\s*=\s*(?:'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\""
                    r"|(\[[^\]]*\]|\([^)]*\)|[-\d.]+))")
_TAGS = re.compile(r"<\|?/?(?:box_start|box_end|point|bbox)\|?>")


def is_call(line: str) -> bool:
    """Is ``line`` a keyword-argument call (``name(key=...)``), or an empty one with an underscore or
    module name, UI-TARS's ``finished()``/``wait()`` or CogAgent's ``END()``? Mobile-Agent's ``wait (2)``
    is not: its argument is positional."""
    match = _CALL.fullmatch(_bare(line))
    if match is None:
        return False
    name, args = match.group(1), match.group(2).strip()
    empty_call = "_" in name or "." in name or name.lower() in ("finished", "wait", "end")
    return bool(_KWARG.match(args)) or (not args and empty_call)


def _value(raw: str) -> Any:
    cleaned = _TAGS.sub(" ", raw).strip()
    nums = re.findall(r"-?\d+(?:\.\d+)?", cleaned)
    if nums and re.fullmatch(r"[\s\d.,()\[\]-]+", cleaned):
        return float(nums[0]) if len(nums) == 1 else [float(n) for n in nums]
    return raw.encode("utf-8").decode("unicode_escape") if "\\" in raw else raw


def parse_call(line: str) -> Action:
    """The Action of one call line; ReplyParseError naming the problem when it is not one."""
    match = _CALL.fullmatch(_bare(line))
    if match is None:
        raise ReplyParseError(f"{line!r} is not an action call such as click(start_box='(x,y)')")
    name, args = match.group(1).rsplit(".", 1)[-1], match.group(2)  # mobile.home() is home()
    fields: dict[str, Any] = {}
    for kw in _KWARG.finditer(args):
        raw = next(g for g in kw.groups()[1:] if g is not None)
        fields[kw.group(1)] = _value(raw)
    if name == "do" and isinstance(fields.get("action"), str):  # AutoGLM: do(action="Tap", element=[x, y])
        name = fields.pop("action")
    if name in ("finished", "call_user"):
        return Action("stop")
    if name == "hotkey":
        fields.setdefault("button", fields.get("key", ""))
    return to_action(name, fields)
