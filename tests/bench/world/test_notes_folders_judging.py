"""Notes' folders, to-dos, answers read out of a note and notes carried into other apps, judged on real
SimPhone state by each instance's oracle and declared effects: right completions written differently pass
(single line breaks in a merge, an amount in words) and the near misses fail (notes merged out of order, a
note moved to the wrong folder, a folder made twice, a personal transaction or a recipe of another time
added too, a unit in the singular or abbreviated)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tests.bench.world.played import world_task as _task
from tests.device.sim_driver import Driver

from droidpilot.bench import oracle as oracle_lang
from droidpilot.device.sim.phone import SimDevice

Play = Callable[[Driver, dict], None]




def _judge(template: str, seed: int, play: Play, app: str = "notes") -> bool:
    task = _task(template, seed)
    phone = SimDevice(seed=task.seed)
    phone.apply_setup({k: v for k, v in task.setup.items() if k == "state"})
    start = {**phone.state(), "agent": {"answer": None}}
    ui = Driver(phone)
    phone.open_app(app)
    play(ui, task.params)
    final = {**phone.state(), "agent": {"answer": None}}
    return oracle_lang.evaluate(task.oracle, final, start=start, effects=task.effects).ok


def _answer(template: str, seed: int, reply: str) -> bool:
    """The instance's oracle on its start state with ``reply`` as the agent's answer."""
    task = _task(template, seed)
    phone = SimDevice(seed=task.seed)
    phone.apply_setup({k: v for k, v in task.setup.items() if k == "state"})
    phone.open_app("notes")
    start = {**phone.state(), "agent": {"answer": None}}
    final = {**start, "agent": {"answer": reply.format(**task.params)}}
    return oracle_lang.evaluate(task.oracle, final, start=start, effects=task.effects).ok


def _merge(order: tuple[int, int, int], gap: tuple[str, ...] = ("\n", "\n")) -> Play:
    def play(ui: Driver, p: dict) -> None:
        ui.tap(desc="New note")
        for k, i in enumerate(order):
            if k:
                for key in gap:
                    ui.d.key("enter") if key == "\n" else ui.d.type_text(key)
            ui.d.type_text(p["parts"][i]["body"])
        ui.tap(rid="title")
        ui.d.type_text(p["new"])
        ui.tap(desc="Save")
    return play


def _move(to: str) -> Play:
    def play(ui: Driver, p: dict) -> None:
        ui.tap(p["src"])
        ui.tap(p["title"])
        ui.tap("Move")
        ui.tap(p.get(to, to))
    return play


def _folders(*names: str) -> Play:
    def play(ui: Driver, p: dict) -> None:
        for name in names:
            ui.tap("New folder")
            ui.d.type_text(name.format(**p))
            ui.tap("Create")
    return play


@pytest.mark.parametrize(("template", "seed", "play", "ok"), [
    ("notes-merge", 0, _merge((0, 1, 2)), True),
    ("notes-merge", 0, _merge((0, 1, 2), ("\n",)), True),  # one line break: whitespace does not count
    ("notes-merge", 1, _merge((0, 1, 2), (" ",)), True),
    ("notes-merge", 0, _merge((0, 2, 1)), False),  # out of the asked order
    ("notes-merge", 1, _merge((1, 0, 2)), False),
    ("notes-move", 0, _move("dest"), True),
    ("notes-move", 0, _move("No folder"), False),  # taken out of its folder, not moved to the asked one
    ("notes-create-folder", 0, _folders("{new}"), True),
    ("notes-create-folder", 1, _folders("{new}", "{new} 2"), False),  # a second folder besides
    ("notes-create-folder", 2, _folders("{new}s"), False),  # a letter too many
])
def test_notes_templates_judge_state(template: str, seed: int, play: Play, ok: bool) -> None:
    assert _judge(template, seed, play) is ok


@pytest.mark.parametrize(("template", "seed", "reply", "ok"), [
    ("notes-ingredient-quantity", 0, "{target[amount]}", True),
    ("notes-ingredient-quantity", 0, "{target[words]}", True),  # "two tablespoons"
    ("notes-ingredient-quantity", 0, "You need {target[amount]}.", True),
    ("notes-ingredient-quantity", 0, "2 tablespoon", False),  # seed 0 asks for 2 tablespoons: singular
    ("notes-ingredient-quantity", 0, "2 tbsp", False),  # abbreviated
    ("notes-ingredient-quantity", 0, "2", False),  # no unit
    ("notes-attendee-count", 0, "{total}", True),
    ("notes-attendee-count", 0, "{total} or 9", False),
    ("notes-is-todo", 0, "False", True),  # seed 0's note is not a to-do
    ("notes-is-todo", 0, "True", False),
    ("notes-is-todo", 0, "True or False", False),
])
def test_notes_answers_are_typed(template: str, seed: int, reply: str, ok: bool) -> None:
    assert _answer(template, seed, reply) is ok


def test_recipes_of_another_time_and_personal_expenses_fail() -> None:
    def add_recipes(*keys: str) -> Play:
        def play(ui: Driver, p: dict) -> None:
            for key in keys:
                r = p[key]
                ui.tap(desc="Add recipe")
                ui.d.type_text(r["name"])
                for hint, value in (("Time in minutes", p["m" + key]), ("Serves", r["serves"]),
                                    ("Main ingredient", r["main"]), ("Directions", r["directions"])):
                    ui.tap(hint)
                    ui.d.type_text(str(value))
                ui.tap(desc="Save")
        return play

    assert _judge("notes-recipes-prep-time", 0, add_recipes("a", "b"), "recipes")
    assert not _judge("notes-recipes-prep-time", 0, add_recipes("a", "b", "c"), "recipes")
    assert not _judge("notes-recipes-all", 0, add_recipes("a"), "recipes")
