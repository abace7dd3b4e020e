"""The ADB front at the byte level: host services, transports, shell v2, sync — and clients that misbehave."""

from __future__ import annotations

import re
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Iterator

import adbutils
import pytest
from tests.device.adbd_support import Front, read_exact, running_front

from droidpilot.device.adbd.server import AdbServer, check_loopback
from droidpilot.errors import InputError


@pytest.fixture(scope="module")
def front() -> Iterator[Front]:
    with running_front(2) as f:
        yield f


def connect(front: Front) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", front.port), timeout=5)
    return s


def send(s: socket.socket, request: str) -> None:
    data = request.encode()
    s.sendall(b"%04x" % len(data) + data)


def status(s: socket.socket) -> tuple[bytes, str]:
    head = read_exact(s, 4)
    if head == b"FAIL":
        return head, read_exact(s, int(read_exact(s, 4), 16)).decode()
    return head, ""


def block(s: socket.socket) -> str:
    return read_exact(s, int(read_exact(s, 4), 16)).decode()


def ask(front: Front, request: str) -> tuple[bytes, str]:
    with connect(front) as s:
        send(s, request)
        head, msg = status(s)
        return head, (block(s) if head == b"OKAY" else msg)


def test_host_services(front: Front) -> None:
    assert ask(front, "host:version") == (b"OKAY", "0029")
    assert ask(front, "host:devices") == (b"OKAY", "simphone-1\tdevice\nsimphone-2\tdevice\n")
    assert "shell_v2" in ask(front, "host-serial:simphone-1:features")[1].split(",")
    assert ask(front, "host:host-features")[0] == b"OKAY"
    assert ask(front, "host:features") == (b"FAIL", "more than one device/emulator")
    assert ask(front, "host-serial:simphone-2:get-serialno") == (b"OKAY", "simphone-2")
    assert ask(front, "host-transport-id:1:get-state") == (b"OKAY", "device")
    assert ask(front, "host:nonsense") == (b"FAIL", "unknown host service 'nonsense'")
    assert ask(front, "host:kill")[0] == b"FAIL"  # this server was started without allow_kill
    assert ask(front, "host:version") == (b"OKAY", "0029")


@pytest.mark.parametrize(("request_", "error"), [
    ("host:transport:simphone-7", "device 'simphone-7' not found"),
    ("host:transport-any", "more than one device/emulator"),
    ("host:transport-usb", "no devices found"),
    ("host:tport:local", "more than one emulator"),
])
def test_transport_errors_use_adbs_words(front: Front, request_: str, error: str) -> None:
    assert ask(front, request_) == (b"FAIL", error)


@pytest.mark.parametrize("request_", ["host:transport-id:2", "host:transport:simphone-2", "host:tport:id:2",
                                      "host:tport:serial:simphone-2"])
def test_every_way_of_naming_a_phone_reaches_it(front: Front, request_: str) -> None:
    with connect(front) as s:
        send(s, request_)
        assert status(s)[0] == b"OKAY"
        if ":tport:" in request_:
            assert read_exact(s, 8) == struct.pack("<Q", 2)
        send(s, "exec:getprop ro.serialno")
        assert status(s)[0] == b"OKAY"
        assert s.makefile("rb").read() == b"simphone-2\n"


def test_tport_replies_with_the_transport_id_then_runs_shell_v2(front: Front) -> None:
    with connect(front) as s:
        send(s, "host:tport:serial:simphone-2")
        assert status(s)[0] == b"OKAY"
        assert struct.unpack("<Q", read_exact(s, 8))[0] == 2
        send(s, "shell,v2,raw:echo out; nope; exit 5")
        assert status(s)[0] == b"OKAY"
        packets: dict[int, bytes] = {}
        while True:
            kind, length = struct.unpack("<BI", read_exact(s, 5))
            packets[kind] = packets.get(kind, b"") + read_exact(s, length)
            if kind == 3:
                break
    assert packets[1] == b"out\n"
    assert packets[2] == b"/system/bin/sh: nope: not found\n"
    assert packets[3] == bytes([5])


