"""Degenerate agents on the whole world suite: every baseline brain (do-nothing, random, always-infeasible,
number-spray, blind-guess) on every template x seed, judged by the oracle and by the rule (UI dumps). The
issue's goal is at most 1% Su each. One figure per line: Su by oracle and by rule per brain, then the
templates that hand out free points.

    .venv/bin/python benchmarks/world_degenerate.py --seeds 0,1,2 --jobs 2
    .venv/bin/python benchmarks/world_degenerate.py --seeds 0 --brains number-spray --templates '*-count'
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

_STATE: dict[str, Any] = {}


def _init() -> None:
    from droidpilot.device.sim.phone import SimDevice
    from droidpilot.perception.cache import cached
    from droidpilot.perception.ocr import make_ocr_engine
    from droidpilot.verify.setup import VerifierChoices, build_options

    _STATE.update(device=SimDevice(), ocr=cached(make_ocr_engine("rapidocr")),
                  options=build_options(VerifierChoices(ocr="rapidocr")), out=Path(tempfile.mkdtemp()))


def _job(args: tuple[str, int, list[str]]) -> list[dict[str, Any]]:
    """Every brain on one instance (the template is instantiated once per seed)."""
    from droidpilot.bench.execute import run_task
    from droidpilot.bench.suite import suite_folder
    from droidpilot.bench.world.brains import make_baseline
    from droidpilot.bench.world.instance import instantiate
    from droidpilot.bench.world.template import load_templates

    template, seed, brains = args
    if "templates" not in _STATE:  # read once per worker, not once per instance
        _STATE["templates"] = {t.id: t for t in load_templates(suite_folder("world"))}
    rows = []
    try:
        task = instantiate(_STATE["templates"][template], seed)
    except Exception as exc:  # reported, counted as a failed run of every brain
        return [{"template": template, "seed": seed, "brain": b, "oracle": False, "rule": False,
                 "error": repr(exc)} for b in brains]
    for brain in brains:
        row: dict[str, Any] = {"template": template, "seed": seed, "brain": brain, "kind": task.kind}
        try:
            result = run_task(task, _STATE["device"], make_baseline(brain, task, seed),
                              _STATE["out"] / brain / task.id, ocr_engine=_STATE["ocr"],
                              options=_STATE["options"])
            row.update(oracle=bool(result["su_oracle"]), rule=bool(result["su"]))
        except Exception as exc:
            row.update(oracle=False, rule=False, error=repr(exc))
        rows.append(row)
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--brains", default=None, help="comma-separated (default: every baseline)")
    ap.add_argument("--templates", default=None, help="comma-separated globs (default: all)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", type=Path, default=None, help="also write every verdict here")
    args = ap.parse_args()
    from droidpilot.bench.suite import suite_folder
    from droidpilot.bench.world import select_templates
    from droidpilot.bench.world.brains import BASELINES
    from droidpilot.bench.world.template import load_templates

    brains = args.brains.split(",") if args.brains else list(BASELINES)
    templates = [t.id for t in select_templates(load_templates(suite_folder("world")), args.templates)]
    seeds = [int(s) for s in args.seeds.split(",")]
    jobs = [(t, s, brains) for s in seeds for t in templates]
    started = time.monotonic()
    with mp.get_context("spawn").Pool(args.jobs, initializer=_init) as pool:
        rows = [r for rs in pool.imap_unordered(_job, jobs) for r in rs]
    errors = sum("error" in r for r in rows)
    print(f"{len(rows)} runs ({len(templates)} templates x {len(seeds)} seeds x {len(brains)} brains) on "
          f"{args.jobs} SimPhones in {time.monotonic() - started:.0f} s; errors {errors}")
    for brain in brains:
        rs = [r for r in rows if r["brain"] == brain]
        for judge in ("oracle", "rule"):
            print(f"{brain} Su by {judge}: {sum(r[judge] for r in rs) / len(rs):.2%} "
                  f"({sum(r[judge] for r in rs)}/{len(rs)})")
    for brain in brains:
        free: dict[str, int] = defaultdict(int)
        for r in rows:
            if r["brain"] == brain and (r["oracle"] or r["rule"]):
                free[r["template"]] += 1
        listed = ", ".join(f"{t} x{n}" for t, n in sorted(free.items()))
        print(f"{brain} passes on: {listed or '-'}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
