"""The roles of the v2 and E loops, which brain serves each, and ``--role-model ROLE=MODEL`` parsing.

One brain serves every role by default; a role may get its own (a cheap reflector, say). A brain that
cannot read role prompts (the offline heuristic and reference brains answer the operate/complete/choose
questions only) still drives the decider/operator; the other roles are then answered by code, and the
trace says so (``by: code``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from droidpilot.errors import InputError

LOOPS = ("v1", "v2", "e")
# The role whose answer is the action: asked with kind "operate", so every brain can serve it.
ACTING_ROLE = {"v2": "decider", "e": "operator"}
ROLES: dict[str, tuple[str, ...]] = {
    "v1": (),
    "v2": ("planner", "decider", "reflector"),
    "e": ("manager", "operator", "reflector", "notetaker", "tip_reflector", "shortcut_reflector"),
}


def check_loop(loop: str) -> str:
    """Validate a ``--loop`` value."""
    if loop not in LOOPS:
        raise InputError(f"--loop: unknown agent loop {loop!r}; choose one of {', '.join(LOOPS)}")
    return loop


def parse_role_models(specs: Sequence[str], loop: str) -> dict[str, str]:
    """``["reflector=small-vl", ...]`` -> ``{"reflector": "small-vl"}``; InputError naming the bad item."""
    check_loop(loop)
    out: dict[str, str] = {}
    for spec in specs:
        role, sep, model = spec.partition("=")
        role, model = role.strip(), model.strip()
        if not sep or not role or not model:
            raise InputError(f"--role-model {spec!r}: write ROLE=MODEL, e.g. "
                             "--role-model reflector=qwen2-vl-2b")
        if loop == "v1":
            raise InputError(f"--role-model {spec!r}: the v1 loop has one model call per step and no roles; "
                             "use --loop v2 or --loop e")
        if role not in ROLES[loop]:
            raise InputError(f"--role-model {spec!r}: the {loop} loop has no role {role!r}; its roles are "
                             f"{', '.join(ROLES[loop])}")
        if role in out and out[role] != model:
            raise InputError(f"--role-model gives role {role!r} two models ({out[role]!r} and {model!r})")
        out[role] = model
    return out


def answers_roles(brain: Any) -> bool:
    """True when ``brain`` reads role prompts (kind ``role``); offline brains declare nothing and do not."""
    return bool(getattr(brain, "answers_roles", False))


@dataclass
class RoleBrains:
    """The brain of each role: ``default`` unless ``by_role`` names another one."""

    default: Any
    by_role: dict[str, Any] = field(default_factory=dict)

    def brain_for(self, role: str) -> Any:
        return self.by_role.get(role, self.default)

    def describe(self) -> dict[str, Any]:
        """Which model serves which role (for run.json; never a secret)."""
        return {role: {"name": b.name, **b.describe()} for role, b in sorted(self.by_role.items())}


def role_brains(default: Any, role_models: dict[str, str], build: Callable[[str], Any]) -> RoleBrains:
    """RoleBrains with ``build(model)`` for each role that has its own model (one brain per model)."""
    built: dict[str, Any] = {}
    by_role: dict[str, Any] = {}
    for role, model in role_models.items():
        if model not in built:
            built[model] = build(model)
        by_role[role] = built[model]
    return RoleBrains(default, by_role)