def test_sync_stat_list_and_errors(front: Front) -> None:
    with connect(front) as s:
        send(s, "host:transport:simphone-1")
        assert status(s)[0] == b"OKAY"
        send(s, "sync:")
        assert status(s)[0] == b"OKAY"
        s.sendall(b"STAT" + struct.pack("<I", 9) + b"/sdcard/x")
        assert read_exact(s, 16) == b"STAT" + bytes(12)  # missing: all zeros, as adbd answers
        s.sendall(b"STA2" + struct.pack("<I", 7) + b"/sdcard")
        reply = read_exact(s, 72)
        assert reply[:8] == b"STA2" + bytes(4) and struct.unpack("<I", reply[24:28])[0] & 0o170000 == 0o040000
        s.sendall(b"RECV" + struct.pack("<I", 9) + b"/sdcard/x")
        assert read_exact(s, 4) == b"FAIL"
        assert b"No such file or directory" in read_exact(s, struct.unpack("<I", read_exact(s, 4))[0])
        s.sendall(b"LIST" + struct.pack("<I", 8) + b"/sdcard/")
        names = []
        while (kind := read_exact(s, 4)) == b"DENT":
            _, _, _, n = struct.unpack("<IIII", read_exact(s, 16))
            names.append(read_exact(s, n).decode())
        assert kind == b"DONE" and {".", "..", "Download", "Pictures"} <= set(names)
        s.sendall(b"QUIT" + bytes(4))


def test_adbutils_client_sync_and_shell(front: Front) -> None:
    client = adbutils.AdbClient(host="127.0.0.1", port=front.port)
    assert [d.serial for d in client.device_list()] == ["simphone-1", "simphone-2"]
    dev = client.device("simphone-1")
    dev.sync.push(b"hello sync", "/sdcard/Download/h.txt")
    assert dev.sync.read_text("/sdcard/Download/h.txt") == "hello sync"
    assert "h.txt" in [f.path for f in dev.sync.list("/sdcard/Download")]
    assert dev.shell("cat /sdcard/Download/h.txt") == "hello sync"
    res = dev.shell2("ls /nowhere", v2=True)
    assert res.returncode == 1 and "No such file or directory" in res.output
    assert dev.shell2("ls /nowhere").returncode == 1  # the v1 path (adbutils appends `; echo X4EXIT:$?`)
    assert dev.prop.model == "SimPhone"
    assert dev.window_size() == (1080, 2400)


GARBAGE = [
    b"zzzzhost:version",           # not a hex length
    b"ffffpartial",                # announces more than it sends, then hangs up
    b"0000",                       # empty request
    b"\x00\x01\x02\x03\xff\xfe",   # binary noise
    b"0010host:transpo",           # closes mid-request
    b"000chost:version" * 3,       # pipelined after a one-shot service
]


@pytest.mark.parametrize("payload", GARBAGE)
def test_garbage_and_hangups_never_take_the_server_down(front: Front, payload: bytes) -> None:
    with connect(front) as s:
        s.sendall(payload)
        s.shutdown(socket.SHUT_WR)
        s.settimeout(5)
        try:
            while s.recv(4096):
                pass
        except OSError:
            pass
    assert ask(front, "host:version") == (b"OKAY", "0029")


def test_disconnects_mid_transfer_are_survived(front: Front) -> None:
    # mid SEND: a DATA header promising 60000 bytes, 10 sent, then gone
    with connect(front) as s:
        send(s, "host:transport:simphone-1")
        status(s)
        send(s, "sync:")
        status(s)
        path = b"/sdcard/cut.bin,33188"
        s.sendall(b"SEND" + struct.pack("<I", len(path)) + path)
        s.sendall(b"DATA" + struct.pack("<I", 60000) + b"x" * 10)
    # mid RECV: ask for a big file and hang up after the first bytes
    front.sims[0]  # the phone stays usable
    with connect(front) as s:
        send(s, "host:transport:simphone-1")
        status(s)
        send(s, "shell:screencap -p /sdcard/big.png")
        status(s)
        s.recv(10)
    with connect(front) as s:
        send(s, "host:transport:simphone-1")
        status(s)
        send(s, "sync:")
        status(s)
        s.sendall(b"RECV" + struct.pack("<I", 15) + b"/sdcard/big.png")
        s.recv(100)
    # mid shell output: exec-out of a screenshot, read 100 bytes, close
    with connect(front) as s:
        send(s, "host:transport:simphone-2")
        status(s)
        send(s, "exec:screencap -p")
        status(s)
        s.recv(100)
    time.sleep(0.2)
    assert ask(front, "host:version") == (b"OKAY", "0029")
    client = adbutils.AdbClient(host="127.0.0.1", port=front.port)
    assert not client.device("simphone-1").sync.exists("/sdcard/cut.bin")
    assert client.device("simphone-2").shell("wm size") == "Physical size: 1080x2400"


