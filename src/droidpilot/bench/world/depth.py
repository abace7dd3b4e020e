"""How much a template varies with the seed: distinct instructions and answers over many seeds.

Only the parameters are drawn and the instruction and answer filled (no SimPhone, no rule), so the whole
suite over 50 seeds takes a few seconds. A template below ``MIN_DISTINCT`` of either fails unless it is
marked ``static: "reason"``.
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass
from typing import Any

from droidpilot.bench.params import ParamError
from droidpilot.bench.task import SuiteError
from droidpilot.bench.world.fill import fill
from droidpilot.bench.world.instance import draw_params
from droidpilot.bench.world.template import Template

MIN_DISTINCT = 5
DEPTH_SEEDS = 50


@dataclass
class Depth:
    """Distinct instructions and (retrieval only, else None) distinct answers of one template."""

    template: str
    where: str
    instructions: int
    answers: int | None
    static: str | None = None

    @property
    def shallow(self) -> bool:
        """Fewer than ``MIN_DISTINCT`` instructions or answers."""
        low = self.instructions < MIN_DISTINCT
        return low or (self.answers is not None and self.answers < MIN_DISTINCT)

    def to_dict(self) -> dict[str, Any]:
        """As plain data."""
        return vars(self).copy()


def depth_of(template: Template, seeds: int = DEPTH_SEEDS) -> Depth:
    """Distinct instruction and answer texts of instance 0 for seeds ``0..seeds-1``."""
    where = f"{template.where}: template {template.id!r}"
    instructions: set[str] = set()
    answers: set[str] = set()
    for seed in range(seeds):
        # The same random stream as instantiate() draws instance 0 from.
        try:
            ctx = draw_params(template, random.Random(f"{template.id}:{seed}:0"))
        except ParamError as exc:
            raise SuiteError(str(exc)) from None
        instructions.add(str(fill(template.instruction, ctx, f"{where} instruction")).strip())
        if template.answer is not None:
            answers.add(str(fill(template.answer, ctx, f"{where} answer")))
    return Depth(
        template.id,
        template.where,
        len(instructions),
        len(answers) if template.kind == "retrieval" else None,
        template.static,
    )


def shallow_problem(d: Depth, seeds: int = DEPTH_SEEDS) -> str | None:
    """The problem line for a shallow template that is not marked static, else None."""
    if not d.shallow or d.static:
        return None
    answers = "" if d.answers is None else f" and {d.answers} distinct answers"
    return (
        f"{d.where}: template {d.template!r} gives {d.instructions} distinct instructions{answers} over "
        f"{seeds} seeds (fewer than {MIN_DISTINCT}) — draw the values that differ from the seed, or mark "
        f'it static: "why it cannot vary"'
    )


def summary(rows: list[Depth]) -> dict[str, Any]:
    """Min and median of distinct instructions and answers, and how many templates are static."""
    ins = [d.instructions for d in rows]
    ans = [d.answers for d in rows if d.answers is not None]
    return {
        "instructions_min": min(ins, default=0),
        "instructions_median": statistics.median(ins) if ins else 0,
        "answers_min": min(ans, default=0),
        "answers_median": statistics.median(ans) if ans else 0,
        "static": sum(1 for d in rows if d.static),
    }
