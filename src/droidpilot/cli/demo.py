"""`droidpilot demo`: the whole pipeline on a fresh machine, offline.

By default the heuristic agent (no model) runs on SimPhone for a sample instruction, its trace is
recorded and then verified against the demo's rule; both are printed, with where the trace is.
``--example`` instead verifies the bundled, pre-recorded example trace (no OCR, no simulator).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from droidpilot.cli._common import guard


def _verify_example(as_json: bool, console: Console) -> bool:
    from droidpilot.verify.engine import verify
    from droidpilot.verify.examples import example_dir
    from droidpilot.verify.explain import render
    from droidpilot.verify.options import VerifierOptions
    from droidpilot.verify.spec import load_rule
    from droidpilot.verify.trace import load_trace

    folder = example_dir()
    task = load_rule(folder / "rule.yaml")
    trace = load_trace(folder / "trace")
    result = verify(task, trace, VerifierOptions())
    if as_json:
        typer.echo(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        console.print(f"[bold]droidpilot demo[/]: verifying the bundled trace ({len(trace)} frames, task: "
                      f"{escape(repr(trace.task_description))}) against {escape(task.task_id)}\n",
                      highlight=False)
        render(result, task, console)
    return bool(result.ok)


def _run_agent(out: Path, as_json: bool, console: Console) -> bool:
    from droidpilot.agent.demo import DEMO_INSTRUCTION, run_demo
    from droidpilot.cli.run import show_step
    from droidpilot.verify.explain import render
    from droidpilot.verify.spec import load_rule

    if not as_json:
        console.print(f"[bold]droidpilot demo[/]: the heuristic agent on SimPhone, instruction "
                      f"[bold]{escape(DEMO_INSTRUCTION)}[/]\n", highlight=False)
    outcome = run_demo(out, on_step=None if as_json else (lambda rec: show_step(rec, out)))
    if as_json:
        typer.echo(json.dumps({"run": {"termination": outcome.run.termination, "steps": outcome.run.steps,
                                       "error": outcome.run.error},
                               "oracle_ok": outcome.oracle_ok, "trace": str(outcome.trace_dir),
                               "verdict": outcome.verdict.to_dict()}, ensure_ascii=False))
        return bool(outcome.verdict.ok)
    run = outcome.run
    console.print(f"\nrun ended: [bold]{escape(run.termination)}[/] after {run.steps} steps "
                  f"({run.seconds:.1f}s); SimPhone says airplane mode is "
                  f"{'on' if outcome.oracle_ok else 'off'}\n")
    if run.error:  # a run that ended early says why here, not only in run.json
        console.print(f"[bold red]reason:[/] {escape(run.error)}\n", highlight=False)
    render(outcome.verdict, load_rule(outcome.rule_path), console)
    console.print(f"\ntrace: {escape(str(outcome.trace_dir))}   rule: {escape(str(outcome.rule_path))}")
    console.print("verify it again with: droidpilot verify "
                  f"{escape(str(outcome.rule_path))} {escape(str(outcome.trace_dir))}")
    return bool(outcome.verdict.ok)


def demo(
    as_json: Annotated[bool, typer.Option("--json", help="Print the verdict as one JSON object.")] = False,
    example: Annotated[bool, typer.Option(
        "--example", help="Verify the bundled recorded trace instead of running the agent.")] = False,
    out: Annotated[Path | None, typer.Option(
        "--out", help="Trace folder (default: runs/demo-<time>).")] = None,
) -> None:
    """Run the heuristic agent on SimPhone, verify its trace, and explain the verdict."""
    console = Console()
    with guard():
        if example:
            ok = _verify_example(as_json, console)
        else:
            ok = _run_agent(out or Path("runs") / time.strftime("demo-%Y%m%d-%H%M%S"), as_json, console)
    raise typer.Exit(0 if ok else 1)


def register(app: typer.Typer) -> None:
    app.command("demo")(demo)
