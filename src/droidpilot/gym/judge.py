"""The task's oracle at the end of an episode, over the phone's state and the agent's answer.

``bench.oracle.evaluate`` may also take the state the task started from (side effects are judged against
it); this passes it when the installed ``evaluate`` accepts it, so the gym follows the bench's judgement.
"""

from __future__ import annotations

import inspect
from typing import Any

from droidpilot.bench import oracle as oracle_lang
from droidpilot.bench.oracle import OracleResult
from droidpilot.bench.suite import BenchTask


def _takes_start() -> str | None:
    """The name of ``evaluate``'s start-state parameter, if it has one."""
    params = inspect.signature(oracle_lang.evaluate).parameters
    return next((name for name in params if name in ("start", "start_state", "before", "initial")), None)


_START = _takes_start()


def judge(task: BenchTask, state: dict[str, Any], answer: str | None, start: dict[str, Any] | None
          ) -> OracleResult:
    """The oracle's verdict and checks for the phone's ``state`` and the agent's ``answer``."""
    full = {**state, "agent": {"answer": answer}}
    if _START is not None:
        return oracle_lang.evaluate(task.oracle, full, **{_START: start})
    return oracle_lang.evaluate(task.oracle, full)
