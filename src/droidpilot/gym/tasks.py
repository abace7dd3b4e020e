"""Where an environment's tasks come from: world templates drawn per seed, or a fixed suite's task files.

A source turns an episode seed into one ``BenchTask`` deterministically: the same seed always gives the
same task (and, for templates, the same instance), so an episode is reproducible from its seed alone.
"""

from __future__ import annotations

import functools
import random
from collections import OrderedDict
from pathlib import Path

from droidpilot.bench.suite import BenchTask, SuiteError, load_suite, suite_folder
from droidpilot.bench.world import instantiate, load_templates, select_templates
from droidpilot.bench.world.template import Template, is_template_suite

CACHE_SIZE = 64  # instantiated tasks kept (an instance costs a few ms; resets reuse recent seeds often)


@functools.lru_cache(maxsize=4)
def _templates(folder: Path) -> list[Template]:
    """The suite's templates, loaded once per process (loading all of them takes seconds)."""
    return load_templates(folder)


class WorldTasks:
    """Task instances of a template suite: ``patterns`` selects templates (comma-separated globs over ids
    or apps, as ``bench --templates``; None for the whole suite); each seed draws a template, then its
    instance for that seed."""

    def __init__(self, patterns: str | None = None, suite: str | Path = "world") -> None:
        folder = suite_folder(str(suite))
        if not is_template_suite(folder):
            raise SuiteError(f"suite {suite!s} is not a template suite (no _suite.yaml with type: "
                             "templates); use droidpilot/MobileEval-v0 for a suite of task files")
        self.folder = folder
        every = _templates(folder)
        for glob in (patterns or "").split(","):  # each glob must match: a typo is not silently dropped
            if glob.strip():
                select_templates(every, glob.strip())
        self.templates: list[Template] = select_templates(every, patterns)
        self._cache: OrderedDict[int, BenchTask] = OrderedDict()

    def __len__(self) -> int:
        return len(self.templates)

    def task(self, seed: int) -> BenchTask:
        """The instance drawn for ``seed`` (a template chosen by the seed, instance 0 of it)."""
        cached = self._cache.get(seed)
        if cached is None:
            template = self.templates[random.Random(f"gym-template:{seed}").randrange(len(self.templates))]
            cached = instantiate(template, seed, 0, self.folder.name)
            self._cache[seed] = cached
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        self._cache.move_to_end(seed)
        return cached


class SuiteTasks:
    """The task files of a suite (``mobile-eval`` by default), optionally only ``ids``; a seed picks one."""

    def __init__(self, suite: str | Path = "mobile-eval", ids: list[str] | None = None) -> None:
        loaded = load_suite(str(suite))
        self.tasks = loaded.select(ids)
        if not self.tasks:
            raise SuiteError(f"suite {suite!s} has no tasks to draw from")

    def __len__(self) -> int:
        return len(self.tasks)

    def task(self, seed: int) -> BenchTask:
        """The task drawn for ``seed``."""
        return self.tasks[random.Random(f"gym-task:{seed}").randrange(len(self.tasks))]
