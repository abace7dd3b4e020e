"""Long press on SimPhone, as on Android: a text field takes focus, a widget acts only when its app data
declares ``on_long_press``, anything else ignores it; the dump says which nodes are long-clickable."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.device.sim_driver import Driver

from droidpilot.device.base import DeviceError
from droidpilot.device.sim.phone import SimDevice
from droidpilot.verify.frame import UiElement

APP = """name: hold
package: x.hold
label: Hold
icon: {glyph: note, color: '#F9AB00'}
home: main
state: {copied: 0}
screens:
  main:
    title: Hold
    widgets:
      - {kind: row, text: Same as tap, id: same, on_long_press: true, on_tap: [{go: detail}]}
      - kind: row
        text: Own actions
        id: own
        on_tap: [{go: detail}]
        on_long_press: [{set: {state.copied: 1}}, {toast: Copied}]
      - {kind: row, text: Tap only, id: plain, on_tap: [{go: detail}]}
  detail:
    title: Detail
"""


def _centre(el: UiElement) -> tuple[int, int]:
    assert el.bounds is not None
    x1, y1, x2, y2 = el.bounds
    return (x1 + x2) // 2, (y1 + y2) // 2


def _keyboard_up(dev: SimDevice) -> bool:
    return any(n.cls.endswith("Keyboard$Key") for n in dev.view().targets)


def _long_clickable(dev: SimDevice, rid: str) -> bool:
    """The ``long-clickable`` attribute of the first node with resource-id ``rid`` in the dump."""
    xml = dev.ui_xml()
    at = xml.index(f':id/{rid}"')
    node = xml[xml.rindex("<node", 0, at):xml.index(">", at)]
    return 'long-clickable="true"' in node


@pytest.fixture
def hold(tmp_path: Path) -> Driver:
    (tmp_path / "hold.yaml").write_text(APP)
    ui = Driver(SimDevice(apps_dir=tmp_path))
    ui.d.open_app("hold")
    return ui


def test_long_press_on_a_text_field_focuses_it_and_shows_the_keyboard() -> None:
    ui = Driver(SimDevice())
    ui.d.open_app("notes")
    ui.tap(desc="New note")
    ui.d.key("back")  # hide the keyboard the editor opened with
    assert not _keyboard_up(ui.d) and not ui.find(rid="title").focused
    ui.d.long_press(*_centre(ui.find(rid="title")))
    assert ui.find(rid="title").focused and _keyboard_up(ui.d)
    assert _long_clickable(ui.d, "title")
    ui.d.type_text("Held")
    assert ui.d.state()["foreground"]["fields"]["title"] == "Held"


def test_long_press_without_a_declared_action_does_nothing() -> None:
    ui = Driver(SimDevice())
    ui.d.long_press(*_centre(ui.find("Settings")))  # a launcher icon: no shortcut menu in SimPhone
    assert ui.d.current_app() == "com.simphone.launcher"
    ui.d.open_app("settings")
    before = ui.d.state()
    ui.d.long_press(*_centre(ui.find("Display")))
    after = ui.d.state()
    assert after["foreground"]["screen"] == "main"
    held = re.findall(r'class="([^"]+)"[^>]*long-clickable="true"', ui.d.ui_xml())
    assert set(held) == {"android.widget.EditText", "android.widget.FrameLayout"}  # only the search field
    assert {k: v for k, v in after.items() if k != "system"} == {k: v for k, v in before.items()
                                                                 if k != "system"}


def test_on_long_press_true_acts_as_a_tap(hold: Driver) -> None:
    assert _long_clickable(hold.d, "same") and not _long_clickable(hold.d, "plain")
    hold.d.long_press(*_centre(hold.find(rid="plain")))
    assert hold.screen() == "main"
    hold.d.long_press(*_centre(hold.find(rid="same")))
    assert hold.screen() == "detail"


def test_on_long_press_actions_run_instead_of_the_tap(hold: Driver) -> None:
    hold.d.long_press(*_centre(hold.find(rid="own")))
    assert hold.screen() == "main" and hold.d.state()["hold"]["copied"] == 1 and hold.has("Copied")
    hold.tap(rid="own")
    assert hold.screen() == "detail"


def test_long_press_outside_a_dialog_dismisses_it() -> None:
    ui = Driver(SimDevice())
    ui.d.open_app("mail")
    ui.tap("Compose")
    ui.d.type_text("a@b.c")
    ui.tap(desc="Send")
    assert ui.has("Send email?")
    ui.d.long_press(540, 400)
    assert ui.screen() == "compose" and ui.d.state()["mail"]["sent"] == []


def test_on_long_press_links_are_checked(tmp_path: Path) -> None:
    (tmp_path / "hold.yaml").write_text(APP.replace("{toast: Copied}", "{go: nowhere}"))
    with pytest.raises(DeviceError, match=r"hold\.yaml.*unknown screen 'nowhere'"):
        SimDevice(apps_dir=tmp_path)
