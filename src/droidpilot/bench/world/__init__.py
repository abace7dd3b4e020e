"""The ``world`` suite machinery: task templates as data, instantiated from a seed into benchmark tasks."""

from __future__ import annotations

import fnmatch
from pathlib import Path

from droidpilot import limits
from droidpilot.bench.task import Suite, SuiteError
from droidpilot.bench.world.instance import TIERS, instantiate
from droidpilot.bench.world.template import Template, load_templates


def select_templates(templates: list[Template], patterns: str | None) -> list[Template]:
    """Templates whose id matches one of the comma-separated globs (all when none); SuiteError if none."""
    if not patterns:
        return list(templates)
    globs = [p.strip() for p in patterns.split(",") if p.strip()]
    chosen = [
        t
        for t in templates
        if any(fnmatch.fnmatchcase(t.id, g) or fnmatch.fnmatchcase(t.app, g) for g in globs)
    ]
    if not chosen:
        raise SuiteError(
            f"--templates {patterns!r} matches no template (ids look like "
            f"{templates[0].id!r}; patterns are globs such as 'contacts-*')"
        )
    return chosen


def load_world(
    folder: Path, *, seed: int = 0, instances: int = 1, patterns: str | None = None, tier: str | None = None
) -> Suite:
    """The instances of a template suite for ``seed``: ``instances`` per selected template; LimitError
    before anything is drawn when that is more than one run may hold (``droidpilot.limits``)."""
    if instances < 1:
        raise SuiteError(f"--instances must be at least 1, got {instances}")
    if seed < 0:
        raise SuiteError(f"--seed must be >= 0, got {seed}")
    limits.check("--instances", instances, limits.INSTANCES, what="per template")
    limits.check("--seed", seed, limits.SEED)
    if tier is not None and tier not in TIERS:
        raise SuiteError(f"--tier {tier!r} is not one of {', '.join(TIERS)}")
    chosen = select_templates(load_templates(folder), patterns)
    limits.check_work(len(chosen) * instances, f"{len(chosen):,} templates x {instances:,} instances")
    tasks = [instantiate(t, seed, k, folder.name) for t in chosen for k in range(instances)]
    if tier is not None:
        tasks = [t for t in tasks if t.tier == tier]
        if not tasks:
            raise SuiteError(f"no selected template is of tier {tier}")
    return Suite(folder.name, folder, tasks)


__all__ = ["TIERS", "Template", "instantiate", "load_templates", "load_world", "select_templates"]
