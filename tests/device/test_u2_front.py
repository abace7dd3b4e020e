"""The ADB front's side of uiautomator2: `droidpilot sim serve` with `u2.connect(serial)`, device sockets,
`adb forward`, the server's start command, and a client killed in the middle of a call."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import adbutils
import pytest
import uiautomator2 as u2
from tests.device.adbd_support import BUNDLED_ADB, Front, run_adb, running_front
from tests.device.u2_support import client_env, connect, run_client

pytestmark = pytest.mark.slow

DARK_MODE_SCRIPT = """
import uiautomator2 as u2
d = u2.connect("simphone-1")
d(text="Settings").click()
d(text="Display").click()
d(text="Dark mode").click()
print(d.app_current()["package"])
"""


@pytest.fixture(scope="module")
def front() -> Iterator[Front]:
    with running_front(1) as f:
        yield f


def _serve(port_file: Path) -> Iterator[tuple[subprocess.Popen[str], int, list[str]]]:
    proc = subprocess.Popen([sys.executable, "-m", "droidpilot", "sim", "serve", "--port", "0"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env={k: v for k, v in os.environ.items() if not k.startswith("ANDROID_")})
    lines: list[str] = []
    try:
        assert proc.stderr is not None
        while not any("uiautomator2" in line for line in lines):
            line = proc.stderr.readline()
            assert line, f"sim serve exited early: {lines}"
            lines.append(line)
        port = int(lines[0].split(" on ")[1].split(" ")[0].rsplit(":", 1)[1])
        yield proc, port, lines
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_sim_serve_prints_the_u2_way_and_serves_connect_by_serial(tmp_path: Path) -> None:
    for _proc, port, lines in _serve(tmp_path / "port"):
        hint = next(line for line in lines if "uiautomator2" in line)
        assert f"ANDROID_ADB_SERVER_PORT={port}" in hint and "u2.connect('simphone-1')" in hint
        out = run_client(port, DARK_MODE_SCRIPT).stdout
        assert out.strip().splitlines()[-1] == "com.android.settings"
        dev = adbutils.AdbClient(port=port).device("simphone-1")
        assert dev.shell(["settings", "get", "secure", "ui_night_mode"]) == "2"  # SimPhone's own state


def test_a_client_killed_mid_call_leaves_the_front_serving(front: Front) -> None:
    script = ("import uiautomator2 as u2, sys\nd = u2.connect('simphone-1')\nprint('waiting', flush=True)\n"
              "d(text='Never shown').wait(timeout=120)\n")
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=client_env(front.port))
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "waiting", proc.stderr.read() if proc.stderr else ""
        time.sleep(0.5)  # let the wait call reach the server
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    d = connect(front.port)  # a new client: the server died with the client that started it; it restarts one
    assert d.info["displayWidth"] == front.sims[0].size()[0]
    d(text="Settings").click()
    assert front.sims[0].state()["foreground"]["app"] == "settings"
    # the other serial-free services are untouched as well
    assert adbutils.AdbClient(port=front.port).device("simphone-1").shell("echo ok") == "ok"


def _post(port: int, method: str, *params: object) -> dict[str, object]:
    body = json.dumps({"jsonrpc": "2.0", "id": 7, "method": method, "params": list(params)}).encode()
    req = urllib.request.Request(f"http://127.0.0.1:{port}/jsonrpc/0", body,
                                 {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read())  # type: ignore[no-any-return]


def test_forward_reaches_the_server_on_the_phone(front: Front) -> None:
    connect(front.port)  # starts the uiautomator server on tcp:9008 of the phone
    dev = adbutils.AdbClient(port=front.port).device("simphone-1")
    local = dev.forward_port(9008)
    assert any(f.local == f"tcp:{local}" and f.remote == "tcp:9008" for f in dev.forward_list())
    with urllib.request.urlopen(f"http://127.0.0.1:{local}/ping", timeout=10) as resp:
        assert resp.read() == b"pong"
    answer = _post(local, "deviceInfo")
    assert answer["id"] == 7 and answer["result"]["displayHeight"] == 2400  # type: ignore[index]
    missing = _post(local, "objInfo", {"mask": 1, "childOrSibling": [], "childOrSiblingSelector": [],
                                       "text": "Nothing"})
    assert missing["error"]["code"] == -32002  # type: ignore[index]
    assert "UiObjectNotFoundException" in missing["error"]["message"]  # type: ignore[index]
    assert _post(local, "noSuchMethod")["error"]["code"] == -32601  # type: ignore[index]
    dev.forward_remove(f"tcp:{local}")
    assert all(f.local != f"tcp:{local}" for f in dev.forward_list())
    with pytest.raises(OSError):
        urllib.request.urlopen(f"http://127.0.0.1:{local}/ping", timeout=5)


@pytest.mark.skipif(not BUNDLED_ADB.exists(), reason="adbutils ships no adb binary here")
def test_stock_adb_forward_list_and_remove(front: Front) -> None:
    connect(front.port)
    port = int(run_adb(BUNDLED_ADB, front.port, "-s", "simphone-1", "forward", "tcp:0", "tcp:9008")
               .stdout.decode().strip())
    listed = run_adb(BUNDLED_ADB, front.port, "forward", "--list").stdout.decode()
    assert f"simphone-1 tcp:{port} tcp:9008" in listed
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/ping", timeout=10) as resp:
        assert resp.read() == b"pong"
    run_adb(BUNDLED_ADB, front.port, "forward", "--remove", f"tcp:{port}")
    gone = run_adb(BUNDLED_ADB, front.port, "forward", "--remove", f"tcp:{port}", check=False)
    assert gone.returncode != 0 and b"not found" in gone.stderr
    run_adb(BUNDLED_ADB, front.port, "-s", "simphone-1", "forward", "tcp:0", "tcp:9008")
    run_adb(BUNDLED_ADB, front.port, "forward", "--remove-all")
    assert run_adb(BUNDLED_ADB, front.port, "forward", "--list").stdout.decode().strip() == ""


def test_device_socket_to_a_closed_port_is_refused_as_adb_does(front: Front) -> None:
    dev = adbutils.AdbClient(port=front.port).device("simphone-1")
    with pytest.raises(adbutils.AdbError, match="closed"):
        dev.create_connection(adbutils.Network.TCP, 9)


def test_server_start_command_checks_its_class_path(front: Front) -> None:
    dev = adbutils.AdbClient(port=front.port).device("simphone-1")
    assert "CLASSPATH is not set" in dev.shell("app_process / com.wetest.uia2.Main -p 9100")
    assert "no dex jar" in dev.shell("CLASSPATH=/data/local/tmp/none.jar app_process / com.wetest.uia2.Main")
    dev.shell("echo hello > /data/local/tmp/fake.jar")
    assert "no dex jar" in dev.shell("CLASSPATH=/data/local/tmp/fake.jar app_process / com.wetest.uia2.Main")
    connect(front.port)  # pushes the real u2.jar
    assert "SimPhone runs only the uiautomator server" in dev.shell(
        "CLASSPATH=/data/local/tmp/u2.jar app_process / com.example.Other")
    with contextlib.closing(dev.shell("CLASSPATH=/data/local/tmp/u2.jar app_process / com.wetest.uia2.Main "
                                      "-p 9100", stream=True)) as conn:
        assert b"listening on tcp:9100" in conn.conn.recv(200)
        sock = dev.create_connection(adbutils.Network.TCP, 9100)
        sock.sendall(b"GET /ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        reply = b""
        while chunk := sock.recv(4096):
            reply += chunk
        sock.close()
        assert reply.startswith(b"HTTP/1.1 200") and reply.endswith(b"\r\n\r\npong")
    for _ in range(50):  # hanging up stops the server; the front notices the close at once
        try:
            dev.create_connection(adbutils.Network.TCP, 9100).close()
        except adbutils.AdbError:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the server kept listening after its shell hung up")
    md5 = dev.shell(["toybox", "md5sum", "/data/local/tmp/u2.jar"]).split()[0]
    assert len(md5) == 32 and u2.__name__ == "uiautomator2"
