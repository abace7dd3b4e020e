"""The live view of a benchmark run: overall progress and each device's current task and step (Rich).

Everything shown that came from a screen or a model is escaped. Without a terminal (CI logs), one line
per finished task is printed instead of the live view.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group
from rich.live import Live
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from droidpilot.textsafe import printable


def _verdict(row: dict[str, Any]) -> str:
    if row.get("error"):
        return "[red]error[/]"
    su, so = row.get("su"), row.get("su_oracle")
    mark = "[green]pass[/]" if su else "[yellow]fail[/]"
    oracle = "-" if so is None else ("pass" if so else "fail")
    return f"{mark} (oracle {oracle})"


class RunDisplay:
    """Receives the runner's events (``on_event``) and keeps the view up to date."""

    def __init__(self, console: Console | None = None, live: bool | None = None) -> None:
        self.console = console or Console()
        self.live_enabled = self.console.is_terminal if live is None else live
        self.progress = Progress(TextColumn("[bold]tasks"), BarColumn(), MofNCompleteColumn(),
                                 TimeElapsedColumn(), console=self.console)
        self.bar = self.progress.add_task("tasks", total=1)
        self.devices: dict[int, list[str]] = {}
        self.live: Live | None = None

    def _table(self) -> Table:
        table = Table(box=None, show_header=True, header_style="bold")
        table.add_column("device")
        table.add_column("task")
        table.add_column("current step", overflow="ellipsis", no_wrap=True, max_width=80)
        for wid in sorted(self.devices):
            spec, task, step = self.devices[wid]
            table.add_row(escape(printable(spec)), escape(printable(task)),
                          escape(printable(step, newlines=False)))
        return table

    def _refresh(self) -> None:
        if self.live is not None:
            self.live.update(Group(self.progress, self._table()))

    def on_event(self, kind: str, info: dict[str, Any]) -> None:
        """Update the view for one runner event (begin, start, step, done, fatal, end)."""
        if kind == "begin":
            self.progress.update(self.bar, total=max(1, info["total"]), completed=info["done"])
            for wid, spec in enumerate(info["devices"]):
                self.devices[wid] = [spec, "-", "idle"]
            if info["done"]:
                self.console.print(f"resuming: {info['done']} finished task(s) kept, "
                                   f"{len(info['pending'])} to run")
            for key, why in (info.get("rerun") or {}).items():
                what = (f"dropping earlier {key}" if key.startswith("row ") else
                        f"running again {escape(printable(key))}: its earlier row is not complete")
                self.console.print(f"{what} ({escape(printable(why))})", highlight=False, soft_wrap=True)
            if self.live_enabled:
                self.live = Live(Group(self.progress, self._table()), console=self.console,
                                 refresh_per_second=4, transient=False)
                self.live.start()
        elif kind == "start":
            self.devices.setdefault(info["wid"], [info.get("device", "?"), "-", ""])[1:] = [info["task"],
                                                                                           "starting"]
        elif kind == "step":
            self.devices.setdefault(info["wid"], ["?", info["task"], ""])[2] = (
                f"step {info['step']}: {info['action']}")
        elif kind == "done":
            row = info["row"]
            self.progress.advance(self.bar)
            if info["wid"] in self.devices:
                self.devices[info["wid"]][1:] = ["-", "idle"]
            line = (f"{escape(printable(row['id']))}: {_verdict(row)}, {row.get('steps', 0)} steps "
                    f"(reference {row.get('reference_steps')}), {row.get('seconds', 0):.1f}s")
            if row.get("error"):
                line += f" [red]{escape(printable(str(row['error']).splitlines()[0][:200]))}[/]"
            self.console.print(line, highlight=False)
        elif kind == "fatal":
            message = escape(printable(info["message"]))
            self.console.print(f"[red]device {info['wid'] + 1} could not start:[/] {message}")
        elif kind == "end":
            self.stop()
        self._refresh()

    def stop(self) -> None:
        """End the live view (safe to call twice)."""
        if self.live is not None:
            self.live.stop()
            self.live = None
