"""The registered environments' constructors: ``droidpilot/World-v0`` and ``droidpilot/MobileEval-v0``."""

from __future__ import annotations

from typing import Any

from droidpilot.gym.env import PhoneEnv
from droidpilot.gym.tasks import SuiteTasks, WorldTasks


def world_env(templates: str | None = None, suite: str = "world", **kwargs: Any) -> PhoneEnv:
    """World-suite instances: ``templates`` is one template id, comma-separated globs (``contacts-*``,
    an app name) or None for the whole suite; each reset's seed draws a template and its instance."""
    return PhoneEnv(WorldTasks(templates, suite), **kwargs)


def mobile_eval_env(tasks: list[str] | str | None = None, suite: str = "mobile-eval", **kwargs: Any
                    ) -> PhoneEnv:
    """Mobile-Eval's task files (all, or the ids in ``tasks``); each reset's seed picks one."""
    ids = [t.strip() for t in tasks.split(",") if t.strip()] if isinstance(tasks, str) else tasks
    return PhoneEnv(SuiteTasks(suite, ids), **kwargs)
