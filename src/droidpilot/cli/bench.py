"""`droidpilot bench`: run a benchmark suite with an agent brain, verify every trace, check SimPhone's
ground truth, and write results.json / results.csv / report.html.

The exit status says whether the benchmark could run at all (see the command's help).
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from droidpilot import limits
from droidpilot.bench.percent import percent
from droidpilot.cli._common import EXIT_DEVICE, EXIT_FAILED, EXIT_MODEL, guard
from droidpilot.cli._ray import ray_address, ray_option
from droidpilot.cli._tables import print_whole
from droidpilot.cli.agent_options import (
    BaseUrlOpt,
    CoordSpaceOpt,
    EvolveOpt,
    ExtendedOpt,
    ImageMaxSideOpt,
    LangOpt,
    LoopOpt,
    MaxStepsOpt,
    MemoryOpt,
    ModelOpt,
    RoleModelOpt,
    SeedOpt,
    TemperatureOpt,
    check_agent_options,
    check_loop_options,
)
from droidpilot.errors import InputError
from droidpilot.pathcheck import writable_folder
from droidpilot.textsafe import printable

console = Console()
_RUN_ERRORS = ("device_error", "brain_error")


def failed_everywhere(rows: list[dict]) -> tuple[int, str]:
    """(exit status, reason) when no task could run to an end of its own (0, "" otherwise).

    A task "errored" when the worker reported an error or its run ended on a device or model error.
    """
    if not rows:
        return 0, ""
    kinds = [r.get("termination") if r.get("termination") in _RUN_ERRORS else ("error" if r.get("error")
             else "") for r in rows]
    if not all(kinds):
        return 0, ""
    first = next((str(r.get("error") or r.get("reason") or "") for r in rows if r.get("error")
                  or r.get("reason")), "")
    if all(k == "device_error" for k in kinds):
        return EXIT_DEVICE, f"every task ended on a device error; first: {first}"
    if all(k == "brain_error" for k in kinds):
        return EXIT_MODEL, f"every task ended on a model error; first: {first}"
    return EXIT_FAILED, f"every task errored; first: {first}"


def check_counts(*, jobs: int, trials: int, instances: int, adb_port: int) -> None:
    """LimitError for a count option of ``bench`` outside its documented range (droidpilot.limits)."""
    limits.check("--jobs", jobs, limits.JOBS)
    limits.check("--trials", trials, limits.TRIALS)
    limits.check("--instances", instances, limits.INSTANCES, what="per template")
    limits.check("--adb-port", adb_port, limits.PORT)


def _devices(device: list[str] | None, count: int) -> list[str]:
    specs = [d for d in (device or ["sim"]) if d.strip()]
    if specs == ["sim"]:
        if count < 1:
            raise InputError(f"--devices must be at least 1, got {count}")
        limits.check("--devices", count, limits.DEVICES)
        return ["sim"] * count
    if "sim" in specs:
        raise InputError("--device sim cannot be mixed with device serials; use --devices N for N SimPhones")
    if count != 1:
        raise InputError("--devices N is for SimPhones; with real phones give --device once per serial")
    return specs


def _summary_table(summary: dict) -> Table:
    table = Table(title="results", show_lines=False)
    for col in ("group", "tasks", "Su", "Su-oracle", "agree", "CR", "SS", "RE", "steps/ref", "PS",
                "calls/step", "s/step"):
        table.add_column(col, justify="right" if col != "group" else "left")

    def fmt(v: object, pct: bool = False) -> str:
        if v is None:
            return "-"
        return percent(float(v)) if pct else f"{float(v):.2f}"

    def add(name: str, agg: dict) -> None:
        table.add_row(escape(name), str(agg["tasks"]), fmt(agg["su"], True), fmt(agg["su_oracle"], True),
                      fmt(agg["agreement"], True), fmt(agg["cr"], True), fmt(agg.get("ss"), True),
                      fmt(agg["re"]), f"{fmt(agg['agent_steps'])}/{fmt(agg['reference_steps'])}",
                      fmt(agg["ps"], True), fmt(agg.get("model_calls_per_step")),
                      fmt(agg["seconds_per_step"]))

    for level, agg in summary["by_level"].items():
        add(f"level {level}", agg)
    for group, agg in (summary.get("by_feasibility") or {}).items():
        add(group, agg)
    for loop, agg in (summary.get("by_loop") or {}).items():
        add(f"loop {loop}", agg)
    add("overall", summary["overall"])
    return table


def _trials_table(trials: dict) -> Table:
    """pass@1, pass@K, Su of each trial and the spread, per level and overall."""
    k = trials["overall"]["k"]
    table = Table(title=f"{k} trials per task")
    for col in ("group", "tasks", "pass@1", f"pass@{k}", "Su per trial", "min", "max", "std"):
        table.add_column(col, justify="left" if col in ("group", "Su per trial") else "right")

    def add(name: str, t: dict) -> None:
        pct = [percent(v) for v in t["su_per_trial"]]
        spread = t["spread"]
        table.add_row(escape(name), str(t["tasks"]), percent(t['pass@1']), percent(t['pass@k']),
                      " ".join(pct), percent(spread['min']), percent(spread['max']),
                      f"{spread['std'] * 100:.1f} pts")

    for level, t in (trials.get("by_level") or {}).items():
        if t:
            add(f"level {level}", t)
    add("overall", trials["overall"])
    return table


def _provenance_line(doc: dict) -> str:
    dp = doc.get("droidpilot") or {}
    suite = doc.get("suite_info") or {}
    rev = (dp.get("revision") or "no git")[:10] + ("+dirty" if dp.get("dirty") else "")
    model = f"model {doc['model']} at {doc.get('endpoint_host') or '?'}, " if doc.get("model") else ""
    loop = (doc.get("settings") or {}).get("loop") or "v1"
    model += f"loop {loop}, " if loop != "v1" else ""
    return (f"{model}suite {suite.get('name', '?')} v{suite.get('version', '?')} "
            f"({str(suite.get('sha256', ''))[:12]}), droidpilot {dp.get('version', '?')} ({rev}), "
            f"{doc.get('date', '')}")


def bench(
    ctx: typer.Context,
    suite: str = typer.Option("mobile-eval", "--suite", help="A shipped suite (mobile-eval, mobiflow-zh) "
                                                              "or a folder of task files."),
    tasks: str | None = typer.Option(None, "--tasks", help="Comma-separated task ids (default: all)."),
    device: list[str] | None = typer.Option(None, "--device", help="'sim' (default) or a device serial; "
                                                                     "repeat for several phones."),
    devices: int = typer.Option(1, "--devices", help="How many SimPhones to run in parallel."),
    brain: str = typer.Option("heuristic", "--brain", help="heuristic | openai | replay | reference; "
                                "baselines no judge should pass: do-nothing | random | always-infeasible | "
                                "number-spray | blind-guess"),
    out: Path = typer.Option(Path("bench-out"), "--out", help="Folder for results, traces and report."),
    resume: bool = typer.Option(False, "--resume", help="Continue an interrupted run in --out."),
    jobs: int = typer.Option(0, "--jobs", help="Processes for re-verifying traces in --judge-eval "
                                               "(default: the number of phones)."),
    judge_eval: bool = typer.Option(False, "--judge-eval", help="Also measure the verifier against the "
                                                                "oracle on a labelled set of traces."),
    labels: Path | None = typer.Option(None, "--labels", help="With --judge-eval: human labels to add "
                                                              "(labels.json exported by droidpilot studio)."),
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    temperature: TemperatureOpt = None,
    max_steps: MaxStepsOpt = None,
    language: LangOpt = None,
    coord_space: CoordSpaceOpt = None,
    extended: ExtendedOpt = False,
    image_max_side: ImageMaxSideOpt = 1024,
    seed: SeedOpt = None,
    action_format: str = typer.Option("text", "--action-format",
                                      help="How the openai brain answers: text | tools (OpenAI tool calls)."),
    trials: int = typer.Option(1, "--trials", help="Run each task K times: pass@1, pass@K and the spread "
                                                   "of Su over the trials are reported."),
    responses: Path | None = typer.Option(None, "--responses", help="Folder of TASK_ID.json replies "
                                                                    "(replay brain)."),
    ocr: str = typer.Option("rapidocr", "--ocr", help="OCR engine: rapidocr | tesseract."),
    adb_host: str = typer.Option("127.0.0.1", "--adb-host", help="adb server host (real devices)."),
    adb_port: int = typer.Option(5037, "--adb-port", help="adb server port (real devices)."),
    no_report: bool = typer.Option(False, "--no-report", help="Skip writing report.html."),
    ray: str | None = ray_option("Every task runs as Ray work: --devices N SimPhone actors across the "
                                 "cluster, or one actor per --device SERIAL on the node offering the "
                                 "resource phone:SERIAL. Trace folders come back to --out as bytes "
                                 "returned by each task, so --out need not be shared with the cluster."),
    instances: int = typer.Option(1, "--instances", help="Template suites: instances per template."),
    templates: str | None = typer.Option(None, "--templates", help="Template suites: comma-separated "
                                         "globs of template ids or apps, e.g. 'contacts-*'."),
    tier: str | None = typer.Option(None, "--tier", help="Template suites: easy | medium | hard | long."),
    loop: LoopOpt = "v1",
    role_model: RoleModelOpt = None,
    memory: MemoryOpt = None,
    evolve: EvolveOpt = False,
) -> None:
    """Run a benchmark suite, verify every trace, and report Su, Su-oracle, CR, RE and PS.

    Exit status:
    0 the suite ran (whatever the scores);
    1 every task errored (the first reason is printed);
    2 bad argument (unknown suite, task, brain or device; results of another run in --out), or no device;
    3 every task ended on a device error;
    4 every task ended on a model error.

    `droidpilot bench compare RUN_A RUN_B` compares two results folders.
    """
    if ctx.invoked_subcommand is not None:
        return
    with guard():
        from droidpilot.bench.display import RunDisplay
        from droidpilot.bench.runner import run_suite
        from droidpilot.bench.worker import RunConfig

        specs = _devices(device, devices)
        address = ray_address(ray)
        ids = [t.strip() for t in tasks.split(",") if t.strip()] if tasks is not None else None
        if ids == []:
            raise InputError(f"--tasks {tasks!r} names no task; give ids such as demo-1,demo-2, or leave "
                             "--tasks out to run every task")
        writable_folder(out, "--out")
        if jobs < 0:
            raise InputError(f"--jobs must be 0 (automatic) or positive, got {jobs}")
        if trials < 1:
            raise InputError(f"--trials must be at least 1, got {trials}")
        check_counts(jobs=jobs, trials=trials, instances=instances, adb_port=adb_port)
        check_agent_options(max_steps=max_steps, lang=language, coord_space=coord_space,
                            temperature=temperature, image_max_side=image_max_side, seed=seed)
        check_loop_options(loop, brain, role_model, memory, evolve)
        if evolve and (len(specs) > 1 or ray is not None):
            raise InputError("--evolve updates the memory after each task in task order, so runs are "
                             "reproducible; run it on one phone (--devices 1, one --device, no --ray)")
        config = RunConfig(suite=suite, brain=brain, out=out, ocr=ocr, model=model, base_url=base_url,
                           responses=responses, adb_host=adb_host, adb_port=adb_port, max_steps=max_steps,
                           lang=language, extended_actions=extended, coord_space=coord_space,
                           temperature=temperature, seed=seed, trials=trials, image_max_side=image_max_side,
                           action_format=action_format, instances=instances,
                           templates=templates, tier=tier, loop=loop, role_models=tuple(role_model or ()),
                           memory=str(memory) if memory is not None else None, evolve=evolve)
        human = None
        if labels is not None:  # checked before anything runs
            if not judge_eval:
                raise InputError("--labels adds human labels to --judge-eval; pass --judge-eval too")
            from droidpilot.bench.judge_eval import load_labels
            from droidpilot.bench.suite import load_suite

            human = load_labels(labels, {t.id for t in load_suite(suite).tasks})
        display = RunDisplay(console)
        try:
            if ray is not None:
                from droidpilot.bench.ray_runner import run_suite_ray

                outcome = run_suite_ray(config, specs, address=address, task_ids=ids, resume=resume,
                                        on_event=display.on_event)
            else:
                outcome = run_suite(config, specs, task_ids=ids, resume=resume, on_event=display.on_event)
        finally:
            display.stop()
        document = outcome.document
        console.print(escape(printable(_provenance_line(document))), highlight=False, soft_wrap=True)
        print_whole(console, _summary_table(document["summary"]))
        if document["summary"].get("trials"):
            print_whole(console, _trials_table(document["summary"]["trials"]))
        console.print(f"wall time {outcome.seconds:.1f}s; results: {escape(printable(out / 'results.json'))}")
        judge = None
        if judge_eval:
            from droidpilot.bench.judge_eval import run_judge_eval

            judge = run_judge_eval(config, specs, task_ids=ids, jobs=jobs or len(specs), console=console,
                                   labels=human)
        if not no_report:
            from droidpilot.bench.report import write_report

            path = write_report(out, judge=judge)
            console.print(f"report: {escape(printable(path))}")
        code, reason = failed_everywhere(outcome.rows)
        if code:
            console.print(f"[bold red]error:[/] {escape(printable(reason))}", highlight=False)
    if code:
        raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    """Add ``droidpilot bench`` (and ``droidpilot bench compare``) to the command-line app."""
    from droidpilot.cli.bench_compare import compare

    group = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    group.callback(invoke_without_command=True)(bench)
    group.command("compare")(compare)
    app.add_typer(group, name="bench")
