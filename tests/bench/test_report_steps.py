"""The report's timeline says what its rows are, so its row count and the task's "N steps" agree."""

from __future__ import annotations

from droidpilot.bench.report.steps import timeline_count


def _rec(name: str, **extra: object) -> dict[str, object]:
    return {"action": {"name": name, "text": name}, **extra}


def test_the_rows_beyond_the_counted_steps_are_named() -> None:
    records = [_rec("tap"), _rec("back"), _rec("home", by="person", manual=1), _rec("tap"),
               _rec("stop"), {"phase": "experience"}]
    assert timeline_count(records) == ("6 rows: 3 agent steps (the steps counted above) + 1 stop + 1 by a "
                                       "person + 1 learning after the task")
    assert timeline_count([_rec("tap"), _rec("tap")]) == "2 rows: 2 agent steps (the steps counted above)"
    demo = [_rec("tap", by="person", manual=k) for k in (1, 2)]  # a studio recording: all a person's
    assert timeline_count(demo) == "2 rows: 0 agent steps (the steps counted above) + 2 by a person"
