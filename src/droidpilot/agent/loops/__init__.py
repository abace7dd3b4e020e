"""The agent loops: ``v1`` (Mobile-Agent, ``agent.loop``), ``v2`` (planner, decider, reflector, memory) and
``e`` (manager, operator with shortcuts, action reflector, notetaker, self-evolving memory).

``make_agent`` builds any of them with the same device, brain, OCR, limits and trace recorder; each has
``run(instruction) -> RunResult``.
"""

from __future__ import annotations

from typing import Any

from droidpilot.agent.loops.roles import LOOPS, ROLES, RoleBrains, check_loop

__all__ = ["LOOPS", "ROLES", "RoleBrains", "calls_per_step", "make_agent"]

# Model calls a step may make (the acting role's re-prompt and the completion check aside), to size the
# model-call budget of a run: v1 asks once, v2 plans, decides and reflects, E manages, operates, reflects
# and takes notes.
_CALLS_PER_STEP = {"v1": 1, "v2": 3, "e": 4}


def calls_per_step(loop: str) -> int:
    return _CALLS_PER_STEP[check_loop(loop)]


def make_agent(loop: str, device: Any, brain: Any, *, roles: RoleBrains | None = None,
               memory: Any | None = None, evolve: bool = False, **options: Any) -> Any:
    """The agent of ``loop`` (v1 | v2 | e); ``options`` are ``agent.loop.Agent``'s keyword arguments;
    ``memory`` (E only) a ``MemoryStore`` or None, ``evolve`` whether E updates it after the task."""
    check_loop(loop)
    if loop == "v1":
        from droidpilot.agent.loop import Agent

        return Agent(device, brain, **options)
    if loop == "v2":
        from droidpilot.agent.loops.v2 import V2Agent

        return V2Agent(device, brain, roles=roles, **options)
    from droidpilot.agent.loops.e import EAgent

    return EAgent(device, brain, roles=roles, memory=memory, evolve=evolve, **options)
