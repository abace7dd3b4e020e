"""AdbDevice specifics, through the ADB front: escaping, the ADBKeyboard path, size overrides and rotation,
dump retries, one reconnect on a dropped connection, and errors that carry the device's own words."""

from __future__ import annotations

import socket
import string
import threading
from collections.abc import Iterator

import pytest
from tests.device.adbd_support import Front, node_center, running_front

from droidpilot.device.adbd.server import AdbServer
from droidpilot.device.base import DeviceError
from droidpilot.device.realphone import AdbDevice, list_serials, parse_size
from droidpilot.device.sim.phone import SimDevice


@pytest.fixture
def front() -> Iterator[Front]:
    with running_front(1) as f:
        yield f


@pytest.fixture
def dev(front: Front) -> AdbDevice:
    return AdbDevice("simphone-1", port=front.port)


def focus_search(dev: AdbDevice) -> None:
    dev.tap(*node_center(dev.ui_xml(), "Search apps"))


def typed(front: Front) -> str:
    return front.sims[0].state()["foreground"]["fields"]["query"]


def test_every_printable_ascii_character_round_trips(front: Front, dev: AdbDevice) -> None:
    focus_search(dev)
    text = string.punctuation + " " + string.ascii_letters + string.digits + " %s %%s s% \\n \t end"
    dev.type_text(text)
    assert typed(front) == text


@pytest.mark.parametrize("text", ["'", '"', "\\", "$HOME", "`id`", "a;b", "a&&b", "a|b", "<>", "()", "*",
                                  "#c", "~", "%s", "%", "  two  spaces  ", "!"])
def test_shell_metacharacters_are_typed_literally(front: Front, dev: AdbDevice, text: str) -> None:
    focus_search(dev)
    dev.type_text(text)
    assert typed(front) == text


def test_long_text_is_split_into_several_commands(front: Front, dev: AdbDevice) -> None:
    focus_search(dev)
    text = "word 'quoted' and more; " * 60
    dev.type_text(text)
    assert typed(front) == text


def test_non_ascii_needs_adbkeyboard_and_says_how_to_install_it(front: Front, dev: AdbDevice) -> None:
    focus_search(dev)
    dev.type_text("café 北京")
    assert typed(front) == "café 北京"
    assert "Broadcast completed" in dev.shell("am broadcast -a ADB_CLEAR_TEXT").text
    assert typed(front) == ""
    dev.type_text("café 北京")
    dev.shell("ime set com.android.inputmethod.latin/.LatinIME")
    with pytest.raises(DeviceError) as err:
        dev.type_text("東京")
    message = str(err.value)
    assert "ADBKeyboard" in message and "adb install" in message and "ime set" in message
    assert "com.android.inputmethod.latin/.LatinIME" in message
    assert typed(front) == "café 北京"


def test_size_honours_an_override_and_input_follows_it(front: Front, dev: AdbDevice) -> None:
    assert dev.size() == (1080, 2400)
    dev.shell("wm size 540x1200")
    assert dev.size() == (540, 1200)
    assert dev.screenshot().size == (540, 1200)
    x, y = node_center(dev.ui_xml(), "Settings")  # bounds in the override's pixels
    assert x < 540 and y < 1200
    dev.tap(x, y)
    assert dev.current_app() == "com.android.settings"
    dev.shell("wm size reset")
    assert dev.size() == (1080, 2400)


@pytest.mark.parametrize(("wm", "dumpsys", "size"), [
    ("Physical size: 1080x2400", "    SurfaceOrientation: 0", (1080, 2400)),
    ("Physical size: 1080x2400", "    SurfaceOrientation: 1", (2400, 1080)),
    ("Physical size: 1440x3120\nOverride size: 1080x2340", "", (1080, 2340)),
    ("Physical size: 1080x1920\nOverride size: 720x1280", "  Viewport INTERNAL: orientation=3, x",
     (1280, 720)),
    ("Physical size: 800x1280", "    mCurrentRotation=ROTATION_90", (1280, 800)),
])
def test_parse_size_with_overrides_and_rotation(wm: str, dumpsys: str, size: tuple[int, int]) -> None:
    assert parse_size(wm, dumpsys) == size


def test_parse_size_explains_unreadable_output() -> None:
    with pytest.raises(DeviceError, match="wm size"):
        parse_size("cmd: Can't find service: window")


class _Animating:
    """A SimPhone whose screen keeps animating for the first ``busy`` dumps (uiautomator cannot get idle)."""

    def __init__(self, sim: SimDevice, busy: int) -> None:
        self._sim, self.busy = sim, busy

    def ui_xml(self) -> str:
        if self.busy > 0:
            self.busy -= 1
            raise DeviceError("the screen is animating")
        return self._sim.ui_xml()

    def __getattr__(self, name: str) -> object:
        return getattr(self._sim, name)


@pytest.mark.parametrize(("busy", "ok"), [(1, True), (2, True), (5, False)])
def test_ui_xml_retries_while_the_screen_is_not_idle(busy: int, ok: bool) -> None:
    sim = SimDevice()
    with AdbServer([_Animating(sim, busy)], port=0).start() as server:  # type: ignore[list-item]
        dev = AdbDevice("simphone-1", port=server.port)
        if ok:
            assert dev.ui_xml() == sim.ui_xml()
        else:
            with pytest.raises(DeviceError, match="could not get idle state"):
                dev.ui_xml()


