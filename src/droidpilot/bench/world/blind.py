"""The blind guess of a template: the answer its instances most often have, found without a phone.

A judge that a constant answer passes measures nothing. The ``blind-guess`` brain replies with this
answer at once; computing it instantiates the template for ``GUESS_SEEDS`` seeds and reads each
instance's reference reply (its ``answer`` operation), so it follows the templates as they change. The
seeds start at ``GUESS_FROM``, away from the seeds runs use (0, 1, 2, ...): where every instance has its
own answer, the guess must not be one of the judged instances' answers by construction.
"""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path

from droidpilot.agent.actions import ActionParseError, parse_action
from droidpilot.bench.task import BenchTask, SuiteError
from droidpilot.bench.world.instance import instantiate
from droidpilot.bench.world.template import Template, load_templates

GUESS_SEEDS = 50
GUESS_FROM = 10_000


def reference_answer(task: BenchTask) -> str | None:
    """The reply the instance's reference ends with (``answer (TEXT)``), or None when it answers nothing."""
    for op in reversed(task.reference):
        try:
            action = parse_action(op.action)
        except ActionParseError:
            continue
        if action.name == "answer":
            return action.text
    return None


def most_common_answer(template: Template, seeds: int = GUESS_SEEDS, first: int = GUESS_FROM) -> str | None:
    """The reference reply most instances of ``template`` (seeds ``first`` .. ``first + seeds - 1``) end
    with; ties go to the first in text order; None when no instance answers."""
    answers = [reference_answer(instantiate(template, seed)) for seed in range(first, first + seeds)]
    counts = Counter(a for a in answers if a is not None)
    if not counts:
        return None
    top = max(counts.values())
    return min(a for a, n in counts.items() if n == top)


@functools.cache
def _templates(folder: Path) -> dict[str, Template]:
    return {t.id: t for t in load_templates(folder)}


@functools.cache
def blind_guess(folder: Path, template_id: str) -> str | None:
    """The blind guess for the template ``template_id`` of the suite in ``folder`` (cached per process)."""
    templates = _templates(folder)
    if template_id not in templates:
        raise SuiteError(f"{folder}: no template {template_id!r} to guess an answer for")
    return most_common_answer(templates[template_id])


def guess_for(task: BenchTask) -> str | None:
    """The blind guess for a template instance; SuiteError for a task of a plain (non-template) suite."""
    if not task.template:
        raise SuiteError(f"task {task.id} is not a template instance; --brain blind-guess needs a template "
                         "suite such as world")
    return blind_guess(task.path.parent, task.template)
