"""A policy that replays a task's reference operations as text actions, then says ``stop``.

The demonstrator for imitation learning and the tests' proof that an episode can be won: each operation
is written as the Mobile-Agent action the task file holds; ``{scroll_to: TEXT}`` items page down until the
text is on the screen (read from the phone's labels, at most ``MAX_SCROLLS`` pages). An operation that says
which of several same-text candidates a person would tap (``choose: N``) becomes a tap on candidate N, in
the environment's observation pixels (so the environment must read text coordinates as ``image``).
Operations written with coordinates (``tap``, ``long press``, ``swipe``) are in the device pixels of the
phone the task files are written for (SimPhone's default 1080x2400, which bench runs use); they are rescaled
to the observation's pixels, which the environment reads them in.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from droidpilot.agent.actions import parse_action
from droidpilot.agent.coords import CoordFrame
from droidpilot.bench.suite import BenchTask
from droidpilot.device.sim.phone import SimDevice
from droidpilot.gym.uiground import ground
from droidpilot.perception.normalize import match_key

MAX_SCROLLS = 30
TASK_SCREEN = SimDevice.DEFAULT_SIZE  # the screen size reference coordinates are written for


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
            return f"Action: {_in_observation(env, ops[self._next].action)}"
        if self._next >= len(ops):
            return "Action: stop"
        op = ops[self._next]
        self._next += 1
        if op.choose:
            return f"Action: {self._chosen(env, op.action, op.choose)}"
        return f"Action: {_in_observation(env, op.action)}"

    @staticmethod
    def _chosen(env: Any, action: str, number: int) -> str:
        """``tap (x, y)`` on candidate ``number`` of ``action`` when it is ambiguous, else the action."""
        device_size = env.device.size()
        grounding = ground(parse_action(action), env.device, CoordFrame("device", device_size))
        if grounding.status != "ambiguous" or not 1 <= number <= len(grounding.candidates):
            return action
        x, y = grounding.candidates[number - 1].point
        width, height = env.size
        return f"tap ({round(x * width / device_size[0])}, {round(y * height / device_size[1])})"


def _in_observation(env: Any, action: str) -> str:
    """``action`` with its coordinates (x, y pairs, ``TASK_SCREEN`` pixels) moved to the observation's."""
    parsed = parse_action(action)
    if not parsed.coords:
        return action
    (dw, dh), (w, h) = TASK_SCREEN, env.size
    if (dw, dh) == (w, h):
        return action
    coords = tuple(round(v * (w / dw if i % 2 == 0 else h / dh)) for i, v in enumerate(parsed.coords))
    return replace(parsed, coords=coords).format()
