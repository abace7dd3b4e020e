"""The reference run of every world template, judged by the oracle with side effects: which templates'
reference leaves a change the effects do not allow (a finding about the incidental list or a template's
declarations), and which fail their oracle. No verifier run: only the agent loop, the oracle and effects.

    .venv/bin/python benchmarks/world_effects.py --seeds 0 --jobs 2 [--templates 'clock-*,bank-*']
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

_STATE: dict[str, Any] = {}


def _init() -> None:
    from droidpilot.device.sim.phone import SimDevice
    from droidpilot.perception.cache import cached
    from droidpilot.perception.ocr import make_ocr_engine

    _STATE.update(device=SimDevice(), ocr=cached(make_ocr_engine("rapidocr")), out=Path(tempfile.mkdtemp()))


def _job(args: tuple[str, int]) -> dict[str, Any]:
    from droidpilot.agent.loop import Agent, Limits
    from droidpilot.bench import oracle as oracle_lang
    from droidpilot.bench.execute import _reset, start_state
    from droidpilot.bench.reference import ReferenceBrain
    from droidpilot.bench.suite import load_suite

    template, seed = args
    try:
        task = load_suite("world", seed=seed, templates=template).tasks[0]
        device = _STATE["device"]
        _reset(device, task, task.seed)
        start = start_state(device)
        limit = task.step_limit()
        agent = Agent(device, ReferenceBrain(task.reference), ocr_engine=_STATE["ocr"],
                      out_dir=_STATE["out"] / task.id, language=task.lang,
                      limits=Limits(max_steps=limit, max_model_calls=3 * limit + 10), app_name=task.apps[0])
        run = agent.run(task.instruction)
        state = {**(run.final_state or {}), "agent": {"answer": run.answer}}
        result = oracle_lang.evaluate(task.oracle, state, start=start, effects=task.effects)
        effects = result.effects.to_dict() if result.effects else {}
        checks_ok = all(c["ok"] for c in result.checks) if result.checks else True
        return {"template": template, "seed": seed, "kind": task.kind, "ok": result.ok,
                "termination": run.termination, "checks_ok": checks_ok,
                "failed_checks": [c for c in result.checks if not c["ok"]],
                "effects_problems": effects.get("problems", []), "changes": effects.get("changes", [])}
    except Exception as exc:  # a crashed run is reported, not fatal
        return {"template": template, "seed": seed, "ok": False, "error": repr(exc)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="0")
    ap.add_argument("--templates", default=None, help="comma-separated globs (default: all)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", type=Path, default=None, help="also write every verdict here")
    args = ap.parse_args()
    from droidpilot.bench.suite import load_suite

    jobs = [(t.template, seed) for seed in (int(s) for s in args.seeds.split(","))
            for t in load_suite("world", seed=seed, templates=args.templates).tasks]
    started = time.monotonic()
    with mp.get_context("spawn").Pool(args.jobs, initializer=_init) as pool:
        rows = list(pool.imap_unordered(_job, jobs))
    rows.sort(key=lambda r: (r["template"], r["seed"]))
    bad = [r for r in rows if not r["ok"]]
    for r in bad:
        print(f"FAIL {r['template']} seed {r['seed']} ({r.get('termination', '')}):")
        for p in r.get("effects_problems", []):
            print(f"    effects: {p}")
        for c in r.get("failed_checks", []):
            print(f"    check: {c['path']} {c['op']} {c['expected']!r}: {c['actual']} {c.get('why', '')}")
        if r.get("error"):
            print(f"    error: {r['error']}")
    print(f"{len(rows) - len(bad)}/{len(rows)} reference runs pass oracle and effects "
          f"({time.monotonic() - started:.0f} s)")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1, default=str), encoding="utf-8")
    return 0 if not bad else 1


if __name__ == "__main__":
    sys.exit(main())
