"""Static checks and counts of a template suite: every template instantiates for several seeds, its
reference parses, its rule validates, its oracle is not already satisfied at the start state, and it
varies with the seed (``depth``: distinct instructions and answers over 50 seeds)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from droidpilot.bench import oracle as oracle_lang
from droidpilot.bench.task import BenchTask, SuiteError
from droidpilot.bench.world.depth import DEPTH_SEEDS, Depth, depth_of, shallow_problem, summary
from droidpilot.bench.world.instance import instantiate
from droidpilot.bench.world.template import Template, load_templates
from droidpilot.errors import InputError


@dataclass
class CheckReport:
    """What ``check_suite`` found: counts, and one line per problem."""

    templates: int = 0
    instances: int = 0
    apps: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    tiers: Counter[str] = field(default_factory=Counter)
    satisfied_at_start: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    depth: list[Depth] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The report as plain data."""
        return {
            "templates": self.templates,
            "instances": self.instances,
            "apps": dict(self.apps),
            "kinds": dict(self.kinds),
            "tiers": dict(self.tiers),
            "satisfied_at_start": self.satisfied_at_start,
            "problems": self.problems,
            "depth": summary(self.depth) if self.depth else {},
        }


def start_state(task: BenchTask) -> dict[str, Any]:
    """SimPhone's state() right after the instance's setup, with no answer (what doing nothing leaves)."""
    from droidpilot.device.sim.phone import SimDevice

    phone = SimDevice(seed=task.seed)
    if task.setup:
        phone.apply_setup(task.setup)
    return {**phone.state(), "agent": {"answer": None}}


def check_suite(
    folder: Path,
    seeds: Sequence[int] = (0, 1, 2),
    depth_seeds: int = DEPTH_SEEDS,
    on_template: Callable[[int], None] | None = None,
    templates: list[Template] | None = None,
) -> CheckReport:
    """Instantiate every template (of ``folder``, or ``templates`` already loaded from it) for ``seeds``
    and measure its depth over ``depth_seeds`` seeds (0: skip); SuiteError when the files themselves
    cannot be loaded. ``on_template(1)`` after each (progress)."""
    templates = load_templates(folder) if templates is None else templates
    report = CheckReport(templates=len(templates))
    for t in templates:
        if on_template is not None:
            on_template(1)
        report.apps.update(set(t.apps))
        report.kinds[t.kind] += 1
        for seed in seeds:
            try:
                task = instantiate(t, seed, 0, folder.name)
            except InputError as exc:
                report.problems.append(str(exc))
                break
            report.instances += 1
            if seed == seeds[0]:
                report.tiers[task.tier] += 1
            try:
                start = start_state(task)  # doing nothing: no side effects, so the oracle alone decides
                if oracle_lang.evaluate(task.oracle, start, start=start, effects=task.effects).ok:
                    report.satisfied_at_start.append(task.id)
            except InputError as exc:
                report.problems.append(f"{t.where}: template {t.id!r}: the setup does not apply: {exc}")
                break
        if depth_seeds:
            try:
                report.depth.append(depth_of(t, depth_seeds))
            except InputError as exc:
                report.problems.append(str(exc))
                continue
            problem = shallow_problem(report.depth[-1], depth_seeds)
            if problem:
                report.problems.append(problem)
    return report


__all__ = ["CheckReport", "SuiteError", "check_suite", "start_state"]
