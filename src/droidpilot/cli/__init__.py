"""The `droidpilot` command: one Typer app whose sub-commands are discovered by module name.

Each module in this package that defines ``register(app)`` adds its commands; modules stay thin and
call library functions. Discovery keeps each part (verify, perception, sim, agent, bench) in its own file.
"""

from __future__ import annotations

import importlib
import os
import signal
import sys

TYPE_CHECKING = False  # typing's own costs a cold command its import before the OCR models start loading
if TYPE_CHECKING:
    import typer

_registered = False
_loaded: set[str] = set()  # command modules whose register() has run

# Which modules register each top-level command, so `droidpilot verify ...` imports the verify module
# alone instead of every command's (agent, bench, studio, SimPhone...): a cold verify starts sooner.
# tests/test_cli_commands.py checks this table against what discovery registers.
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "bench": ("bench",),
    "demo": ("demo",),
    "demos": ("demos",),
    "export": ("export",),
    "icons": ("icons",),
    "locate": ("perception",),
    "ocr": ("perception",),
    "run": ("run",),
    "sim": ("sim", "sim_serve"),
    "studio": ("studio",),
    "suite": ("suite",),
    "verify": ("verify",),
    "verify-batch": ("verify",),
    "version": ("info",),
}


# Commands that read a few screens, print and end, holding nothing but memory (loaded OCR models) when they
# do: their process is set up for a short run (``_oneshot``) and exits without Python's teardown, which
# spends some 40 ms freeing the onnxruntime sessions of a cold run.
QUICK_EXIT = frozenset({"verify", "ocr", "locate"})


def _print_version(value: bool) -> None:
    import typer

    if value:
        from droidpilot import __version__

        typer.echo(__version__)
        raise typer.Exit(0)


_APP: list[typer.Typer] = []


def _app() -> typer.Typer:
    """The Typer app, made on first use: a cold ``ocr`` starts its models loading before Typer imports
    (``_oneshot.start_models``)."""
    if not _APP:
        _APP.append(_new_app())
    return _APP[0]


def _new_app() -> typer.Typer:
    import typer

    app = typer.Typer(
        name="droidpilot",
        help="Build, run and evaluate mobile GUI agents.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )

    @app.callback()
    def _root(version: bool = typer.Option(False, "--version", is_eager=True, callback=_print_version,
                                           help="Print droidpilot's version and exit.")) -> None:
        """Build, run and evaluate mobile GUI agents."""

    return app


def __getattr__(name: str) -> object:
    """``droidpilot.cli.app``: the Typer app (see ``_app``)."""
    if name == "app":
        return _app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _load(name: str) -> None:
    """Import the command module ``name`` and let it register its commands (once)."""
    if name in _loaded:
        return
    module = importlib.import_module(f"{__name__}.{name}")
    register = getattr(module, "register", None)
    if callable(register):
        register(_app())
    _loaded.add(name)


def _discover() -> None:
    global _registered
    if _registered:
        return
    import pkgutil

    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            _load(info.name)
    _registered = True


def _register_for(args: list[str]) -> None:
    """Register only the modules of the command ``args`` name; every command for help, a bare
    ``droidpilot``, options before the command, or a name the table does not know (Click's error then
    lists the real commands)."""
    command = next((a for a in args if not a.startswith("-")), None)
    first_is_command = bool(args) and args[0] == command
    if first_is_command and command in COMMAND_MODULES:
        for name in COMMAND_MODULES[command]:
            _load(name)
    else:
        _discover()


def main() -> None:
    """The command line: run the command ``sys.argv`` names; ends with SystemExit, as Click does."""
    from droidpilot.cli._ray import bare_ray_flag

    args = bare_ray_flag(sys.argv[1:])
    _register_for(args)
    stdout_was = _fd_identity(1)
    try:
        _app()(args=args)
    except SystemExit:
        # Click (typer's copy of it) swaps in PacifyFlushWrapper and Rich points fd 1 at /dev/null when the
        # pipe closed. Checked by name: typer no longer uses the click package, which need not be installed.
        swapped = stdout_was != _fd_identity(1) == _fd_identity(os.devnull)
        pacified = type(sys.stdout).__name__ == "PacifyFlushWrapper"
        if swapped or pacified or not _stdout_flushed():
            _exit_as_closed_pipe()
        raise


def console() -> None:
    """The `droidpilot` program (console script and ``python -m droidpilot``): ``main``. The commands in
    ``QUICK_EXIT`` set up their process for a short run (``_oneshot``) and end it without the interpreter's
    teardown (see ``_quick_exit``)."""
    quick = bool(sys.argv[1:2]) and sys.argv[1] in QUICK_EXIT
    if quick:
        from droidpilot.cli import _oneshot

        _oneshot.prepare()  # before numpy loads: freed buffers kept for reuse, no spinning BLAS thread
        _oneshot.start_models(sys.argv[1:])  # ocr, locate: the OCR models load while the rest imports
    try:
        main()
    except SystemExit as exc:
        if quick:
            _quick_exit(exc.code)
        raise


def _quick_exit(code: object) -> None:
    """End the process now that the command is done, skipping only the interpreter's teardown: exit
    handlers still run (log handlers flush), output is flushed, and a command with a non-daemon thread
    still running, or an exit value other than a status number, ends the usual way instead."""
    import atexit
    import threading

    if not (code is None or isinstance(code, int)):
        return
    if any(t.is_alive() and not t.daemon for t in threading.enumerate() if t is not threading.main_thread()):
        return
    preload = sys.modules.get("droidpilot.perception.preload")
    if preload is not None:
        preload.abandon()  # os._exit below: no teardown for a loading model to trip over
    atexit._run_exitfuncs()
    if not _stdout_flushed():
        _exit_as_closed_pipe()
    sys.stderr.flush()
    os._exit(code or 0)


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
