"""The task's oracle at the end of an episode, over the phone's state and the agent's answer.

``bench.oracle.evaluate`` is gaining keyword arguments for side effects (``start``: the state the task
began from; ``effects``: what the task may change, ``BenchTask.effects``); they are passed when the
installed ``evaluate`` takes them, so an episode is judged as a bench run of the same task.
"""

from __future__ import annotations

import inspect
from typing import Any

from droidpilot.bench import oracle as oracle_lang
from droidpilot.bench.oracle import OracleResult
from droidpilot.bench.suite import BenchTask

_KEYWORDS = frozenset(inspect.signature(oracle_lang.evaluate).parameters) & {"start", "effects"}


def judge(task: BenchTask, state: dict[str, Any], answer: str | None, start: dict[str, Any] | None
          ) -> OracleResult:
    """The oracle's verdict and checks for the phone's ``state`` and the agent's ``answer``."""
    full = {**state, "agent": {"answer": answer}}
    extra: dict[str, Any] = {}
    if "start" in _KEYWORDS:
        extra["start"] = start
    if "effects" in _KEYWORDS:
        extra["effects"] = getattr(task, "effects", None)
    return oracle_lang.evaluate(task.oracle, full, **extra)
