"""Print a table whole: on a terminal as Rich lays it out; piped (no terminal, 80 columns by default) at
the width the table needs, so columns are never cut or squeezed into ellipses in logs and files."""

from __future__ import annotations

from rich.console import Console, RenderableType
from rich.measure import Measurement


def print_whole(console: Console, renderable: RenderableType) -> None:
    """``console.print(renderable)``, widened to the renderable's natural width when not a terminal."""
    if console.is_terminal:
        console.print(renderable)
        return
    wanted = Measurement.get(console, console.options.update(width=10_000), renderable).maximum
    if wanted <= console.width:
        console.print(renderable)
        return
    wide = Console(file=console.file, width=wanted, color_system=None, force_terminal=False,
                   highlight=False, soft_wrap=False)
    wide.print(renderable)
