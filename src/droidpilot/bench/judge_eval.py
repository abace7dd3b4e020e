"""How good is the verifier? A labelled set of traces from the runs, judged with OCR only and with XML.

The set (issue 6, section 5):

- **reference** traces (the reference brain's runs): positives;
- **truncated** copies of them, cut before the frame of their last milestone: negatives;
- **wrong_final** runs, the reference operations with the last one replaced by ``home`` (leaving the app
  instead of finishing): labelled by the oracle on their final state (negative unless it still holds);
- the run's own traces when its brain is not ``reference`` (e.g. the heuristic agent): labelled by the
  oracle;
- **human** labels (``--labels FILE``, the ``labels.json`` droidpilot studio exports): each trace a
  person labelled pass or fail (``unsure`` is left out).

Each trace is verified twice: ``ocr_only`` (the XML dumps withheld: only what OCR reads off the
screenshots counts; XML checks are undecided) and ``with_xml`` (XML and the UI state read from the dump
first, OCR when they say no). The
result, ``judge_eval.json``, holds accuracy, precision, recall and the confusion matrix per mode, and
every trace with its verdicts, so each disagreement can be listed with a link into the report.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import shutil
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from droidpilot.atomicio import atomic_write_bytes as atomic_write
from droidpilot.atomicio import atomic_write_json
from droidpilot.bench.results import load_results
from droidpilot.bench.worker import RunConfig
from droidpilot.errors import DroidpilotError, InputError

MODES: dict[str, bool] = {"ocr_only": False, "with_xml": True}  # mode -> the verifier sees the XML dumps
WRONG_FINAL = "home"
_STATE: dict[str, Any] = {}


def truncate_trace(source: Path, target: Path, keep: int) -> None:
    """Copy the first ``keep`` frames of a runner trace folder (images, XML, actions, react) to ``target``."""
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    meta = json.loads((source / "actions.json").read_text(encoding="utf-8"))
    react = json.loads((source / "react.json").read_text(encoding="utf-8"))
    for n in range(1, keep + 1):
        for ext in (".jpg", ".xml"):
            if (source / f"{n}{ext}").exists():
                shutil.copyfile(source / f"{n}{ext}", target / f"{n}{ext}")
    meta["actions"] = meta.get("actions", [])[:keep]
    meta["action_count"] = len(meta["actions"])
    atomic_write_json(target / "actions.json", meta)
    atomic_write_json(target / "react.json", react[:keep])
    if (source / "rule.yaml").exists():
        shutil.copyfile(source / "rule.yaml", target / "rule.yaml")


def _verify_one(suite: str, task_id: str, trace: str, ocr: str) -> dict[str, Any]:
    """Worker: verify one trace in every mode (engines built once per process)."""
    from droidpilot.bench.execute import verify_trace
    from droidpilot.bench.suite import load_suite
    from droidpilot.verify.setup import VerifierChoices, build_options

    if _STATE.get("key") != (suite, ocr):
        _STATE.update(key=(suite, ocr), tasks={t.id: t for t in load_suite(suite).tasks},
                      options=build_options(VerifierChoices(ocr=ocr)))
    task = _STATE["tasks"][task_id]
    out: dict[str, Any] = {}
    for mode, use_xml in MODES.items():
        try:
            result = verify_trace(task, Path(trace), _STATE["options"], use_xml=use_xml)
            out[mode] = {"ok": result.ok, "manual_review_needed": result.manual_review_needed,
                         "reason": result.reason}
        except DroidpilotError as exc:
            out[mode] = {"ok": False, "manual_review_needed": False, "reason": f"error: {exc}"}
    return out


def load_labels(path: Path, task_ids: set[str] | None = None) -> list[dict[str, Any]]:
    """Human labels from a studio export: ``[{"task", "trace", "label": True|False}]`` for pass/fail items.

    InputError names the file and the item for anything malformed, or a task not in ``task_ids``.
    """
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path}: labels file not found (export it from droidpilot studio's review page)"
                         ) from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{path}: not a readable JSON labels file ({exc})") from None
    items = doc.get("labels") if isinstance(doc, dict) else None
    if not isinstance(items, list):
        raise InputError(f"{path}: expected an object with a 'labels' list")
    out = []
    for i, item in enumerate(items):
        if not isinstance(item, dict) or item.get("label") not in ("pass", "fail", "unsure") \
                or not isinstance(item.get("trace"), str):
            raise InputError(f"{path}: labels[{i}] needs 'trace' (a folder) and 'label' "
                             "(pass, fail or unsure)")
        if item["label"] == "unsure":
            continue
        task = item.get("task")
        if not isinstance(task, str) or (task_ids is not None and task not in task_ids):
            raise InputError(f"{path}: labels[{i}]: task {task!r} is not a task of this suite; label traces "
                             "of a bench run of the same suite")
        if not (Path(item["trace"]) / "actions.json").is_file():
            raise InputError(f"{path}: labels[{i}]: {item['trace']} is not a trace folder")
        out.append({"task": task, "trace": item["trace"], "label": item["label"] == "pass"})
    return out


def scores(items: list[dict[str, Any]], mode: str) -> dict[str, Any]:
    """Confusion matrix and accuracy / precision / recall of the verifier in ``mode`` against the labels."""
    tp = sum(1 for i in items if i["label"] and i["verdicts"][mode])
    fn = sum(1 for i in items if i["label"] and not i["verdicts"][mode])
    fp = sum(1 for i in items if not i["label"] and i["verdicts"][mode])
    tn = sum(1 for i in items if not i["label"] and not i["verdicts"][mode])
    n = tp + fn + fp + tn
    return {"n": n, "tp": tp, "fn": fn, "fp": fp, "tn": tn,
            "accuracy": round((tp + tn) / n, 4) if n else None,
            "precision": round(tp / (tp + fp), 4) if tp + fp else None,
            "recall": round(tp / (tp + fn), 4) if tp + fn else None,
            "manual_review": sum(1 for i in items if i["manual"].get(mode))}


def _rows(folder: Path) -> dict[str, dict[str, Any]]:
    data = load_results(folder) or {"tasks": []}
    return {r["id"]: r for r in data["tasks"] if not r.get("error")}


def run_judge_eval(config: RunConfig, devices: list[str], *, task_ids: list[str] | None, jobs: int,
                   console: Console | None = None, labels: list[dict[str, Any]] | None = None
                   ) -> dict[str, Any]:
    """Build the labelled set (running the reference and wrong-final variants as needed, plus ``labels``
    from ``load_labels``), verify it in ``jobs`` processes, write ``judge_eval.json`` and return it."""
    from droidpilot.bench.display import RunDisplay
    from droidpilot.bench.runner import run_suite

    console = console or Console()
    out = Path(config.out)
    judge_dir = out / "judge"
    plan: list[tuple[str, Path]] = []
    if config.brain == "reference" and config.wrong_final is None:
        ref_dir = out
    else:
        ref_dir = judge_dir / "reference"
        plan.append(("reference", ref_dir))
    plan.append(("wrong_final", judge_dir / "wrong_final"))
    for kind, folder in plan:
        console.print(f"[bold]verifier evaluation:[/] recording {kind} traces in {escape(str(folder))}")
        sub = replace(config, brain="reference", out=folder, wrong_final=WRONG_FINAL if kind == "wrong_final"
                      else None)
        display = RunDisplay(console)
        try:
            run_suite(sub, devices, task_ids=task_ids, resume=True, on_event=display.on_event)
        finally:
            display.stop()
    items: list[dict[str, Any]] = []

    def add(source: str, row: dict[str, Any], folder: Path, label: bool) -> None:
        items.append({"task": row["id"], "source": source, "label": bool(label),
                      "trace": str(folder.relative_to(out)) if folder.is_relative_to(out) else str(folder),
                      "path": str(folder), "link": f"#task-{row['id']}"})

    for tid, row in _rows(ref_dir).items():
        folder = ref_dir / row["trace"]
        add("reference", row, folder, True)
        verify = json.loads((folder / "verify.json").read_text(encoding="utf-8"))
        matched = verify.get("matched") or []
        if matched and int(matched[-1]["frame"]) >= 1:
            target = judge_dir / "truncated" / tid
            truncate_trace(folder, target, int(matched[-1]["frame"]))
            add("truncated", row, target, False)
    wrong_dir = judge_dir / "wrong_final"
    for _tid, row in _rows(wrong_dir).items():
        add("wrong_final", row, wrong_dir / row["trace"], bool(row.get("su_oracle")))
    if ref_dir is not out:
        for _tid, row in _rows(out).items():
            if row.get("su_oracle") is not None:
                add(config.brain, row, out / row["trace"], bool(row["su_oracle"]))
    for human in labels or []:
        add("human", {"id": human["task"]}, Path(human["trace"]), human["label"])
    suite = str(config.suite)
    ctx = mp.get_context("spawn")
    with ProcessPoolExecutor(max_workers=max(1, jobs), mp_context=ctx) as pool:
        futures = [pool.submit(_verify_one, suite, i["task"], i["path"], config.ocr) for i in items]
        for item, future in zip(items, futures, strict=True):
            verdicts = future.result()
            item["verdicts"] = {m: bool(v["ok"]) for m, v in verdicts.items()}
            item["manual"] = {m: bool(v["manual_review_needed"]) for m, v in verdicts.items()}
            item["agrees"] = {m: item["verdicts"][m] == item["label"] for m in verdicts}
            item["reason"] = next((v["reason"] for m, v in verdicts.items()
                                   if item["verdicts"][m] != item["label"]), "")
            item.pop("path")
    result = {"description": "labels: reference traces positive, truncated traces negative, wrong-final and "
                             "agent traces labelled by SimPhone's oracle, human traces by their studio "
                             "labels; modes: ocr_only (XML dumps withheld) "
                             "and with_xml (XML and the UI state derived from it first, then OCR)",
              "counts": {s: sum(1 for i in items if i["source"] == s) for s in dict.fromkeys(
                  i["source"] for i in items)},
              "modes": {m: scores(items, m) for m in MODES}, "items": items,
              "config": {k: str(v) for k, v in asdict(config).items()}}
    atomic_write(out / "judge_eval.json", json.dumps(result, ensure_ascii=False, indent=1).encode("utf-8"))
    table = Table(title="verifier vs oracle")
    for col in ("mode", "n", "accuracy", "precision", "recall", "TP", "FP", "TN", "FN"):
        table.add_column(col)
    for mode, m in result["modes"].items():
        table.add_row(mode, str(m["n"]), *(f"{m[k] * 100:.0f}%" if m[k] is not None else "-"
                                           for k in ("accuracy", "precision", "recall")),
                      str(m["tp"]), str(m["fp"]), str(m["tn"]), str(m["fn"]))
    console.print(table)
    return result
