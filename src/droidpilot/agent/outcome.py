"""What a run is bounded by and what it returns: the agent loop's public result types."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from droidpilot.agent.brains.base import HistoryEntry
from droidpilot.errors import InputError


@dataclass
class Limits:
    """When a run must end even if the brain has not said ``stop``."""

    max_steps: int = 20
    max_repeated_actions: int = 5
    max_repeated_failures: int = 3
    max_consecutive_failures: int = 5
    max_model_calls: int = 60
    time_budget_s: float = 900.0

    def __post_init__(self) -> None:
        for name, value in vars(self).items():
            if value <= 0:
                raise InputError(f"limit {name} must be positive, got {value}")


@dataclass
class RunResult:
    """How a run ended and what it cost. ``completed``: the brain stopped and the check agreed."""

    termination: str
    completed: bool
    steps: int
    actions: int
    model_calls: int
    prompt_tokens: int
    completion_tokens: int
    seconds: float
    timings: dict[str, float]
    trace_dir: Path | None = None
    final_state: dict[str, Any] | None = None
    error: str = ""
    answer: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"termination": self.termination, "completed": self.completed, "steps": self.steps,
                "answer": self.answer,
                "actions": self.actions, "model_calls": self.model_calls,
                "prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                "seconds": round(self.seconds, 3),
                "timings": {k: round(v, 4) for k, v in self.timings.items()},
                "trace_dir": str(self.trace_dir) if self.trace_dir else None, "error": self.error}


class StopRequested(Exception):
    """Raised by a checkpoint to end the run before the next step (termination ``stopped``)."""


class _Stop(Exception):
    """Ends a run from deep in a step with its termination reason (and error text)."""

    def __init__(self, reason: str, error: str = "") -> None:
        super().__init__(reason)
        self.reason, self.error = reason, error


@dataclass
class _Run:
    """One run's running totals and history, shared by every agent loop."""

    instruction: str
    started: float
    history: list[HistoryEntry] = field(default_factory=list)
    feedback: str = ""
    steps: int = 0
    actions: int = 0
    model_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    timings: dict[str, float] = field(
        default_factory=lambda: {"perception": 0.0, "model": 0.0, "device": 0.0})
    last_thought: str = ""
    answer: str | None = None
