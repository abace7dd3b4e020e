"""Rule-oracle agreement on the world suite with a real (if simple) agent: the heuristic brain runs every
template x seed on SimPhone, and each run is judged by the oracle (the final state) and by the generated
MobiFlow-format rule with UI dumps (optionally also from screenshots alone). One figure per line:
agreement per seed and overall, the pass rates, then every disagreement as (template, seed, verdicts) with
the oracle's reason, so each can be looked into.

    .venv/bin/python benchmarks/world_agreement.py --seeds 0,1,2 --jobs 2
    .venv/bin/python benchmarks/world_agreement.py --seeds 0 --templates 'notes-*' --ocr
    .venv/bin/python benchmarks/world_agreement.py --traces /tmp/tmpXXXX   # re-read runs already made

Each worker keeps its traces in a temporary folder (printed at the start); ``--traces`` reads such folders
again (the verdicts in oracle.json / verify.json / run.json), so an interrupted run is not lost.
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


def _init(ocr: bool) -> None:
    from droidpilot.device.sim.phone import SimDevice
    from droidpilot.perception.cache import cached
    from droidpilot.perception.ocr import make_ocr_engine
    from droidpilot.verify.setup import VerifierChoices, build_options

    _STATE.update(device=SimDevice(), ocr=cached(make_ocr_engine("rapidocr")), use_ocr=ocr,
                  options=build_options(VerifierChoices(ocr="rapidocr")), out=Path(tempfile.mkdtemp()))
    print(f"traces in {_STATE['out']}", flush=True)


def _read(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def from_trace(folder: Path) -> dict[str, Any] | None:
    """The verdicts of one finished run folder (TEMPLATE-SEED-K), as the benchmark row, else None."""
    template, seed, _ = folder.name.rsplit("-", 2)
    run = _read(folder / "run.json")
    if run.get("status") != "finished" or not (folder / "oracle.json").is_file():
        return None
    finished = run.get("termination") == "completed"  # Su needs the verdict and a completed run
    oracle = bool(_read(folder / "oracle.json").get("ok"))
    rule = bool(_read(folder / "verify.json").get("ok"))
    return {"template": template, "seed": int(seed), "kind": "?", "trace": str(folder), "why": _why(folder),
            "oracle": finished and oracle, "rule": finished and rule, "rule_ocr": False,
            "state_oracle": oracle, "state_rule": rule}


def _why(folder: Path) -> str:
    """The oracle's first failed check or side-effect problem (oracle.json), or '' when it passed."""
    path = folder / "oracle.json"
    if not path.is_file():
        return "no oracle.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    problems = (doc.get("effects") or {}).get("problems") or []
    failed = [f"{c['path']} {c['op']} {c['expected']!r}: {c.get('why') or c['actual']}"
              for c in doc.get("checks", []) if not c.get("ok")]
    return "; ".join([*failed, *problems])[:300]


def _job(args: tuple[str, int]) -> dict[str, Any]:
    from droidpilot.bench.suite import load_suite
    from droidpilot.bench.world.validate import brain_for, judge_run

    template, seed = args
    row: dict[str, Any] = {"template": template, "seed": seed}
    try:  # only this template is instantiated, so a run survives edits to other template files
        task = load_suite("world", seed=seed, templates=template).tasks[0]
        folder = _STATE["out"] / task.id
        v = judge_run(task, brain_for(task, "heuristic", seed), _STATE["device"], folder,
                      ocr_engine=_STATE["ocr"], options=_STATE["options"], mode="heuristic",
                      ocr=_STATE["use_ocr"])
        row.update(from_trace(folder) or {}, kind=task.kind, oracle=v.oracle, rule=v.rule,
                   rule_ocr=v.rule_ocr)
    except Exception as exc:  # a crashed run is reported, not fatal
        row["error"] = f"{type(exc).__name__}: {exc}"
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--templates", default=None, help="comma-separated globs (default: all)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--ocr", action="store_true", help="also judge by the rule from screenshots alone")
    ap.add_argument("--json", type=Path, default=None, help="also write every verdict here")
    ap.add_argument("--traces", type=Path, nargs="*", default=None,
                    help="read the runs in these folders instead of running (no --ocr)")
    args = ap.parse_args()
    if args.traces:
        found = [from_trace(d) for root in args.traces for d in sorted(root.iterdir()) if d.is_dir()]
        rows = [r for r in found if r is not None]
        seeds = sorted({r["seed"] for r in rows})
        print(f"{len(rows)} finished heuristic runs read from {len(args.traces)} folder(s)")
        report(rows, seeds, ["rule"], args.json)
        return 0
    from droidpilot.bench.suite import suite_folder
    from droidpilot.bench.world import select_templates
    from droidpilot.bench.world.template import load_templates

    templates = [t.id for t in select_templates(load_templates(suite_folder("world")), args.templates)]
    seeds = [int(s) for s in args.seeds.split(",")]
    started = time.monotonic()
    with mp.get_context("spawn").Pool(args.jobs, initializer=_init, initargs=(args.ocr,)) as pool:
        rows = list(pool.imap_unordered(_job, [(t, s) for s in seeds for t in templates]))
    print(f"{len(rows)} heuristic runs ({len(templates)} templates x {len(seeds)} seeds) on {args.jobs} "
          f"SimPhones in {time.monotonic() - started:.0f} s; errors {sum('error' in r for r in rows)}")
    report(rows, seeds, ["rule", "rule_ocr"] if args.ocr else ["rule"], args.json)
    return 0


def report(rows: list[dict[str, Any]], seeds: list[int], rules: list[str], out: Path | None) -> None:
    """Agreement per seed and overall, then every disagreement and every error; ``out``: the rows."""
    rows.sort(key=lambda r: (r["seed"], r["template"]))
    judged = [r for r in rows if "error" not in r]
    for rule in rules:
        for seed in [*seeds, None]:
            rs = [r for r in judged if seed is None or r["seed"] == seed]
            agree = sum(r[rule] == r["oracle"] for r in rs)
            label = "overall" if seed is None else f"seed {seed}"
            print(f"{rule}-oracle agreement {label}: {agree / max(len(rs), 1):.3f} ({agree}/{len(rs)}); "
                  f"Su by oracle {sum(r['oracle'] for r in rs)}, by {rule} {sum(r[rule] for r in rs)}")
    # the verdicts on the final state whatever the ending (a run that did not stop by itself is no Su, so
    # on Su terms two judges agree on it trivially)
    raw = [r for r in judged if "state_oracle" in r]
    agree = sum(r["state_rule"] == r["state_oracle"] for r in raw)
    print(f"verdict agreement whatever the ending: {agree / max(len(raw), 1):.3f} ({agree}/{len(raw)}); "
          f"oracle passes {sum(r['state_oracle'] for r in raw)}, "
          f"rule passes {sum(r['state_rule'] for r in raw)}")
    for r in judged:
        if any(r[rule] != r["oracle"] for rule in rules) or r.get("state_rule") != r.get("state_oracle"):
            said = ", ".join(f"{j} {'pass' if r.get(j) else 'fail'}"
                             for j in ["oracle", *rules, "state_oracle", "state_rule"])
            print(f"disagree {r['template']} seed {r['seed']} ({r['kind']}): {said}; "
                  f"oracle: {r['why'] or '-'}; trace {r['trace']}")
    for r in rows:
        if "error" in r:
            print(f"error {r['template']} seed {r['seed']}: {r['error']}")
    if out:
        out.write_text(json.dumps(rows, indent=1), encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
