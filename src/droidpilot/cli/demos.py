"""`droidpilot demos`: reference demonstrations of a template suite's seeds, recorded and exported as
training data (the library function is ``droidpilot.gym.demos.make_demos``).

Exit status: 0 when written, 1 when some seed's reference run did not win (the set is still written,
without it), 2 for bad input (the message goes to stderr).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from droidpilot.cli._common import EXIT_FAILED, guard, shown
from droidpilot.cli._ray import ray_address, ray_option


def register(app: typer.Typer) -> None:
    @app.command("demos")
    def demos_cmd(
        out: Annotated[Path, typer.Option("--out", help="The folder to write (traces/, demos.json, the "
                                                        "exported JSONL); its traces/ is replaced.")],
        seeds: Annotated[str, typer.Option("--seeds", help="Seeds to record: 0-999, 7 or 0-9,20-29.")]
        = "0-99",
        suite: Annotated[str, typer.Option("--suite", help="A template suite (name or folder).")] = "world",
        templates: Annotated[str | None, typer.Option(
            "--templates", help="Only these templates: comma-separated globs over ids or apps.")] = None,
        fmt: Annotated[str, typer.Option("--format", help="androidcontrol, qwen-mobile-use or sharegpt.")]
        = "qwen-mobile-use",
        workers: Annotated[int, typer.Option("--workers", help="Local processes recording seeds.")] = 1,
        ray: str | None = ray_option("Seeds are recorded as Ray tasks spread over the cluster's nodes."),
    ) -> None:
        """Record the reference brain's demonstrations of a suite's seeds and export them."""
        from rich.console import Console

        from droidpilot.gym.demos import make_demos, parse_seeds

        console = Console(highlight=False, soft_wrap=True)
        with guard():
            chosen = parse_seeds(seeds)
            address = ray_address(ray) if ray is not None else None
            start = time.perf_counter()
            summary = make_demos(out, chosen, suite=suite, templates=templates, fmt=fmt, workers=workers,
                                 ray_address=address, use_ray=ray is not None, seeds_text=seeds)
            seconds = time.perf_counter() - start
        console.print(f"{summary.episodes} episodes ({summary.succeeded} won) in {seconds:.1f} s "
                      f"({60 * summary.episodes / max(seconds, 1e-9):.0f} a minute); {summary.records} "
                      f"records -> {shown(out / summary.export)}")
        for task_id in summary.failed:
            console.print(f"not won by the reference policy (left out): {shown(task_id)}")
        if summary.failed:
            raise typer.Exit(EXIT_FAILED)
