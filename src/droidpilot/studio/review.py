"""Review traces: open a trace or bench results folder, step through frames, verify, label, export.

A label is ``label.json`` beside the trace (``{"label": "pass"|"fail"|"unsure", "note", "labelled_at"}``);
``export_labels`` gathers every label under a folder into one ``labels.json`` that
``droidpilot bench --judge-eval --labels FILE`` reads as extra human-labelled traces.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from droidpilot.errors import DroidpilotError
from droidpilot.studio.errors import NotFound, StudioError
from droidpilot.studio.files import file_problem, is_dir, load_json, read_json, read_jsonl, write_json
from droidpilot.studio.inputs import shown, text_path
from droidpilot.studio.rule_choice import choose_rule

LABELS = ("pass", "fail", "unsure")
LABEL_FILE = "label.json"
MAX_NOTE = 4000
MAX_EXPORT_FOLDERS = 20_000  # folders ``export_labels`` looks through before asking for a narrower one


def folder_path(value: Any) -> Path:
    """A folder named in a request (StudioError / NotFound when it is not one)."""
    path = text_path(value, "path", "a folder")
    try:
        path = path.resolve()
        found = path.is_dir()
    except OSError as exc:
        raise StudioError(f"{shown(value)}: {exc.strerror or exc}") from None
    if not found:
        raise NotFound(f"{shown(value)}: no such folder")
    return path


def trace_folder(value: Any) -> Path:
    """A trace folder (one holding actions.json) named in a request."""
    path = folder_path(value)
    problem = file_problem(path / "actions.json")
    if problem == "missing":
        raise NotFound(f"{path}: not a trace folder (no actions.json)")
    if problem is not None:
        raise StudioError(f"{path}: not a readable trace folder: {problem}")
    return path


def open_folder(value: Any) -> dict[str, Any]:
    """What a folder holds: one trace, or a bench run's tasks (with their trace folders)."""
    path = folder_path(value)
    if file_problem(path / "actions.json") != "missing":
        trace_folder(str(path))  # an actions.json that is not a readable file: say what it is
        return {"kind": "trace", "path": str(path), "traces": [_entry(path, path.name)]}
    results = read_json(path / "results.json")
    if isinstance(results, dict) and isinstance(results.get("tasks"), list):
        traces = []
        for row in results["tasks"]:
            if isinstance(row, dict) and isinstance(row.get("trace"), str) and is_dir(path / row["trace"]):
                traces.append({**_entry(path / str(row["trace"]), str(row.get("id", ""))),
                               "su": row.get("su"), "su_oracle": row.get("su_oracle"),
                               "termination": row.get("termination")})
        return {"kind": "bench", "path": str(path), "suite": results.get("suite"),
                "brain": results.get("brain"), "traces": traces}
    traces = [_entry(p.parent, p.parent.name) for p in sorted(path.glob("*/actions.json"))]
    if not traces:
        raise NotFound(f"{path}: holds no trace (actions.json) and no bench results (results.json)")
    return {"kind": "folder", "path": str(path), "traces": traces}


def _entry(folder: Path, name: str) -> dict[str, Any]:
    label = read_json(folder / LABEL_FILE)
    return {"name": name, "path": str(folder),
            "label": label.get("label") if isinstance(label, dict) else None}


def load(value: Any) -> dict[str, Any]:
    """Everything the review page shows of one trace: frames with actions and steps, verdicts, label."""
    path = trace_folder(value)
    actions = load_json(path / "actions.json") or {}
    react = read_json(path / "react.json") or []
    steps = read_jsonl(path / "steps.jsonl")
    by_frame = {s["frame"]: s for s in steps if isinstance(s.get("frame"), int)}
    react = react if isinstance(react, list) else []
    reacts = {r["action_index"]: r for r in react
              if isinstance(r, dict) and isinstance(r.get("action_index"), int)}
    frames = []
    items = actions.get("actions", []) if isinstance(actions, dict) else []
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict) or not isinstance(item.get("action_index"), int):
            continue
        n = item["action_index"]
        step = by_frame.get(n, {})
        frames.append({"index": n, "image": file_problem(path / f"{n}.jpg") is None, "action": item,
                       "reasoning": reacts.get(n, {}).get("reasoning", ""),
                       "step": {k: step.get(k) for k in ("step", "thought", "outcome", "error", "grounding",
                                                         "action", "manual", "by") if k in step}})
    return {"path": str(path), "instruction": actions.get("task_description", "") if isinstance(actions, dict)
            else "", "frames": frames, "run": read_json(path / "run.json"),
            "verify": read_json(path / "verify.json"), "oracle": read_json(path / "oracle.json"),
            "rule": (path / "rule.yaml").is_file(), "label": read_json(path / LABEL_FILE)}


