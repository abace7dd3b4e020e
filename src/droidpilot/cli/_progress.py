"""Progress of a long listing or check on stderr, shown only when stderr is a terminal (never in pipes,
files or CI logs, where it would be noise between the rows)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

Advance = Callable[[int], None]


@contextlib.contextmanager
def progress(label: str, total: int | None, console: Console | None = None) -> Iterator[Advance]:
    """Yield ``advance(n)``; on a terminal a bar ``label`` counts to ``total`` (transient), else no-op."""
    from droidpilot.cli._common import err_console

    target = console if console is not None else err_console
    if not target.is_terminal:
        yield lambda n=1: None
        return
    bar = Progress(TextColumn(escape(label)), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   console=target, transient=True)
    task = bar.add_task(label, total=total)
    with bar:
        yield lambda n=1: bar.advance(task, n)
