"""The drawing template judged on real SimPhone state: a stroke saved under the asked title passes; the
near misses fail (the canvas tapped but never stroked, a stroke saved under another title, nothing saved)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tests.device.sim_driver import Driver

from droidpilot.bench import oracle as oracle_lang
from droidpilot.bench.suite import BenchTask, load_suite
from droidpilot.device.sim.phone import SimDevice


def _judge(seed: int, stroke: bool, title: Callable[[str], str], save: bool = True) -> bool:
    task: BenchTask = load_suite("world", seed=seed, templates="sketch-draw-save").tasks[0]
    phone = SimDevice(seed=task.seed)
    start = {**phone.state(), "agent": {"answer": None}}
    phone.open_app("sketch")
    ui = Driver(phone)
    ui.tap(desc="New drawing")
    x1, y1, x2, y2 = ui.find(rid="sketch_pad").bounds
    if stroke:
        phone.swipe(x1 + 40, y1 + 40, x2 - 40, y1 + 300)
    else:
        phone.tap((x1 + x2) // 2, (y1 + y2) // 2)
    ui.type_into("drawing_title", title(task.params["title"]))
    phone.key("back")
    if save:
        ui.tap("Save")
    final = {**phone.state(), "agent": {"answer": None}}
    return oracle_lang.evaluate(task.oracle, final, start=start, effects=task.effects).ok


@pytest.mark.parametrize(("seed", "stroke", "title", "save", "ok"), [
    (0, True, str, True, True), (1, True, str.lower, True, True),
    (0, False, str, True, False), (1, True, lambda t: t + " 2", True, False), (2, True, str, False, False),
])
def test_drawing_judging(seed: int, stroke: bool, title: Callable[[str], str], save: bool, ok: bool) -> None:
    assert _judge(seed, stroke, title, save) is ok
