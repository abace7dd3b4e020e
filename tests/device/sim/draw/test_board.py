"""The board widget (Browser's maze): the piece on its bound cell, walls at theirs, the goal bottom right,
each cell a node saying where it is and what is on it; a malformed cell draws nothing there."""

from __future__ import annotations

from tests.device.sim_driver import Driver

from droidpilot.device.sim.draw.board import cell_of
from droidpilot.device.sim.phone import SimDevice


def _maze(start: int, walls: list[int]) -> tuple[SimDevice, Driver]:
    phone = SimDevice(seed=0)
    phone.apply_setup({"state": {"browser.task_page": "maze", "browser.maze_start": start,
                                 "browser.maze_walls": walls}})
    phone.open_app("browser")
    ui = Driver(phone)
    ui.tap("task.html")
    return phone, ui


def _cells(ui: Driver) -> list[str]:
    return [e.content_desc for e in ui.elements() if e.resource_id.endswith("board_cell")]


def test_each_cell_says_where_it_is_and_what_is_on_it() -> None:
    _phone, ui = _maze(5, [2, 9])
    cells = _cells(ui)
    assert len(cells) == 16
    assert cells[5] == "Row 2, column 2: X"
    assert cells[2] == "Row 1, column 3: wall" and cells[9] == "Row 3, column 2: wall"
    assert cells[15] == "Row 4, column 4: goal" and cells[0] == "Row 1, column 1: empty"


def test_moves_stop_at_walls_and_edges_and_the_goal_shows_when_reached() -> None:
    phone, ui = _maze(3, [7, 9, 14])
    for move, where in (("Up", 3), ("Right", 3), ("Down", 3), ("Left", 2), ("Down", 6), ("Down", 10),
                        ("Down", 10), ("Right", 11)):
        ui.tap(move)
        assert phone.state()["browser"]["maze_pos"] == where, move
    assert not ui.has("Well done, the maze is solved.")
    ui.tap("Down")
    assert phone.state()["browser"]["maze_pos"] == 15
    assert ui.has("Well done, the maze is solved.") and ui.has("Moves: 9")


def test_reopening_the_page_puts_the_x_back_at_the_start() -> None:
    phone, ui = _maze(0, [])
    ui.tap("Right")
    phone.key("back")
    ui.tap("task.html")
    assert phone.state()["browser"]["maze_pos"] == 0 and ui.has("Moves: 0")


def test_a_cell_that_is_not_a_number_is_none() -> None:
    assert cell_of("7") == 7 and cell_of(3) == 3
    assert cell_of("seven") is None and cell_of(None) is None
