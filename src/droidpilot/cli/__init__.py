"""The `droidpilot` command: one Typer app whose sub-commands are discovered by module name.

Each module in this package that defines ``register(app)`` adds its commands; modules stay thin and
call library functions. Discovery keeps each part (verify, perception, sim, agent, bench) in its own file.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import signal
import sys

import click
import typer

app = typer.Typer(
    name="droidpilot",
    help="Build, run and evaluate mobile GUI agents.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

_registered = False


def _print_version(value: bool) -> None:
    if value:
        from droidpilot import __version__

        typer.echo(__version__)
        raise typer.Exit(0)


@app.callback()
def _root(version: bool = typer.Option(False, "--version", is_eager=True, callback=_print_version,
                                       help="Print droidpilot's version and exit.")) -> None:
    """Build, run and evaluate mobile GUI agents."""


def _discover() -> None:
    global _registered
    if _registered:
        return
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if callable(register):
            register(app)
    _registered = True


def main() -> None:
    """Console-script entry point."""
    import sys

    from droidpilot.cli._ray import bare_ray_flag

    _discover()
    stdout_was = _fd_identity(1)
    try:
        app(args=bare_ray_flag(sys.argv[1:]))
    except SystemExit:
        # Click swaps in PacifyFlushWrapper and Rich points fd 1 at /dev/null when the pipe closed.
        swapped = stdout_was != _fd_identity(1) == _fd_identity(os.devnull)
        if swapped or isinstance(sys.stdout, click.utils.PacifyFlushWrapper) or not _stdout_flushed():
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
