"""Cold `droidpilot verify` against MobiFlow's own verifier on the same traces, rules and OCR engine.

Every (rule, trace) pair is judged twice, each time by a new process with one worker:
  - droidpilot: ``droidpilot verify RULE TRACE --json --ocr ENGINE`` with an empty OCR cache
    (``DROIDPILOT_CACHE_DIR`` is a fresh folder for every run, so nothing is remembered between runs;
    the optimised OCR models, saved by an untimed first run, are kept in ``DROIDPILOT_ONNX_CACHE``);
  - MobiFlow: its command line, ``python universal_test_runner.py CONFIG TYPE:TRACE``, from a checkout you
    give with ``--mobiflow`` (MobiFlow is not on PyPI), configured OCR-only (no LLM), logging at WARNING.
The wall time of each process is measured around it; the table gives per-pair times, the medians over the
corpus, their ratio, and whether the two verdicts agree.

Same OCR. MobiFlow's OCR engine (tools/app_trajectory_analyzer/src/analyzer/ocr_engine.py) runs PaddleOCR
when it can import it, and Tesseract as a second "hybrid" pass on every screenshot. This script puts a
small stand-in package on MobiFlow's PYTHONPATH (written to a temporary folder; MobiFlow's files are not
touched):
  --ocr rapidocr   ``paddleocr.PaddleOCR`` is RapidOCR as shipped (the PP-OCR det/rec models droidpilot
                   also uses, with the text-direction classifier on, as MobiFlow asks PaddleOCR for), and
                   Tesseract is switched off so no second engine runs (the strict comparison);
  --ocr rapidocr --hybrid
                   the same PaddleOCR stand-in, with MobiFlow's OCR as it ships otherwise: when pytesseract
                   and the tesseract binary are installed (droidpilot's dev set-up installs both) MobiFlow
                   also reads every screenshot with Tesseract, its "hybrid" second pass;
  --ocr tesseract  PaddleOCR is switched off, so MobiFlow runs Tesseract (chi_sim+eng) for its primary and
                   its hybrid pass.

Corpus. Traces in MobiFlow's trace-folder format (``N.jpg``, ``actions.json``, ``react.json``) with their
rule as ``rule.yaml`` beside them, as ``droidpilot bench`` writes them: give folders of them with
``--traces``, or let the script record ``--record SUITE`` with the reference brain. The UI XML dumps are
left out of the copies both verifiers read (``--keep-xml`` keeps them): MobiFlow's escalate never reads
``xml`` and falls through to OCR, so without the dumps both verifiers decide every screen by OCR.
``--cross`` adds one negative pair per trace (the next trace's rule), which a verifier can only reject
after reading every screen.

    .venv/bin/python benchmarks/verify_vs_mobiflow.py --mobiflow ~/src/MobiAgent/MobiFlow
    .venv/bin/python benchmarks/verify_vs_mobiflow.py --mobiflow PATH --traces bench-out/traces --cross
    .venv/bin/python benchmarks/verify_vs_mobiflow.py --mobiflow PATH --traces bench-out/traces --hybrid
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

GET_MOBIFLOW = """MobiFlow is not on PyPI: give a checkout of it with --mobiflow PATH, e.g.
    git clone https://github.com/IPADS-SAI/MobiAgent && \\
    .venv/bin/python benchmarks/verify_vs_mobiflow.py --mobiflow MobiAgent/MobiFlow
