"""One behavioural suite for the Device interface, run on SimDevice directly and on AdbDevice through the
ADB front (real TCP on loopback, adbutils' client): both must behave the same, checked by SimPhone's state."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from tests.device.adbd_support import node_center, running_front

from droidpilot.device.base import Device, DeviceError
from droidpilot.device.realphone import AdbDevice
from droidpilot.device.sim.phone import SimDevice
from droidpilot.verify.frame import parse_ui_xml

LAUNCHER = "com.simphone.launcher"
SETTINGS = "com.android.settings"


@dataclass
class Subject:
    """The device under test and the SimPhone whose state tells what really happened."""

    device: Device
    sim: SimDevice

    def state(self) -> dict:
        return self.sim.state()


@pytest.fixture(params=["direct", "through-adb", "through-adb-shell-v1"])
def subject(request: pytest.FixtureRequest) -> Iterator[Subject]:
    if request.param == "direct":
        sim = SimDevice()
        yield Subject(sim, sim)
        return
    # the v1 variant acts like a phone older than Android 7 (no shell_v2: exit codes via `echo $?`)
    options = {"features": ("stat_v2",)} if request.param.endswith("v1") else {}
    with running_front(1, server_options=options) as front:
        yield Subject(AdbDevice("simphone-1", port=front.port), front.sims[0])


def test_implements_the_device_protocol(subject: Subject) -> None:
    assert isinstance(subject.device, Device)
    assert subject.device.serial == "simphone-1"


def test_screenshot_is_full_resolution_and_matches_size(subject: Subject) -> None:
    img = subject.device.screenshot()
    assert img.mode == "RGB"
    assert img.size == subject.device.size() == (1080, 2400)
    assert img.tobytes() == subject.sim.screenshot().tobytes()


def test_ui_xml_describes_the_screen(subject: Subject) -> None:
    xml = subject.device.ui_xml()
    assert xml == subject.sim.ui_xml()
    labels = {el.text for el in parse_ui_xml(xml)}
    assert {"Settings", "Search apps"} <= labels
    for el in parse_ui_xml(xml):
        assert el.bounds is not None
        assert 0 <= el.bounds[0] <= el.bounds[2] <= 1080 and 0 <= el.bounds[1] <= el.bounds[3] <= 2400


def test_tap_opens_an_app_and_keys_navigate(subject: Subject) -> None:
    dev = subject.device
    assert dev.current_app() == LAUNCHER
    dev.tap(*node_center(dev.ui_xml(), "Settings"))
    assert dev.current_app() == SETTINGS
    assert subject.state()["foreground"]["app"] == "settings"
    dev.key("home")
    assert dev.current_app() == LAUNCHER
    dev.key("app_switch")
    assert subject.state()["foreground"]["app"] == "recents"
    dev.key("back")
    assert subject.state()["foreground"]["app"] == "launcher"


@pytest.mark.parametrize(("name", "package"), [("Settings", SETTINGS), ("settings", SETTINGS),
                                               (SETTINGS, SETTINGS), ("微聊", "com.simphone.chat")])
def test_open_app_by_label_name_or_package(subject: Subject, name: str, package: str) -> None:
    subject.device.open_app(name)
    assert subject.device.current_app() == package


def test_open_app_unknown_says_why(subject: Subject) -> None:
    with pytest.raises(DeviceError, match="no-such-app"):
        subject.device.open_app("no-such-app")
    assert subject.device.current_app() == LAUNCHER


@pytest.mark.parametrize("text", ["hello world", "a'b\"c $x;y|z&(w)*?`~%s!", "你好, SimPhone ✓"])
def test_type_text_reaches_the_focused_field(subject: Subject, text: str) -> None:
    dev = subject.device
    dev.tap(*node_center(dev.ui_xml(), "Search apps"))
    dev.type_text(text)
    assert subject.state()["foreground"]["fields"]["query"] == text
    dev.key("del")  # type: ignore[arg-type]
    assert subject.state()["foreground"]["fields"]["query"] == text[:-1]
    dev.key("back")
    assert subject.state()["foreground"]["fields"]["query"] == ""


def test_swipe_long_press_and_wait_take_effect_in_time(subject: Subject) -> None:
    dev = subject.device
    t0 = subject.state()["system"]["time"]
    dev.swipe(540, 1800, 540, 900, 300)
    dev.long_press(540, 1200, 800)
    assert subject.state()["system"]["time"] == t0 + 2  # one virtual second per input event
    dev.wait(0.25)
    assert subject.state()["system"]["time"] == pytest.approx(t0 + 2.25)
    assert dev.current_app() == LAUNCHER
