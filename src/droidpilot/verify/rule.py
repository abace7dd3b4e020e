"""The rule (task spec) model: a milestone DAG in MobiFlow's format.

``deps`` is AND (every listed node first); ``next`` is OR (any listed successor may follow, and a node
reached through several ``next`` parents needs only one of them). ``success`` names the nodes that end
the task (``any_of`` or ``all_of``); without it, any sink node does. Fields the verifier does not use are
kept in ``extra`` because they describe the task. Loading and validation live in ``verify.spec``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Condition(BaseModel):
    """``{type, params}``: which checker decides this milestone, with what parameters."""

    model_config = ConfigDict(extra="allow")

    type: str
    params: dict[str, Any] = Field(default_factory=dict)


class Node(BaseModel):
    """One milestone. ``condition`` None means the node passes through at its parents' event."""

    model_config = ConfigDict(extra="allow")

    id: str
    name: str = ""
    deps: list[str] = Field(default_factory=list)
    next: list[str] = Field(default_factory=list)
    condition: Condition | None = None
    score: float = Field(default=10.0, allow_inf_nan=False)
    line: int | None = Field(default=None, exclude=True, description="source line of the node, if known")


class Success(BaseModel):
    model_config = ConfigDict(extra="allow")

    any_of: list[str] | None = None
    all_of: list[str] | None = None


class Task(BaseModel):
    """A whole rule: the task's description fields plus the DAG."""

    model_config = ConfigDict(extra="allow")

    task_id: str = ""
    app_id: str = ""
    task_type: str = ""
    description: str = ""
    nodes: list[Node] = Field(default_factory=list)
    success: Success | None = None
    source: Path | None = Field(default=None, exclude=True)
    warnings: list[str] = Field(default_factory=list, exclude=True)

    def node(self, node_id: str) -> Node:
        for node in self.nodes:
            if node.id == node_id:
                return node
        raise KeyError(node_id)

    @property
    def node_ids(self) -> list[str]:
        return [n.id for n in self.nodes]

    def next_parents(self, node_id: str) -> list[str]:
        """Ids of the nodes that name ``node_id`` in their ``next`` (its OR-parents)."""
        return [n.id for n in self.nodes if node_id in n.next]

    def sinks(self) -> list[str]:
        """Nodes nobody depends on and with no successors."""
        depended = {d for n in self.nodes for d in n.deps}
        return [n.id for n in self.nodes if not n.next and n.id not in depended]

    def success_targets(self) -> tuple[str, list[str]]:
        """``("any", ids)`` or ``("all", ids)``: what the verdict needs (sinks when no success given)."""
        if self.success is not None and self.success.all_of:
            return "all", list(self.success.all_of)
        if self.success is not None and self.success.any_of:
            return "any", list(self.success.any_of)
        return "any", self.sinks()
