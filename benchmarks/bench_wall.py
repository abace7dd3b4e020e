"""Wall time of the reference run of a suite with N = 1 and N = 2 SimPhones (one worker process each).

    .venv/bin/python benchmarks/bench_wall.py [--suite mobile-eval] [--tasks ID,...] [--devices 1,2] [--cold]

Prints one line per N: wall seconds, tasks, how many passed rule and oracle. The OCR cache is the
persistent one (screens recognised before are not recognised again); ``--cold`` gives each N an empty
cache of its own, so the figure includes every OCR call.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from droidpilot.bench.runner import run_suite
from droidpilot.bench.worker import RunConfig


def main() -> int:
    """Time the reference run for each requested number of SimPhones and print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="mobile-eval")
    parser.add_argument("--tasks", default="", help="comma-separated task ids (default: all)")
    parser.add_argument("--devices", default="1,2", help="comma-separated numbers of SimPhones to time")
    parser.add_argument("--cold", action="store_true", help="an empty OCR cache for each run")
    args = parser.parse_args()
    ids = [t for t in args.tasks.split(",") if t] or None
    with tempfile.TemporaryDirectory(prefix="bench-wall-") as tmp:
        for n in (int(x) for x in args.devices.split(",") if x):
            if args.cold:
                os.environ["DROIDPILOT_CACHE_DIR"] = str(Path(tmp) / f"cache-{n}")
            out = Path(tmp) / f"run-{n}"
            outcome = run_suite(RunConfig(suite=args.suite, brain="reference", out=out), ["sim"] * n,
                                task_ids=ids)
            rows = outcome.rows
            rule = sum(1 for r in rows if r.get("su"))
            oracle = sum(1 for r in rows if r.get("su_oracle"))
            errors = sum(1 for r in rows if r.get("error"))
            print(f"reference run, {n} SimPhone(s){' (cold OCR cache)' if args.cold else ''}: "
                  f"{outcome.seconds:.1f} s wall for {len(rows)} tasks; rule passed {rule}, oracle passed "
                  f"{oracle}, errors {errors}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
