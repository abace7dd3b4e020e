"""What the world-suite judging tests share: an instance of a template, and a play on SimPhone judged as a
run is (the instance set up without its distractors, the oracle with the task's declared effects)."""

from __future__ import annotations

from collections.abc import Callable

from tests.device.sim_driver import Driver

from droidpilot.bench import oracle as oracle_lang
from droidpilot.bench.suite import BenchTask, load_suite
from droidpilot.device.sim.phone import SimDevice

Play = Callable[[Driver, BenchTask], "str | None"]  # returns the agent's answer, if it gives one


def world_task(template: str, seed: int = 0) -> BenchTask:
    """Instance 0 of ``template`` for ``seed``, as ``bench --suite world`` draws it."""
    return load_suite("world", seed=seed, templates=template).tasks[0]


def judge_played(task: BenchTask, play: Play) -> bool:
    """Set up the instance (its distractors left out: the driver is no agent), play, judge as a run does."""
    phone = SimDevice(seed=task.seed)
    phone.apply_setup({k: v for k, v in task.setup.items() if k in ("state", "date", "clipboard")})
    start = {**phone.state(), "agent": {"answer": None}}
    answer = play(Driver(phone), task)
    final = {**phone.state(), "agent": {"answer": answer}}
    return oracle_lang.evaluate(task.oracle, final, start=start, effects=task.effects).ok
