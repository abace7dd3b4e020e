"""The typed table: a CSV note judged row by row (MarkorTranscribeReceipt's check). Spacing, quotes, a
currency sign, trailing zeros and blank lines do not matter; a wrong amount, a wrong item, rows in another
order, a row missing or added, or no header fail, each naming the row."""

from __future__ import annotations

import pytest

from droidpilot import typed
from droidpilot.bench import fields

RIGHT = "Date, Item, Amount\n2026-11-03, Coffee, 4.50\n2026-11-12, Bread, 12.00\n2026-11-20, Tea, 7.25"
SPEC = {"type": "table", "of": ["date", "text", "money"], "equals": RIGHT}


@pytest.mark.parametrize(
    "text",
    [
        RIGHT,
        "Date,Item,Amount\n2026-11-03,Coffee,4.50\n2026-11-12,Bread,12.00\n2026-11-20,Tea,7.25",
        'Date, Item, Amount\n2026-11-03, "Coffee", $4.50\n\n2026-11-12, Bread, 12\n2026-11-20, Tea, 7.25\n',
        "date, item, amount\n2026-11-03 , Coffee , 4.5\n2026-11-12, bread, $12.00\n2026-11-20, Tea, 7.250",
        "Date, Item, Amount\nNov 3, Coffee, 4.50\n11/12, Bread, 12.00\n2026-11-20, Tea, 7.25",
    ],
    ids=["as-asked", "no-spaces", "quotes-dollar-blank-line", "case-and-trailing-zeros",
         "dates-written-otherwise"],
)
def test_a_differently_written_right_table_passes(text: str) -> None:
    assert typed.match(SPEC, text).ok
    assert fields.typed_field(SPEC, text)[0]  # as a stored field (the note's body) too


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (RIGHT.replace("7.25", "7.26"), "row 4, column 3"),
        (RIGHT.replace("4.50", "45.00"), "row 2, column 3"),
        (RIGHT.replace("Bread", "Breads"), "row 3, column 2"),
        (RIGHT.replace("2026-11-12", "2026-11-21"), "row 3, column 1"),
        ("Date, Item, Amount\n2026-11-12, Bread, 12.00\n2026-11-03, Coffee, 4.50\n2026-11-20, Tea, 7.25",
         "row 2, column 1"),
        (RIGHT.rsplit("\n", 1)[0], "3 CSV row(s), expected 4"),
        (RIGHT + "\n2026-11-21, Tea, 7.25", "5 CSV row(s), expected 4"),
        (RIGHT.split("\n", 1)[1] + "\n2026-11-21, Tea, 7.25", "row 1, column 1"),
        ("Date, Item\n2026-11-03, Coffee 4.50\n2026-11-12, Bread 12.00\n2026-11-20, Tea 7.25", "row 1"),
        (RIGHT.replace("Amount", "Amount, Note", 1), "row 1"),
        ("Date Item Amount\n2026-11-03 Coffee 4.50\n2026-11-12 Bread 12.00\n2026-11-20 Tea 7.25", "row 1"),
        ("", "0 CSV row(s)"),
    ],
    ids=["last-amount-off-by-a-cent", "amount-tenfold", "item-plural", "date-digits-swapped",
         "rows-reordered", "row-missing", "row-added", "header-missing", "cells-merged", "extra-column",
         "spaces-not-commas", "empty"],
)
def test_an_almost_right_table_fails_naming_the_row(text: str, why: str) -> None:
    result = typed.match(SPEC, text)
    assert not result.ok and why in result.reason
    assert not fields.typed_field(SPEC, text)[0]


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        ({"type": "table", "equals": RIGHT}, "a table names its columns' types as a list"),
        ({"type": "table", "of": ["date", "set", "money"], "equals": RIGHT}, "each one of count"),
        ({"type": "table", "of": ["date", "money"], "equals": RIGHT}, "row 2 of the right table has 3 cells"),
        ({"type": "table", "of": ["date", "text", "money"], "equals": "D, I, A\nsoon, Tea, 7.25"},
         "row 2, column 1: 'soon' does not read as a date"),
        ({"type": "set", "of": "table", "equals": "a"}, "is not an item type"),
        ({"type": "money", "of": ["money"], "equals": "1"}, "only a set or a table names"),
    ],
)
def test_a_bad_table_spec_says_what_to_fix(spec: dict, problem: str) -> None:
    problems = typed.validate_spec(spec, "oracle.all[1].value")
    assert any(problem in p and p.startswith("oracle.all[1].value") for p in problems), problems
