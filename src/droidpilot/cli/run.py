"""`droidpilot run "INSTRUCTION"`: run the agent on SimPhone or a phone over ADB, showing each step.

The exit status says how the run ended (see the command's help); a run that ends early prints why.
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from droidpilot import limits
from droidpilot.agent.brains.factory import make_brain
from droidpilot.cli._common import TERMINATION_EXIT, guard, shown
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

console = Console()


def make_device(device: str, adb_port: int, adb_host: str, seed: int,
                stack: contextlib.ExitStack) -> tuple[Any, float]:
    """(device, seconds to let the screen settle after each action).

    For a serial, an adb server that is not running is started, and stopped when ``stack`` closes; a
    serial the server does not list is an InputError.
    """
    if device == "sim":
        from droidpilot.device.sim.phone import SimDevice

        return SimDevice(seed=seed), 0.0
    from droidpilot.device.realphone import AdbDevice
    from droidpilot.device.realphone.server import AdbServerSession

    session = stack.enter_context(AdbServerSession(adb_host, adb_port))
    if device:
        session.require(device)
    return AdbDevice(device or None, host=adb_host, port=adb_port, start_server=False), 1.0


def show_step(record: dict[str, Any], out: Path | None) -> None:
    """Print one recorded step (action, thought, grounding, outcome, timings), all text escaped."""
    table = Table.grid(padding=(0, 1))
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column()
    action = (record.get("action") or {}).get("text") or "-"
    table.add_row(f"step {record['step']}", f"[bold]{shown(action)}[/]")
    if record.get("thought"):
        table.add_row("thought", shown(record["thought"]))
    grounding = record.get("grounding")
    if grounding:
        where = grounding.get("point")
        text = f"{grounding.get('status')}" + (f" at {where}" if where else "")
        if grounding.get("chosen"):
            text += f" (candidate {grounding['chosen']} of {len(grounding.get('candidates', []))})"
        table.add_row("grounding", shown(text))
    roles = [str(e.get("role")) + ("" if e.get("by") == "brain" else " (code)")
             for e in record.get("roles") or []]
    if roles:
        table.add_row("roles", shown(", ".join(roles)))
    outcome = record.get("outcome", "")
    if outcome:
        table.add_row("outcome", shown(outcome))
    if record.get("feedback_next"):
        table.add_row("feedback", f"[yellow]{shown(record['feedback_next'])}[/]")
    if record.get("frame") and out is not None:
        table.add_row("screen", shown(str(out / f"{record['frame']}.jpg")))
    timings = record.get("timings", {})
    table.add_row("time", "perception {perception:.2f}s, model {model:.2f}s, device {device:.2f}s".format(
        **{k: timings.get(k, 0.0) for k in ("perception", "model", "device")}))
    console.print(table)


def run(
    instruction: str = typer.Argument(..., help="What the agent should do, in words."),
    device: str = typer.Option("sim", "--device", help="'sim' for SimPhone, or a device serial over ADB."),
    adb_port: int = typer.Option(5037, "--adb-port", help="Port of the adb server (for --device SERIAL)."),
    adb_host: str = typer.Option("127.0.0.1", "--adb-host", help="Host of the adb server."),
    brain: str = typer.Option("heuristic", "--brain", help="heuristic | openai | replay"),
    action_format: str = typer.Option("text", "--action-format",
                                      help="How the openai brain answers: text (Observation/Thought/"
                                           "Action, JSON, ...) | tools (OpenAI tool calls)."),
    model: ModelOpt = None,
    base_url: BaseUrlOpt = None,
    responses: Path | None = typer.Option(None, "--responses", help="JSON list of raw replies (replay)."),
    out: Path | None = typer.Option(None, "--out", help="Trace folder (default: runs/<time>)."),
    max_steps: MaxStepsOpt = 20,
    language: LangOpt = "en",
    coord_space: CoordSpaceOpt = None,
    extended: ExtendedOpt = False,
    image_max_side: ImageMaxSideOpt = 1024,
    temperature: TemperatureOpt = None,
    ocr: str = typer.Option("rapidocr", "--ocr", help="OCR engine: rapidocr | tesseract."),
    seed: SeedOpt = 0,
    no_check: bool = typer.Option(False, "--no-completion-check", help="Trust 'stop' without asking."),
    quiet: bool = typer.Option(False, "--quiet", help="Print only the summary."),
    loop: LoopOpt = "v1",
    role_model: RoleModelOpt = None,
    memory: MemoryOpt = None,
    evolve: EvolveOpt = False,
) -> None:
    """Run the agent for INSTRUCTION and record its trace.

    Exit status:
    0 the run ended normally (completed, or a step/time limit; the reason is printed);
    2 bad argument, or no such device;
    3 the device failed or could not be reached;
    4 the model could not be reached or kept failing;
    130 interrupted.
    """
    with guard(), contextlib.ExitStack() as stack:
        from droidpilot.agent.loop import Limits
        from droidpilot.agent.loops import calls_per_step, make_agent
        from droidpilot.agent.loops.roles import role_brains
        from droidpilot.perception.cache import cached
        from droidpilot.perception.ocr import make_ocr_engine

        if not instruction.strip():
            raise InputError("the instruction is empty; say what the agent should do")
        check_agent_options(max_steps=max_steps, lang=language, coord_space=coord_space,
                            temperature=temperature, image_max_side=image_max_side, seed=seed)
        role_models = check_loop_options(loop, brain, role_model, memory, evolve)
        max_steps, language, seed = max_steps or 20, language or "en", seed or 0
        limits.check("--adb-port", adb_port, limits.PORT)
        folder = writable_folder(out or Path("runs") / time.strftime("%Y%m%d-%H%M%S"), "--out")
        engine = make_ocr_engine(ocr)
        if engine is None:
            raise InputError("the agent needs an OCR engine to ground text; use --ocr rapidocr or tesseract")
        the_brain = make_brain(brain, model=model, base_url=base_url, responses=responses,
                               coord_space=coord_space, image_max_side=image_max_side, extended=extended,
                               action_format=action_format, temperature=temperature)
        roles = role_brains(the_brain, role_models, lambda name: make_brain(
            brain, model=name, base_url=base_url, coord_space=coord_space, image_max_side=image_max_side,
            extended=extended, action_format="text", temperature=temperature))
        store = None
        if memory is not None:
            from droidpilot.agent.memory.store import MemoryStore

            store = MemoryStore(memory)
        the_device, settle = make_device(device, adb_port, adb_host, seed, stack)
        calls = max((2 + calls_per_step(loop)) * max_steps, 10)
        agent = make_agent(loop, the_device, the_brain, roles=roles, memory=store, evolve=evolve,
                           ocr_engine=cached(engine), out_dir=folder,
                           limits=Limits(max_steps=max_steps, max_model_calls=calls),
                           language=language, settle_s=settle, check_completion=not no_check,
                           on_step=None if quiet else (lambda rec: show_step(rec, folder)))
        console.print(f"[bold]instruction:[/] {shown(instruction)}  [dim](brain {shown(brain)}, "
                      f"loop {shown(loop)}, device {shown(device)})[/]")
        result = agent.run(instruction)
        colour = "green" if result.completed else "yellow"
        t = result.timings
        console.print(f"[bold {colour}]{shown(result.termination)}[/] after {result.steps} steps "
                      f"({result.actions} actions, {result.model_calls} model calls, {result.seconds:.1f}s: "
                      f"perception {t['perception']:.1f}s, model {t['model']:.1f}s, "
                      f"device {t['device']:.1f}s)")
        if result.error:
            console.print(f"[red]reason: {shown(result.error)}[/]")
        console.print(f"trace: {shown(str(folder))}")
        if store is not None:
            console.print(f"memory: {shown(str(memory))} (version {agent.memory_version} used, now "
                          f"{agent.memory_version_after})")
        code = TERMINATION_EXIT.get(result.termination, 0)
    if code:
        raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    app.command("run")(run)
