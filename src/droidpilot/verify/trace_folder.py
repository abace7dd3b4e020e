"""Read a trace folder in MobiFlow's runner format.

The folder holds ``N.jpg`` or ``N.png`` (the screen before action N, N from 1), ``N.xml`` (the UI dump of
that screen; ``<hierarchy_dump_failed/>`` is accepted), ``actions.json`` (``{app_name, task_description,
old_task_description, action_count, actions: [{type, action_index, position_x, position_y, bounds, text,
direction, status, ...}]}``) and ``react.json`` (``[{reasoning, function: {name, parameters},
action_index}]``). Frame N-1 gets screenshot N, dump N, action N and the agent's reasoning for it; its text
(what text/regex checkers read) joins the reasoning, the action, its parameters and the label of the
element a click landed on.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from droidpilot.datalimits import load_json_text
from droidpilot.errors import InputError
from droidpilot.verify.frame import Frame, UiElement, parse_bounds, parse_ui_xml
from droidpilot.verify.trace import Trace, check_readable, link_frames
from droidpilot.verify.trace_fields import number_field, shown_value, step_indices, text_field

_IMAGE = re.compile(r"^(\d+)\.(png|jpg|jpeg)$", re.IGNORECASE)
_XML = re.compile(r"^(\d+)\.xml$", re.IGNORECASE)


def _read_json(path: Path) -> Any:
    check_readable(path, "trace folder")
    try:
        return load_json_text(path.read_text(encoding="utf-8"), str(path))
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text ({exc.reason})") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") \
            from None


def _by_step(items: list[Any], path: Path) -> dict[int, dict[str, Any]]:
    """Key records by step N (1-based). ``action_index`` counts from 1, or from 0 when some record has 0;
    when no record has one they are numbered by position (a mix, or a value that is not a whole number,
    is an InputError)."""
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise InputError(f"{path}: entry {i} must be an object, got {type(item).__name__}")
    indices = step_indices(items, str(path))
    if indices is None:
        return {i + 1: item for i, item in enumerate(items)}
    shift = 1 if min(indices) == 0 else 0
    out: dict[int, dict[str, Any]] = {}
    for i, (item, idx) in enumerate(zip(items, indices, strict=True)):
        step = idx + shift
        if step < 1:
            raise InputError(f"{path}: entry {i} has action_index {idx}; indices count from 1")
        if step in out:
            raise InputError(f"{path}: entry {i} repeats action_index {idx}")
        out[step] = item
    return out


def _check_bounds(action: Mapping[str, Any], where: str) -> None:
    """``bounds`` is absent, ``"[x1,y1][x2,y2]"``, ``[x1, y1, x2, y2]`` or ``[[x1, y1], [x2, y2]]``."""
    raw = action.get("bounds")
    if raw is None or raw == "":
        return
    if isinstance(raw, str) and parse_bounds(raw) is not None:
        return
    if isinstance(raw, list) and len(raw) == 2 and all(isinstance(p, list) and len(p) == 2 for p in raw):
        raw = [v for p in raw for v in p]
    if isinstance(raw, list) and len(raw) == 4 and all(isinstance(v, int | float) and
                                                       not isinstance(v, bool) for v in raw):
        return
    raise InputError(f"{where}: 'bounds' must be \"[x1,y1][x2,y2]\", [x1, y1, x2, y2] or "
                     f"[[x1, y1], [x2, y2]] in pixels, got {shown_value(action.get('bounds'))}")


def _load_actions(folder: Path) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    path = folder / "actions.json"
    data = _read_json(path)
    if isinstance(data, list):
        data = {"actions": data}
    if not isinstance(data, dict):
        raise InputError(f"{path}: must be an object with an 'actions' list")
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise InputError(f"{path}: 'actions' must be a list, got {type(actions).__name__}")
    for key in ("task_description", "old_task_description", "app_name"):
        text_field(data, key, str(path))
    steps = _by_step(actions, path)
    for step, action in steps.items():
        where = f"{path}: action {step}"
        kind = action.get("type")
        if kind is not None and not isinstance(kind, str):
            raise InputError(f"{where}: 'type' must be a string")
        for key in ("position_x", "position_y"):
            number_field(action, key, where)
        for key in ("text", "direction"):
            text_field(action, key, where, numbers=True)
        _check_bounds(action, where)
    return data, steps


def _load_react(folder: Path) -> dict[int, dict[str, Any]]:
    path = folder / "react.json"
    if not path.exists() and not path.is_symlink():  # a looping or dangling link is reported, not skipped
        return {}
    data = _read_json(path)
    if not isinstance(data, list):
        raise InputError(f"{path}: must be a list of {{reasoning, function, action_index}} objects")
    steps = _by_step(data, path)
    for step, entry in steps.items():
        fn = entry.get("function")
        if fn is not None and not isinstance(fn, dict):
            raise InputError(f"{path}: step {step}: 'function' must be an object {{name, parameters}}")
        params = (fn or {}).get("parameters", entry.get("parameters"))
        if params is not None and not isinstance(params, dict):
            raise InputError(f"{path}: step {step}: 'function.parameters' must be an object")
        reasoning = entry.get("reasoning")
        if reasoning is not None and not isinstance(reasoning, str):
            raise InputError(f"{path}: step {step}: 'reasoning' must be a string")
        text_field(fn or {}, "name", f"{path}: step {step}: function")
        text_field(entry, "name", f"{path}: step {step}")
    return steps


def _action_bounds(action: Mapping[str, Any]) -> tuple[int, int, int, int] | None:
    raw = action.get("bounds")
    if isinstance(raw, str):
        return parse_bounds(raw)
    try:
        if isinstance(raw, list | tuple) and len(raw) == 4:
            x1, y1, x2, y2 = (int(v) for v in raw)
            return (x1, y1, x2, y2)
        if isinstance(raw, list | tuple) and len(raw) == 2:
            (x1, y1), (x2, y2) = raw
            return (int(x1), int(y1), int(x2), int(y2))
    except (TypeError, ValueError):
        return None
    return None


def _inside(inner: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def click_target_label(action: Mapping[str, Any], elements: list[UiElement]) -> str:
    """The label of the element an action landed on: the element with the action's bounds (or the
    labels inside it), else the smallest labelled element under the tap point."""
    bounds = _action_bounds(action)
    if bounds is not None:
        exact = [e for e in elements if e.bounds == bounds]
        if exact and exact[0].label:
            return exact[0].label
        inner = [e.label for e in elements if e.label and e.bounds and _inside(e.bounds, bounds)]
        if inner:
            return " ".join(dict.fromkeys(inner))
    x, y = action.get("position_x"), action.get("position_y")
    if bounds is not None and not isinstance(x, int | float):
        x, y = (bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2
    if not isinstance(x, int | float) or not isinstance(y, int | float):
        return ""
    under = [e for e in elements if e.label and e.bounds
             and e.bounds[0] <= x <= e.bounds[2] and e.bounds[1] <= y <= e.bounds[3]]
    if not under:
        return ""
    smallest = min(under, key=lambda e: (e.bounds[2] - e.bounds[0]) * (e.bounds[3] - e.bounds[1]))  # type: ignore[index]
    return smallest.label


def frame_text(reasoning: str, name: str, params: Mapping[str, Any], action: Mapping[str, Any],
               target: str) -> str:
    """What text and regex checkers read: the reasoning, the action, its parameters and click target."""
    lines = [reasoning] if reasoning else []
    if name:
        lines.append(f"action: {name}")
    for key, value in params.items():
        lines.append(f"{key}: {value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)}")
    for key in ("text", "direction"):
        value = action.get(key)
        if value and key not in params:
            lines.append(f"{key}: {value}")
    if target:
        lines.append(f"target: {target}")
    return "\n".join(lines)


def _scan(folder: Path) -> tuple[dict[int, Path], dict[int, Path]]:
    """Screenshots and dumps by step; two files for one step (``1.png`` and ``1.jpg`` or ``01.png``) or a
    step 0 are InputErrors, since either would silently drop a screen."""
    images: dict[int, Path] = {}
    xmls: dict[int, Path] = {}
    for entry in sorted(folder.iterdir()):
        for pattern, found, what in ((_IMAGE, images, "screenshots"), (_XML, xmls, "UI dumps")):
            if (m := pattern.match(entry.name)) is None:
                continue
            step = int(m.group(1))  # a file name has at most 255 characters: int() is quick
            if step == 0:
                raise InputError(f"{entry}: {what} are numbered from 1 (N is the screen before action N); "
                                 "renumber the files")
            if step in found:
                raise InputError(f"{folder}: {found[step].name} and {entry.name} are both {what[:-1]} "
                                 f"{step}; keep one")
            found[step] = entry
    return images, xmls


def _first_gap(steps: dict[int, Path]) -> int | None:
    """The first step missing from 1..max(steps), found without walking a range as long as a bogus
    file name's number (``100000000.png``)."""
    for expected, step in enumerate(sorted(steps), 1):
        if step != expected:
            return expected
    return None


