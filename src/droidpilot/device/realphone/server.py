"""The adb server a command talks to: found running, or started for the command and stopped after it.

``droidpilot run --device SERIAL`` needs an adb server; when none answers on the local port it starts one
(as the `adb` command does) and, unlike `adb`, stops it again when the command ends, so nothing is left
running that the user did not start. A server the user had running is never touched.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from types import TracebackType

from droidpilot.device.base import DeviceError
from droidpilot.errors import InputError

_LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def server_running(host: str, port: int, timeout: float = 2.0) -> bool:
    """True when an adb server answers ``host:version`` on host:port."""
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            sock.sendall(b"000chost:version")
            return sock.recv(4) == b"OKAY"
    except OSError:
        return False


def _adb_executable() -> str:
    found = shutil.which("adb")
    if found:
        return found
    try:
        import adbutils

        return str(adbutils.adb_path())
    except Exception as exc:  # adbutils raises its own error when it ships no binary for this platform
        raise DeviceError(f"no adb executable found ({exc}); install it with `apt-get install adb`") from None


def start_server(port: int) -> None:
    """Run `adb -P PORT start-server`; DeviceError with adb's own words when it fails."""
    try:
        proc = subprocess.run([_adb_executable(), "-P", str(port), "start-server"], capture_output=True,
                              text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        raise DeviceError(f"could not start an adb server on port {port}: {exc}") from None
    if proc.returncode != 0:
        said = (proc.stderr or proc.stdout).strip()[:300] or f"exit status {proc.returncode}"
        raise DeviceError(f"could not start an adb server on port {port}: {said}")


def kill_server(host: str, port: int) -> None:
    """Ask the adb server at host:port to exit (``host:kill``); quiet when it is already gone."""
    try:
        with socket.create_connection((host, port), timeout=2.0) as sock:
            sock.sendall(b"0009host:kill")
            sock.recv(4)
    except OSError:
        return


def list_devices(host: str, port: int) -> dict[str, str]:
    """serial -> state (device, offline, unauthorized, ...) of every device the server lists."""
    try:
        with socket.create_connection((host, port), timeout=10.0) as sock:
            sock.sendall(b"000chost:devices")
            status = sock.recv(4)
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
    except OSError as exc:
        raise DeviceError(f"cannot list the devices of the adb server at {host}:{port}: "
                          f"{exc.strerror or exc}") from None
    if status != b"OKAY":
        raise DeviceError(f"the adb server at {host}:{port} refused to list devices: {data[4:].decode()!r}")
    body = data[4:].decode("utf-8", "replace")
    out: dict[str, str] = {}
    for line in body.splitlines():
        parts = line.split()
        if len(parts) >= 2:
            out[parts[0]] = parts[1]
    return out


class AdbServerSession:
    """Use as ``with AdbServerSession(host, port):`` around a command that talks to devices.

    ``started`` says whether this session started the server (and so will stop it on exit).
    """

    def __init__(self, host: str = "127.0.0.1", port: int = 5037) -> None:
        self.host, self.port = host, port
        self.started = False

    def __enter__(self) -> AdbServerSession:
        if server_running(self.host, self.port):
            return self
        if self.host not in _LOCAL_HOSTS:
            raise InputError(f"no adb server answers at {self.host}:{self.port}; start it there "
                             "(`adb start-server`) or check --adb-host/--adb-port")
        start_server(self.port)
        self.started = True
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.started:
            kill_server(self.host, self.port)
            self.started = False

    def require(self, serial: str, settle_s: float = 3.0) -> None:
        """InputError unless the server lists ``serial`` as a ready device, naming what it does list.

        A server this session just started is given ``settle_s`` seconds to find its USB devices.
        """
        deadline = time.monotonic() + (settle_s if self.started else 0.0)
        devices = list_devices(self.host, self.port)
        while devices.get(serial) != "device" and time.monotonic() < deadline:
            time.sleep(0.25)
            devices = list_devices(self.host, self.port)
        state = devices.get(serial)
        if state == "device":
            return
        listed = ", ".join(f"{s} ({st})" for s, st in sorted(devices.items())) or "no devices"
        if state is None:
            raise InputError(f"no device {serial!r} at the adb server {self.host}:{self.port} (it lists "
                             f"{listed}); check `adb devices`, or pass --device sim for SimPhone")
        raise InputError(f"device {serial!r} is {state} at the adb server {self.host}:{self.port}; "
                         "unlock it and accept the USB debugging prompt, then try again")
