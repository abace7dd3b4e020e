"""Traces: the frames the verifier judges, from a JSON list of frame objects or a runner's trace folder.

    trace = load_trace("run1/")            # MobiFlow runner folder (see ``trace_folder``)
    trace = load_trace("frames.json")      # a JSON list of frame objects, frame index = list index

A frame object may hold ``text``, ``ui`` (object), ``action`` (object), ``xml_text`` or ``xml`` (the dump's
content, or a path to a .xml file), ``image`` / ``screenshot`` (a path, relative to the JSON file),
``reasoning``, ``task_description`` and ``app``; other keys are kept and visible to checkers.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from droidpilot.datalimits import load_json_text
from droidpilot.errors import InputError
from droidpilot.pathcheck import file_problem
from droidpilot.verify.frame import Frame, parse_ui_xml
from droidpilot.verify.trace_fields import shown_value, text_field, whole_number


@dataclass
class Trace:
    """A recorded run: its frames in order, the task it was given, and where it came from."""

    frames: list[Frame]
    task_description: str = ""
    app: str = ""
    source: Path | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.frames)


def link_frames(frames: list[Frame]) -> None:
    """Set ``frame.next_frame`` so checkers can look one step ahead."""
    for cur, nxt in itertools.pairwise(frames):
        cur.next_frame = nxt
    if frames:
        frames[-1].next_frame = None


def _fill_description(frames: Sequence[Frame], explicit: str | None, fallback: str = "") -> str:
    """The task description: the one given, else the first frame's, else ``fallback``; set on all frames."""
    description = explicit or next((f.task_description for f in frames if f.task_description), "") \
        or fallback
    for frame in frames:
        if explicit or not frame.task_description:
            frame.task_description = description
    return description


def check_readable(path: Path, what: str) -> None:
    """Raise InputError naming ``path`` and what is wrong with it unless it is a readable file."""
    problem = file_problem(path)
    if problem is not None:
        raise InputError(f"{what}: {path} {problem}")


def _object_field(record: Mapping[str, Any], key: str, where: str) -> dict[str, Any] | None:
    value = record.get(key)
    if value is None:
        return None
    if not isinstance(value, dict):
        raise InputError(f"{where}: {key!r} must be an object, got {type(value).__name__}")
    return value


def _xml_of(record: Mapping[str, Any], where: str, base: Path) -> str | None:
    for key in ("xml_text", "xml"):
        value = record.get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            raise InputError(f"{where}: {key!r} must be a string (the dump or a path to it)")
        if value.lstrip().startswith("<") or not value.strip().endswith(".xml"):
            return value
        path = base / value
        check_readable(path, f"{where}: {key!r}")
        try:
            return path.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise InputError(f"{where}: cannot read {path}: {exc.strerror or exc}") from None
    return None


_KNOWN = {"text", "ui", "action", "xml_text", "xml", "image", "screenshot", "image_path", "reasoning",
          "task_description", "app", "_index", "index"}


def frame_from_dict(record: Mapping[str, Any], index: int, base: Path | None = None,
                    where: str = "frames") -> Frame:
    """Build frame ``index`` from a MobiFlow-style frame object; paths resolve against ``base``."""
    spot = f"{where}: frame {index}"
    if not isinstance(record, Mapping):
        raise InputError(f"{spot}: must be an object, got {type(record).__name__}")
    for key in ("_index", "index"):
        claimed = record.get(key)
        if claimed is not None and (not whole_number(claimed) or claimed != index):
            raise InputError(f"{spot}: {key!r} is {shown_value(claimed)}, but frames are taken in list "
                             f"order (this one is frame {index}, counting from 0); reorder the list or "
                             f"drop {key!r}")
    base = base or Path.cwd()
    image = None
    for key in ("image", "screenshot", "image_path"):
        value = record.get(key)
        if value:
            if not isinstance(value, str):
                raise InputError(f"{spot}: {key!r} must be a path string")
            image = base / value
            check_readable(image, f"{spot}: {key!r}")
            break
    xml_text = _xml_of(record, spot, base)
    frame = Frame(
        index=index,
        image_path=image,
        xml_text=xml_text,
        action=_object_field(record, "action", spot),
        reasoning=text_field(record, "reasoning", spot, numbers=True),
        text=text_field(record, "text", spot, numbers=True),
        task_description=text_field(record, "task_description", spot, numbers=True),
        app=text_field(record, "app", spot, numbers=True),
        ui=_object_field(record, "ui", spot) or {},
        extra={k: v for k, v in record.items() if k not in _KNOWN},
    )
    if xml_text:
        frame._elements = parse_ui_xml(xml_text, source=f"{spot} XML")
    return frame


def frames_from_dicts(records: Sequence[Any], base: Path | None = None, where: str = "frames") -> list[Frame]:
    """Frames from a list of frame objects (or Frames, kept as they are, re-indexed by position)."""
    frames: list[Frame] = []
    for i, record in enumerate(records):
        if isinstance(record, Frame):
            record.index = i
            frames.append(record)
        else:
            frames.append(frame_from_dict(record, i, base, where))
    link_frames(frames)
    return frames


def load_json_trace(path: Path, task_description: str | None = None) -> Trace:
    """A JSON list of frame objects (or ``{"task_description", "frames": [...]}``)."""
    check_readable(path, "trace")
    try:
        data = load_json_text(path.read_text(encoding="utf-8"), str(path))
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text ({exc.reason})") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") \
            from None
    fallback = ""
    if isinstance(data, dict) and isinstance(data.get("frames"), list):
        fallback = text_field(data, "task_description", str(path))
        data = data["frames"]
    if not isinstance(data, list):
        raise InputError(f"{path}: a trace must be a JSON list of frame objects, got {type(data).__name__}")
    frames = frames_from_dicts(data, path.parent, str(path))
    description = _fill_description(frames, task_description, fallback)
    app = next((f.app for f in frames if f.app), "")
    return Trace(frames, description, app, path)


def load_trace(path: str | Path, task_description: str | None = None) -> Trace:
    """Load a trace folder (runner format) or a JSON frame list; InputError names what is wrong."""
    p = Path(path)
    if p.is_dir():
        from droidpilot.verify.trace_folder import load_trace_folder

        trace = load_trace_folder(p)
    elif p.exists():
        trace = load_json_trace(p)
    else:
        raise InputError(f"trace {p} {file_problem(p) or 'does not exist'} (give a trace folder or a JSON "
                         "list of frames)")
    trace.task_description = _fill_description(trace.frames, task_description, trace.task_description)
    return trace


def as_trace(trace: Trace | Sequence[Frame | Mapping[str, Any]],
             task_description: str | None = None) -> Trace:
    """Accept a Trace, a list of Frames or a list of frame dicts (as MobiFlow's ``verify`` does)."""
    if isinstance(trace, Trace):
        if task_description:
            trace.task_description = _fill_description(trace.frames, task_description)
        link_frames(trace.frames)
        return trace
    if isinstance(trace, str | Path):
        return load_trace(trace, task_description)
    frames = frames_from_dicts(list(trace))
    return Trace(frames, _fill_description(frames, task_description))