def _frame_count(folder: Path, images: dict[int, Path], xmls: dict[int, Path],
                 actions: dict[int, dict[str, Any]], react: dict[int, dict[str, Any]]) -> int:
    """How many frames the folder holds; InputError for a step beyond them (a typo such as
    ``action_index: 100000000`` or a file ``100000000.xml`` must not build that many empty frames)."""
    shots = max([0, *images])
    if shots:  # screenshot N comes before action N; one last action may follow the last screenshot
        limit, what = shots + 1, f"the folder has screenshots 1..{shots}, so steps run 1..{shots + 1} at most"
    elif xmls:  # the dumps are the screens
        limit = len(xmls) + 1
        what = (f"without screenshots the {len(xmls)} UI dumps are the screens, so steps run 1..{limit} "
                "at most")
    else:
        limit = max(len(actions), len(react))
        what = f"without screenshots a step needs an entry, so steps run 1..{limit}"
    for name, steps in (("actions.json", actions), ("react.json", react)):
        beyond = [s for s in steps if s > limit]
        if beyond:
            raise InputError(f"{folder / name}: an entry's action_index puts it at step {max(beyond)}, "
                             f"beyond the frames present ({what}); fix the index or add the missing "
                             "screenshots")
    beyond = [s for s in xmls if s > limit]
    if beyond:
        raise InputError(f"{xmls[max(beyond)]}: this UI dump's number is beyond the frames present "
                         f"({what}); rename it or add the missing screenshots")
    return max([0, *images, *xmls, *actions, *react])


