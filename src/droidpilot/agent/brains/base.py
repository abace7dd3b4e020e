"""The Brain interface: whatever decides the next action from the instruction, history and screen.

A brain answers in words (``Observation / Thought / Action``, a completion verdict, or a candidate
number) and declares the coordinate space of any numbers it writes; the loop does the rest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from PIL import Image

from droidpilot.agent.coords import CoordSpace
from droidpilot.agent.screen import ScreenView
from droidpilot.errors import DroidpilotError

RequestKind = Literal["operate", "complete", "choose", "role"]


class BrainError(DroidpilotError):
    """The brain could not answer (endpoint unreachable after retries, replay exhausted, ...)."""


@dataclass(frozen=True)
class HistoryEntry:
    """One past step as the brain is told about it."""

    step: int
    action: str
    thought: str = ""
    observation: str = ""
    result: str = ""
    change: float | None = None  # the fraction of the screen the action changed (None: not executed)


@dataclass
class BrainRequest:
    """What the brain is asked. ``prompt`` is the full text prompt (without images) built by the loop.

    ``kind``: ``operate`` (next action), ``complete`` (is the instruction done?), ``choose`` (which of
    the numbered crops in ``images`` to tap), ``role`` (one role of the v2/E loops, named by ``role``,
    answering ``prompt`` in that role's format). ``images`` follow the screenshot in that order.
    """

    kind: RequestKind
    instruction: str
    prompt: str
    screen: ScreenView
    step: int
    history: list[HistoryEntry] = field(default_factory=list)
    feedback: str = ""
    language: str = "en"
    images: list[Image.Image] = field(default_factory=list)
    choices: list[dict[str, Any]] = field(default_factory=list)
    target: str = ""
    role: str = ""  # the v2/E role asking (planner, decider, reflector, manager, operator, ...); "" in v1


@dataclass
class BrainReply:
    """The brain's raw answer and what it cost (tokens and seconds per call; 0 for offline brains)."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    model_calls: int = 1
    image_size: tuple[int, int] | None = None  # the size of the screenshot the brain was shown
    tool_calls: list[dict[str, Any]] | None = None  # function calls, when the brain answers with tools

    def usage(self) -> dict[str, Any]:
        return {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                "latency_s": round(self.latency_s, 4), "model_calls": self.model_calls}


@runtime_checkable
class Brain(Protocol):
    """Decides, in words. ``coord_space`` says how to read coordinates in its extended actions."""

    name: str
    coord_space: CoordSpace

    def decide(self, request: BrainRequest) -> BrainReply:
        """Answer ``request`` (raise BrainError when no answer can be had)."""
        ...

    def describe(self) -> dict[str, Any]:
        """Settings worth recording in run.json (never a secret)."""
        ...
