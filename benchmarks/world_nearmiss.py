"""The world suite's near-miss set judged three ways: every case of tests/bench/world/nearmiss.yaml replayed
through the agent loop on SimPhone, judged by the oracle, by the rule with UI dumps and by the rule from
screenshots alone (OCR); one figure per line: how many cases each judge gets right (wrong completions
failed, right ones passed), then the cases each judge gets wrong.

    .venv/bin/python benchmarks/world_nearmiss.py --jobs 2
    .venv/bin/python benchmarks/world_nearmiss.py --no-ocr --cases 'bank-*'
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import multiprocessing as mp
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

CASES = Path(__file__).resolve().parents[1] / "tests" / "bench" / "world" / "nearmiss.yaml"
_STATE: dict[str, Any] = {}


def _init(ocr: bool) -> None:
    from droidpilot.device.sim.phone import SimDevice
    from droidpilot.perception.cache import cached
    from droidpilot.perception.ocr import make_ocr_engine
    from droidpilot.verify.setup import VerifierChoices, build_options

    _STATE.update(device=SimDevice(), ocr=cached(make_ocr_engine("rapidocr")), use_ocr=ocr,
                  options=build_options(VerifierChoices(ocr="rapidocr")), out=Path(tempfile.mkdtemp()))


def _job(case_id: str) -> dict[str, Any]:
    from droidpilot.bench.world.nearmiss import judge_ocr, load_cases, play

    case = next(c for c in load_cases(_STATE["cases"]) if c.id == case_id)
    row: dict[str, Any] = {"case": case.id, "template": case.template, "expect": case.expect,
                           "known": case.known}
    try:
        played = play(case, _STATE["device"], _STATE["out"] / case.id, ocr_engine=_STATE["ocr"],
                      options=_STATE["options"])
        row.update(oracle=played.oracle, rule=played.rule, termination=played.termination,
                   answer=played.answer, broken=played.broken, finished=played.finished)
        if _STATE["use_ocr"]:
            row["rule_ocr"] = judge_ocr(played, _STATE["options"])
    except Exception as exc:  # a case that cannot be played is reported, not fatal
        row["error"] = f"{type(exc).__name__}: {exc}"
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--file", type=Path, default=CASES)
    ap.add_argument("--cases", default="*", help="comma-separated globs of case ids")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-ocr", action="store_true", help="skip the judge from screenshots alone")
    ap.add_argument("--json", type=Path, default=None, help="also write every verdict here")
    args = ap.parse_args()
    from droidpilot.bench.world.nearmiss import JUDGES, load_cases

    globs = [g.strip() for g in args.cases.split(",") if g.strip()]
    cases = [c for c in load_cases(args.file) if any(fnmatch.fnmatchcase(c.id, g) for g in globs)]
    _STATE["cases"] = args.file
    started = time.monotonic()
    ctx = mp.get_context("fork")  # the workers inherit the case file's path
    with ctx.Pool(args.jobs, initializer=_init, initargs=(not args.no_ocr,)) as pool:
        rows = list(pool.imap_unordered(_job, [c.id for c in cases]))
    rows.sort(key=lambda r: r["case"])
    judges = [j for j in JUDGES if not (args.no_ocr and j == "rule_ocr")]
    wrong = sum(c.expect == "fail" for c in cases)
    print(f"cases {len(cases)} ({wrong} wrong completions, {len(cases) - wrong} right ones) over "
          f"{len({c.template for c in cases})} templates, in {time.monotonic() - started:.0f} s")
    for row in rows:
        if "error" in row:
            print(f"error {row['case']}: {row['error']}")
        elif row["broken"] or not row["finished"]:  # the case does not test what it says
            print(f"replay broken {row['case']}: ended {row['termination']}, not carried out {row['broken']}")
    for judge in judges:
        for expect in ("fail", "pass"):
            rs = [r for r in rows if r["expect"] == expect and "error" not in r]
            ok = sum((r[judge] is True) == (expect == "pass") for r in rs)
            print(f"{judge} right on {'wrong' if expect == 'fail' else 'right'} completions: {ok}/{len(rs)}")
        rs = [r for r in rows if "error" not in r]
        ok = sum((r[judge] is True) == (r["expect"] == "pass") for r in rs)
        print(f"{judge} right overall: {ok}/{len(rs)}")
    for judge in judges:
        bad = [r["case"] for r in rows if "error" not in r and (r[judge] is True) != (r["expect"] == "pass")]
        print(f"{judge} wrong on: {', '.join(bad) or '-'}")
    stale = [f"{r['case']}:{j}" for r in rows for j in judges
             if "error" not in r and j in r["known"] and (r[j] is True) == (r["expect"] == "pass")]
    print(f"known failures now judged right (delete from known_failures): {', '.join(stale) or '-'}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
