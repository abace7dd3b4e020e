"""`droidpilot bench`: run a benchmark suite with an agent brain, verify every trace, check SimPhone's
ground truth, and write results.json / results.csv / report.html.

Exit status 0 when the run finished (whatever the scores), 2 on bad input (unknown suite, task, brain or
device; a results folder from another brain without --resume ...).
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from droidpilot.cli._common import guard
from droidpilot.errors import InputError
from droidpilot.pathcheck import writable_folder

console = Console()


def _devices(device: list[str] | None, count: int) -> list[str]:
    specs = [d for d in (device or ["sim"]) if d.strip()]
    if specs == ["sim"]:
        if count < 1:
            raise InputError(f"--devices must be at least 1, got {count}")
        return ["sim"] * count
    if "sim" in specs:
        raise InputError("--device sim cannot be mixed with device serials; use --devices N for N SimPhones")
    if count != 1:
        raise InputError("--devices N is for SimPhones; with real phones give --device once per serial")
    return specs


def _summary_table(summary: dict) -> Table:
    table = Table(title="results", show_lines=False)
    for col in ("group", "tasks", "Su", "Su-oracle", "agree", "CR", "RE", "steps/ref", "PS", "s/step"):
        table.add_column(col, justify="right" if col != "group" else "left")

    def fmt(v: object, pct: bool = False) -> str:
        if v is None:
            return "-"
        return f"{float(v) * 100:.0f}%" if pct else f"{float(v):.2f}"

    def add(name: str, agg: dict) -> None:
        table.add_row(escape(name), str(agg["tasks"]), fmt(agg["su"], True), fmt(agg["su_oracle"], True),
                      fmt(agg["agreement"], True), fmt(agg["cr"], True), fmt(agg["re"]),
                      f"{fmt(agg['agent_steps'])}/{fmt(agg['reference_steps'])}", fmt(agg["ps"], True),
                      fmt(agg["seconds_per_step"]))

    for level, agg in summary["by_level"].items():
        add(f"level {level}", agg)
    add("overall", summary["overall"])
    return table


def bench(
    suite: str = typer.Option("mobile-eval", "--suite", help="A shipped suite (mobile-eval, mobiflow-zh) "
                                                              "or a folder of task files."),
    tasks: str | None = typer.Option(None, "--tasks", help="Comma-separated task ids (default: all)."),
    device: list[str] | None = typer.Option(None, "--device", help="'sim' (default) or a device serial; "
                                                                     "repeat for several phones."),
    devices: int = typer.Option(1, "--devices", help="How many SimPhones to run in parallel."),
    brain: str = typer.Option("heuristic", "--brain", help="heuristic | openai | replay | reference"),
    out: Path = typer.Option(Path("bench-out"), "--out", help="Folder for results, traces and report."),
    resume: bool = typer.Option(False, "--resume", help="Continue an interrupted run in --out."),
    jobs: int = typer.Option(0, "--jobs", help="Processes for re-verifying traces in --judge-eval "
                                               "(default: the number of phones)."),
    judge_eval: bool = typer.Option(False, "--judge-eval", help="Also measure the verifier against the "
                                                                "oracle on a labelled set of traces."),
    labels: Path | None = typer.Option(None, "--labels", help="With --judge-eval: human labels to add "
                                                              "(labels.json exported by droidpilot studio)."),
    model: str | None = typer.Option(None, "--model", help="Model name (openai brain)."),
    base_url: str | None = typer.Option(None, "--base-url", help="OpenAI-compatible endpoint (openai)."),
    responses: Path | None = typer.Option(None, "--responses", help="Folder of TASK_ID.json replies "
                                                                    "(replay brain)."),
    ocr: str = typer.Option("rapidocr", "--ocr", help="OCR engine: rapidocr | tesseract."),
    adb_host: str = typer.Option("127.0.0.1", "--adb-host", help="adb server host (real devices)."),
    adb_port: int = typer.Option(5037, "--adb-port", help="adb server port (real devices)."),
    no_report: bool = typer.Option(False, "--no-report", help="Skip writing report.html."),
) -> None:
    """Run a benchmark suite, verify every trace, and report Su, Su-oracle, CR, RE and PS."""
    with guard():
        from droidpilot.bench.display import RunDisplay
        from droidpilot.bench.runner import run_suite
        from droidpilot.bench.worker import RunConfig

        specs = _devices(device, devices)
        ids = [t.strip() for t in tasks.split(",") if t.strip()] if tasks is not None else None
        if ids == []:
            raise InputError(f"--tasks {tasks!r} names no task; give ids such as demo-1,demo-2, or leave "
                             "--tasks out to run every task")
        writable_folder(out, "--out")
        if jobs < 0:
            raise InputError(f"--jobs must be 0 (automatic) or positive, got {jobs}")
        config = RunConfig(suite=suite, brain=brain, out=out, ocr=ocr, model=model, base_url=base_url,
                           responses=responses, adb_host=adb_host, adb_port=adb_port)
        human = None
        if labels is not None:  # checked before anything runs
            if not judge_eval:
                raise InputError("--labels adds human labels to --judge-eval; pass --judge-eval too")
            from droidpilot.bench.judge_eval import load_labels
            from droidpilot.bench.suite import load_suite

            human = load_labels(labels, {t.id for t in load_suite(suite).tasks})
        display = RunDisplay(console)
        try:
            outcome = run_suite(config, specs, task_ids=ids, resume=resume, on_event=display.on_event)
        finally:
            display.stop()
        console.print(_summary_table(outcome.document["summary"]))
        console.print(f"wall time {outcome.seconds:.1f}s; results: {escape(str(out / 'results.json'))}")
        judge = None
        if judge_eval:
            from droidpilot.bench.judge_eval import run_judge_eval

            judge = run_judge_eval(config, specs, task_ids=ids, jobs=jobs or len(specs), console=console,
                                   labels=human)
        if not no_report:
            from droidpilot.bench.report import write_report

            path = write_report(out, judge=judge)
            console.print(f"report: {escape(str(path))}")


def register(app: typer.Typer) -> None:
    """Add ``droidpilot bench`` to the command-line app."""
    app.command("bench")(bench)
