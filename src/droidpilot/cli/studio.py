"""`droidpilot studio`: the local web app to watch, operate, record and review phones and traces."""

from __future__ import annotations

import contextlib
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

from droidpilot.cli._common import guard

console = Console()


def studio(
    port: int = typer.Option(8765, "--port", help="Port to listen on (0: any free port)."),
    host: str | None = typer.Option(None, "--host", help="Address to listen on (default 127.0.0.1); a "
                                                         "non-loopback address asks for a token."),
    devices: int = typer.Option(1, "--devices", help="How many SimPhones to start."),
    device: str | None = typer.Option(None, "--device", help="A real phone's serial over ADB instead."),
    adb_port: int = typer.Option(5037, "--adb-port", help="Port of the adb server (for --device)."),
    adb_host: str = typer.Option("127.0.0.1", "--adb-host", help="Host of the adb server."),
    out: Path = typer.Option(Path("studio-runs"), "--out", help="Where recordings and agent runs go."),
    seed: int = typer.Option(0, "--seed", help="SimPhone seed."),
    allow_host: list[str] = typer.Option([], "--allow-host", help="Another Host name the studio answers "
                                         "to (NAME for any port, NAME:PORT for one; repeatable), when "
                                         "it is served behind a proxy or another name."),
) -> None:
    """Start the studio and print its URL (Ctrl-C stops it)."""
    with guard():
        from droidpilot.studio.server import create_studio, make_phones

        if not 0 <= port <= 65535:
            from droidpilot.errors import InputError

            raise InputError(f"--port must be from 0 to 65535, got {port}")
        from droidpilot import limits

        limits.check("--devices", devices, limits.DEVICES)
        limits.check("--adb-port", adb_port, limits.PORT)
        limits.check("--seed", seed, limits.SEED)
        phones = make_phones(devices, device, adb_host=adb_host, adb_port=adb_port, seed=seed)
        the_studio = create_studio(phones, host=host or "127.0.0.1", port=port,
                                   explicit_host=host is not None, out_root=out, allow_hosts=allow_host,
                                   seed=seed)
        console.print(f"droidpilot studio: [bold]{escape(the_studio.url)}[/]  ({len(phones)} phone(s); "
                      f"Ctrl-C stops it)", soft_wrap=True)
        if the_studio.token:
            console.print("[yellow]listening beyond this machine: every request needs the token "
                          "in the URL[/]")
        with contextlib.suppress(KeyboardInterrupt):
            the_studio.serve_forever()


def register(app: typer.Typer) -> None:
    app.command("studio")(studio)
