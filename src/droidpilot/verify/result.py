"""The outcome of a verification: verdict, witness, score, reason and the log of every decision.

``to_dict()`` is the JSON object ``droidpilot verify --json`` prints, with exactly the keys ``ok``,
``matched``, ``total_score``, ``max_score``, ``reason``, ``manual_review_needed``, ``checker_calls`` and
``decisions``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any


def _number(value: float) -> float | int:
    """Scores are floats in the model; print 30 rather than 30.0 when they are whole."""
    return int(value) if float(value).is_integer() else value


@dataclass(frozen=True)
class Match:
    """One milestone of the witness: ``node`` held at ``frame``'s ``event`` (screen or action).

    Unpacks as ``(node, frame)``; ``node_id`` and ``frame_index`` are the names MobiFlow's scripts use.
    """

    node: str
    frame: int
    event: str = "screen"
    name: str = ""
    score: float = 0.0

    @property
    def node_id(self) -> str:
        return self.node

    @property
    def frame_index(self) -> int:
        return self.frame

    def __iter__(self) -> Iterator[Any]:
        yield self.node
        yield self.frame

    def to_dict(self) -> dict[str, Any]:
        return {"node": self.node, "frame": self.frame}


@dataclass
class NodeStatus:
    """How the search left one node: reached at ``event`` (its earliest), enabled after
    ``enabled_after`` but never met in the whole trace, never enabled, or "not needed": the search did
    not look into it further because it could not change the verdict (``enabled_after`` is still exact
    when set)."""

    node: str
    name: str
    state: str  # "reached" | "never met" | "not enabled" | "not needed"
    event: int | None = None
    enabled_after: int | None = None
    yes: int = 0
    no: int = 0
    undecided: int = 0


@dataclass
class VerifyResult:
    """Everything a caller or a person needs to trust (or question) a verdict."""

    ok: bool
    matched: list[Match] = field(default_factory=list)
    total_score: float = 0.0
    max_score: float = 0.0
    reason: str = ""
    manual_review_needed: bool = False
    checker_calls: int = 0
    decisions: list[dict[str, Any]] = field(default_factory=list)
    logs: list[str] = field(default_factory=list)
    # Not part of the JSON object; used by the human-readable explanation and by benchmarks.
    task_id: str = ""
    frame_count: int = 0
    evaluations: int = 0
    success_mode: str = "any"
    success_targets: list[str] = field(default_factory=list)
    nodes: list[NodeStatus] = field(default_factory=list)
    conditionless_witness: list[str] = field(default_factory=list)

    @property
    def score_ratio(self) -> float:
        """``total_score / max_score`` (0 when the rule has no score)."""
        return self.total_score / self.max_score if self.max_score else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The JSON object of ``droidpilot verify --json``."""
        return {
            "ok": self.ok,
            "matched": [m.to_dict() for m in self.matched],
            "total_score": _number(self.total_score),
            "max_score": _number(self.max_score),
            "reason": self.reason,
            "manual_review_needed": self.manual_review_needed,
            "checker_calls": self.checker_calls,
            "decisions": self.decisions,
        }
