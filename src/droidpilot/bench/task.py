"""A benchmark task and suite as data: ``BenchTask``, its reference operations ``RefOp``, ``Suite`` and
``SuiteError``.

Kept apart from ``bench.suite`` (which loads task files and, for template suites, calls ``bench.world``) so
that ``bench.world`` can build tasks without importing the loader that imports it.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from droidpilot.errors import InputError
from droidpilot.verify.rule import Task


class SuiteError(InputError):
    """A task file or suite that cannot be used; the message names the file, the line and the field."""


@dataclass(frozen=True)
class RefOp:
    """One reference operation: a Mobile-Agent action, and which candidate to pick when it is ambiguous."""

    action: str
    choose: int | None = None
    until: str | None = None  # repeat the action until this text is on screen (scrolling a long list)

    def to_dict(self) -> dict[str, Any]:
        """The operation as a plain mapping."""
        out: dict[str, Any] = {"action": self.action, "choose": self.choose}
        if self.until is not None:
            out["until"] = self.until
        return out


@dataclass
class BenchTask:
    """One benchmark task, validated."""

    id: str
    suite: str
    path: Path
    scenario: str
    level: int
    apps: list[str]
    instruction: str
    reference: list[RefOp]
    oracle: dict[str, Any]
    rule: Task
    rule_text: str
    seed: int = 0
    max_steps: int | None = None
    lang: str = "en"
    notes: str = ""
    # Set for instances of a template suite (``droidpilot.bench.world``); plain task files leave them empty.
    setup: dict[str, Any] = field(default_factory=dict)
    template: str = ""
    kind: str = ""
    tier: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    distractors: list[str] = field(default_factory=list)
    # What the run may change (``bench/effects.py``), judged against the start state; None: not judged.
    effects: dict[str, Any] | None = None

    @property
    def app(self) -> str:
        """The app the task is filed under: its only app, or ``multi`` when it spans several."""
        return self.apps[0] if len(self.apps) == 1 else "multi"

    @property
    def reference_steps(self) -> int:
        """How many steps the reference (human) way takes."""
        return len(self.reference)

    def step_limit(self) -> int:
        """Most steps an agent gets: the task's own limit, else twice the reference plus slack."""
        return self.max_steps or max(10, 2 * len(self.reference) + 4)


@dataclass
class Suite:
    """A named set of tasks loaded from one folder."""

    name: str
    folder: Path
    tasks: list[BenchTask] = field(default_factory=list)

    def select(self, ids: list[str] | None) -> list[BenchTask]:
        """The tasks named in ``ids`` (in suite order), or all; SuiteError for an unknown id."""
        if not ids:
            return list(self.tasks)
        known = {t.id: t for t in self.tasks}
        for tid in ids:
            if tid not in known:
                close = difflib.get_close_matches(tid, list(known), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise SuiteError(f"--tasks: no task {tid!r} in suite {self.name}{hint}")
        wanted = set(ids)
        return [t for t in self.tasks if t.id in wanted]
