"""Acceptance: stock adb clients drive SimPhones through the ADB front with agents' exact command lines.

Mobile-Agent v1 (screencap to /sdcard + pull, input tap/swipe, per-character `input text` and
ADB_INPUT_TEXT broadcasts, keyevent 4, HOME through `am start`, `wm size`) and AppAgent (uiautomator dump
+ pull, input tap/swipe/text), checked against SimPhone's own state and screen afterwards.
"""

from __future__ import annotations

import io
import os
import pty
import select
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image
from tests.device.adbd_support import (
    Front,
    adb_client_params,
    adb_env,
    node_center,
    reap_adb_servers,
    run_adb,
    running_front,
)

from droidpilot.device.adbd.server import AdbServer
from droidpilot.device.sim.phone import SimDevice

pytestmark = pytest.mark.slow


@pytest.fixture(params=adb_client_params())
def adb(request: pytest.FixtureRequest) -> Path:
    return request.param


@pytest.fixture
def front() -> Iterator[Front]:
    with running_front(2) as f:
        yield f


def query(front: Front, i: int = 0) -> str:
    return front.sims[i].state()["foreground"]["fields"]["query"]


def test_devices_lists_every_simphone(adb: Path, front: Front) -> None:
    out = run_adb(adb, front.port, "devices").stdout.decode()
    assert out.splitlines()[1:3] == ["simphone-1\tdevice", "simphone-2\tdevice"]
    long = run_adb(adb, front.port, "devices", "-l").stdout.decode()
    want = "simphone-2             device product:simphone model:SimPhone device:simphone transport_id:2"
    assert want in long
    assert run_adb(adb, front.port, "-s", "simphone-2", "get-state").stdout.decode().strip() == "device"


def test_mobile_agent_v1_command_sequence(adb: Path, front: Front, tmp_path: Path) -> None:
    port, sim = front.port, front.sims[0]
    s = ("-s", "simphone-1")
    # screenshot: remove the old file, capture to /sdcard, pull it
    run_adb(adb, port, *s, "shell", "rm", "/sdcard/screenshot.png", check=False)
    run_adb(adb, port, *s, "shell", "screencap", "-p", "/sdcard/screenshot.png")
    run_adb(adb, port, *s, "pull", "/sdcard/screenshot.png", str(tmp_path / "screenshot.png"))
    with Image.open(tmp_path / "screenshot.png") as img:
        assert img.size == sim.size()
        assert img.convert("RGB").tobytes() == sim.screenshot().tobytes()
    size = run_adb(adb, port, *s, "shell", "wm", "size").stdout.decode()
    assert size.strip() == "Physical size: 1080x2400"
    # tap the search box, type per character as Mobile-Agent does, then a broadcast for CJK text
    x, y = node_center(sim.ui_xml(), "Search apps")
    run_adb(adb, port, *s, "shell", "input", "tap", str(x), str(y))
    for char in "Set t":
        arg = "%s" if char == " " else char
        run_adb(adb, port, *s, "shell", "input", "text", arg)
    run_adb(adb, port, *s, "shell", "input", "text", '"-"')  # the host shell's quotes are gone by now
    run_adb(adb, port, *s, "shell", "am", "broadcast", "-a", "ADB_INPUT_TEXT", "--es", "msg", "你好")
    assert query(front) == "Set t-你好"
    run_adb(adb, port, *s, "shell", "input", "keyevent", "4")
    assert query(front) == ""
    # open Settings by tapping its icon, scroll, go home through the HOME intent
    x, y = node_center(sim.ui_xml(), "Settings")
    run_adb(adb, port, *s, "shell", "input", "tap", str(x), str(y))
    assert sim.current_app() == "com.android.settings"
    run_adb(adb, port, *s, "shell", "input", "swipe", "540", "1800", "540", "900", "500")
    run_adb(adb, port, *s, "shell", "am", "start", "-a", "android.intent.action.MAIN", "-c",
            "android.intent.category.HOME")
    assert sim.state()["foreground"]["app"] == "launcher"
    assert front.sims[1].state()["system"]["time"] == 0  # the other phone saw nothing


def test_appagent_command_sequence(adb: Path, front: Front, tmp_path: Path) -> None:
    port, sim = front.port, front.sims[1]
    s = ("-s", "simphone-2")
    run_adb(adb, port, *s, "shell", "uiautomator", "dump", "/sdcard/0_home.xml")
    run_adb(adb, port, *s, "pull", "/sdcard/0_home.xml", str(tmp_path / "home.xml"))
    xml = (tmp_path / "home.xml").read_text("utf-8")
    assert xml == sim.ui_xml()
    x, y = node_center(xml, "Search apps")
    run_adb(adb, port, *s, "shell", "input", "tap", str(x), str(y))
    text = "open the settings app".replace(" ", "%s").replace("'", "")
    run_adb(adb, port, *s, "shell", "input", "text", text)
    assert query(front, 1) == "open the settings app"
    run_adb(adb, port, *s, "shell", "input", "keyevent", "KEYCODE_BACK")
    run_adb(adb, port, *s, "shell", "input", "swipe", "540", "1500", "540", "1500", "1000")  # long press
    assert front.sims[0].state()["system"]["time"] == 0


def test_exec_out_screencap_is_a_clean_png(adb: Path, front: Front) -> None:
    png = run_adb(adb, front.port, "-s", "simphone-1", "exec-out", "screencap", "-p").stdout
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG" and img.size == (1080, 2400)
    assert img.convert("RGB").tobytes() == front.sims[0].screenshot().tobytes()
    dump = run_adb(adb, front.port, "-s", "simphone-1", "exec-out", "uiautomator", "dump", "/dev/tty").stdout
    assert dump.decode().startswith("<?xml") and dump.decode().endswith("UI hierchary dumped to: /dev/tty\n")


