"""The `droidpilot` command: one Typer app whose sub-commands are discovered by module name.

Each module in this package that defines ``register(app)`` adds its commands; modules stay thin and
call library functions. Discovery keeps each part (verify, perception, sim, agent, bench) in its own file.
"""

from __future__ import annotations

import importlib
import pkgutil

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
    app(args=bare_ray_flag(sys.argv[1:]))
