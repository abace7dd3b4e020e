"""`droidpilot verify` and `droidpilot verify-batch`: judge recorded traces against a milestone rule.

Exit status: 0 when the trace passes, 1 when no satisfying path exists (also when manual review is
needed; the output flags it), 2 for bad input (the message goes to stderr).
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from droidpilot import limits
from droidpilot.cli import _common
from droidpilot.cli._common import fail, guard, shown
from droidpilot.cli._ray import ray_address, ray_option
from droidpilot.textsafe import json_safe
from droidpilot.verify.setup import DEFAULT_OCR, OCR_CHOICES, VerifierChoices, parse_escalation_order

LOG_LEVELS = ("debug", "info", "warning", "error")

OcrOpt = Annotated[str, typer.Option("--ocr", help=f"OCR engine for ocr checks: {', '.join(OCR_CHOICES)}.")]
LlmUrlOpt = Annotated[str | None, typer.Option("--llm-base-url", help="OpenAI-compatible endpoint "
                                                                       "for llm checks.")]
LlmModelOpt = Annotated[str | None, typer.Option("--llm-model", help="Model name for llm checks.")]
IconsOpt = Annotated[list[Path] | None, typer.Option("--icons-dir", help="Folder of icon templates "
                                                                          "(repeatable).")]
OrderOpt = Annotated[str | None, typer.Option("--escalation-order",
                                              help="Order in which escalate tries its checkers, "
                                                   "e.g. text,xml,ocr,llm.")]
LogOpt = Annotated[str, typer.Option("--log-level", help=f"Log level on stderr: {', '.join(LOG_LEVELS)}.")]


class _TerminalSafe:
    """stdout for JSON lines: control and bidi characters in them written as \\uXXXX (same data)."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        """Write ``text`` (JSON) with its terminal-active characters escaped."""
        return self.stream.write(json_safe(text))

    def flush(self) -> None:
        """Flush stdout."""
        self.stream.flush()

    def close(self) -> None:
        """Leave stdout open."""



def configure_logging(level: str) -> None:
    """Send droidpilot's log records to stderr at ``level`` (InputError-style exit for a bad level)."""
    if level.lower() not in LOG_LEVELS:
        raise fail(f"--log-level: unknown level {level!r}; choose one of {', '.join(LOG_LEVELS)}")
    logging.basicConfig(stream=sys.stderr, level=getattr(logging, level.upper()),
                        format="%(levelname)s %(name)s: %(message)s", force=True)


def _choices(ocr: str, llm_base_url: str | None, llm_model: str | None, icons_dir: list[Path] | None,
             escalation_order: str | None) -> VerifierChoices:
    if ocr.lower() not in OCR_CHOICES:
        raise fail(f"--ocr: unknown engine {ocr!r}; choose one of {', '.join(OCR_CHOICES)}")
    return VerifierChoices(ocr=ocr.lower(), llm_base_url=llm_base_url, llm_model=llm_model,
                           icons_dirs=tuple(icons_dir or ()),
                           escalation_order=parse_escalation_order(escalation_order))


def verify_command(
    rule: Annotated[Path, typer.Argument(help="Rule file (YAML or JSON) in MobiFlow's format, or a suite "
                                         "task file (its rule: is used).")],
    trace: Annotated[Path, typer.Argument(help="Trace folder (runner format) or JSON list of frames.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print exactly one JSON object.")] = False,
    log_level: LogOpt = "warning",
    ocr: OcrOpt = DEFAULT_OCR,
    llm_base_url: LlmUrlOpt = None,
    llm_model: LlmModelOpt = None,
    icons_dir: IconsOpt = None,
    escalation_order: OrderOpt = None,
    task_description: Annotated[str | None, typer.Option(
        "--task-description", help="Override the trace's task description.")] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="List every check of every node.")] = False,
) -> None:
    """Verify one trace against a rule and explain the verdict."""
    from droidpilot.verify.prefetch import prefetch_ocr

    prefetch_ocr(rule, trace, ocr)  # first: the OCR models load while the verifier's modules import
    from droidpilot.taskfile import is_task_file
    from droidpilot.verify.engine import verify
    from droidpilot.verify.setup import build_options
    from droidpilot.verify.spec import load_rule
    from droidpilot.verify.trace import load_trace

    configure_logging(log_level)
    with guard():
        choices = _choices(ocr, llm_base_url, llm_model, icons_dir, escalation_order)
        if is_task_file(rule):  # its rule:, loaded as the benchmark loads it (that loader only then)
            from droidpilot.bench.rulefile import load_rule_file

            task = load_rule_file(rule).rule
        else:
            task = load_rule(rule)  # its warnings are logged (stderr) by the loader
        the_trace = load_trace(trace, task_description)
        result = verify(task, the_trace, build_options(choices))
    if as_json:
        typer.echo(json_safe(json.dumps(result.to_dict(), ensure_ascii=False)))
    else:
        from rich.console import Console

        from droidpilot.verify.explain import render

        render(result, task, Console(), verbose=verbose)
    raise typer.Exit(0 if result.ok else 1)


