"""Scripted brains for the v2 and E loops: each role's answer is computed from the prompt it is given
(the perception list, the remembered content, the texts before and after an action), as a model would,
but by fixed rules, so the loops can be tested end to end with no model weights."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from droidpilot.agent.brains.base import BrainReply, BrainRequest

Answer = Callable[[BrainRequest], str]


def element(prompt: str, text: str, kind: str = "text") -> int:
    """The number the perception list in ``prompt`` gives the element reading ``text`` (exactly)."""
    match = re.search(rf"\[(\d+)\] {kind} \"{re.escape(text)}\"", prompt)
    if match is None:
        raise AssertionError(f"no {kind} {text!r} in the perception list of the prompt")
    return int(match.group(1))


def act(action: str, thought: str = "next", memory: str = "None") -> str:
    return f"Observation: the screen\nThought: {thought}\nAction: {action}\nMemory: {memory}"


class ScriptedRoleBrain:
    """Answers ``operate`` requests from ``steps`` (strings or functions of the request, in order) and each
    role from ``roles[role]``; every reply counts as one model call with the prompt's length as tokens."""

    name = "scripted"
    coord_space = "device"
    answers_roles = True

    def __init__(self, steps: list[str | Answer], roles: dict[str, str | Answer] | None = None) -> None:
        self.steps = list(steps)
        self.roles = dict(roles or {})
        self.asked: list[tuple[str, str]] = []  # (kind or role, prompt)

    def decide(self, request: BrainRequest) -> BrainReply:
        self.asked.append((request.role or request.kind, request.prompt))
        if request.kind == "complete":
            text = "Completed: yes\nReason: every part of the task is done."
        elif request.kind == "operate":
            if not self.steps:
                raise AssertionError("the scripted brain ran out of steps")
            item = self.steps.pop(0)
            text = item(request) if callable(item) else item
        else:
            answer = self.roles.get(request.role)
            if answer is None:
                raise AssertionError(f"no scripted answer for role {request.role!r}")
            text = answer(request) if callable(answer) else answer
        return BrainReply(text, prompt_tokens=len(request.prompt.split()),
                          completion_tokens=len(text.split()))

    def describe(self) -> dict[str, Any]:
        return {"model": "scripted"}

    def count(self, who: str) -> int:
        return sum(1 for role, _ in self.asked if role == who)
