"""Read the experience reflectors' replies (a YAML block of tips, or of shortcuts) and merge them into a
Memory. An unreadable reply or an invalid shortcut is a ``RoleReplyError`` saying what to fix, so the loop
re-prompts once; nothing half-valid is ever stored."""

from __future__ import annotations

import re
from typing import Any

import yaml

from droidpilot.agent.loops.role_replies import RoleReplyError
from droidpilot.agent.memory.shortcuts import Shortcut, ShortcutError, shortcut_from_dict
from droidpilot.agent.memory.store import MAX_TIPS, Memory

_BLOCK = re.compile(r"```(?:ya?ml)?\s*\n(.*?)```", re.DOTALL | re.IGNORECASE)


def _yaml_mapping(text: str, key: str, example: str) -> Any:
    blocks = _BLOCK.findall(text or "")
    body = blocks[0] if blocks else (text or "")
    try:
        data = yaml.safe_load(body)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        raise RoleReplyError(f"the YAML block cannot be read{where}: {getattr(exc, 'problem', exc)}; write "
                             f"it like {example}") from None
    if not isinstance(data, dict) or key not in data:
        raise RoleReplyError(f"the answer has no '{key}:' list; write a YAML block like {example}")
    value = data[key]
    if value is None:
        return []
    if not isinstance(value, list):
        raise RoleReplyError(f"'{key}' must be a list; write a YAML block like {example}")
    return value


def parse_tips(text: str) -> list[str]:
    """The full updated list of tips in a tip reflector's reply."""
    tips = _yaml_mapping(text, "tips", "tips: [\"Go back to the home screen before opening another app\"]")
    if not all(isinstance(t, str) and t.strip() for t in tips):
        raise RoleReplyError("every tip must be a non-empty string")
    return [t.strip() for t in tips][:MAX_TIPS]


def parse_shortcuts(text: str, learnt_from: str) -> list[Shortcut]:
    """The new shortcuts in a shortcut reflector's reply, each validated (its steps must parse)."""
    items = _yaml_mapping(text, "shortcuts", "shortcuts: [{name: ..., params: [...], precondition: {}, "
                                            "steps: [...]}]")
    out = []
    for i, item in enumerate(items):
        if isinstance(item, dict):
            item = {**item, "learnt_from": learnt_from}
        try:
            out.append(shortcut_from_dict(item, f"shortcuts[{i}]"))
        except ShortcutError as exc:
            raise RoleReplyError(str(exc)) from None
    return out


def merged(memory: Memory, tips: list[str] | None, shortcuts: list[Shortcut], learnt_from: str) -> Memory:
    """``memory`` with the tips replaced (when a new list was given) and the shortcuts added (a shortcut
    learnt again under the same name replaces the old one)."""
    table = dict(memory.shortcuts)
    for shortcut in shortcuts:
        table[shortcut.name] = shortcut
    return Memory(memory.version, list(memory.tips if tips is None else tips), table, learnt_from)
