"""The memory folder (``--memory DIR``): ``memory-v0001.yaml``, ``memory-v0002.yaml``, ... one per update.

Each file is the whole memory at that version (tips, shortcuts, what it was learnt from), readable and
editable by a person; the highest version is current. Updates never rewrite an old version, so a result
that names a memory version can be reproduced from the folder. No timestamps are written: the same tasks
in the same order give the same files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from droidpilot.agent.memory.shortcuts import Shortcut, ShortcutError, shortcut_from_dict
from droidpilot.atomicio import atomic_write_bytes
from droidpilot.errors import InputError

_FILE = re.compile(r"^memory-v(\d{4,})\.yaml$")
MAX_TIPS = 30


@dataclass
class Memory:
    """One version of the memory (version 0: the empty memory of a new folder)."""

    version: int = 0
    tips: list[str] = field(default_factory=list)
    shortcuts: dict[str, Shortcut] = field(default_factory=dict)
    learnt_from: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"version": self.version, "learnt_from": self.learnt_from, "tips": list(self.tips),
                "shortcuts": [s.to_dict() for s in self.shortcuts.values()]}

    def tips_text(self) -> str:
        return "\n".join(f"- {t}" for t in self.tips) or "(none yet)"

    def shortcuts_text(self) -> str:
        return "\n".join(s.line() for s in self.shortcuts.values()) or "(none yet)"


class MemoryStore:
    """The memory folder: ``load()`` the current version, ``save(memory)`` the next one."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        if self.folder.exists() and not self.folder.is_dir():
            raise InputError(f"--memory {self.folder}: exists and is not a folder")

    def versions(self) -> list[int]:
        if not self.folder.is_dir():
            return []
        return sorted(int(m.group(1)) for p in self.folder.iterdir() if (m := _FILE.match(p.name)))

    def path(self, version: int) -> Path:
        return self.folder / f"memory-v{version:04d}.yaml"

    def load(self, version: int | None = None) -> Memory:
        """The memory at ``version`` (default: the newest; an empty folder is version 0)."""
        known = self.versions()
        if version is None:
            version = known[-1] if known else 0
        if version == 0:
            return Memory()
        if version not in known:
            raise InputError(f"--memory {self.folder}: has no version {version} (it has "
                             f"{', '.join(map(str, known)) or 'none'})")
        return read_memory(self.path(version))

    def save(self, memory: Memory) -> Memory:
        """Write ``memory`` as the next version and return it with that version number."""
        self.folder.mkdir(parents=True, exist_ok=True)
        known = self.versions()
        saved = Memory((known[-1] if known else 0) + 1, list(memory.tips)[:MAX_TIPS], dict(memory.shortcuts),
                       memory.learnt_from)
        text = ("# droidpilot agent memory (Mobile-Agent-E style): tips and shortcuts; edit freely, keep the "
                "format\n")
        text += yaml.safe_dump(saved.to_dict(), allow_unicode=True, sort_keys=False, width=100)
        atomic_write_bytes(self.path(saved.version), text.encode("utf-8"))
        return saved


def read_memory(path: Path) -> Memory:
    """One memory file; InputError naming the file (and line) when it cannot be used."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f", line {mark.line + 1}" if mark is not None else ""
        raise InputError(f"{path}{where}: not valid YAML ({getattr(exc, 'problem', exc)})") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot be read ({exc.strerror})") from None
    if not isinstance(data, dict):
        raise InputError(f"{path}: a memory file is a mapping with version, tips and shortcuts")
    tips = data.get("tips") or []
    if not isinstance(tips, list) or not all(isinstance(t, str) for t in tips):
        raise InputError(f"{path}: tips must be a list of strings")
    shortcuts: dict[str, Shortcut] = {}
    for i, item in enumerate(data.get("shortcuts") or []):
        try:
            shortcut = shortcut_from_dict(item, f"{path}: shortcuts[{i}]")
        except ShortcutError as exc:
            raise InputError(str(exc)) from None
        shortcuts[shortcut.name] = shortcut
    match = _FILE.match(path.name)
    return Memory(int(data.get("version") or (match.group(1) if match else 0)), list(tips), shortcuts,
                  str(data.get("learnt_from") or ""))
