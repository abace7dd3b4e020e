"""`droidpilot export`: recorded traces as training data (AndroidControl, Qwen2.5-VL mobile_use, ShareGPT).

Exit status: 0 when written, 2 for bad input (the message goes to stderr).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from droidpilot.cli._common import guard, shown


def register(app: typer.Typer) -> None:
    @app.command("export")
    def export_cmd(
        folders: Annotated[list[Path], typer.Argument(help="Trace folders, bench run folders, or folders "
                                                           "holding traces (gym rollouts, recordings).")],
        fmt: Annotated[str, typer.Option("--format", help="androidcontrol, qwen-mobile-use or sharegpt.")],
        out: Annotated[Path, typer.Option("--out", help="The JSONL file to write.")],
        include_failed: Annotated[bool, typer.Option("--include-failed",
                                                     help="Keep failed episodes too, with their verdict.")]
        = False,
    ) -> None:
        """Export recorded episodes as training data, one JSON record a line."""
        from rich.console import Console

        from droidpilot.export.writer import export

        with guard():
            summary = export(list(folders), fmt, out, include_failed=include_failed)
        console = Console(highlight=False, soft_wrap=True)
        console.print(f"{summary.episodes} episodes, {summary.records} records -> {shown(out)}")
        for line in summary.skipped:
            console.print(f"skipped {shown(line)}")
