"""Episodes read back from trace folders: the goal, each step's screenshot and action, and the verdict.

A path is a trace folder (it holds ``actions.json``), a bench run folder (``results.json`` names each
task's trace folder) or any folder holding trace folders below it. The verdict is the oracle's
(``oracle.json``), else the verifier's (``verify.json``), else unknown.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from droidpilot.agent.actions import ActionParseError, parse_action
from droidpilot.errors import InputError

NOT_STEPS = ("done",)  # the closing frame of a trace: the last screen, no action


@dataclass
class Step:
    """One action of an episode: the screen it was taken on, the MobiFlow action dict, its words."""

    image: Path
    size: tuple[int, int]
    action: dict[str, Any]
    command: str  # the action in droidpilot's grammar ("click text (Save)"), "" when unknown
    reasoning: str
    instruction: str  # the low-level step instruction ("Tap Save")


@dataclass
class Episode:
    folder: Path
    goal: str
    steps: list[Step] = field(default_factory=list)
    success: bool | None = None
    verdict: dict[str, Any] = field(default_factory=dict)


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{path}: cannot read it as JSON ({exc}); is the trace complete?") from None


def find_traces(paths: list[str | Path]) -> list[Path]:
    """Every trace folder the paths name (in order, each once); InputError for a path holding none."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if not path.is_dir():
            raise InputError(f"{path}: not a folder; give trace folders or bench run folders")
        if (path / "actions.json").is_file():
            folders = [path]
        elif (path / "results.json").is_file():
            rows = _json(path / "results.json")
            rows = rows.get("results", rows.get("tasks", [])) if isinstance(rows, dict) else rows
            folders = [path / str(r["trace"]) for r in rows if isinstance(r, dict) and r.get("trace")]
        else:
            folders = sorted(p.parent for p in path.rglob("actions.json"))
        if not folders:
            raise InputError(f"{path}: holds no trace folder (none with actions.json below it)")
        found += [f for f in folders if f not in found]
    return found


def load_episode(folder: Path) -> Episode:
    """The episode recorded in ``folder``; InputError naming the file that is missing or unreadable."""
    meta = _json(folder / "actions.json")
    if not isinstance(meta, dict) or not isinstance(meta.get("actions"), list):
        raise InputError(f"{folder / 'actions.json'}: expected an object with an 'actions' list")
    react = _json(folder / "react.json") if (folder / "react.json").is_file() else []
    by_index = {r.get("action_index"): r for r in react if isinstance(r, dict)}
    run = _json(folder / "run.json") if (folder / "run.json").is_file() else {}
    reference = [str(op) for op in run.get("reference") or []] if isinstance(run, dict) else []
    goal = str(meta.get("task_description") or "") or (str(run.get("instruction") or "")
                                                        if isinstance(run, dict) else "")
    episode = Episode(folder, goal)
    for number, action in enumerate(meta["actions"], start=1):
        if not isinstance(action, dict) or action.get("type") in NOT_STEPS:
            continue
        index = int(action.get("action_index") or number)
        shots = [folder / f"{index}{ext}" for ext in (".jpg", ".png")]
        image = next((p for p in shots if p.is_file()), None)
        if image is None:
            raise InputError(f"{folder}: step {index} has no screenshot ({index}.jpg or {index}.png)")
        with Image.open(image) as img:
            size = img.size
        entry = by_index.get(index, {})
        function = entry.get("function") or {}
        command = str((function.get("parameters") or {}).get("action") or "")
        step_ref = reference[len(episode.steps)] if len(episode.steps) < len(reference) else ""
        episode.steps.append(Step(image, size, action, command, str(entry.get("reasoning") or ""),
                                  low_level(action, command, step_ref)))
    for name in ("oracle.json", "verify.json"):
        if (folder / name).is_file():
            verdict = _json(folder / name)
            if isinstance(verdict, dict) and isinstance(verdict.get("ok"), bool):
                episode.success, episode.verdict = verdict["ok"], {"source": name, "ok": verdict["ok"]}
                break
    return episode


def low_level(action: dict[str, Any], command: str, reference: str = "") -> str:
    """The step as a person would say it ("Tap Save"), from the action, else the reference operation."""
    kind = action.get("type")
    text = str(action.get("text") or "")
    if command.startswith("click icon"):
        try:
            return f"Tap the {parse_action(command).description} icon"
        except ActionParseError:
            pass
    if kind == "click" and action.get("app"):
        return f"Open {action['app']}"
    if kind in ("click", "long_press") and text and not text.startswith("("):
        return f"{'Tap' if kind == 'click' else 'Long press'} {text}"
    if kind == "input":
        return f"Type {text}"
    if kind == "swipe":
        return {"up": "Scroll down", "down": "Scroll up", "left": "Swipe left", "right": "Swipe right"}.get(
            str(action.get("direction")), "Swipe")
    fixed = {"back": "Go back", "home": "Go to the home screen", "enter": "Press Enter", "wait": "Wait",
             "recents": "Open the recent apps"}
    if kind in fixed:
        return fixed[kind]
    if kind == "answer":
        return f"Answer: {text}"
    for source in (reference, command):
        try:
            parsed = parse_action(source) if source else None
        except ActionParseError:
            parsed = None
        if parsed is not None and parsed.name == "click_text":
            return f"Tap {parsed.text}"
        if parsed is not None and parsed.name == "click_icon":
            return f"Tap the {parsed.description} icon"
    if kind in ("click", "long_press"):
        return f"{'Tap' if kind == 'click' else 'Long press'} the screen"
    return str(kind or "act")
