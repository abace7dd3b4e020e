"""Baseline brains for validating a suite: one that stops at once and one that acts at random.

A suite whose tasks a do-nothing agent passes measures nothing; one that random taps pass is too easy.
Both answer like any brain (``Observation / Thought / Action`` text), so runs are recorded and judged
exactly like a model's.
"""

from __future__ import annotations

import random
from typing import Any

from droidpilot.agent.brains.base import BrainReply, BrainRequest
from droidpilot.agent.coords import CoordSpace
from droidpilot.agent.response import format_response

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
