"""Shortcuts: named, parameterised sequences of atomic actions with a precondition, and their calls.

A shortcut is data (``name``, ``description``, ``params``, ``precondition``, ``steps``); ``steps`` are
atomic actions in the agent's grammar with ``{param}`` placeholders. ``parse_call`` reads an operator's
``shortcut NAME(param=value, ...)``; ``expand`` fills the steps and parses each into an Action, so a bad
shortcut is refused when it is learnt or loaded, never half-run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from droidpilot.agent.actions import FINAL_ACTIONS, Action, ActionParseError, parse_action
from droidpilot.errors import InputError

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,47}$")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_CALL = re.compile(r"^\s*(?:shortcut|快捷操作)\s*[:：]?\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*\.?\s*$",
                   re.IGNORECASE | re.DOTALL)
PRECONDITION_KINDS = ("screen_shows",)


class ShortcutError(InputError):
    """A shortcut definition or call that cannot be used; the message says what and how to fix it."""


@dataclass(frozen=True)
class Shortcut:
    """One shortcut. ``precondition``: ``{}`` (always) or ``{"screen_shows": TEXT}``."""

    name: str
    steps: tuple[str, ...]
    params: tuple[str, ...] = ()
    description: str = ""
    precondition: dict[str, str] = field(default_factory=dict)
    learnt_from: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "description": self.description,
                               "params": list(self.params), "precondition": dict(self.precondition),
                               "steps": list(self.steps)}
        if self.learnt_from:
            out["learnt_from"] = self.learnt_from
        return out

    def line(self) -> str:
        """How the operator's prompt lists it."""
        args = ", ".join(f"{p}=..." for p in self.params)
        cond = f"; precondition: the screen shows \"{self.precondition['screen_shows']}\"" \
            if self.precondition.get("screen_shows") else ""
        return f"- shortcut {self.name}({args}): {self.description or ' -> '.join(self.steps)}{cond}"

    def expand(self, args: dict[str, str]) -> list[Action]:
        """The atomic actions of a call with ``args``; ShortcutError for missing or unknown arguments."""
        missing = [p for p in self.params if p not in args]
        extra = [a for a in args if a not in self.params]
        if missing or extra:
            want = ", ".join(self.params) or "no parameters"
            raise ShortcutError(f"shortcut {self.name} takes {want}"
                                + (f"; missing {', '.join(missing)}" if missing else "")
                                + (f"; unknown {', '.join(extra)}" if extra else ""))
        actions = []
        for i, step in enumerate(self.steps, 1):
            text = _PLACEHOLDER.sub(lambda m: args.get(m.group(1), m.group(0)), step)
            try:
                actions.append(parse_action(text))
            except ActionParseError as exc:
                raise ShortcutError(f"shortcut {self.name}, step {i} ({text!r}): {exc}") from None
        return actions


def shortcut_from_dict(data: Any, where: str) -> Shortcut:
    """Validate one shortcut read from YAML or a model's reply; ShortcutError naming ``where``, the field."""
    if not isinstance(data, dict):
        raise ShortcutError(f"{where}: a shortcut is a mapping with name, params, precondition and steps")
    name = str(data.get("name") or "")
    if not _NAME.match(name):
        raise ShortcutError(f"{where}: name {name!r} must be letters, digits and _ (at most 48), e.g. "
                            "search_in_app")
    params = data.get("params") or []
    if not isinstance(params, list) or not all(isinstance(p, str) and _NAME.match(p) for p in params):
        raise ShortcutError(f"{where}: shortcut {name}: params must be a list of names, e.g. [query]")
    steps = data.get("steps")
    if not isinstance(steps, list) or not steps or not all(isinstance(s, str) and s.strip() for s in steps):
        raise ShortcutError(f"{where}: shortcut {name}: steps must be a non-empty list of actions, e.g. "
                            "[\"click text (Search)\", \"type ({query})\", \"enter\"]")
    used = {m for s in steps for m in _PLACEHOLDER.findall(s)}
    if used - set(params):
        raise ShortcutError(f"{where}: shortcut {name}: steps use {sorted(used - set(params))} which are not "
                            "in params")
    pre = data.get("precondition") or {}
    if not isinstance(pre, dict) or any(k not in PRECONDITION_KINDS or not isinstance(v, str) or not v.strip()
                                        for k, v in pre.items()):
        raise ShortcutError(f"{where}: shortcut {name}: precondition must be empty or "
                            "{screen_shows: TEXT}")
    shortcut = Shortcut(name, tuple(s.strip() for s in steps), tuple(params),
                        str(data.get("description") or ""), {k: v.strip() for k, v in pre.items()},
                        str(data.get("learnt_from") or ""))
    try:
        actions = shortcut.expand({p: "x" for p in params})  # every step must parse
    except ShortcutError as exc:
        raise ShortcutError(f"{where}: {exc}") from None
    if any(a.name in FINAL_ACTIONS for a in actions):
        raise ShortcutError(f"{where}: shortcut {name}: steps may not stop or answer; only the operator ends "
                            "a task")
    return shortcut


def parse_call(action_line: str) -> tuple[str, dict[str, str]] | None:
    """(name, arguments) of ``shortcut NAME(a=1, b="x y")``; None when the line is not a shortcut call;
    ShortcutError when it is one whose arguments cannot be read."""
    match = _CALL.match(action_line or "")
    if not match:
        return None
    name, body = match.group(1), (match.group(2) or "").strip()
    args: dict[str, str] = {}
    for part in _split_args(body):
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise ShortcutError(f"the argument {part.strip()!r} of shortcut {name} is not written "
                                "param=value")
        args[key.strip()] = value.strip().strip("\"'“”")
    return name, args


def _split_args(body: str) -> list[str]:
    parts, current, quote = [], "", ""
    for ch in body:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == ",":
            parts.append(current)
            current = ""
            continue
        current += ch
    if current.strip():
        parts.append(current)
    return [p for p in parts if p.strip()]
