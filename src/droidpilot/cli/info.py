"""`droidpilot version`: print the installed version."""

from __future__ import annotations

import typer

from droidpilot import __version__


def version() -> None:
    """Print droidpilot's version."""
    typer.echo(__version__)


def register(app: typer.Typer) -> None:
    app.command("version")(version)