def image_path(value: Any, index: Any) -> Path:
    """The screenshot of frame ``index`` of a trace (only ``N.jpg`` files inside a trace folder)."""
    path = trace_folder(value)
    text = str(index) if isinstance(index, int) and not isinstance(index, bool) else index
    if not isinstance(text, str) or not text.isascii() or not text.isdecimal() or len(text) > 9:
        raise StudioError(f"frame number must be a whole number of at most 9 digits, got {shown(index)}")
    n = int(text)
    image = path / f"{n}.jpg"
    if n < 1 or file_problem(image) is not None:
        raise NotFound(f"{path}: no frame {n}")
    return image


def verify_folder(value: Any, rule: Any = None, ocr: str = "rapidocr") -> dict[str, Any]:
    """Verify a trace against the rule chosen for it (``rule_choice``): verify.json's content, plus
    ``rule`` naming the rule used (the verdict says which) and ``frames_from`` (1: how frames are counted)."""
    from droidpilot.bench.execute import verification_record
    from droidpilot.verify.engine import verify
    from droidpilot.verify.setup import VerifierChoices, build_options
    from droidpilot.verify.trace import load_trace

    path = trace_folder(value)
    actions = read_json(path / "actions.json")
    instruction = actions.get("task_description", "") if isinstance(actions, dict) else ""
    choice = choose_rule(path, rule, instruction if isinstance(instruction, str) else "")
    try:
        trace = load_trace(path)
        result = verify(choice.rule, trace, build_options(VerifierChoices(ocr=ocr)))
    except DroidpilotError as exc:
        raise StudioError(str(exc)) from None
    return {**verification_record(result), "rule": choice.to_dict()}


def save_label(value: Any, label: Any, note: Any = "") -> dict[str, Any]:
    """Write ``label.json`` beside the trace."""
    path = trace_folder(value)
    if not isinstance(label, str) or label not in LABELS:
        raise StudioError(f"label must be one of {', '.join(LABELS)}, got {shown(label)}")
    if not isinstance(note, str) or len(note) > MAX_NOTE:
        raise StudioError(f"note must be text of at most {MAX_NOTE} characters")
    record = {"label": label, "note": note, "labelled_at": time.time()}
    write_json(path / LABEL_FILE, record)
    return record


def _task_id(trace: Path) -> str | None:
    """The suite task a trace belongs to: its bench row (folder name under traces/) or its rule's task_id."""
    if trace.parent.name == "traces" and (trace.parent.parent / "results.json").is_file():
        return trace.name
    return None


def export_labels(value: Any) -> dict[str, Any]:
    """Gather the labels of every trace under a folder into ``labels.json`` there; returns the document."""
    root = folder_path(value)
    found = _labelled_traces(root)
    items = []
    for trace in found:
        record = read_json(trace / LABEL_FILE)
        if not isinstance(record, dict) or record.get("label") not in LABELS:
            continue
        items.append({"trace": str(trace), "task": _task_id(trace), "label": record["label"],
                      "note": record.get("note", "")})
    doc = {"description": "human labels from droidpilot studio (pass: the task was done; fail: it was not)",
           "labels": items}
    write_json(root / "labels.json", doc)
    return {"path": str(root / "labels.json"), "count": len(items), **doc}


def _labelled_traces(root: Path) -> list[Path]:
    """Trace folders under ``root`` holding a label (symbolic links not followed; at most
    MAX_EXPORT_FOLDERS folders looked through, so a slip such as ``/`` is refused rather than walked)."""
    found = []
    for seen, (folder, _dirs, names) in enumerate(os.walk(root, onerror=lambda _exc: None), start=1):
        if seen > MAX_EXPORT_FOLDERS:
            raise StudioError(f"{root} holds more than {MAX_EXPORT_FOLDERS:,} folders; export the labels of "
                              "one bench run or trace collection at a time")
        if LABEL_FILE in names and "actions.json" in names:
            found.append(Path(folder))
    return sorted(found)
