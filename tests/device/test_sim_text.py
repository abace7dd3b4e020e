"""Multi-line text on SimPhone: Enter in a multi-line field makes a new line that is drawn one under the
other, single-line places show a line break as a space, and the dump keeps the real text."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import numpy as np
import pytest
from tests.device.sim_driver import Driver

from droidpilot.device.sim.draw import fonts
from droidpilot.device.sim.phone import SimDevice

NOTE = "Lakers game\nwon 120-110"


def _drawn(dev: SimDevice) -> list[tuple[str, int, int]]:
    """Every text the current frame draws: (text, x, y) in device pixels."""
    return [(op[2], op[1][0], op[1][1]) for op in dev.view().ops if op[0] == "text"]


def _new_note(ui: Driver) -> None:
    ui.d.open_app("notes")
    ui.tap(desc="New note")
    ui.d.type_text("Lakers game")
    ui.d.key("enter")
    ui.d.type_text("won 120-110")


def _ink_rows(dev: SimDevice, bounds: tuple[int, int, int, int]) -> int:
    """How many separate bands of dark pixels (text lines) lie inside ``bounds``."""
    x1, y1, x2, y2 = bounds
    patch = np.asarray(dev.screenshot().convert("L"))[y1:y2, x1:x2]
    inked = (patch < 128).any(axis=1)
    return int(np.count_nonzero(inked[1:] & ~inked[:-1]) + inked[0])


@pytest.fixture
def ui() -> Driver:
    return Driver(SimDevice())


def test_enter_in_a_note_body_starts_a_second_line(ui: Driver) -> None:
    _new_note(ui)
    assert ui.d.state()["foreground"]["fields"]["body"] == NOTE
    assert ui.d.screenshot().size == ui.d.size()
    body = ui.find(rid="body")
    assert body.text == NOTE and body.focused  # the dump keeps the newline, as Android's does
    lines = {text: (x, y) for text, x, y in _drawn(ui.d) if text in ("Lakers game", "won 120-110")}
    assert set(lines) == {"Lakers game", "won 120-110"}
    assert lines["Lakers game"][0] == lines["won 120-110"][0]  # one under the other, same left edge
    assert lines["won 120-110"][1] > lines["Lakers game"][1] + 40
    assert body.bounds is not None and _ink_rows(ui.d, body.bounds) == 2


def test_a_saved_multi_line_note_everywhere_it_shows(ui: Driver) -> None:
    _new_note(ui)
    ui.d.key("back")  # hides the keyboard
    ui.d.key("back")  # leaves the editor: the note is saved
    assert ui.d.state()["notes"]["notes"][-1] == {"title": "", "body": NOTE}
    ui.d.screenshot()
    row = next(e for e in ui.elements() if e.resource_id.endswith("/title") and "Lakers" in e.text)
    assert row.text == NOTE and row.bounds is not None  # the list row's dump keeps the newline ...
    drawn = [text for text, _, _ in _drawn(ui.d)]
    assert "Lakers game won 120-110" in drawn and not any("\n" in t for t in drawn)  # ... shown as a space
    ui.d.tap((row.bounds[0] + row.bounds[2]) // 2, (row.bounds[1] + row.bounds[3]) // 2)
    ui.d.screenshot()
    body = ui.find(rid="note_body")  # the note itself: a TextView that shows both lines
    assert body.text == NOTE and body.bounds is not None and _ink_rows(ui.d, body.bounds) == 2


def test_single_line_places_show_a_newline_as_a_space(ui: Driver) -> None:
    ui.tap("Search apps")
    ui.d.type_text("mu\nsic")
    ui.d.show_toast("Saved\nto Notes")
    ui.d.post_notification("Two\nlines", "body\r\ntext", "notes")
    ui.d.screenshot()
    drawn = [text for text, _, _ in _drawn(ui.d)]
    assert {"mu sic", "Saved to Notes", "Two lines", "body text"} <= set(drawn)
    assert not any(ch in t for t in drawn for ch in "\n\r")
    assert ui.find(rid="search_box").text == "mu\nsic"


def test_measuring_any_line_break_never_fails() -> None:
    breaks = [chr(i) for i in range(0x3000) if unicodedata.bidirectional(chr(i)) == "B"]
    assert breaks
    for ch in [*breaks, "\r\n", "\u2028"]:
        for base in ("ab", "中文"):
            text = base[0] + ch + base[1]
            assert fonts.text_width(text, 40) == fonts.text_width(fonts.one_line(text), 40) > 0
            assert not any(unicodedata.bidirectional(c) == "B" for c in fonts.one_line(text))
    assert fonts.one_line("a\r\nb\nc") == "a b c"


def _field_box(dev: SimDevice, rid: str) -> tuple[int, int, int, int]:
    """The bounds of the whole text field (the frame around the EditText with resource-id ``rid``)."""
    for window in dev.view().windows:
        for node in window.walk():
            if any(k.rid.endswith(f"/{rid}") and k.cls.endswith("EditText") for k in node.children):
                return node.bounds
    raise AssertionError(f"no field {rid}")


def test_long_lines_wrap_and_many_lines_clip_to_the_field(ui: Driver) -> None:
    ui.d.open_app("notes")
    ui.tap(desc="New note")
    ui.d.type_text("word " * 40)
    left = next(x for t, x, _ in _drawn(ui.d) if t.startswith("word"))
    drawn = [t for t, _, _ in _drawn(ui.d) if t.startswith("word")]
    assert len(drawn) >= 3 and all("…" not in t for t in drawn)  # wrapped, not ellipsized
    assert " ".join(drawn).split() == ["word"] * 40
    ui.d.key("enter")
    ui.d.type_text("y" * 150)  # one word wider than the field breaks between characters
    long = [t for t, x, _ in _drawn(ui.d) if t.startswith("y") and x == left]  # (not the keyboard's y)
    assert len(long) >= 2 and "".join(long) == "y" * 150
    for i in range(30):
        ui.d.key("enter")
        ui.d.type_text(f"line {i}")
    ui.d.screenshot()
    _, top, _, bottom = _field_box(ui.d, "body")
    drawn_y = [(t, y) for t, _, y in _drawn(ui.d) if t.startswith(("word", "line"))]
    assert drawn_y[-1][0] == "line 29"  # the caret's line stays in view ...
    assert all(top < y < bottom for _, y in drawn_y)  # ... and nothing is drawn outside the field
    assert len(drawn_y) < 31 and ui.find(rid="body").text.count("\n") == 31
    ui.d.key("back")  # without focus the field shows its first lines
    assert next(t for t, _, _ in _drawn(ui.d) if t.startswith(("word", "line"))).startswith("word")


def test_a_multi_line_field_without_a_height_grows_and_enter_never_submits(tmp_path: Path) -> None:
    (tmp_path / "memo.yaml").write_text(
        "name: memo\npackage: x.memo\nlabel: Memo\nicon: {glyph: note, color: '#F9AB00'}\nhome: main\n"
        "screens:\n  main:\n    autofocus: body\n    widgets:\n"
        "      - {kind: input, field: body, hint: Memo, id: body, multiline: true,\n"
        "         on_submit: [{toast: Sent}]}\n"
        "      - {kind: text, text: Below, id: below}\n")
    ui = Driver(SimDevice(apps_dir=tmp_path))
    ui.d.open_app("memo")
    below = ui.find(rid="below").bounds
    for i in range(8):
        ui.d.type_text(f"row {i}")
        ui.d.key("enter")
    assert ui.d.state()["foreground"]["fields"]["body"].count("\n") == 8
    assert not ui.has("Sent") and ui.find(rid="body").focused  # Enter in a multi-line field never submits
    shown = [t for t, _, _ in _drawn(ui.d) if t.startswith("row")]
    assert shown == [f"row {i}" for i in range(8)]
    assert below is not None and ui.find(rid="below").bounds[1] > below[1] + 200


def test_enter_in_a_single_line_field_moves_to_the_next_field(ui: Driver) -> None:
    ui.d.open_app("notes")
    ui.tap(desc="New note")
    ui.tap(rid="title")
    ui.d.type_text("Scores")
    ui.d.key("enter")
    assert ui.find(rid="body").focused and ui.d.state()["foreground"]["fields"]["title"] == "Scores"