def test_track_devices_and_wait_for(front: Front) -> None:
    with connect(front) as s:
        send(s, "host:track-devices")
        assert status(s)[0] == b"OKAY"
        assert block(s) == "simphone-1\tdevice\nsimphone-2\tdevice\n"
    with connect(front) as s:
        send(s, "host-serial:simphone-2:wait-for-any-device")
        assert read_exact(s, 8) == b"OKAYOKAY"


class _Broken:
    """A phone whose foreground query crashes (a bug in a Device must not cost the client its answer)."""

    def __init__(self) -> None:
        from droidpilot.device.sim.phone import SimDevice

        self._sim = SimDevice()

    def current_app(self) -> str:
        raise RuntimeError("simulated crash")

    def __getattr__(self, name: str) -> object:
        return getattr(self._sim, name)


def test_a_crashing_device_call_is_an_error_reply_not_a_hangup() -> None:
    with AdbServer([_Broken()], port=0).start() as server:  # type: ignore[list-item]
        dev = adbutils.AdbClient(host="127.0.0.1", port=server.port).device("simphone-1")
        res = dev.shell2("dumpsys window", v2=True)
        assert res.returncode == 255 and "RuntimeError: simulated crash" in res.output
        assert dev.shell("echo still here") == "still here"


def test_loopback_only_and_kill_when_allowed() -> None:
    with pytest.raises(InputError, match="loopback only"):
        check_loopback("0.0.0.0")
    assert check_loopback("::1") == "::1"
    from droidpilot.device.sim.phone import SimDevice

    server = AdbServer([SimDevice()], port=0, allow_kill=True).start()
    adbutils.AdbClient(host="127.0.0.1", port=server.port).server_kill()
    assert server.stopped.wait(5)


def test_cli_serve_answers_adb_and_stops_on_kill_server() -> None:
    cmd = [sys.executable, "-m", "droidpilot", "sim", "serve", "--port", "0", "--devices", "3"]
    proc = subprocess.Popen(cmd,
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        m = re.search(r"127\.0\.0\.1:(\d+)", line)
        assert m, line
        client = adbutils.AdbClient(host="127.0.0.1", port=int(m.group(1)))
        assert [d.serial for d in client.device_list()] == ["simphone-1", "simphone-2", "simphone-3"]
        client.server_kill()
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()


def test_settings_mirror_simphone_and_default_dump_path(front: Front) -> None:
    dev = adbutils.AdbClient(host="127.0.0.1", port=front.port).device("simphone-2")
    assert dev.shell("settings get secure default_input_method") == "com.android.adbkeyboard/.AdbIME"
    wifi = front.sims[1].state()["settings"]["wifi"]
    assert dev.shell("settings get global wifi_on") == ("1" if wifi else "0")
    assert dev.shell("settings --user 0 put system user_rotation 0; settings get system user_rotation") == "0"
    assert "follows SimPhone's Settings app" in dev.shell("settings put global wifi_on 0")
    assert dev.shell("settings get secure no_such_key") == "null"
    assert "mWakefulness=Awake" in dev.shell("dumpsys power")
    assert dev.shell("uiautomator dump") == "UI hierchary dumped to: /sdcard/window_dump.xml"
    assert dev.sync.read_text("/sdcard/window_dump.xml") == front.sims[1].ui_xml()


def test_concurrent_clients_are_served_and_serialised_per_phone(front: Front) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from droidpilot.device.realphone import AdbDevice

    times = [sim.state()["system"]["time"] for sim in front.sims]

    def work(i: int) -> tuple[int, int]:
        dev = AdbDevice(f"simphone-{i % 2 + 1}", port=front.port)
        dev.swipe(540, 1500, 540, 1400, 100)
        return dev.screenshot().size

    with ThreadPoolExecutor(max_workers=8) as pool:
        sizes = list(pool.map(work, range(16)))
    assert sizes == [(1080, 2400)] * 16
    assert [sim.state()["system"]["time"] - t for sim, t in zip(front.sims, times, strict=True)] == [8, 8]


def test_screencap_without_png_flag_is_raw_rgba(front: Front) -> None:
    with connect(front) as s:
        send(s, "host:transport:simphone-1")
        status(s)
        send(s, "exec:screencap")
        status(s)
        data = s.makefile("rb").read()
    w, h, fmt, _ = struct.unpack("<IIII", data[:16])
    assert (w, h, fmt) == (1080, 2400, 1) and len(data) == 16 + w * h * 4
    assert data[16:16 + 3] == front.sims[0].screenshot().tobytes()[:3]
