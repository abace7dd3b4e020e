"""Web-page templates judged on real SimPhone state: the sign-up form and the click game pass when operated
as asked; near misses fail (one click short or one too many, a miss on a button that was not highlighted,
Done pressed twice, a form with a misspelt email, a form never submitted)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tests.bench.world.played import judge_played as _judge
from tests.bench.world.played import world_task as _task
from tests.device.sim_driver import Driver

from droidpilot.bench.suite import BenchTask
from droidpilot.bench.task import SuiteError
from droidpilot.bench.world.instance import _expand

Play = Callable[[Driver, BenchTask], None]






def _open(ui: Driver, address: str, title: str) -> None:
    ui.d.open_app("browser")
    ui.tap("Search or type web address")
    ui.d.type_text(address)
    ui.d.key("enter")
    ui.tap(title)


def _game(clicks: int, miss: bool = False, done: int = 1) -> Play:
    """Click the highlighted button ``clicks`` times (after one click on another button when ``miss``)."""
    def play(ui: Driver, task: BenchTask) -> None:
        _open(ui, "play.simsearch.dev", "Click the highlighted button - SimPlay")
        order = task.params["order"]
        if miss:
            ui.tap(next(c for c in ("Red", "Green", "Blue", "Yellow") if c != order[0]))
        for k in range(clicks):
            ui.tap(order[k % len(order)])
        for _ in range(done):
            if ui.has("Done"):
                ui.tap("Done")

    return play


def _form(name: str = "{name}", email: str = "{email}", submit: bool = True, upper: bool = False) -> Play:
    def play(ui: Driver, task: BenchTask) -> None:
        _open(ui, "forms.simsearch.dev", "Sign-up form - SimForms")
        typed = name.format(**task.params)
        ui.type_into("form_name", typed.upper() if upper else typed)
        ui.type_into("form_email", email.format(**task.params))
        if submit:
            ui.tap("Submit")

    return play


def test_the_game_as_asked_passes_and_near_misses_fail() -> None:
    task = _task("web-click-game", 0)
    n = int(task.params["n"])
    assert _judge(task, _game(n))
    assert not _judge(task, _game(n - 1))
    assert not _judge(task, _game(n + 1))
    assert not _judge(task, _game(n, miss=True))  # every hit right, but one click on the wrong button


def test_a_miss_does_not_move_the_highlight_and_an_unfinished_game_fails() -> None:
    task = _task("web-click-game", 1)
    n = int(task.params["n"])
    assert _judge(task, _game(n))
    assert not _judge(task, _game(n, done=0))


@pytest.mark.parametrize(("seed", "play", "ok"), [
    (0, _form(), True), (1, _form(upper=True), True),
    (0, _form(email="x{email}"), False), (1, _form(submit=False), False),
    (2, _form(name="{name}son"), False),
])
def test_the_signup_form(seed: int, play: Play, ok: bool) -> None:
    assert _judge(_task("web-form-signup", seed), play) is ok


def test_repeat_expands_over_a_sequence_and_refuses_a_bad_count() -> None:
    ops = _expand(["a", {"repeat": "3", "action": "click text (@)", "over": ["X", "Y"]}], "t")
    assert ops == ["a", "click text (X)", "click text (Y)", "click text (X)"]
    with pytest.raises(SuiteError, match=r"repeat: 'lots' is not a whole number of times from 0 to 50"):
        _expand([{"repeat": "lots", "action": "back"}], "t")
