"""Lining up two runs' steps: equal steps side by side, gaps for inserted ones, the first divergence."""

from __future__ import annotations

from droidpilot.bench.stepalign import Step, action_key, align, first_divergence, summary


def _steps(*actions: str) -> list[Step]:
    return [Step(i + 1, i + 1, a) for i, a in enumerate(actions)]


def test_an_inserted_step_is_against_a_gap_and_is_the_first_divergence() -> None:
    a = _steps("open App (Notes)", "click icon (orange plus, bottom right)", "type (Hi)", "back")
    b = _steps("open App (Notes)", "page down", "click icon (orange plus, bottom right)", "type (Hi)", "back")
    rows = align(a, b)
    assert [(r.a.number if r.a else None, r.b.number if r.b else None, r.same) for r in rows] == [
        (1, 1, True), (None, 2, False), (2, 3, True), (3, 4, True), (4, 5, True)]
    assert first_divergence(rows) == 1
    assert summary(rows) == {"a_steps": 4, "b_steps": 5, "same": 4, "first_divergence": 2}


def test_the_same_steps_written_differently_agree() -> None:
    a = _steps("Click Text (Settings)", "tap (540, 1200)")
    b = _steps("click text  (Settings)", "tap (545, 1196)")  # a few pixels off: the same tap
    rows = align(a, b)
    assert all(r.same for r in rows) and first_divergence(rows) is None


def test_near_misses_differ() -> None:
    assert action_key("tap (540, 1200)") != action_key("tap (540, 1400)")  # another place on the screen
    assert action_key("click text (Setting)") != action_key("click text (Settings)")
    assert action_key("type (540)") != action_key("type (545)")  # typed text is never rounded
    rows = align(_steps("back"), _steps("home"))
    assert [(r.same, r.a is not None, r.b is not None) for r in rows] == [(False, True, True)]
    assert first_divergence(rows) == 0