class _DroppingProxy:
    """A loopback TCP proxy to the front that hangs up on the connections whose numbers are in ``drop``."""

    def __init__(self, target: int, drop: set[int]) -> None:
        self.target, self.drop, self.count = target, drop, 0
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            n, self.count = self.count, self.count + 1
            if n in self.drop:
                client.recv(64)
                client.close()
                continue
            upstream = socket.create_connection(("127.0.0.1", self.target))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
            b.shutdown(socket.SHUT_WR)
        except OSError:
            pass

    def close(self) -> None:
        self.sock.close()


def test_a_dropped_connection_is_retried_once(front: Front) -> None:
    proxy = _DroppingProxy(front.port, drop={1, 3})  # #0 features, #1 dropped, #2 its retry, #3 dropped
    try:
        dev = AdbDevice("simphone-1", port=proxy.port)
        t0 = front.sims[0].state()["system"]["time"]
        dev.key("app_switch")
        assert front.sims[0].state()["foreground"]["app"] == "recents"
        assert dev.current_app() == "com.simphone.launcher"
        assert front.sims[0].state()["system"]["time"] == t0 + 1  # the key went through exactly once
    finally:
        proxy.close()


def test_a_server_that_stays_down_fails_with_the_reason(front: Front) -> None:
    dev = AdbDevice("simphone-1", port=front.port)
    dev.key("home")
    front.server.stop()
    with pytest.raises(DeviceError) as err:
        dev.tap(10, 10)
    assert "after reconnecting once" in str(err.value) and "Connection refused" in str(err.value)
    assert "adb start-server" in str(err.value)  # and nothing was started behind the caller's back


def test_errors_carry_the_devices_words(front: Front, dev: AdbDevice) -> None:
    with pytest.raises(DeviceError, match="device 'simphone-9' not found"):
        AdbDevice("simphone-9", port=front.port).screenshot()
    with pytest.raises(DeviceError, match=r"is not installed|no installed app"):
        dev.open_app("com.example.absent")
    res = dev.shell("input tap")
    assert res.code != 0 and "Invalid arguments" in res.text
    with pytest.raises(DeviceError, match="unknown key"):
        dev.key("volume_up")  # type: ignore[arg-type]


def test_serial_is_picked_when_only_one_device(front: Front) -> None:
    assert AdbDevice(port=front.port).serial == "simphone-1"
    assert list_serials(port=front.port) == ["simphone-1"]
    with running_front(2) as two, pytest.raises(DeviceError, match="2 ready devices"):
        AdbDevice(port=two.port)


def test_wait_runs_on_the_device_clock(front: Front, dev: AdbDevice) -> None:
    t0 = front.sims[0].state()["system"]["time"]
    dev.wait(0.1)
    assert front.sims[0].state()["system"]["time"] == pytest.approx(t0 + 0.1)
    with pytest.raises(DeviceError, match="negative"):
        dev.wait(-1)


@pytest.mark.parametrize(("name", "package"), [("Notes", "com.simphone.notes"), ("微聊", "com.simphone.chat"),
                                               ("com.simphone.video", "com.simphone.video")])
def test_open_app_by_package_label_or_home_screen_icon(front: Front, dev: AdbDevice, name: str,
                                                       package: str) -> None:
    dev.open_app(name)
    assert dev.current_app() == package


def test_an_old_phone_without_shell_v2_still_works() -> None:
    sim = SimDevice()
    with AdbServer([sim], port=0, features=("stat_v2",)).start() as server:
        dev = AdbDevice("simphone-1", port=server.port)
        assert "shell_v2" not in dev.features()
        res = dev.shell("ls /nowhere")
        assert res.code == 1 and "No such file or directory" in res.text
        assert dev.shell("echo -n partial").out == b"partial" and dev.shell("true").code == 0
        dev.tap(*node_center(dev.ui_xml(), "Search apps"))
        dev.type_text("v1 'path' ok")
        assert sim.state()["foreground"]["fields"]["query"] == "v1 'path' ok"
        assert dev.screenshot().size == (1080, 2400)


def test_realtime_front_lets_the_phone_clock_follow_the_wall_clock() -> None:
    sim = SimDevice()
    with AdbServer([sim], port=0, realtime=True).start() as server:
        dev = AdbDevice("simphone-1", port=server.port)
        dev.shell("true")
        t0 = sim.state()["system"]["time"]
        threading.Event().wait(0.3)
        dev.shell("true")
        assert sim.state()["system"]["time"] >= t0 + 0.3


def test_input_variants_agents_send(front: Front, dev: AdbDevice) -> None:
    sim = front.sims[0]
    t0 = sim.state()["system"]["time"]
    for cmd in ("input touchscreen tap 5 2000", "input -d 0 swipe 540 1500 540 1200",
                "input draganddrop 5 5 9 9 50", "input touchscreen tap 540.5 2000.25", "input tap 99999 5"):
        assert dev.shell(cmd).code == 0, cmd
    assert sim.state()["system"]["time"] == t0 + 4  # the off-screen tap is dropped, as Android does
    res = dev.shell("input keyevent KEYCODE_NOPE")
    assert res.code == 255 and "Unknown keycode" in res.text
    assert dev.shell("input keyevent --longpress KEYCODE_APP_SWITCH").code == 0
    assert sim.state()["foreground"]["app"] == "recents"
