"""Start the studio: phones, the app, the loopback rule and the token, and uvicorn on a bound socket.

By default the studio listens on 127.0.0.1 only. A non-loopback host is refused unless it was given
explicitly (``--host``), and then every request (pages, API, WebSocket) must carry the token printed at
start: ``?token=`` once (the page then keeps it in a same-site cookie), or an ``Authorization: Bearer``
header. Whatever the host, a request must name the studio's own address in its Host header (and Origin,
when sent), so a page rebinding its name to this machine is refused (``hosts``).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import secrets
import socket
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvicorn

from droidpilot.errors import InputError
from droidpilot.studio.app import build_app
from droidpilot.studio.guards import HostGuard, TokenGuard
from droidpilot.studio.hosts import HostPolicy
from droidpilot.studio.phone import PhoneSession


def is_loopback(host: str) -> bool:
    """True for localhost and loopback addresses (127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, explicit: bool) -> str | None:
    """The token the server needs for ``host`` (None on loopback); InputError for an implicit exposure."""
    if is_loopback(host):
        return None
    if not explicit:
        raise InputError(f"refusing to listen on {host!r}, which is not a loopback address; pass --host "
                         f"{host} explicitly to expose the studio (it then asks for a token)")
    return secrets.token_urlsafe(24)


def make_phones(devices: int = 1, serial: str | None = None, *, adb_host: str = "127.0.0.1",
                adb_port: int = 5037, seed: int = 0) -> list[tuple[Any, float]]:
    """(device, settle seconds) for each phone: ``devices`` SimPhones, or the real phone ``serial``."""
    if serial:
        from droidpilot.device.realphone import AdbDevice

        return [(AdbDevice(serial, host=adb_host, port=adb_port, start_server=True), 1.0)]
    if devices < 1 or devices > 16:
        raise InputError(f"--devices must be from 1 to 16, got {devices}")
    from droidpilot.device.sim.phone import SimDevice

    return [(SimDevice(serial=f"simphone-{i + 1}", seed=seed), 0.0) for i in range(devices)]


def _shared_ocr() -> Callable[[], Any]:
    """A factory for the one OCR engine all agent runs share (made on first use, cached by content)."""
    lock, made = threading.Lock(), []

    def get() -> Any:
        with lock:
            if not made:
                from droidpilot.perception.cache import cached
                from droidpilot.perception.ocr import make_ocr_engine

                made.append(cached(make_ocr_engine("rapidocr")))
            return made[0]

    return get


@dataclass
class Studio:
    """A configured studio: its ASGI app, its sessions, where it listens and its token."""

    app: Any
    sessions: dict[str, PhoneSession]
    host: str
    token: str | None
    sock: socket.socket
    server: uvicorn.Server | None = None
    thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self.sock.getsockname()[1])

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/" + (f"?token={self.token}" if self.token else "")

    def _server(self) -> uvicorn.Server:
        config = uvicorn.Config(self.app, log_level="warning", ws="websockets-sansio", lifespan="on",
                                ws_max_size=1 << 20)
        self.server = uvicorn.Server(config)
        return self.server

    def serve_forever(self) -> None:
        """Run until interrupted (the CLI)."""
        asyncio.run(self._server().serve(sockets=[self.sock]))

    def start(self) -> Studio:
        """Run in a background thread (tests, benchmarks); returns once it accepts connections."""
        server = self._server()
        self.thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[self.sock])),
                                       name="studio-server", daemon=True)
        self.thread.start()
        while not server.started:
            if not self.thread.is_alive():
                raise RuntimeError("the studio server failed to start")
            self.thread.join(0.02)
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.should_exit = True
        if self.thread is not None:
            self.thread.join(10)
        with contextlib.suppress(OSError):
            self.sock.close()


def create_studio(phones: list[tuple[Any, float]], *, host: str = "127.0.0.1", port: int = 0,
                  explicit_host: bool = False, out_root: str | Path = "studio-runs",
                  ocr: Callable[[], Any] | None = None, allow_hosts: Sequence[str] = (), seed: int = 0
                  ) -> Studio:
    """Bind ``host:port`` (0: any free port) and build the studio over ``phones``; ``allow_hosts`` are
    extra Host names (``NAME`` or ``NAME:PORT``) it answers to besides its own addresses; ``seed`` is the
    SimPhone seed a fresh recording starts from."""
    token = check_bind(host, explicit_host)
    HostPolicy(host, port, list(allow_hosts))  # a bad --allow-host fails before anything starts
    ocr = ocr or _shared_ocr()
    sessions = {f"phone{i + 1}": PhoneSession(f"phone{i + 1}", device, out_root=Path(out_root),
                                              settle_s=settle, ocr=ocr, seed=seed)
                for i, (device, settle) in enumerate(phones)}
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as exc:
        sock.close()
        raise InputError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.listen(64)
    sock.setblocking(False)
    policy = HostPolicy(host, int(sock.getsockname()[1]), list(allow_hosts))
    return Studio(HostGuard(TokenGuard(build_app(sessions), token), policy), sessions, host, token, sock)
