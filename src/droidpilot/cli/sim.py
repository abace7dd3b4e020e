"""`droidpilot sim ...`: SimPhone commands. This module owns the ``sim`` sub-app (``sim_app``); other
modules (the ADB front's ``sim serve``) add their commands to it."""

from __future__ import annotations

from pathlib import Path

import typer

from droidpilot.cli._common import fail, guard

sim_app = typer.Typer(name="sim", help="SimPhone: a simulated Android phone whose apps are data.",
                      no_args_is_help=True, add_completion=False)


@sim_app.command("shot")
def shot(
    out: Path = typer.Argument(..., help="Where to write the PNG screenshot."),
    app: str = typer.Option("", "--app", help="Open this app (name, label or package) before the shot."),
    theme: str = typer.Option("light", "--theme", help="light or dark."),
    size: str = typer.Option("1080x2400", "--size", help="Screen size WIDTHxHEIGHT, e.g. 720x1600."),
    seed: int = typer.Option(0, "--seed", help="Seed of the simulated phone's state."),
    clock: str = typer.Option("10:30", "--clock", help="Status-bar clock, HH:MM."),
    date: str = typer.Option("2026-11-22", "--date", help="Today's date, YYYY-MM-DD."),
    xml: Path | None = typer.Option(None, "--xml", help="Also write the uiautomator dump here."),
) -> None:
    """Render one SimPhone screen (the home screen, or an app's first screen) to a PNG file."""
    from droidpilot.device.sim.phone import SimDevice

    with guard():
        from droidpilot import limits

        limits.check("--seed", seed, limits.SEED)
        device = SimDevice(size=size, theme=theme, seed=seed, clock=clock, date=date)
        if app:
            device.open_app(app)
        try:
            out.write_bytes(device.screenshot_png())
            if xml is not None:
                xml.write_text(device.ui_xml(), encoding="utf-8")
        except OSError as exc:
            raise fail(f"cannot write {exc.filename}: {exc.strerror}") from None
        typer.echo(f"{out} ({device.size()[0]}x{device.size()[1]}, {device.current_app()})")


def register(app: typer.Typer) -> None:
    """Add the ``sim`` sub-app to the root command."""
    app.add_typer(sim_app, name="sim")
