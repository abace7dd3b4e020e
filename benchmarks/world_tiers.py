"""The heuristic brain's Su per tier on the world suite (issue 27's closing-note measure): a table of Su by
tier (easy, medium, hard, long) x seed, judged by the oracle and by the generated rule, from the trace
folders that benchmarks/world_agreement.py leaves behind (one folder TEMPLATE-SEED-K per run).

    # a fixed sample of K templates per tier (the same templates on every seed), for a loaded machine
    .venv/bin/python benchmarks/world_tiers.py sample --per-tier 6
    .venv/bin/python benchmarks/world_agreement.py --seeds 0,1,2 --jobs 2 --templates "$(... sample ...)"
    .venv/bin/python benchmarks/world_tiers.py table /tmp/tmpXXXX /tmp/tmpYYYY

A run counts as a success (Su) when it completed by itself and the judge passed it, as in the benchmark.
The tier of each run is its own instance's (reference length and apps), read from the suite as it is.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from world_agreement import from_trace  # a benchmark script next to this one

SAMPLE_SEED = 27  # the sample is fixed: the same templates whatever the machine or the day


def _tiers() -> tuple[str, ...]:
    from droidpilot.bench.world.instance import TIERS

    return tuple(TIERS)


def tier_of_run(template: str, seed: int, cache: dict[tuple[str, int], str]) -> str:
    """The tier of instance 0 of ``template`` for ``seed`` (templates no longer in the suite: '?')."""
    if (template, seed) not in cache:
        from droidpilot.bench.suite import load_suite
        from droidpilot.bench.task import SuiteError

        try:
            cache[(template, seed)] = load_suite("world", seed=seed, templates=template).tasks[0].tier
        except (SuiteError, IndexError):
            cache[(template, seed)] = "?"
    return cache[(template, seed)]


def sample(per_tier: int, tiers: list[str]) -> list[str]:
    """``per_tier`` templates of each tier (their seed-0 tier), drawn with a fixed seed; all if fewer."""
    from droidpilot.bench.suite import load_suite

    by_tier: dict[str, list[str]] = defaultdict(list)
    for task in load_suite("world", seed=0).tasks:
        by_tier[task.tier].append(task.template)
    rng = random.Random(SAMPLE_SEED)
    chosen: list[str] = []
    for tier in tiers:
        pool = sorted(by_tier.get(tier, []))
        chosen += pool if len(pool) <= per_tier else sorted(rng.sample(pool, per_tier))
    return chosen


def read_runs(roots: list[Path]) -> list[dict[str, Any]]:
    """Every finished run under ``roots`` (the newest trace of a template and seed wins)."""
    rows: dict[tuple[str, int], dict[str, Any]] = {}
    for root in roots:
        for folder in sorted(d for d in root.iterdir() if d.is_dir()):
            row = from_trace(folder)
            if row is not None:
                rows[(row["template"], row["seed"])] = row
    return list(rows.values())


def table(rows: list[dict[str, Any]]) -> list[str]:
    """Lines of the table: per tier, per seed, Su by oracle and by rule as 'passed/runs (percent)'."""
    cache: dict[tuple[str, int], str] = {}
    for row in rows:
        row["tier"] = tier_of_run(row["template"], row["seed"], cache)
    seeds = sorted({r["seed"] for r in rows})
    tiers = [t for t in [*_tiers(), "?"] if any(r["tier"] == t for r in rows)]
    head = ["tier", *[f"seed {s} oracle | rule" for s in seeds], "all oracle | rule"]
    out = ["\t".join(head)]

    def cell(rs: list[dict[str, Any]]) -> str:
        if not rs:
            return "-"
        o, r = sum(x["oracle"] for x in rs), sum(x["rule"] for x in rs)
        return f"{o}/{len(rs)} ({o / len(rs):.0%}) | {r}/{len(rs)} ({r / len(rs):.0%})"

    for tier in [*tiers, "all"]:
        in_tier = [r for r in rows if tier in ("all", r["tier"])]
        out.append("\t".join([tier, *[cell([r for r in in_tier if r["seed"] == s]) for s in seeds],
                              cell(in_tier)]))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("sample", help="print a fixed sample of templates per tier, comma-separated")
    sp.add_argument("--per-tier", type=int, default=6)
    sp.add_argument("--tiers", default="easy,medium,hard", help="comma-separated tiers to sample")
    tp = sub.add_parser("table", help="print Su by tier x seed from world_agreement trace folders")
    tp.add_argument("traces", type=Path, nargs="+")
    args = ap.parse_args()
    if args.command == "sample":
        if args.per_tier < 1:
            print("--per-tier: give a whole number of templates, 1 or more", file=sys.stderr)
            return 2
        print(",".join(sample(args.per_tier, [t for t in args.tiers.split(",") if t])))
        return 0
    missing = [str(p) for p in args.traces if not p.is_dir()]
    if missing:
        print(f"not a folder of traces: {', '.join(missing)}", file=sys.stderr)
        return 2
    rows = read_runs(args.traces)
    print(f"{len(rows)} finished heuristic runs; Su = completed by itself and passed by the judge")
    print("\n".join(table(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
