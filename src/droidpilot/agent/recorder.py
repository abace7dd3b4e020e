"""The trace recorder: MobiFlow's runner format plus droidpilot's step log, written step by step.

Folder layout: ``N.jpg`` (full-resolution screenshot before action N, from 1), ``N.xml`` (when the device
gives one), ``actions.json``, ``react.json``, ``steps.jsonl`` and ``run.json``. Every file is replaced
atomically (temp file, fsync, ``os.replace``) and ``steps.jsonl`` is appended and fsynced per step, so a
run killed at any moment leaves a trace the verifier can read: the JSON files always describe frames whose
images are already on disk.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from PIL import Image

from droidpilot.agent.frame_jpeg import JPEG_QUALITY, check_frame, encode_frame
from droidpilot.atomicio import atomic_write_bytes as atomic_write
from droidpilot.atomicio import atomic_write_json
from droidpilot.errors import InputError

TRACE_FILES = ("actions.json", "react.json", "steps.jsonl", "run.json")


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class TraceRecorder:
    """Writes one run's trace into ``folder`` (created; it must not already hold a trace). ``durable``
    False skips the fsyncs (still atomic renames): for traces regenerated at will, such as demonstrations
    recorded from seeds, where a dozen fsyncs a frame cost more than the episode."""

    def __init__(self, folder: str | Path, instruction: str, app_name: str = "",
                 jpeg_quality: int = JPEG_QUALITY, overwrite: bool = False, durable: bool = True) -> None:
        self.folder = Path(folder)
        if self.folder.exists() and not self.folder.is_dir():
            raise InputError(f"{self.folder}: the trace output exists and is not a folder")
        if not overwrite and any((self.folder / name).exists() for name in TRACE_FILES):
            raise InputError(f"{self.folder}: already holds a trace; choose another --out folder")
        self.folder.mkdir(parents=True, exist_ok=True)
        if overwrite:
            for stale in self.folder.iterdir():
                if stale.is_file() and (stale.name in TRACE_FILES or stale.suffix in (".jpg", ".xml")):
                    stale.unlink()
        self.instruction = instruction
        self.app_name = app_name
        self.jpeg_quality = jpeg_quality
        self.durable = durable
        self.actions: list[dict[str, Any]] = []
        self.react: list[dict[str, Any]] = []
        self.run_info: dict[str, Any] = {}
        self.finished = False
        self._write_lists()

    # -- MobiFlow runner files ---------------------------------------------------------------------
    @property
    def frame_count(self) -> int:
        return len(self.actions)

    def image_path(self, index: int) -> Path:
        return self.folder / f"{index}.jpg"

    def _write_lists(self) -> None:
        atomic_write_json(self.folder / "react.json", self.react, fsync=self.durable)
        atomic_write_json(self.folder / "actions.json", fsync=self.durable, value={
            "app_name": self.app_name,
            "task_description": self.instruction,
            "old_task_description": self.instruction,
            "action_count": len(self.actions),
            "actions": self.actions,
        })

    def record_frame(self, screenshot: Image.Image | bytes, xml: str | None, action: dict[str, Any],
                     reasoning: str, function: dict[str, Any]) -> int:
        """Commit frame N: the screen before the action, the action (MobiFlow dict) and the react entry.
        ``screenshot`` is an image (encoded here) or the JPEG bytes already encoded (``ScreenView.for_trace``:
        the bytes the agent's OCR read, written unchanged so the verifier's reading is a cache hit;
        ``jpeg_quality`` applies to images only).

        Images go first, the JSON lists last, so the lists never name a frame whose files are missing.
        """
        if self.finished:
            raise RuntimeError("the trace is finished")
        index = len(self.actions) + 1
        data = (check_frame(screenshot, f"{self.folder}: frame {index}") if isinstance(screenshot, bytes)
                else encode_frame(screenshot, self.jpeg_quality))
        atomic_write(self.image_path(index), data, fsync=self.durable)
        if xml:
            atomic_write(self.folder / f"{index}.xml", xml.encode("utf-8"), fsync=self.durable)
        self.actions.append({**action, "action_index": index})
        self.react.append({"reasoning": reasoning, "function": function, "action_index": index})
        self._write_lists()
        if self.durable:
            _fsync_dir(self.folder)
        return index

    # -- droidpilot's own files ----------------------------------------------------------------------
    def append_step(self, record: dict[str, Any]) -> None:
        """Append one step record to ``steps.jsonl`` and fsync it."""
        line = json.dumps(record, ensure_ascii=False, default=_jsonable) + "\n"
        with open(self.folder / "steps.jsonl", "a", encoding="utf-8") as fh:
            fh.write(line)
            fh.flush()
            if self.durable:
                os.fsync(fh.fileno())

    def write_run(self, info: dict[str, Any]) -> None:
        """Replace ``run.json`` with ``info`` merged over what was written before."""
        self.run_info.update(info)
        atomic_write(self.folder / "run.json",
                     json.dumps(self.run_info, ensure_ascii=False, indent=1, default=_jsonable).encode(),
                     fsync=self.durable)

    def finish(self, screenshot: Image.Image | bytes | None, xml: str | None, reasoning: str, status: str,
               info: dict[str, Any]) -> None:
        """Close the trace: a final ``done`` frame on the last screen, then run.json's final state."""
        if self.finished:
            return
        if screenshot is not None:
            self.record_frame(screenshot, xml, {"type": "done", "status": status},
                              reasoning, {"name": "done", "parameters": {"status": status}})
        self.finished = True
        self.write_run(info)


def _jsonable(value: Any) -> Any:
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, (set, tuple)):
        return list(value)
    if hasattr(value, "to_dict"):
        return value.to_dict()
    return repr(value)
