"""Baseline brains for validating a suite: degenerate agents no judge should pass.

A suite whose tasks a do-nothing agent passes measures nothing; one that random taps pass is too easy;
a judge that an agent answering "infeasible", a spray of numbers or the template's commonest answer
without looking passes hands out free points. Every one answers like any brain (``Observation /
Thought / Action`` text), so runs are recorded and judged exactly like a model's.
"""

from __future__ import annotations

import random
import zlib
from typing import Any

from droidpilot.agent.brains.base import BrainReply, BrainRequest
from droidpilot.agent.coords import CoordSpace
from droidpilot.agent.response import format_response
from droidpilot.bench.task import BenchTask
from droidpilot.errors import InputError

_YES = "Completed: yes\nReason: the baseline stops here."


class DoNothingBrain:
    """Says ``stop`` at the first step (and confirms it)."""

    name = "do-nothing"
    coord_space: CoordSpace = "device"
    extended_actions = True

    def decide(self, request: BrainRequest) -> BrainReply:
        """``stop``, or ``yes`` to the completion check."""
        if request.kind == "complete":
            return BrainReply(_YES, model_calls=0)
        return BrainReply(format_response("A screen.", "Doing nothing.", "stop"), model_calls=0)

    def describe(self) -> dict[str, Any]:
        """Nothing to describe."""
        return {}


class RandomBrain:
    """Taps, swipes, types and goes back at random (seeded) for ``steps`` steps, then stops."""

    name = "random"
    coord_space: CoordSpace = "device"
    extended_actions = True

    def __init__(self, seed: int, steps: int = 10) -> None:
        self.rng, self.steps = random.Random(seed), steps

    def decide(self, request: BrainRequest) -> BrainReply:
        """A random action while steps remain, then ``stop``; candidate 1 when asked to choose."""
        if request.kind == "complete":
            return BrainReply(_YES, model_calls=0)
        if request.kind == "choose":
            return BrainReply(str(self.rng.randint(1, max(1, len(request.choices)))), model_calls=0)
        if request.step > self.steps:
            return BrainReply(format_response("A screen.", "Enough.", "stop"), model_calls=0)
        w, h = request.screen.size
        roll = self.rng.random()
        if roll < 0.6:
            action = f"tap ({self.rng.randrange(w)}, {self.rng.randrange(100, h - 150)})"
        elif roll < 0.75:
            action = self.rng.choice(("page down", "page up"))
        elif roll < 0.85:
            action = f"type ({self.rng.choice(('hello', 'test', '42', 'ok'))})"
        elif roll < 0.95:
            action = "back"
        else:
            action = "enter"
        return BrainReply(format_response("A screen.", "A random action.", action), model_calls=0)

    def describe(self) -> dict[str, Any]:
        """The number of random steps."""
        return {"steps": self.steps}


SPRAY_MAX = 400


class AnswerAtOnceBrain:
    """Replies ``answer (TEXT)`` at the first step without looking at the screen; ``stop`` when it has
    no text."""

    name = "answer-at-once"
    coord_space: CoordSpace = "device"
    extended_actions = True

    def __init__(self, text: str | None) -> None:
        self.text = text

    def decide(self, request: BrainRequest) -> BrainReply:
        """The reply (or ``stop``), and ``yes`` to the completion check."""
        if request.kind == "complete":
            return BrainReply(_YES, model_calls=0)
        action = "stop" if self.text is None else f"answer ({self.text})"
        return BrainReply(format_response("A screen.", "Answering without looking.", action), model_calls=0)

    def describe(self) -> dict[str, Any]:
        """The reply it gives."""
        return {"answer": self.text}


class AlwaysInfeasibleBrain(AnswerAtOnceBrain):
    """Declares every task infeasible at once: the free points of an infeasible task's judge."""

    name = "always-infeasible"

    def __init__(self) -> None:
        super().__init__("infeasible")


class NumberSprayBrain(AnswerAtOnceBrain):
    """Answers ``0 1 2 ... SPRAY_MAX`` at once: a judge matching the true number as a substring passes it."""

    name = "number-spray"

    def __init__(self, top: int = SPRAY_MAX) -> None:
        super().__init__(" ".join(str(n) for n in range(top + 1)))

    def describe(self) -> dict[str, Any]:
        """How far it counts (not the whole reply)."""
        return {"numbers": f"0..{len(self.text.split()) - 1 if self.text else 0}"}


class BlindGuessBrain(AnswerAtOnceBrain):
    """Answers, without looking, the commonest reply of the task's template over 50 seeds (see
    ``droidpilot.bench.world.blind``); ``stop`` for a template that asks no question."""

    name = "blind-guess"

    def __init__(self, task: BenchTask) -> None:
        from droidpilot.bench.world.blind import guess_for

        super().__init__(guess_for(task))


BASELINES = ("do-nothing", "random", "always-infeasible", "number-spray", "blind-guess")


def make_baseline(name: str, task: BenchTask, seed: int = 0) -> Any:
    """The baseline brain ``name`` for ``task``; ``random`` draws from ``seed`` and the task id, so every
    task of a seeded run gets its own reproducible taps."""
    if name == "do-nothing":
        return DoNothingBrain()
    if name == "random":
        return RandomBrain(zlib.crc32(f"{seed}:{task.id}".encode()), steps=min(12, task.step_limit() - 1))
    if name == "always-infeasible":
        return AlwaysInfeasibleBrain()
    if name == "number-spray":
        return NumberSprayBrain()
    if name == "blind-guess":
        return BlindGuessBrain(task)
    raise InputError(f"unknown baseline brain {name!r}; choose one of {', '.join(BASELINES)}")
