"""Does sharing an unfinished OCR reading change any verdict? Every trace verified twice, in process, with
the OCR engine behind a fresh cache each time: once as the verifier runs (a screen shown again byte for byte
while its first reading is unfinished is handed that reading, ``perception/cache.py`` CachedOcr) and once
with ``share_unfinished=False`` (the repeat gets a reading of its own). The two results must be equal:
verdict, manual review, reason, the witness (node, frame, event), every node's state and frames, checker
calls and the decision log. A trace with no screenshot repeated byte for byte has nothing to share (a
reading is handed out again only for the same bytes, and every verification has its own CachedOcr), so by
default only traces with a repeat are verified twice; ``--all`` verifies every trace twice. Recorded traces
seldom repeat a screen the verifier reads before that screen's first reading is finished (a repeat is most
often the last screen, after the answer), so ``--doubled`` shows every screen twice in a row (the copy with
no action, as after a tap that changed nothing): the shape sharing is for, on every trace.

Traces are found as ``benchmarks/verify_vs_mobiflow.py`` finds them (folders of trace folders holding a
``rule.yaml``; ``--record SUITE`` records them with the reference brain first) and copied without their UI
dumps, so screen checks are read by OCR (``--keep-xml`` keeps them). ``--cross`` also verifies each trace
against the next one's rule (mostly failing pairs, which read every line). Each setting has its own engine,
so neither borrows the other's remembered lines; the order of traces is the same for both.

    .venv/bin/python benchmarks/ocr_reuse_identity.py --traces bench-out/traces [--cross] [--every 2]
    .venv/bin/python benchmarks/ocr_reuse_identity.py --record mobile-eval
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from droidpilot.perception.cache import CachedOcr, OcrCache
from droidpilot.perception.ocr import make_ocr_engine
from droidpilot.verify.engine import verify
from droidpilot.verify.options import VerifierOptions
from droidpilot.verify.result import VerifyResult
from droidpilot.verify.spec import load_rule
from droidpilot.verify.trace import Trace, as_trace, load_trace
from verify_vs_mobiflow import Pair, build_corpus, record


def signature(result: VerifyResult) -> dict[str, Any]:
    """Everything a verification says that must not depend on how the screens were read."""
    return {
        "ok": result.ok, "manual_review_needed": result.manual_review_needed, "reason": result.reason,
        "matched": [(m.node, m.frame, m.event) for m in result.matched],
        "nodes": [(n.node, n.state, n.event, n.enabled_after, n.yes, n.no, n.undecided)
                  for n in result.nodes],
        "checker_calls": result.checker_calls, "decisions": result.to_dict()["decisions"],
    }


def repeated_frames(trace: Path) -> int:
    """Screenshots of ``trace`` that repeat an earlier one byte for byte."""
    seen: set[bytes] = set()
    repeats = 0
    for shot in sorted(trace.glob("*.jpg"), key=lambda p: int(p.stem)):
        digest = hashlib.sha256(shot.read_bytes()).digest()
        repeats += digest in seen
        seen.add(digest)
    return repeats


def doubled(trace: Trace) -> Trace:
    """``trace`` with every frame followed by a copy of its screen that has no action."""
    frames = []
    for frame in trace.frames:
        frames += [frame, dataclasses.replace(frame, action=None, reasoning="", extra={}, next_frame=None)]
    return as_trace(frames, trace.task_description)


def verify_once(pair: Pair, engine: Any, share: bool, work: Path, double: bool = False
                ) -> tuple[dict[str, Any], int, int, float]:
    """(signature, readings shared, screens answered from the cache, CPU seconds) of one verification with
    a fresh cache: a repeated screen is either shared, answered from the cache or never read."""
    ocr = CachedOcr(engine, OcrCache(tempfile.mkdtemp(prefix="cache-", dir=work)), share_unfinished=share)
    options = VerifierOptions(ocr_engine=ocr)
    start = time.process_time()
    trace = load_trace(pair.trace)
    result = verify(load_rule(pair.rule), doubled(trace) if double else trace, options)
    return signature(result), ocr.shared, ocr.hits, time.process_time() - start


def differences(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    return [key for key in a if a[key] != b[key]]


def measure(pairs: list[Pair], work: Path, every_trace: bool = False, double: bool = False,
            quiet: bool = False) -> list[dict[str, Any]]:
    engines = {True: make_ocr_engine("rapidocr"), False: make_ocr_engine("rapidocr")}
    rows = []
    for n, pair in enumerate(pairs, 1):
        repeats = repeated_frames(pair.trace) + (pair.frames if double else 0)
        if not repeats and not every_trace:
            rows.append({"pair": pair.name, "frames": pair.frames, "repeated_frames": 0, "checked": False})
            continue
        with_share, shared, hits, cpu_with = verify_once(pair, engines[True], True, work, double)
        without, not_shared, _, cpu_without = verify_once(pair, engines[False], False, work, double)
        assert not_shared == 0, pair.name  # the baseline must not share
        row = {"pair": pair.name, "frames": pair.frames, "repeated_frames": repeats, "checked": True,
               "shared_readings": shared, "cache_hits": hits,
               "verdict": "pass" if with_share["ok"] else "fail",
               "differs": differences(with_share, without),
               "cpu_with_s": round(cpu_with, 2), "cpu_without_s": round(cpu_without, 2)}
        rows.append(row)
        if not quiet:
            print(f"[{n}/{len(pairs)}] {pair.name}: {row['verdict']}, {pair.frames} frames, "
                  f"{row['repeated_frames']} repeated, {shared} readings shared, {hits} from the cache, "
                  f"{'identical' if not row['differs'] else 'DIFFERS in ' + ', '.join(row['differs'])}",
                  file=sys.stderr, flush=True)
    return rows


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    checked = [r for r in rows if r["checked"]]
    return {
        "pairs": len(rows), "frames": sum(r["frames"] for r in rows),
        "pairs_with_repeated_frames": sum(r["repeated_frames"] > 0 for r in rows),
        "repeated_frames": sum(r["repeated_frames"] for r in rows),
        "verified_twice": len(checked), "frames_verified_twice": sum(r["frames"] for r in checked),
        "pairs_sharing_a_reading": sum(r["shared_readings"] > 0 for r in checked),
        "shared_readings": sum(r["shared_readings"] for r in checked),
        "repeats_answered_from_the_cache": sum(r["cache_hits"] for r in checked),
        "passing_of_verified_twice": sum(r["verdict"] == "pass" for r in checked),
        "identical_of_verified_twice": sum(not r["differs"] for r in checked),
        "differing": [r["pair"] for r in checked if r["differs"]],
        "cpu_with_s": round(sum(r["cpu_with_s"] for r in checked), 1),
        "cpu_without_s": round(sum(r["cpu_without_s"] for r in checked), 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--traces", type=Path, action="append", default=[],
                        help="A folder of trace folders with rule.yaml (repeatable).")
    parser.add_argument("--record", action="append", default=[],
                        help="Without --traces: a suite to record with the reference brain (repeatable).")
    parser.add_argument("--every", type=int, default=1, help="Take every N-th trace of each folder.")
    parser.add_argument("--cross", action="store_true", help="Also each trace against the next one's rule.")
    parser.add_argument("--keep-xml", action="store_true", help="Keep the UI dumps (fewer OCR checks).")
    parser.add_argument("--all", action="store_true",
                        help="Verify every trace twice, not only those showing a screen again.")
    parser.add_argument("--doubled", action="store_true",
                        help="Show every screen twice in a row (stress: the repeat sharing is for).")
    parser.add_argument("--json", action="store_true", help="Print every row and the summary as JSON.")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="ocr-reuse-") as tmp:
        work = Path(tmp)
        sources = args.traces or record(args.record or ["mobile-eval"], work / "recorded")
        pairs = build_corpus(sources, work / "corpus", args.keep_xml, args.cross, max(1, args.every))
        rows = measure(pairs, work, every_trace=args.all, double=args.doubled, quiet=args.json)
    total = summary(rows)
    if args.json:
        print(json.dumps({"rows": rows, "summary": total}, indent=1))
    else:
        for key, value in total.items():
            print(f"{key} {value}")
    return 1 if total["differing"] else 0


if __name__ == "__main__":
    sys.exit(main())