PATH is the MobiFlow folder (it holds avdag/ and universal_test_runner.py) or the repository above it."""

# The stand-ins MobiFlow imports instead of paddleocr / paddle / pytesseract (see the module docstring).
RAPID_PADDLEOCR = '''"""PaddleOCR's place in MobiFlow's OCR engine: RapidOCR as shipped (benchmark only)."""
from rapidocr import RapidOCR


class PaddleOCR:
    def __init__(self, **_settings):
        self._ocr = RapidOCR(params={"Global.log_level": "error"})

    def predict(self, image):
        out = self._ocr(image)
        boxes = [] if out.boxes is None else [box.tolist() for box in out.boxes]
        return [{"rec_texts": list(out.txts or ()), "rec_scores": list(out.scores or ()),
                 "det_polygons": boxes}]
'''
PADDLE = '''"""paddle's device calls as MobiFlow's OCR engine makes them, on a CPU (benchmark only)."""
from types import SimpleNamespace

device = SimpleNamespace(is_compiled_with_cuda=lambda: False)


def set_device(name):
    return name
'''
SWITCHED_OFF = 'raise ImportError("{name} is off for this benchmark, so MobiFlow runs one OCR engine")\n'


@dataclass
class Pair:
    """One verification: a rule file and a trace folder, with what each side said and how long it took."""

    name: str
    rule: Path
    trace: Path
    frames: int
    ours_s: float = 0.0
    theirs_s: float = 0.0
    ours_cpu: float = 0.0
    theirs_cpu: float = 0.0
    ours: str = "?"
    theirs: str = "?"


def mobiflow_dir(path: Path) -> Path | None:
    """The MobiFlow folder in ``path`` (itself or ``path/MobiFlow``), or None when it is not there."""
    for candidate in (path, path / "MobiFlow"):
        runner, verifier = candidate / "universal_test_runner.py", candidate / "avdag" / "verifier.py"
        if runner.is_file() and verifier.is_file():
            return candidate
    return None


def write_shims(folder: Path, ocr: str, hybrid: bool = False) -> Path:
    """The stand-in packages for ``ocr`` under ``folder``; returns the folder to put on PYTHONPATH."""
    folder.mkdir(parents=True, exist_ok=True)
    files = {"paddle/__init__.py": PADDLE}
    if ocr == "rapidocr":
        files["paddleocr/__init__.py"] = RAPID_PADDLEOCR
        if not hybrid:
            files["pytesseract/__init__.py"] = SWITCHED_OFF.format(name="Tesseract")
    else:
        files["paddleocr/__init__.py"] = SWITCHED_OFF.format(name="PaddleOCR")
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text, encoding="utf-8")
    return folder


def record(suites: list[str], out: Path) -> list[Path]:
    """Run ``droidpilot bench --suite SUITE --brain reference`` for each suite into ``out``; the folders
    of trace folders they wrote."""
    folders = []
    for suite in suites:
        cmd = [*droidpilot_cmd(), "bench", "--suite", suite, "--brain", "reference",
               "--out", str(out / suite)]
        print(f"recording traces: {' '.join(cmd)}", file=sys.stderr)
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        folders.append(out / suite / "traces")
    return folders


def droidpilot_cmd() -> list[str]:
    script = Path(sys.executable).with_name("droidpilot")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "droidpilot"]


def build_corpus(sources: list[Path], dest: Path, keep_xml: bool, cross: bool, every: int = 1) -> list[Pair]:
    """Copy every ``every``-th trace folder with a rule.yaml under ``sources`` into ``dest`` (screenshots,
    actions, react; XML only with ``keep_xml``) and pair each with its rule (and, with ``cross``, with the
    next one's)."""
    traces = [t for src in sources for t in sorted({p.parent for p in src.glob("*/rule.yaml")})[::every]]
    if not traces:
        raise SystemExit(f"no trace folders with a rule.yaml under {', '.join(map(str, sources))}")
    (dest / "traces").mkdir(parents=True)
    (dest / "rules").mkdir()
    pairs: list[Pair] = []
    for src in traces:
        name = src.name if not src.name.isdigit() else f"t{src.name}"  # MobiFlow reads a number as TYPE/N
        folder = dest / "traces" / name
        folder.mkdir()
        for item in src.iterdir():
            keep = item.name in ("actions.json", "react.json") or (
                item.stem.isdigit() and (item.suffix == ".jpg" or (keep_xml and item.suffix == ".xml")))
            if keep:
                shutil.copy2(item, folder / item.name)
        rule = dest / "rules" / f"{name}.yaml"
        shutil.copy2(src / "rule.yaml", rule)
        pairs.append(Pair(name, rule, folder, len(list(folder.glob("*.jpg")))))
    if cross and len(pairs) > 1:
        pairs += [Pair(f"{p.name} x {q.name}", q.rule, p.trace, p.frames)
                  for p, q in zip(pairs, pairs[1:] + pairs[:1], strict=True)]
    return pairs


def tesseract_ready(python: str) -> bool:
    """Whether ``python`` imports pytesseract and the tesseract binary answers."""
    probe = "import pytesseract; pytesseract.get_tesseract_version()"
    return subprocess.run([python, "-c", probe], capture_output=True, check=False).returncode == 0


def timed(cmd: list[str], env: dict[str, str], cwd: Path
          ) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """Wall and CPU seconds (user + system of the child) of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc


def run_ours(pair: Pair, ocr: str, work: Path) -> tuple[float, float, str]:
    cache = Path(tempfile.mkdtemp(prefix="ocr-cache-", dir=work))
    # The OCR cache is empty every run; the optimised models (perception/onnx_cache.py) are kept in a
    # folder of their own, as a user's second run finds them (the untimed first run saves them).
    env = {**os.environ, "DROIDPILOT_CACHE_DIR": str(cache),
           "DROIDPILOT_ONNX_CACHE": str(work / "optimised-models")}
    cmd = [*droidpilot_cmd(), "verify", str(pair.rule), str(pair.trace), "--json", "--ocr", ocr]
    wall, cpu, proc = timed(cmd, env, work)
    shutil.rmtree(cache, ignore_errors=True)
    if proc.returncode not in (0, 1):
        return wall, cpu, f"error: {proc.stderr.strip().splitlines()[-1:] or proc.returncode}"
    result = json.loads(proc.stdout)
    verdict = "pass" if result["ok"] else "fail"
    return wall, cpu, verdict + ("?" if result.get("manual_review_needed") else "")


def run_theirs(pair: Pair, mobiflow: Path, shims: Path, python: str, work: Path) -> tuple[float, float, str]:
    run_dir = Path(tempfile.mkdtemp(prefix="mobiflow-run-", dir=work))
    config = {
        "task_name": "bench", "rules_base_dir": str(pair.rule.parent),
        "data_base_dir": str(pair.trace.parent),
        "task_types": {"t": {"name": "t", "rule_file": pair.rule.name}},
        "test_options": {"enable_ocr": True, "enable_llm": False},
        "logging": {"level": "WARNING", "use_colors": False, "output_file": str(run_dir / "mobiflow.log")},
        "output": {"summary_file": str(run_dir / "summary.txt"),
                   "detailed_results_file": str(run_dir / "detailed.json")},
    }
    (run_dir / "config.json").write_text(json.dumps(config), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(shims), str(mobiflow)])}
    cmd = [python, str(mobiflow / "universal_test_runner.py"), str(run_dir / "config.json"),
           f"t:{pair.trace.name}"]
    wall, cpu, proc = timed(cmd, env, run_dir)
    try:
        detail = json.loads((run_dir / "detailed.json").read_text(encoding="utf-8"))
        row = detail["summary"]["all_results"][0]
        verdict = f"error: {row['error_message']}" if row.get("error_message") else (
            "pass" if row["success"] else "fail")
    except (OSError, KeyError, IndexError, ValueError):
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:]
        verdict = f"error: {tail or proc.returncode}"
    shutil.rmtree(run_dir, ignore_errors=True)
    return wall, cpu, verdict


def measure(mobiflow: Path, traces: list[Path], suites: list[str], ocr: str = "rapidocr", *,
            hybrid: bool = False, keep_xml: bool = False, cross: bool = False, every: int = 1, limit: int = 0,
            python: str = sys.executable, progress: bool = True) -> list[Pair]:
    """Judge every (rule, trace) pair with both verifiers, a cold process each; the pairs with their times
    and verdicts. ``traces`` are folders of trace folders; without them ``suites`` are recorded first."""
    with tempfile.TemporaryDirectory(prefix="verify-vs-mobiflow-") as tmp:
        work = Path(tmp)
        sources = traces or record(suites, work / "recorded")
        pairs = build_corpus(sources, work / "corpus", keep_xml, cross, max(1, every))
        if limit > 0:
            pairs = pairs[:limit]
        shims = write_shims(work / "shims", ocr, hybrid)
        # One untimed run of each side first: compiled bytecode and the libraries in the page cache.
        run_ours(pairs[0], ocr, work)
        run_theirs(pairs[0], mobiflow, shims, python, work)
        for i, pair in enumerate(pairs, 1):
            pair.ours_s, pair.ours_cpu, pair.ours = run_ours(pair, ocr, work)
            pair.theirs_s, pair.theirs_cpu, pair.theirs = run_theirs(pair, mobiflow, shims, python, work)
            if progress:
                print(f"[{i}/{len(pairs)}] {pair.name}: droidpilot {pair.ours_s:.2f} s ({pair.ours}), "
                      f"MobiFlow {pair.theirs_s:.2f} s ({pair.theirs})", file=sys.stderr)
    return pairs


def speedup(pairs: list[Pair]) -> float:
    """How many times faster droidpilot is: MobiFlow's median wall time over droidpilot's."""
    return statistics.median(p.theirs_s for p in pairs) / statistics.median(p.ours_s for p in pairs)


def print_table(pairs: list[Pair], ocr: str, mobiflow: Path, hybrid: bool = False) -> None:
    theirs = " (MobiFlow also runs its Tesseract pass, as shipped)" if hybrid else ""
    print(f"MobiFlow: {mobiflow}; OCR on both sides: {ocr}{theirs}; one worker; a new process per "
          "verification; droidpilot's OCR cache empty every run (its optimised models kept)")
    print(f"{'pair':<24} {'frames':>6} {'droidpilot s':>12} {'MobiFlow s':>10} {'ratio':>6} "
          f"{'cpu: ours':>9} {'theirs':>7} {'ratio':>6}  verdicts (ours/theirs)")
    for p in pairs:
        agree = "agree" if p.ours.rstrip("?") == p.theirs else "DIFFER"
        print(f"{p.name[:24]:<24} {p.frames:>6} {p.ours_s:>12.2f} {p.theirs_s:>10.2f} "
              f"{p.theirs_s / p.ours_s:>5.1f}x {p.ours_cpu:>9.2f} {p.theirs_cpu:>7.2f} "
              f"{p.theirs_cpu / p.ours_cpu:>5.1f}x  {p.ours}/{p.theirs} {agree}")
    ours = statistics.median(p.ours_s for p in pairs)
    theirs = statistics.median(p.theirs_s for p in pairs)
    ours_cpu = statistics.median(p.ours_cpu for p in pairs)
    theirs_cpu = statistics.median(p.theirs_cpu for p in pairs)
    per_pair = statistics.median(p.theirs_s / p.ours_s for p in pairs)
    agree = sum(p.ours.rstrip("?") == p.theirs for p in pairs)
    print(f"median wall: droidpilot {ours:.2f} s, MobiFlow {theirs:.2f} s -> {speedup(pairs):.1f}x faster "
          f"(median of per-pair ratios {per_pair:.1f}x)")
    print(f"median cpu:  droidpilot {ours_cpu:.2f} s, MobiFlow {theirs_cpu:.2f} s -> "
          f"{theirs_cpu / ours_cpu:.1f}x")
    print(f"verdicts agree on {agree}/{len(pairs)} pairs "
          f"(droidpilot passes {sum(p.ours.startswith('pass') for p in pairs)}, "
          f"MobiFlow passes {sum(p.theirs == 'pass' for p in pairs)})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mobiflow", type=Path, help="A MobiFlow checkout (MobiFlow folder or repo).")
    parser.add_argument("--traces", type=Path, action="append", default=[],
                        help="A folder of trace folders, each with its rule.yaml (repeatable).")
    parser.add_argument("--record", action="append", default=[],
                        help="Without --traces: a suite to record with the reference brain (repeatable; "
                             "default mobile-eval).")
    parser.add_argument("--every", type=int, default=1, help="Take every N-th trace of each source.")
    parser.add_argument("--ocr", choices=("rapidocr", "tesseract"), default="rapidocr")
    parser.add_argument("--hybrid", action="store_true",
                        help="With --ocr rapidocr: leave MobiFlow's second, Tesseract pass on, as it ships.")
    parser.add_argument("--keep-xml", action="store_true", help="Keep the UI XML dumps in the traces.")
    parser.add_argument("--cross", action="store_true", help="Add one negative pair per trace.")
    parser.add_argument("--limit", type=int, default=0, help="Measure only the first N pairs.")
    parser.add_argument("--python", default=sys.executable, help="The Python that runs MobiFlow.")
    args = parser.parse_args(argv)
    mobiflow = mobiflow_dir(args.mobiflow) if args.mobiflow else None
    if mobiflow is None:
        where = f"{args.mobiflow} holds no MobiFlow checkout. " if args.mobiflow else ""
        print(where + GET_MOBIFLOW, file=sys.stderr)
        return 2
    if args.hybrid and args.ocr == "rapidocr" and not tesseract_ready(args.python):
        print("--hybrid needs pytesseract in the Python that runs MobiFlow and the tesseract binary "
              "(`make venv` and `make system-deps` install both)", file=sys.stderr)
        return 2
    pairs = measure(mobiflow, args.traces, args.record or ["mobile-eval"], args.ocr, hybrid=args.hybrid,
                    keep_xml=args.keep_xml, cross=args.cross, every=args.every, limit=args.limit,
                    python=args.python)
    print_table(pairs, args.ocr, mobiflow, args.hybrid and args.ocr == "rapidocr")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
