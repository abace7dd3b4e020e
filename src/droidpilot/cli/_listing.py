"""How every listing command prints its rows: a Rich table on a terminal, plain tab-separated rows with
whole values when piped (``droidpilot suite list | cut -f1`` works), and one JSON document with ``--json``.

Every cell is made printable (terminal escapes, control and bidi characters removed) in a table or TSV;
in TSV a tab or line break inside a value becomes a space, so a row is a line. JSON keeps the data exact
and writes those characters as \\uXXXX escapes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from droidpilot.textsafe import json_safe, printable


@dataclass
class Listing:
    """Rows under named columns; ``title`` is shown on a terminal only, ``footer`` there or on stderr."""

    columns: Sequence[str]
    rows: list[Sequence[Any]] = field(default_factory=list)
    title: str = ""
    footer: str = ""
    keys: Sequence[str] = ()  # JSON field names (default: the column names)

    def add(self, *cells: Any) -> None:
        """Add one row (one cell per column)."""
        self.rows.append(cells)

    def records(self) -> list[dict[str, Any]]:
        """The rows as mappings of JSON field name to value."""
        keys = list(self.keys or self.columns)
        return [dict(zip(keys, row, strict=True)) for row in self.rows]


def cell(value: Any) -> str:
    """A value as one tab-separated cell: printable, no tab or line break, None as empty."""
    if value is None:
        return ""
    text = printable(value if isinstance(value, str) else _plain(value))
    return " ".join(text.replace("\t", " ").splitlines()) if ("\t" in text or "\n" in text) else text


def _plain(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def tsv(listing: Listing) -> str:
    """The listing as a header line and one tab-separated line per row."""
    lines = ["\t".join(cell(c) for c in listing.columns)]
    lines += ["\t".join(cell(v) for v in row) for row in listing.rows]
    return "\n".join(lines) + "\n"


def table(listing: Listing) -> Table:
    """The listing as a Rich table with escaped, printable cells."""
    out = Table(title=escape(printable(listing.title)) if listing.title else None)
    for col in listing.columns:
        out.add_column(escape(printable(col)))
    for row in listing.rows:
        out.add_row(*(escape(cell(v)) for v in row))
    return out


def emit(console: Console, listing: Listing, *, as_json: bool = False,
         document: dict[str, Any] | None = None) -> None:
    """Print ``listing``: JSON (``document`` if given, else the records), a table on a terminal, TSV."""
    if as_json:
        payload = document if document is not None else listing.records()
        console.file.write(json_safe(json.dumps(payload, ensure_ascii=False, allow_nan=False)) + "\n")
        console.file.flush()
    elif console.is_terminal:
        console.print(table(listing))
        if listing.footer:
            console.print(escape(printable(listing.footer)), highlight=False)
    else:
        console.file.write(tsv(listing))
        console.file.flush()
        if listing.footer:  # for the person watching; stdout holds only rows
            from droidpilot.cli._common import err_console

            err_console.print(escape(printable(listing.footer)), highlight=False, soft_wrap=True)
