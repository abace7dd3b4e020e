"""The world suite's full validation and figures: template and app counts by kind and tier, then every
instance run in the given modes on N SimPhones (processes), with pass rates per mode and the rule-oracle
agreement from screenshots only (OCR) over the reference, truncated and wrong-final runs.

    .venv/bin/python benchmarks/world_validate.py --seeds 0 --modes reference,truncated,wrong_final --jobs 2
    .venv/bin/python benchmarks/world_validate.py --seeds 0,1,2 --modes heuristic --jobs 2
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

_STATE: dict[str, Any] = {}


def _init() -> None:
    from droidpilot.device.sim.phone import SimDevice
    from droidpilot.perception.cache import cached
    from droidpilot.perception.ocr import make_ocr_engine
    from droidpilot.verify.setup import VerifierChoices, build_options

    _STATE.update(
        device=SimDevice(),
        ocr=cached(make_ocr_engine("rapidocr")),
        options=build_options(VerifierChoices(ocr="rapidocr")),
        out=Path(tempfile.mkdtemp()),
    )


def _job(args: tuple[str, int, str]) -> dict[str, Any]:
    from droidpilot.bench.suite import load_suite
    from droidpilot.bench.world.validate import run_mode

    template, seed, mode = args
    try:  # only this template is instantiated, so a run survives edits to other template files
        task = load_suite("world", seed=seed, templates=template).tasks[0]
        v = run_mode(task, mode, _STATE["device"], _STATE["out"] / mode / task.id, ocr_engine=_STATE["ocr"],
                     options=_STATE["options"], seed=seed).to_dict()
        info = {"kind": task.kind, "tier": task.tier}
    except Exception as exc:  # a crashed run is a failed run, reported
        v = {"task": f"{template}-{seed}-0", "mode": mode, "oracle": False, "rule": False, "rule_ocr": False,
             "error": repr(exc)}
        info = {"kind": "?", "tier": "?"}
    return {**v, **info, "template": template, "seed": seed}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="0")
    ap.add_argument("--modes", default="reference,truncated,wrong_final,do_nothing,random")
    ap.add_argument("--templates", default=None, help="comma-separated globs (default: all)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", type=Path, default=None, help="also write every verdict here")
    args = ap.parse_args()
    from droidpilot.bench.suite import load_suite, suite_folder
    from droidpilot.bench.world.check import check_suite

    report = check_suite(suite_folder("world"), (0, 1, 2))
    print(
        f"templates {report.templates}; apps {len(report.apps)}; instances checked {report.instances}; "
        f"problems {len(report.problems)}; solved at start {len(report.satisfied_at_start)}"
    )
    print("by kind:", dict(sorted(report.kinds.items())))
    print("by tier:", dict(sorted(report.tiers.items())))
    print("by app:", dict(sorted(report.apps.items())))
    seeds = [int(s) for s in args.seeds.split(",")]
    modes = args.modes.split(",")
    jobs = [
        (t.template, seed, mode)
        for seed in seeds
        for t in load_suite("world", seed=seed, templates=args.templates).tasks
        for mode in modes
    ]
    started = time.monotonic()
    with mp.get_context("spawn").Pool(args.jobs, initializer=_init) as pool:
        rows = list(pool.imap_unordered(_job, jobs))
    wall = time.monotonic() - started
    print(f"\n{len(rows)} runs on {args.jobs} SimPhones in {wall:.0f} s")
    for mode in modes:
        rs = [r for r in rows if r["mode"] == mode]
        n = len(rs)
        print(
            f"{mode:12s} n={n:4d}  oracle {sum(r['oracle'] for r in rs) / n:6.1%}  "
            f"rule {sum(r['rule'] for r in rs) / n:6.1%}  "
            f"rule(OCR only) {sum(r['rule_ocr'] for r in rs) / n:6.1%}"
        )
        if mode in ("reference", "heuristic"):
            for key in ("tier", "kind"):
                groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
                for r in rs:
                    groups[r[key]].append(r)
                parts = []
                for g, items in sorted(groups.items()):
                    per_seed = [
                        statistics.mean(r["rule"] for r in items if r["seed"] == s)
                        for s in seeds
                        if any(r["seed"] == s for r in items)
                    ]
                    spread = f"±{statistics.pstdev(per_seed):.0%}" if len(per_seed) > 1 else ""
                    parts.append(f"{g} {statistics.mean(per_seed):.0%}{spread} (n={len(items)})")
                print(f"   Su by {key}: " + "; ".join(parts))
        failed = [r["task"] for r in rs if mode == "reference" and not (r["oracle"] and r["rule_ocr"])]
        if failed:
            print("   reference failures:", ", ".join(sorted(failed)))
    judged = [r for r in rows if r["mode"] in ("reference", "truncated", "wrong_final")]
    if judged:
        agree = Counter(r["rule_ocr"] == r["oracle"] for r in judged)
        print(
            f"rule (OCR only) vs oracle agreement on reference/truncated/wrong-final: "
            f"{agree[True] / len(judged):.3f} (n={len(judged)})"
        )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
