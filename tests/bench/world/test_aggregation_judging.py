"""Aggregation over records (Tracker's activities, Tasks' priorities and due dates, a playlist's length)
judged by each instance's oracle on real SimPhone state: the right answer written differently passes, and
the near misses the instance draws beside its answer fail — a count or sum over all time instead of the
week or interval, another category's record on the same day, a low-priority or done task added to the set,
a song left out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tests.bench.world.played import world_task as _task

from droidpilot.bench import oracle as oracle_lang
from droidpilot.bench.suite import BenchTask
from droidpilot.device.sim.phone import SimDevice

SEEDS = (0, 1, 2)
Answer = Callable[[dict[str, Any]], str]




def _judge(task: BenchTask, answer: str) -> bool:
    """The instance's start state on a SimPhone, the answer given, judged as a run judges it."""
    phone = SimDevice(seed=task.seed)
    phone.apply_setup({k: v for k, v in task.setup.items() if k in ("state", "date")})
    start = {**phone.state(), "agent": {"answer": None}}
    phone.open_app(task.apps[0])  # the oracle asks that the app was looked at
    final = {**phone.state(), "agent": {"answer": answer}}
    return oracle_lang.evaluate(task.oracle, final, start=start, effects=task.effects).ok


def _right(task: BenchTask) -> str:
    """The right answer as the oracle holds it (its typed leaf on agent.answer)."""
    leaf = next(c for c in task.oracle["all"] if c.get("path") == "agent.answer")
    return str(leaf["value"]["equals"])


def _sum(records: list[dict[str, Any]], field: str) -> int:
    return sum(int(r[field]) for r in records)


def _other_than(value: int, right: int) -> int:
    """A near miss's value, moved off the right one when the draw made them equal."""
    return value + 1 if value == right else value


def _length(song: dict[str, Any]) -> int:
    """A playlist song's length in seconds."""
    return int(song["minutes"]) * 60 + int(song["seconds"])


def _titles(records: list[dict[str, Any]]) -> list[str]:
    return [r["title"] for r in records]


CASES: list[tuple[str, str, Answer, bool]] = [
    ("tracker-count-week", "right in a sentence", lambda p: f"I recorded {len(p['mine'])} of them.", True),
    ("tracker-count-week", "all time, not the week", lambda p: str(len(p["mine"]) + len(p["old"])), False),
    ("tracker-on-date", "right, reversed with and",
     lambda p: " and ".join(reversed([r["kind"] for r in p["that_day"]])), True),
    ("tracker-on-date", "a neighbouring day's category added",
     lambda p: ", ".join([r["kind"] for r in p["that_day"]]
                         + [k for k in ("Running", "Cycling", "Walking", "Hiking", "Swimming")
                            if k not in {r["kind"] for r in p["that_day"]}][:1]), False),
    ("tracker-longest-week", "with a thousands separator and unit",
     lambda p: f"{int(p['best'][0]['distance']):,} metres", True),
    ("tracker-longest-week", "the longest of all time",
     lambda p: str(max(int(r["distance"]) for r in p["old"])), False),
    ("tracker-longest-week", "another category's longest", lambda p: str(p["rival"][0]["distance"]), False),
    ("tracker-longest-week", "in kilometres", lambda p: str(int(p["best"][0]["distance"]) / 1000), False),
    ("tracker-total-interval", "right, as a decimal", lambda p: f"{_sum(p['inside'], 'distance')}.0 m", True),
    ("tracker-total-interval", "days outside the interval counted",
     lambda p: str(_sum(p["inside"], "distance") + _sum(p["out"], "distance")), False),
    ("tracker-total-interval", "the other category counted",
     lambda p: str(_sum(p["inside"], "distance") + _sum(p["other"], "distance")), False),
    ("tracker-duration", "right in a sentence",
     lambda p: f"It took {p['target'][0]['minutes']} minutes.", True),
    ("tracker-duration", "the other category that day",
     lambda p: str(_other_than(int(p["same"][0]["minutes"]), int(p["target"][0]["minutes"]))), False),
    ("tracker-time-week", "right", lambda p: f"{_sum(p['inside'], 'minutes')} min", True),
    ("tracker-time-week", "all time, not the week",
     lambda p: str(_sum(p["inside"], "minutes") + _sum(p["old"], "minutes")), False),
    ("music-playlist-duration", "as M:SS", lambda p: "{}:{:02d}".format(*divmod(int(p["total"]), 60)), True),
    ("music-playlist-duration", "in minutes and seconds",
     lambda p: "It lasts {} min {} s.".format(*divmod(int(p["total"]), 60)), True),
    ("music-playlist-duration", "the last song left out",
     lambda p: f"{int(p['total']) - _length(p['songs'][-1])} seconds", False),
    ("music-playlist-duration", "the seconds dropped", lambda p: f"{p['m']}:00", False),
    ("tasks-high-priority", "right, reversed", lambda p: ", ".join(reversed(_titles(p["high"]))), True),
    ("tasks-high-priority", "a medium or low task added",
     lambda p: ", ".join(_titles(p["high"]) + _titles(p["rest"])[:1]), False),
    ("tasks-due-on-date", "right, lower case", lambda p: ", ".join(_titles(p["due"])).lower(), True),
    ("tasks-due-on-date", "one missing or another day's added",
     lambda p: ", ".join(_titles(p["due"])[1:] or _titles(p["rest"])[:1]), False),
    ("tasks-high-due-on-date", "right", lambda p: ", ".join(_titles(p["hit"])), True),
    ("tasks-high-due-on-date", "every task due that day",
     lambda p: ", ".join(_titles(p["hit"]) + _titles(p["same"])), False),
    ("tasks-high-due-on-date", "high priority on another day",
     lambda p: ", ".join(_titles(p["hit"]) + _titles(p["other"])[:1]), False),
    ("tasks-due-next-week", "right in words", lambda p: f"You have {len(p['week'])} tasks due.", True),
    ("tasks-due-next-week", "every task counted", lambda p: str(len(p["week"]) + len(p["later"])), False),
    ("tasks-open-by-date", "right, reversed", lambda p: ", ".join(reversed(_titles(p["open"]))), True),
    ("tasks-open-by-date", "a done task added",
     lambda p: ", ".join(_titles(p["open"]) + _titles(p["finished"])[:1]), False),
    ("tasks-open-by-date", "a task due later added",
     lambda p: ", ".join(_titles(p["open"]) + _titles(p["late"])[:1]), False),
    ("tasks-done-on-date", "right", lambda p: " and ".join(_titles(p["hit"])), True),
    ("tasks-done-on-date", "an open task that day added",
     lambda p: ", ".join(_titles(p["hit"]) + _titles(p["open"])[:1]), False),
    ("tasks-done-on-date", "a task done for another day added",
     lambda p: ", ".join(_titles(p["hit"]) + _titles(p["other"])[:1]), False),
]


@pytest.mark.parametrize(("template", "case", "answer", "ok"), CASES, ids=[f"{t}:{c}" for t, c, *_ in CASES])
@pytest.mark.parametrize("seed", SEEDS)
def test_answers_over_dated_records(template: str, case: str, answer: Answer, ok: bool, seed: int) -> None:
    task = _task(template, seed)
    reply = answer(task.params)
    assert _judge(task, reply) is ok, f"{task.id}: {reply!r} ({case}); the right answer is {_right(task)!r}"


@pytest.mark.parametrize("template", sorted({t for t, *_ in CASES}))
def test_the_reference_answer_passes_and_silence_fails(template: str) -> None:
    task = _task(template, 0)
    assert _judge(task, _right(task)) and not _judge(task, "")