def verify_batch_command(
    rule: Annotated[Path, typer.Argument(help="Rule file (YAML or JSON).")],
    traces_dirs: Annotated[list[Path], typer.Argument(
        help="Folders whose sub-folders / .json files are traces.")],
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Worker processes (0: one per CPU).")] = 0,
    json_out: Annotated[Path | None, typer.Option("--json-out", help="Append one JSON line per trace here "
                                                                      "(default: stdout).")] = None,
    with_decisions: Annotated[bool, typer.Option("--with-decisions",
                                                 help="Include every decision in each line.")] = False,
    log_level: LogOpt = "warning",
    ocr: OcrOpt = DEFAULT_OCR,
    llm_base_url: LlmUrlOpt = None,
    llm_model: LlmModelOpt = None,
    icons_dir: IconsOpt = None,
    escalation_order: OrderOpt = None,
    ray: str | None = ray_option("Traces are verified by a pool of Ray actors (OCR loaded once per "
                                 "actor; --jobs sets their number, 0: one per cluster CPU). A local Ray "
                                 "reads the traces in place; on a cluster given by ADDRESS each trace is "
                                 "sent as bytes, so no shared filesystem is needed."),
) -> None:
    """Verify every trace in the given folders against one rule, in parallel.

    Exit status 0 when every trace passes, 1 when any fails or cannot be read, 2 for a bad rule or option.
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from droidpilot.verify.batch import find_traces, run_batch
    from droidpilot.verify.spec import load_rule

    configure_logging(log_level)
    if jobs < 0:
        raise fail("--jobs must be 0 (one per CPU) or more")
    if jobs > limits.JOBS.high:
        raise fail(f"--jobs {jobs:,} is over the limit of {limits.JOBS.high} worker processes")
    with guard():
        choices = _choices(ocr, llm_base_url, llm_model, icons_dir, escalation_order)
        load_rule(rule)  # a bad rule stops here, before any worker starts; warnings are logged once
        traces = find_traces(traces_dirs)
        address = ray_address(ray)
        try:
            sink = json_out.open("a", encoding="utf-8") if json_out else _TerminalSafe(sys.stdout)
        except OSError as exc:
            raise fail(f"--json-out: cannot write {json_out}: {exc.strerror or exc}") from None
    progress = Progress(TextColumn("verifying"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        TextColumn("{task.description}"), console=_common.err_console, transient=False)
    try:
        with progress:
            bar = progress.add_task("", total=len(traces))

            def done(line: dict[str, object]) -> None:
                progress.update(bar, advance=1, description=shown(Path(str(line["trace"])).name))
                if "error" in line:
                    progress.console.print(f"[red]error[/] {shown(line['trace'])}: "
                                           f"{shown(line['error'])}", highlight=False)

            if ray is not None:
                from droidpilot.verify.ray_batch import run_batch_ray

                with guard():
                    summary = run_batch_ray(rule, traces, choices, address=address, actors=jobs,
                                            sink=sink, with_decisions=with_decisions, on_done=done)
            else:
                summary = run_batch(rule, traces, choices, jobs=jobs, sink=sink,
                                    with_decisions=with_decisions, on_done=done)
    finally:
        if json_out:
            sink.close()
    _common.err_console.print(
        f"{len(summary.lines)} traces: {summary.passed} passed, {summary.failed} failed "
        f"({summary.manual_review} need manual review), {summary.errors} could not be verified",
        highlight=False)
    raise typer.Exit(0 if summary.passed == len(summary.lines) else 1)


def register(app: typer.Typer) -> None:
    app.command("verify")(verify_command)
    app.command("verify-batch")(verify_batch_command)
