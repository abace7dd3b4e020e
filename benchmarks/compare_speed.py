"""How long a 200-task run diff takes: ``droidpilot bench compare`` (compare.html plus one side-by-side page
per task) and opening the pages in headless Chromium.

Two runs of 200 tasks are written by the real results writer; every task has a trace folder (two real
SimPhone recordings of 4 and 6 steps, hard-linked so the runs cost little disk). A fifth of the tasks
change between the runs (fixed, broken, cause changed).

Run: ``.venv/bin/python benchmarks/compare_speed.py [--tasks N]``. Prints one figure per line. Needs the
distribution's chromium (/usr/bin/chromium).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright
from typer.testing import CliRunner

from droidpilot.bench.results import write_results
from droidpilot.cli import _discover, app
from droidpilot.device.sim.phone import SimDevice
from droidpilot.studio.manual import execute, resolve
from droidpilot.studio.recording import Recording

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
VIEW = {"view_w": 1080, "view_h": 2400}
PLAIN = [{"op": "open_app", "app": "Notes"}, {"op": "click", "x": 935, "y": 2120, **VIEW},
         {"op": "type", "text": "Hello"}, {"op": "click", "x": 984, "y": 188, **VIEW}]
DETOUR = [PLAIN[0], {"op": "key", "key": "recents"}, {"op": "key", "key": "back"}, *PLAIN[1:]]


def _record(folder: Path, ops: list[dict[str, Any]]) -> Path:
    phone = SimDevice()
    rec = Recording(folder, "Write a note.", {"serial": phone.serial})
    for op in ops:
        before, xml = phone.screenshot(), phone.ui_xml()
        manual = resolve(op, phone.size())
        execute(phone, manual)
        rec.add(before, xml, manual)
    rec.stop(phone.screenshot(), phone.ui_xml())
    return folder


def _row(tid: str, su: int, cause: str) -> dict[str, Any]:
    return {"id": tid, "suite": "speed", "level": 1 + int(tid[-1]) % 3, "app": "notes", "scenario": "notes",
            "instruction": f"Task {tid}.", "su": su, "su_oracle": su, "steps": 4,
            "termination": "completed" if su else "max_steps", "failure": cause, "failure_reason": cause,
            "trace": f"traces/{tid}"}


def make_runs(root: Path, tasks: int) -> tuple[Path, Path]:
    plain, detour = _record(root / "src" / "plain", PLAIN), _record(root / "src" / "detour", DETOUR)
    runs = []
    for name in ("run-a", "run-b"):
        rows = []
        for i in range(tasks):
            tid = f"task-{i:03d}"
            kind = i % 10
            if name == "run-a":
                su, cause = (0, "max steps") if kind in (0, 2) else (1, "")
            else:
                su, cause = {0: (1, ""), 1: (0, "wrong stop"), 2: (0, "could not ground")}.get(kind, (1, ""))
            rows.append(_row(tid, su, cause))
            source = detour if name == "run-b" and kind < 5 else plain
            shutil.copytree(source, root / name / "traces" / tid, copy_function=os.link)
        write_results(root / name, {"suite": "speed", "brain": "replay", "model": name,
                                    "settings": {"max_steps": 20 if name == "run-a" else 30}}, rows)
        runs.append(root / name)
    return runs[0], runs[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=200, help="Tasks in each run.")
    parser.add_argument("--rounds", type=int, default=5, help="Page loads per figure.")
    args = parser.parse_args()
    _discover()
    with tempfile.TemporaryDirectory() as tmp:
        run_a, run_b = make_runs(Path(tmp), args.tasks)
        start = time.perf_counter()
        result = CliRunner().invoke(app, ["bench", "compare", str(run_a), str(run_b)])
        command = time.perf_counter() - start
        if result.exit_code != 0:
            raise SystemExit(result.output)
        pages = len(list((run_b / "compare-tasks").glob("*.html")))
        size = (run_b / "compare.html").stat().st_size
        print(f"bench compare, {args.tasks} tasks: {command:.2f} s (compare.html {size / 1024:.0f} KiB and "
              f"{pages} side-by-side pages)")
        loads, pair_loads = [], []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 1366, "height": 768})
            for _ in range(args.rounds):
                t0 = time.perf_counter()
                page.goto((run_b / "compare.html").as_uri(), wait_until="load")
                page.wait_for_selector("#diff tr[data-change]")
                loads.append(time.perf_counter() - t0)
                changed = page.locator("#diff tr[data-change]").count()
                t0 = time.perf_counter()
                page.goto((run_b / "compare-tasks" / "task-001.html").as_uri(), wait_until="load")
                page.wait_for_selector("#first-divergence")
                pair_loads.append(time.perf_counter() - t0)
            browser.close()
    print(f"open compare.html in Chromium (to load, changed tasks shown): median "
          f"{statistics.median(loads) * 1000:.0f} ms, max {max(loads) * 1000:.0f} ms (n={len(loads)}; "
          f"{changed} changed tasks listed first)")
    print(f"open one task's side-by-side page: median {statistics.median(pair_loads) * 1000:.0f} ms, max "
          f"{max(pair_loads) * 1000:.0f} ms (n={len(pair_loads)})")


if __name__ == "__main__":
    main()
