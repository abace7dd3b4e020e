"""Multi-select lists with a selection bar (Expenses, Recipes): Select, pick rows by position (one of two
identical rows), Delete or Cancel; a long press starts it too; Delete with nothing picked does nothing."""

from __future__ import annotations

import pytest
from tests.device.sim_driver import Driver

from droidpilot.device.sim.phone import SimDevice

ROWS = [{"title": t, "amount": a, "category": "Food", "date": "Nov 2"}
        for t, a in (("Tea", "3.00"), ("Taxi", "12.00"), ("Tea", "3.00"), ("Lunch", "9.50"))]


@pytest.fixture
def expenses() -> Driver:
    ui = Driver(SimDevice())
    ui.d.apply_setup({"state": {"expenses.expenses": ROWS}})
    ui.d.open_app("expenses")
    return ui


def _tap_nth(ui: Driver, text: str, n: int, long: bool = False) -> None:
    x1, y1, x2, y2 = [e for e in ui.elements() if e.text == text][n].bounds
    (ui.d.long_press if long else ui.d.tap)((x1 + x2) // 2, (y1 + y2) // 2)


def test_one_of_two_identical_rows_is_deleted_with_another(expenses: Driver) -> None:
    expenses.tap("Select")
    _tap_nth(expenses, "Tea", 1)
    expenses.tap("Lunch")
    assert expenses.has("2 selected")
    expenses.tap("Delete")
    assert expenses.d.state()["expenses"]["expenses"] == ROWS[:2]
    assert expenses.has("2 expenses") and expenses.has("2 deleted")


def test_a_picked_row_unpicks_and_cancel_keeps_everything(expenses: Driver) -> None:
    expenses.tap("Select")
    expenses.tap("Taxi")
    expenses.tap("Taxi")
    assert expenses.has("0 selected")
    expenses.tap("Lunch")
    expenses.tap("Cancel")
    assert expenses.d.state()["expenses"]["expenses"] == ROWS and expenses.has("Select")
    expenses.tap("Lunch")  # out of selection mode a tap opens the expense again
    assert expenses.d.state()["foreground"]["screen"] == "view"


def test_a_long_press_starts_selecting_with_that_row(expenses: Driver) -> None:
    _tap_nth(expenses, "Taxi", 0, long=True)
    assert expenses.has("1 selected")
    expenses.tap("Delete")
    assert [r["title"] for r in expenses.d.state()["expenses"]["expenses"]] == ["Tea", "Tea", "Lunch"]


def test_delete_with_nothing_picked_deletes_nothing(expenses: Driver) -> None:
    expenses.tap("Select")
    expenses.tap("Delete")
    assert expenses.d.state()["expenses"]["expenses"] == ROWS and expenses.has("0 selected")


def test_recipes_select_the_same_way_and_delete_one_from_its_page() -> None:
    ui = Driver(SimDevice())
    soup = {"name": "Soup", "minutes": 20, "serves": 2, "main": "beans"}
    ui.d.apply_setup({"state": {"recipes.recipes": [soup, soup, {**soup, "name": "Pie"}]}})
    ui.d.open_app("recipes")
    _tap_nth(ui, "Soup", 1)
    ui.tap("Delete recipe")  # the page's delete removes that row only, not its twin
    assert ui.d.state()["recipes"]["recipes"] == [soup, {**soup, "name": "Pie"}]
    ui.tap("Select")
    ui.tap("Pie")
    ui.tap("Delete")
    assert ui.d.state()["recipes"]["recipes"] == [soup]


@pytest.mark.parametrize(("field", "bad", "message"), [
    ("minutes", "0", "Time: a whole number of minutes, 1 to 1440"),
    ("serves", "0", "Serves: a whole number, 1 to 99"),
    ("serves", "two", "Serves: a whole number, 1 to 99"),
])
def test_the_recipe_form_refuses_what_is_not_a_number(field: str, bad: str, message: str) -> None:
    ui = Driver(SimDevice())
    ui.d.open_app("recipes")
    ui.tap(desc="Add recipe")
    values = {"name": "Pho", "minutes": "40", "serves": "2", field: bad}
    for rid, text in values.items():
        ui.type_into(rid, text)
    ui.tap(desc="Save")
    assert ui.has(message) and len(ui.d.state()["recipes"]["recipes"]) == 1
