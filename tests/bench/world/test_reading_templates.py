"""Reading-image templates judged on real SimPhone state: the receipt's total entered into Expenses passes
written as "$31.5" or "31.50", and fails off by one digit or with the first item's price; the note photo's
text copied into Notes passes in other case, and fails with a word left out."""

from __future__ import annotations

import pytest
from tests.device.sim_driver import Driver

from droidpilot.bench import oracle as oracle_lang
from droidpilot.bench.suite import BenchTask, load_suite
from droidpilot.device.sim.phone import SimDevice


def _setup(template: str, seed: int) -> tuple[BenchTask, SimDevice, dict]:
    task = load_suite("world", seed=seed, templates=template).tasks[0]
    phone = SimDevice(seed=task.seed)
    phone.apply_setup({k: v for k, v in task.setup.items() if k in ("state", "date", "clipboard")})
    return task, phone, {**phone.state(), "agent": {"answer": None}}


def _ok(task: BenchTask, phone: SimDevice, start: dict) -> bool:
    final = {**phone.state(), "agent": {"answer": None}}
    return oracle_lang.evaluate(task.oracle, final, start=start, effects=task.effects).ok


def _off_by_one_digit(total: str) -> str:
    head, last = total[:-1], total[-1]
    return head + str((int(last) + 1) % 10)


@pytest.mark.parametrize(("seed", "amount", "ok"), [
    (0, lambda p: p["total"], True), (3, lambda p: "$" + p["total"].rstrip("0"), True),
    (0, lambda p: _off_by_one_digit(p["total"]), False), (3, lambda p: p["a"], False),
    (1, lambda p: p["total"].replace(".", ""), False),
])
def test_the_receipt_total_into_expenses(seed: int, amount, ok: bool) -> None:
    task, phone, start = _setup("gallery-receipt-expense", seed)
    p = task.params
    phone.open_app("expenses")
    ui = Driver(phone)
    ui.tap(desc="Add expense")
    for rid, text in (("title", p["store"]), ("amount", amount(p)), ("category", p["category"])):
        ui.type_into(rid, text)
    ui.tap(desc="Save")
    assert _ok(task, phone, start) is ok


@pytest.mark.parametrize(("seed", "edit", "ok"), [
    (0, str, True), (1, str.lower, True), (0, lambda t: t.rsplit(" ", 1)[0], False),
])
def test_the_note_photo_into_notes(seed: int, edit, ok: bool) -> None:
    task, phone, start = _setup("gallery-note-to-notes", seed)
    phone.open_app("notes")
    ui = Driver(phone)
    ui.tap(desc="New note")
    ui.type_into("body", edit(task.params["text"]))
    ui.tap(desc="Save")
    assert _ok(task, phone, start) is ok