def _read_xml(path: Path) -> tuple[str, list[UiElement]]:
    check_readable(path, "trace folder")
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return text, parse_ui_xml(text, source=str(path))


def load_trace_folder(folder: str | Path) -> Trace:
    """Load a runner trace folder; InputError names the missing or malformed file (and entry)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError(f"trace folder {folder} does not exist")
    images, xmls = _scan(folder)
    actions_file = folder / "actions.json"
    if actions_file.exists() or actions_file.is_symlink():  # there, but perhaps a loop or a FIFO
        check_readable(actions_file, "trace folder")
    else:
        raise InputError(f"{folder}: no actions.json; a runner trace folder needs it (with the task "
                         f"description and the actions), or pass a JSON list of frames instead")
    meta, actions = _load_actions(folder)
    react = _load_react(folder)
    count = _frame_count(folder, images, xmls, actions, react)
    gap = _first_gap(images)
    if gap is not None:
        raise InputError(f"{folder}: screenshot {gap}.jpg or {gap}.png is missing (screenshots must be "
                         f"numbered 1..N without gaps; the last here is {images[max(images)].name})")
    description = meta.get("task_description") or meta.get("old_task_description") or ""
    app = meta.get("app_name") or ""
    frames: list[Frame] = []
    for step in range(1, count + 1):
        action = dict(actions.get(step) or {})
        entry = react.get(step, {})
        fn = entry.get("function") or {}
        name = str(fn.get("name") or entry.get("name") or action.get("type") or "")
        params = fn.get("parameters", entry.get("parameters")) or {}
        if not action and name:
            action = {"type": name, **params}
        xml_text, elements = _read_xml(xmls[step]) if step in xmls else (None, [])
        target = click_target_label(action, elements) if action.get("type", name) == "click" else ""
        reasoning = str(entry.get("reasoning") or "")
        image = images.get(step)
        if image is not None:
            check_readable(image, "trace folder")
        extra: dict[str, Any] = {"step": step}
        if target:
            extra["click_target"] = target
        if entry:
            extra["react"] = entry
        frame = Frame(index=step - 1, image_path=image, xml_text=xml_text, action=action or None,
                      reasoning=reasoning, text=frame_text(reasoning, name, params, action, target),
                      task_description=description, app=app, extra=extra)
        frame._elements = elements
        frames.append(frame)
    link_frames(frames)
    return Trace(frames, description, app, folder,
                 extra={k: v for k, v in meta.items() if k != "actions"})
