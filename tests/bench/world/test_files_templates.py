"""The file-system and list-photo templates judged on real SimPhone state (oracle with its effects): a move
or a copy done in Files passes, and the near misses fail (a copy for a move, a move for a copy, the wrong
folder, a second copy); the receipt's CSV note passes written tightly or quoted, and fails with its rows in
another order, an amount off by a digit, or another title."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tests.device.sim_driver import Driver

from droidpilot.bench import oracle as oracle_lang
from droidpilot.bench.suite import BenchTask, load_suite
from droidpilot.device.sim.phone import SimDevice


def _setup(template: str, seed: int) -> tuple[BenchTask, SimDevice, dict, Driver]:
    task = load_suite("world", seed=seed, templates=template).tasks[0]
    phone = SimDevice(seed=task.seed)
    phone.apply_setup({k: v for k, v in task.setup.items() if k in ("state", "date", "clipboard")})
    return task, phone, {**phone.state(), "agent": {"answer": None}}, Driver(phone)


def _ok(task: BenchTask, phone: SimDevice, start: dict) -> bool:
    final = {**phone.state(), "agent": {"answer": None}}
    return oracle_lang.evaluate(task.oracle, final, start=start, effects=task.effects).ok


def _in_files(phone: SimDevice, ui: Driver, folder: str, name: str, button: str, dest: str) -> None:
    phone.open_app("files")
    ui.tap("Folders")
    ui.tap(folder)
    ui.tap(name)
    ui.tap(button)
    ui.tap(dest)


@pytest.mark.parametrize(("seed", "button", "dest", "ok"), [
    (0, "Move to", None, True), (1, "Move to", None, True),
    (0, "Copy to", None, False),          # the source keeps the file
    (1, "Move to", "Pictures", False),    # another folder
])
def test_files_move(seed: int, button: str, dest: str | None, ok: bool) -> None:
    task, phone, start, ui = _setup("files-move", seed)
    route, name = task.params["route"], task.params["target"]["name"]
    _in_files(phone, ui, route["src"], name, button, dest or route["dst"])
    assert _ok(task, phone, start) is ok


@pytest.mark.parametrize(("seed", "button", "dest", "again", "ok"), [
    (0, "Copy to", "Download", False, True), (2, "Copy to", "Download", False, True),
    (0, "Move to", "Download", False, False),    # the original left DCIM
    (1, "Copy to", "Documents", False, False),   # another folder
    (1, "Copy to", "Download", True, False),     # a second copy, "NAME (1).jpg"
])
def test_files_copy_receipt(seed: int, button: str, dest: str, again: bool, ok: bool) -> None:
    task, phone, start, ui = _setup("files-copy-receipt", seed)
    name = f"{task.params['target']['title']}.jpg"
    _in_files(phone, ui, "DCIM", name, button, dest)
    if again:
        phone.key("back")
        ui.tap("DCIM")
        ui.tap(name)
        ui.tap(button)
        ui.tap(dest)
        assert phone.state()["gallery"]["photos"][-1]["file"] == f"{task.params['target']['title']} (1).jpg"
    assert _ok(task, phone, start) is ok


def _rows(p: dict, order: tuple[int, ...] = (1, 2, 3), amount: Callable[[str], str] = str) -> list[str]:
    return [f"{p[f'd{i}']}, {p[f'i{i}']}, {amount(p[f'a{i}'])}" for i in order]


def _tight(p: dict) -> list[str]:
    return [r.replace(", ", ",") for r in _rows(p, amount=lambda a: "$" + a)]


def _bump(a: str) -> str:
    return a[:-1] + str((int(a[-1]) + 1) % 10)


@pytest.mark.parametrize(("seed", "title", "lines", "ok"), [
    (0, "receipt.md", lambda p: ["Date, Item, Amount", *_rows(p)], True),
    (1, "receipt.md", lambda p: ["Date,Item,Amount", *_tight(p)], True),
    (2, "receipt.md", lambda p: ["Date, Item, Amount", *_rows(p, (2, 1, 3))], False),
    (0, "receipt.md", lambda p: ["Date, Item, Amount", *_rows(p, amount=_bump)], False),
    (1, "receipt", lambda p: ["Date, Item, Amount", *_rows(p)], False),
    (2, "receipt.md", lambda p: _rows(p), False),
])
def test_the_receipt_as_csv_in_a_note(seed: int, title: str, lines: Callable[[dict], list[str]],
                                      ok: bool) -> None:
    task, phone, start, ui = _setup("gallery-receipt-csv", seed)
    phone.open_app("notes")
    ui.tap(desc="New note")
    ui.type_into("title", title)
    ui.type_into("body", "\n".join(lines(task.params)))
    ui.tap(desc="Save")
    assert _ok(task, phone, start) is ok
