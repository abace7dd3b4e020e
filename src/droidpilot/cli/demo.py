"""`droidpilot demo`: verify the bundled example trace against its rule and explain the verdict.

The example (a shopping-app search recorded in MobiFlow's runner format) uses only checkers that need
no model, so the demo runs offline on any machine right after installation.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from droidpilot.cli._common import guard


def demo(
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as one JSON object.")] = False,
) -> None:
    """Verify the bundled example trace against its rule and show the path analysis."""
    from droidpilot.verify.engine import verify
    from droidpilot.verify.examples import example_dir
    from droidpilot.verify.explain import render
    from droidpilot.verify.options import VerifierOptions
    from droidpilot.verify.spec import load_rule
    from droidpilot.verify.trace import load_trace

    with guard():
        folder = example_dir()
        task = load_rule(folder / "rule.yaml")
        trace = load_trace(folder / "trace")
        result = verify(task, trace, VerifierOptions())
    if as_json:
        typer.echo(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        console = Console()
        console.print(f"[bold]droidpilot demo[/]: verifying the bundled trace ({len(trace)} frames, task: "
                      f"{escape(repr(trace.task_description))}) against {escape(task.task_id)}\n",
                      highlight=False)
        render(result, task, console)
    raise typer.Exit(0 if result.ok else 1)


def register(app: typer.Typer) -> None:
    app.command("demo")(demo)
