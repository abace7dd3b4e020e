"""Seeded distractors for a task instance: a first-launch dialog over the task's app (permission request,
rate-this-app prompt, onboarding), a notification arriving mid-task, and a soft keyboard that covers a
form's bottom-pinned button instead of making room for it. Each is recorded in the instance's ``setup``,
and the reference gets the human step that deals with it."""

from __future__ import annotations

import random
from typing import Any

from droidpilot.agent.actions import parse_action

DIALOGS: dict[str, tuple[str, dict[str, str]]] = {
    "permission": ("Don't allow", {"what": "your location", "why": "Used to show results near you."}),
    "rate": ("Not now", {}),
    "onboarding": ("Get started", {"tip": "Everything you need, in one place."}),
}
NOTES = (
    ("Mom", "Are you coming for dinner tonight?"),
    ("Delivery", "Your package is out for delivery"),
    ("Bank alert", "A payment of $12.40 was approved"),
    ("Calendar", "Reminder: call the plumber"),
    ("Liam Carter", "Running 10 minutes late, sorry!"),
    ("Weather", "Rain expected after 4 PM"),
    ("Photos", "Your memories from last year are ready"),
    ("System update", "A new update is available"),
)
BANNER_WAIT = ("wait (2)", "wait (2)")  # the banner shows after the first, is gone after the second
# App label -> (app, the texts of its forms' bottom-pinned buttons): where a keyboard that covers the
# window (instead of resizing it) hides the button a person taps right after typing.
KEYBOARD_COVERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "Bank": ("bank", ("Review",)),
    "Messages": ("messages", ("Send",)),
    "Ride": ("ride", ("Economy", "Comfort")),
}


def _seconds(op: str) -> float:
    if op.startswith("@"):
        return float("nan")  # scrolling until a text shows: its length is not known in advance
    action = parse_action(op.partition(" @choose ")[0])
    if action.name == "wait":
        return action.seconds if action.seconds is not None else 1.0
    return 0.0 if action.name in ("answer", "stop") else 1.0


def _covered_taps(ops: list[str]) -> tuple[str | None, list[int]]:
    """(app, indices of ops) where the reference taps a bottom-pinned form button right after typing."""
    here: tuple[str, tuple[str, ...]] | None = None
    app, found = None, []
    for i, op in enumerate(ops):
        if op.startswith("open App (") and op.endswith(")"):
            here = KEYBOARD_COVERS.get(op[len("open App (") : -1])
        elif here and i and ops[i - 1].startswith("type (") and op in {f"click text ({b})" for b in here[1]}:
            if app not in (None, here[0]):
                break  # one app's keyboard per instance
            app = here[0]
            found.append(i)
    return app, found


def add_distractors(
    rng: random.Random, ops: list[str], app: str, label: str, keyboard_rng: random.Random | None = None
) -> tuple[list[str], dict[str, Any], list[str]]:
    """(reference with the distractor steps, setup additions, names of the distractors drawn).

    ``keyboard_rng`` draws the covering keyboard (a stream of its own, so adding it left the other
    distractors of every instance as they were)."""
    ops = list(ops)
    setup: dict[str, Any] = {}
    drawn: list[str] = []
    opener = f"open App ({label})"
    if rng.random() < 0.5 and opener in ops:
        kind = rng.choice(sorted(DIALOGS))
        button, extra = DIALOGS[kind]
        setup["dialogs"] = [{"app": app, "screen": kind, "params": {"label": label, **extra}}]
        ops.insert(ops.index(opener) + 1, f"click text ({button})")
        drawn.append(kind)
    covered_app, covered = _covered_taps(ops)
    if keyboard_rng is not None and covered and keyboard_rng.random() < 0.5:
        # The keyboard stays over the form's button after typing: a person presses Back to put it away.
        for i in reversed(covered):
            ops.insert(i, "back")
        setup["keyboard"] = [{"app": covered_app}]
        drawn.append("keyboard")
    if rng.random() < 0.5 and len(ops) >= 3:
        # It arrives during the first wait after op j, so its banner is in the screenshot after it; the
        # second wait outlasts the banner, so it never covers the next target or swallows a tap.
        j = rng.randint(1, len(ops) - 2)
        at = sum(_seconds(op) for op in ops[: j + 1]) + 0.5
        if at == at:  # (nan when a scroll comes first: its length is not known)
            title, text = rng.choice(NOTES)
            setup["notifications"] = [{"at": at, "title": title, "text": text, "app": ""}]
            ops[j + 1 : j + 1] = list(BANNER_WAIT)
            drawn.append("notification")
    return ops, setup, drawn
