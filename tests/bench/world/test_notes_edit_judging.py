"""Notes edited in place, judged on real SimPhone state by each instance's oracle and declared effects:
an edit written differently passes (a space instead of a line break), and the near misses a real agent
makes fail — the text typed into a new note instead, the wrong note edited, the old text left in front of
a replacement, two notes deleted, the oldest deleted for the newest."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tests.device.sim_driver import Driver

from droidpilot.bench import oracle as oracle_lang
from droidpilot.bench.suite import BenchTask, load_suite
from droidpilot.device.sim.phone import SimDevice

Play = Callable[[Driver, dict], None]


def _judge(template: str, seed: int, play: Play) -> bool:
    task: BenchTask = load_suite("world", seed=seed, templates=template).tasks[0]
    phone = SimDevice(seed=task.seed)
    phone.apply_setup({k: v for k, v in task.setup.items() if k == "state"})
    start = {**phone.state(), "agent": {"answer": None}}
    ui = Driver(phone)
    phone.open_app("notes")
    play(ui, task.params)
    final = {**phone.state(), "agent": {"answer": None}}
    return oracle_lang.evaluate(task.oracle, final, start=start, effects=task.effects).ok


def _open(ui: Driver, title: str) -> None:
    for _ in range(6):
        if ui.has(title):
            break
        ui.d.swipe(540, 1800, 540, 700)
    ui.tap(title)


def _edit(title: str, *, clear: bool = False, keys: tuple[str, ...] = ()) -> Play:
    """Open the note (a title placeholder), Edit, optionally Clear text, type each key's text, Save."""
    def play(ui: Driver, p: dict) -> None:
        _open(ui, title.format(**p))
        ui.tap("Edit")
        if clear:
            ui.tap("Clear text")
        for text in keys:
            if text == "\n":
                ui.d.key("enter")
            else:
                ui.d.type_text(text.format(**p))
        ui.tap(desc="Save")
    return play


def _new_note(text: str) -> Play:
    def play(ui: Driver, p: dict) -> None:
        ui.tap(desc="New note")
        ui.d.type_text(text.format(**p))
        ui.tap(desc="Save")
    return play


def _delete(*titles: str) -> Play:
    def play(ui: Driver, p: dict) -> None:
        for title in titles:
            _open(ui, title.format(**p))
            ui.tap("Delete")
    return play


@pytest.mark.parametrize(("template", "play", "ok"), [
    ("notes-append", _edit("{target[title]}", keys=("\n", "{extra}")), True),
    ("notes-append", _edit("{target[title]}", keys=(" {extra}",)), True),  # on the same line
    ("notes-append", _new_note("{extra}"), False),  # a new note, not the asked one
    ("notes-append", _edit("{items[10][title]}", keys=("\n", "{extra}")), False),  # another note
    ("notes-replace", _edit("{target[title]}", clear=True, keys=("{text}",)), True),
    ("notes-replace", _edit("{target[title]}", keys=(" {text}",)), False),  # the old text kept in front
    ("notes-header", _edit("{target[title]}", clear=True, keys=("{header}", "\n", "{target[body]}")), True),
    ("notes-header", _edit("{target[title]}", keys=("\n", "{header}")), False),  # at the bottom
    ("notes-header", _edit("{target[title]}", clear=True, keys=("{header}",)), False),  # the text lost
    ("notes-delete-one", _delete("{target[title]}"), True),
    ("notes-delete-one", _delete("{target[title]}", "{items[10][title]}"), False),  # one more
    ("notes-delete-newest", _delete("{items[11][title]}"), True),
    ("notes-delete-newest", _delete("{items[0][title]}"), False),  # the oldest
    ("notes-clear-all", _delete("{items[0][title]}", "{items[1][title]}", "{items[2][title]}"), True),
    ("notes-clear-all", _delete("{items[2][title]}", "{items[1][title]}"), False),  # one left
], ids=lambda v: v if isinstance(v, str) else None)
@pytest.mark.parametrize("seed", [0, 1])
def test_notes_edits(template: str, play: Play, ok: bool, seed: int) -> None:
    assert _judge(template, seed, play) is ok
