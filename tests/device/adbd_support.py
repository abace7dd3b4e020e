"""Shared by the ADB-front tests: SimPhones served on a free loopback port, and the stock adb clients.

Importable as ``tests.device.adbd_support``. The adb binaries are real: the one inside adbutils' wheel and
Debian's /usr/bin/adb (an older client). Each run uses ``-P PORT`` so no client ever touches 5037, and any
adb server a client might have forked for that port is reaped (by pid) afterwards.
"""

from __future__ import annotations

import contextlib
import importlib.resources
import os
import signal
import socket
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from droidpilot.device.adbd.server import AdbServer
from droidpilot.device.sim.phone import SimDevice

BUNDLED_ADB = Path(str(importlib.resources.files("adbutils.binaries"))) / "adb"
SYSTEM_ADB = Path("/usr/bin/adb")


def adb_client_params() -> list[object]:
    """pytest params for both adb clients; the system one is skipped with a reason when absent."""
    return [
        pytest.param(BUNDLED_ADB, id="adbutils-adb",
                     marks=pytest.mark.skipif(not BUNDLED_ADB.exists(),
                                              reason="adbutils ships no adb binary here")),
        pytest.param(SYSTEM_ADB, id="debian-adb",
                     marks=pytest.mark.skipif(not SYSTEM_ADB.exists(),
                                              reason="/usr/bin/adb is not installed (apt-get install adb)")),
    ]


@dataclass
class Front:
    """A running ADB front and the SimPhones behind it."""

    server: AdbServer
    sims: list[SimDevice]

    @property
    def port(self) -> int:
        return self.server.port


@contextlib.contextmanager
def running_front(n: int = 2, server_options: dict[str, object] | None = None,
                  **sim_options: object) -> Iterator[Front]:
    """N SimPhones (serials simphone-1..N) behind an AdbServer on a free loopback port."""
    sims = [SimDevice(serial=f"simphone-{i}", **sim_options) for i in range(1, n + 1)]  # type: ignore[arg-type]
    server = AdbServer(sims, port=0, **(server_options or {})).start()  # type: ignore[arg-type]
    try:
        yield Front(server, sims)
    finally:
        server.stop()
        forked = reap_adb_servers(server.port)
    assert not forked, f"an adb client started its own server on port {server.port} (pids {forked})"


def adb_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANDROID_", "ADB_"))}
    env["ADB_MDNS"] = "0"
    env["ADB_MDNS_AUTO_CONNECT"] = "0"
    return env


def run_adb(client: Path, port: int, *args: str, check: bool = True, timeout: float = 30.0,
            stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run ``adb -P PORT ARGS...`` with the given client binary; raises with its output if it fails."""
    proc = subprocess.run([str(client), "-P", str(port), *args], input=stdin, capture_output=True,
                          timeout=timeout, env=adb_env(),
                          stdin=None if stdin is not None else subprocess.DEVNULL)
    if check and proc.returncode != 0:
        raise AssertionError(f"adb {' '.join(args)} exited {proc.returncode}: "
                             f"{proc.stdout.decode(errors='replace')}{proc.stderr.decode(errors='replace')}")
    return proc


def reap_adb_servers(port: int) -> list[int]:
    """Kill (by pid) adb server processes a client forked for ``port``; returns their pids."""
    killed = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        spec = f"tcp:{port}".encode()
        if argv and argv[0].endswith(b"adb") and b"fork-server" in argv and \
                any(a == spec or a.endswith(b":" + spec) for a in argv):
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(entry.name), signal.SIGKILL)
                killed.append(int(entry.name))
    return killed


def node_center(xml: str, text: str) -> tuple[int, int]:
    """The centre of the first node whose text or content-desc is ``text`` in a uiautomator dump."""
    from droidpilot.verify.frame import parse_ui_xml

    for el in parse_ui_xml(xml):
        if text in (el.text, el.content_desc):
            x1, y1, x2, y2 = el.bounds
            return (x1 + x2) // 2, (y1 + y2) // 2
    raise AssertionError(f"no node with text {text!r} in the dump")


def read_exact(s: socket.socket, n: int, *, partial: bool = False) -> bytes:
    """``n`` bytes from ``s``; a connection closed early fails the test (or, with ``partial``, ends the read
    with what came)."""
    buf = b""
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            assert partial, f"closed after {len(buf)} of {n} bytes"
            break
        buf += chunk
    return buf
