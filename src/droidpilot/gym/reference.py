"""A policy that replays a task's reference operations as text actions, then says ``stop``.

The demonstrator for imitation learning and the tests' proof that an episode can be won: each operation
is written as the Mobile-Agent action the task file holds; ``{scroll_to: TEXT}`` items page down until the
text is on the screen (read from the phone's labels, at most ``MAX_SCROLLS`` pages).
"""

from __future__ import annotations

from droidpilot.bench.suite import BenchTask
from droidpilot.perception.normalize import match_key

MAX_SCROLLS = 30


class ReferencePolicy:
    """``policy(env)`` gives the next text action for the task of ``env`` (a ``PhoneEnv``)."""

    def __init__(self, task: BenchTask) -> None:
        self.task = task
        self._next = 0
        self._scrolled = 0

    def __call__(self, env: object) -> str:
        ops = self.task.reference
        while self._next < len(ops) and ops[self._next].until is not None:
            want = match_key(ops[self._next].until or "")
            labels = env.device.labels()  # type: ignore[attr-defined]
            if self._scrolled >= MAX_SCROLLS or any(want and want in match_key(t) for t, _ in labels):
                self._next, self._scrolled = self._next + 1, 0
                continue
            self._scrolled += 1
            return f"Action: {ops[self._next].action}"
        if self._next >= len(ops):
            return "Action: stop"
        op = ops[self._next]
        self._next += 1
        return f"Action: {op.action}"