def test_push_pull_round_trip(adb: Path, front: Front, tmp_path: Path) -> None:
    blob = os.urandom(300_000)
    (tmp_path / "blob.bin").write_bytes(blob)
    run_adb(adb, front.port, "-s", "simphone-2", "push", str(tmp_path / "blob.bin"), "/sdcard/Download/")
    listing = run_adb(adb, front.port, "-s", "simphone-2", "shell", "ls", "/sdcard/Download").stdout.decode()
    assert "blob.bin" in listing.split()
    sync_listing = run_adb(adb, front.port, "-s", "simphone-2", "ls", "/sdcard/Download").stdout.decode()
    assert any(line.endswith(" blob.bin") for line in sync_listing.splitlines())  # sync LIST / LIS2
    run_adb(adb, front.port, "-s", "simphone-2", "pull", "/sdcard/Download/blob.bin",
            str(tmp_path / "back.bin"))
    assert (tmp_path / "back.bin").read_bytes() == blob
    missing = run_adb(adb, front.port, "-s", "simphone-2", "pull", "/sdcard/none.bin", str(tmp_path),
                      check=False)
    assert missing.returncode != 0 and b"No such file or directory" in missing.stdout + missing.stderr


def test_shell_status_errors_and_device_choice(adb: Path, front: Front) -> None:
    res = run_adb(adb, front.port, "-s", "simphone-1", "shell", "frobnicate", check=False)
    assert res.returncode == 127
    assert res.stderr.decode().strip() == "/system/bin/sh: frobnicate: not found"
    res = run_adb(adb, front.port, "shell", "echo", "hi", check=False)
    assert res.returncode != 0 and b"more than one device/emulator" in res.stderr
    res = run_adb(adb, front.port, "-s", "simphone-9", "shell", "echo", "hi", check=False)
    assert res.returncode != 0 and b"device 'simphone-9' not found" in res.stderr
    out = run_adb(adb, front.port, "-s", "simphone-1", "shell", "getprop ro.product.model; echo $?").stdout
    assert out.decode().split() == ["SimPhone", "0"]


def test_launch_by_monkey_and_component(adb: Path, front: Front) -> None:
    s = ("-s", "simphone-1")
    out = run_adb(adb, front.port, *s, "shell", "monkey", "-p", "com.android.settings", "-c",
                  "android.intent.category.LAUNCHER", "1").stdout.decode()
    assert "Events injected: 1" in out
    focus = run_adb(adb, front.port, *s, "shell", "dumpsys window | grep mCurrentFocus").stdout.decode()
    assert "com.android.settings/" in focus
    run_adb(adb, front.port, *s, "shell", "input", "keyevent", "3")
    assert front.sims[0].current_app() == "com.simphone.launcher"
    run_adb(adb, front.port, *s, "shell", "am", "start", "-n", "com.android.settings/.Settings")
    assert front.sims[0].current_app() == "com.android.settings"
    packages = run_adb(adb, front.port, *s, "shell", "pm", "list", "packages").stdout.decode().split()
    assert "package:com.android.settings" in packages


def test_script_on_stdin_and_wait_for_device(adb: Path, front: Front) -> None:
    script = b"input keyevent 187\necho status $?\n"
    out = run_adb(adb, front.port, "-s", "simphone-1", "shell", stdin=script).stdout.decode()
    assert "status 0" in out
    assert front.sims[0].state()["foreground"]["app"] == "recents"
    run_adb(adb, front.port, "-s", "simphone-2", "wait-for-device")


def test_clients_fall_back_to_shell_v1_on_an_old_phone(adb: Path) -> None:
    sim = SimDevice()
    with AdbServer([sim], port=0, features=("stat_v2",)).start() as server:
        try:
            res = run_adb(adb, server.port, "shell", "input keyevent 187; frobnicate")
            assert sim.state()["foreground"]["app"] == "recents"
            assert res.returncode == 0  # shell v1 carries no exit status, as on Android < 7
            assert b"/system/bin/sh: frobnicate: not found" in res.stdout  # and stderr is merged
        finally:
            reap_adb_servers(server.port)


def _read_until(fd: int, want: bytes, timeout: float = 10.0) -> bytes:
    out = b""
    deadline = time.monotonic() + timeout
    while want not in out and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                out += os.read(fd, 4096)
            except OSError:
                break
    return out


def test_interactive_shell_on_a_terminal(adb: Path, front: Front) -> None:
    master, slave = pty.openpty()
    proc = subprocess.Popen([str(adb), "-P", str(front.port), "-s", "simphone-1", "shell"], stdin=slave,
                            stdout=slave, stderr=slave, env=adb_env(), close_fds=True)
    os.close(slave)
    try:
        assert b"simphone:/ $ " in _read_until(master, b"$ ")
        os.write(master, b"input keyevent 187; echo \xe4\xbd\xa0x\x7f\x7f\r")
        shown = _read_until(master, b"simphone:/ $ ")
        assert b"\r\n\r\n" in shown  # the echoed line, then `echo` printed an empty line
        assert front.sims[0].state()["foreground"]["app"] == "recents"
        os.write(master, b"cd /sdcard\rexit 3\r")
        assert b"simphone:/sdcard $ " in _read_until(master, b"exit 3")
        assert proc.wait(timeout=10) == 3
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
