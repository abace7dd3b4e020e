"""The live view: overall progress, each device's current step, one line per finished task; screen and
model text is shown literally (Rich markup in it is escaped)."""

from __future__ import annotations

import io

from rich.console import Console

from droidpilot.bench.display import RunDisplay


def test_live_view_shows_devices_and_escapes_markup() -> None:
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, width=150, color_system=None)
    view = RunDisplay(console, live=True)
    view.on_event("begin", {"total": 2, "done": 0, "devices": ["sim", "sim"], "pending": ["a", "b"]})
    view.on_event("start", {"wid": 0, "task": "a", "device": "sim"})
    view.on_event("step", {"wid": 0, "task": "a", "step": 3, "action": "click text ([bold]Save[/bold])"})
    table = view._table()
    console.print(table)
    view.on_event("done", {"wid": 0, "task": "a", "row": {"id": "a", "su": 1, "su_oracle": 1, "steps": 3,
                                                         "reference_steps": 3, "seconds": 1.5}})
    view.on_event("done", {"wid": 1, "task": "b", "row": {"id": "b", "su": 0, "su_oracle": 0, "steps": 0,
                                                         "reference_steps": 4, "seconds": 0.1,
                                                         "error": "[red]boom[/red]"}})
    view.on_event("end", {"summary": {}})
    text = buffer.getvalue()
    assert "step 3: click text ([bold]Save[/bold])" in text
    assert "a: pass (oracle pass), 3 steps (reference 3)" in text
    assert "b: error" in text and "[red]boom[/red]" in text
    assert view.progress.tasks[0].completed == 2 and view.live is None


def test_without_a_terminal_only_lines_are_printed() -> None:
    buffer = io.StringIO()
    view = RunDisplay(Console(file=buffer, width=120))
    view.on_event("begin", {"total": 1, "done": 1, "devices": ["sim"], "pending": []})
    assert view.live is None and "resuming: 1 finished task(s) kept, 0 to run" in buffer.getvalue()
