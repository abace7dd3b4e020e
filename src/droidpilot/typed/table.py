"""A typed table: CSV text judged row by row, ``{type: table, equals: "Date, Item, Amount\\n...", of:
[date, text, money]}``.

Rows are read as CSV (a comma between cells, spaces after a comma and quotes around a cell do not
matter, blank lines are skipped); the first row is the header, compared as words; every other cell is
compared whole as its column's type (``of``), so ``$4.50``, ``4.5`` and ``"4.50"`` are the same amount and
``45.00`` is not. Rows keep their order (a transcription lists what the receipt lists, top to bottom) and
their number: a row missing, added or moved fails, naming the row.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping
from typing import Any

from droidpilot.typed import phrases

# the cell types a column may have (not a set or a table)
CELL_TYPES = ("count", "number", "money", "time", "date", "duration", "phone", "name", "place", "text")


def rows(text: str) -> list[list[str]]:
    """The CSV rows of ``text``: cells stripped of spaces and quotes, blank lines skipped."""
    lines = [line for line in str(text).splitlines() if line.strip()]
    return [[cell.strip() for cell in row] for row in csv.reader(lines, skipinitialspace=True)]


def validate(spec: Mapping[str, Any], where: str) -> list[str]:
    """Problems with a table spec's ``of`` and right value(s), each naming ``where``."""
    of = spec.get("of")
    if not isinstance(of, list) or not of or any(c not in CELL_TYPES for c in of):
        return [f"{where}.of: a table names its columns' types as a list, e.g. [date, text, money] "
                f"(each one of {', '.join(CELL_TYPES)}); got {of!r}"]
    wants = list(spec["in"]) if "in" in spec else [spec.get("equals")]
    problems = []
    for want in wants:
        table = rows(str(want))
        if len(table) < 1:
            problems.append(f"{where}: the right table {want!r} has no rows")
        for n, row in enumerate(table[1:], start=2):
            if len(row) != len(of):
                problems.append(f"{where}: row {n} of the right table has {len(row)} cells; "
                                f"`of` names {len(of)}")
            else:
                cells = enumerate(zip(of, row, strict=True), start=1)
                problems += [f"{where}: row {n}, column {c}: {cell!r} does not read as a {kind}"
                             for c, (kind, cell) in cells if not _one(kind, cell)]
    return problems


def _one(kind: str, cell: str) -> Any:
    from droidpilot.typed.spec import WORD_TYPES, read_value

    return phrases.fold(cell) if kind in WORD_TYPES else read_value(kind, cell)


def _same_cell(kind: str, got: str, want: str) -> bool:
    from droidpilot.typed.spec import WORD_TYPES, same_value

    if kind in WORD_TYPES:
        return phrases.fold(got) == phrases.fold(want)
    a, b = _one(kind, got), _one(kind, want)
    return a is not None and b is not None and same_value(kind, a, b)


def match_rows(of: list[str], got_text: str, want_text: str) -> tuple[bool, str]:
    """Whether the CSV ``got_text`` is the table ``want_text`` (header as words, cells by type, rows in
    order), and why not."""
    got, want = rows(got_text), rows(want_text)
    if len(got) != len(want):
        return False, (f"the text has {len(got)} CSV row(s), expected {len(want)} "
                       f"(a header and {len(want) - 1})")
    for n, (g, w) in enumerate(zip(got, want, strict=True), start=1):
        kinds = ["text"] * len(w) if n == 1 else of
        if len(g) != len(w):
            return False, f"row {n} {', '.join(g)!r} has {len(g)} cell(s), expected {len(w)}"
        for c, (kind, gc, wc) in enumerate(zip(kinds, g, w, strict=True), start=1):
            if not _same_cell(kind, gc, wc):
                return False, f"row {n}, column {c}: {gc!r} is not {wc!r} (as a {kind})"
    return True, f"the {len(want)} rows match"
