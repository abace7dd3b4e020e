"""The `droidpilot` command: one Typer app whose sub-commands are discovered by module name.

Each module in this package that defines ``register(app)`` adds its commands; modules stay thin and
call library functions. Discovery keeps each part (verify, perception, sim, agent, bench) in its own file.
A run of one known command imports only the modules that define it (``COMMAND_MODULES``), so a cold
`droidpilot ocr IMG` does not pay for importing the verifier, the agent and the benchmark; ``--help`` and
anything else import every module.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import signal
import sys

import typer

app = typer.Typer(
    name="droidpilot",
    help="Build, run and evaluate mobile GUI agents.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

_registered: set[str] = set()

# The modules defining each top-level command (tests/test_cli_commands.py checks this against register()).
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "bench": ("bench",), "demo": ("demo",), "icons": ("icons",), "version": ("info",),
    "ocr": ("perception",), "locate": ("perception",), "run": ("run",), "sim": ("sim", "sim_serve"),
    "studio": ("studio",), "suite": ("suite",), "verify": ("verify",), "verify-batch": ("verify",),
}


def _print_version(value: bool) -> None:
    if value:
        from droidpilot import __version__

        typer.echo(__version__)
        raise typer.Exit(0)


@app.callback()
def _root(version: bool = typer.Option(False, "--version", is_eager=True, callback=_print_version,
                                       help="Print droidpilot's version and exit.")) -> None:
    """Build, run and evaluate mobile GUI agents."""


def _module_names() -> list[str]:
    return sorted(info.name for info in pkgutil.iter_modules(__path__) if not info.name.startswith("_"))


def _register(names: list[str] | tuple[str, ...]) -> None:
    for name in names:
        if name in _registered:
            continue
        module = importlib.import_module(f"{__name__}.{name}")
        register = getattr(module, "register", None)
        if callable(register):
            register(app)
        _registered.add(name)


def _discover(argv: list[str] | None = None) -> None:
    """Register the commands: only the modules of the command ``argv`` starts with, when it is a known
    one, else (``--help``, ``--version``, a typo) every module of the package."""
    if argv and argv[0] in COMMAND_MODULES:
        _register(COMMAND_MODULES[argv[0]])
    else:
        _register(_module_names())


def main() -> None:
    """Console-script entry point."""
    import sys

    from droidpilot.cli._ray import bare_ray_flag

    args = bare_ray_flag(sys.argv[1:])
    _discover(args)
    stdout_was = _fd_identity(1)
    try:
        app(args=args)
    except SystemExit:
        # Click (typer's copy of it) swaps in PacifyFlushWrapper and Rich points fd 1 at /dev/null when the
        # pipe closed. Checked by name: typer no longer uses the click package, which need not be installed.
        swapped = stdout_was != _fd_identity(1) == _fd_identity(os.devnull)
        pacified = type(sys.stdout).__name__ == "PacifyFlushWrapper"
        if swapped or pacified or not _stdout_flushed():
            _exit_as_closed_pipe()
        raise


def _fd_identity(target: int | str) -> tuple[int, int] | None:
    try:
        info = os.fstat(target) if isinstance(target, int) else os.stat(target)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def _stdout_flushed() -> bool:
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        return False
    return True


def _exit_as_closed_pipe() -> None:
    """Stdout's reader went away (``droidpilot verify ... | head -1``): end as a program killed by
    SIGPIPE does (status 141 in a shell), not with a FAIL verdict's 1 and not with a traceback."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())  # nothing more to flush into the closed pipe at exit
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGPIPE)
