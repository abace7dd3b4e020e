"""Record a demonstration: each manual operation saved in the agent's trace format, step by step.

The folder gets what an agent run writes (MobiFlow runner format ``N.jpg``/``N.xml``/``actions.json``/
``react.json``, plus ``steps.jsonl`` and ``run.json``) through the agent's ``TraceRecorder``, so
``droidpilot verify`` judges it; plus ``responses.json``, the same steps as replies for
``droidpilot run --brain replay --responses``, and ``reference.yaml``, the operations as a suite task's
``reference`` list.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import yaml
from PIL import Image

from droidpilot.agent.recorder import TraceRecorder
from droidpilot.agent.response import format_response
from droidpilot.atomicio import atomic_write_bytes, atomic_write_json
from droidpilot.datalimits import DataLimitError, check_yaml
from droidpilot.errors import DroidpilotError
from droidpilot.studio.errors import Conflict, NotFound, StudioError
from droidpilot.studio.faithful import GROUNDED
from droidpilot.studio.files import read_json, read_text
from droidpilot.studio.manual import Manual, trace_entries

THOUGHT = "Demonstrated by a person in droidpilot studio."


class Recording:
    """One demonstration being recorded into ``folder`` (which must not hold a trace yet)."""

    def __init__(self, folder: Path, instruction: str, device: dict[str, Any], app_name: str = "",
                 start: dict[str, Any] | None = None) -> None:
        """``start``: how the phone was put in its start state (seed, task), so a replay can do the same."""
        self.folder = Path(folder)
        self.instruction = instruction
        self.start = start
        self.recorder = TraceRecorder(self.folder, instruction, app_name)
        self.steps: list[str] = []
        self.manuals: list[Manual] = []
        self.replay: dict[str, Any] | None = None
        self.started = time.time()
        self.finished = False
        self.recorder.write_run({"instruction": instruction, "status": "recording", "device": device,
                                 "brain": {"name": "human", "source": "droidpilot studio"},
                                 "start": start, "started_at": self.started})

    def add(self, before: Image.Image, xml: str | None, manual: Manual, outcome: str = "ok",
            error: str = "") -> int:
        """Save one operation with the screen it was made on; returns the frame number."""
        if self.finished:
            raise Conflict("the recording is already stopped")
        entry, function = trace_entries(manual)
        frame = self.recorder.record_frame(before, xml, entry, THOUGHT, function)
        text = manual.action.format()
        self.steps.append(text)
        self.manuals.append(manual)
        # One schema for a person's step, here and in an agent run taken over: by "person", the manual count.
        record = {"step": len(self.steps), "manual": len(self.steps), "by": "person", "thought": THOUGHT,
                  "frame": frame,
                  "response": format_response("-", THOUGHT, text), **manual.describe(),
                  "outcome": outcome}
        if error:
            record["error"] = error
        self.recorder.append_step(record)
        return frame

    def stop(self, final: Image.Image | None, xml: str | None) -> dict[str, Any]:
        """Close the trace (a final ``done`` frame), write the replay and reference files; a summary."""
        if self.finished:
            raise Conflict("the recording is already stopped")
        self.finished = True
        # A step in words must ground when replayed, or the replay diverged (the replay brain stops there).
        replies: list[dict[str, Any]] = [{"kind": "operate", "text": format_response("-", THOUGHT, s),
                                          **({"must_ground": True} if m.action.name in GROUNDED else {})}
                                         for s, m in zip(self.steps, self.manuals, strict=True)]
        replies.append({"kind": "operate", "text": format_response("-", THOUGHT, "stop")})
        replies.append({"kind": "complete", "text": "Yes, the demonstration is complete."})
        atomic_write_json(self.folder / "responses.json", replies)
        atomic_write_bytes(self.folder / "reference.yaml",
                           yaml.safe_dump({"instruction": self.instruction, "reference": self.steps},
                                          allow_unicode=True, sort_keys=False).encode("utf-8"))
        self.recorder.finish(final, xml, THOUGHT, "completed",
                             {"status": "finished", "termination": "completed",
                              "result": {"termination": "completed", "completed": True,
                                         "steps": len(self.steps), "actions": len(self.steps)},
                              "finished_at": time.time()})
        return self.summary()

    def summary(self) -> dict[str, Any]:
        """What the page shows about this recording."""
        return {"folder": str(self.folder), "instruction": self.instruction, "steps": list(self.steps),
                "finished": self.finished, "start": self.start, "replay": self.replay}

    def save_replay(self, report: dict[str, Any]) -> None:
        """Keep how the demonstration replayed (``replay.json`` beside the trace)."""
        self.replay = report
        atomic_write_json(self.folder / "replay.json", report)


def save_as_task(trace: Path, task_file: Path | None, out: Path) -> Path:
    """Write a copy of suite task ``task_file`` whose ``reference`` is the demonstration in ``trace``.

    Without ``task_file``, the task the recording started from (``run.json``'s ``start.task_file``) is used.
    The copy's id is ``out``'s file name (a suite names each task file after its id); a copy that does not
    load as a suite task is removed and the loader's error raised.
    """
    from droidpilot.bench.suite import load_task

    ref = trace / "reference.yaml"
    if not ref.is_file():
        raise NotFound(f"{trace}: no reference.yaml; stop the recording first")
    if task_file is None:
        task_file = _started_from(trace)
    if not task_file.is_file():
        raise NotFound(f"{task_file}: no such task file")
    reference = _load_yaml(ref)
    steps = reference.get("reference") if isinstance(reference, dict) else None
    if not isinstance(steps, list) or not all(isinstance(step, str) for step in steps):
        raise StudioError(f"{ref}: 'reference' must be a list of steps (text), as the studio writes it")
    data = _load_yaml(task_file)
    if not isinstance(data, dict):
        raise StudioError(f"{task_file}: a task file is a mapping")
    data["id"] = out.stem
    data["reference"] = list(steps)
    out.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(out, yaml.safe_dump(data, allow_unicode=True, sort_keys=False).encode("utf-8"))
    try:
        load_task(out)  # the written task must load like any suite task
    except DroidpilotError:
        out.unlink(missing_ok=True)
        raise
    return out


def _started_from(trace: Path) -> Path:
    """The suite task file a recording started from (StudioError when it started from none)."""
    run = read_json(trace / "run.json")
    start = run.get("start") if isinstance(run, dict) else None
    task_file = start.get("task_file") if isinstance(start, dict) else None
    if not isinstance(task_file, str) or not task_file:
        raise StudioError(f"{trace}: the recording did not start from a suite task; name the task file "
                          "(task_file) whose copy gets this demonstration as its reference")
    return Path(task_file)


def _load_yaml(path: Path) -> Any:
    """A YAML file's data, refusing alias bombs and deep nesting before loading (StudioError)."""
    text = read_text(path)
    try:
        check_yaml(text)
        return yaml.safe_load(text)
    except DataLimitError as exc:
        raise StudioError(f"{path}: {exc}") from None
    except yaml.YAMLError as exc:
        raise StudioError(f"{path}: not valid YAML ({exc})") from None
