"""The SimPhone adb server: a threaded TCP listener on loopback that speaks the adb server protocol.

Start it with `droidpilot sim serve` or ``AdbServer(devices).start()``; point `adb -P PORT` or adbutils
(``AdbClient(port=PORT)``) at it. One thread per connection; a bad client only ever loses its own one.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import socket
import socketserver
import threading
from collections.abc import Sequence

from droidpilot.device.adbd.phone import Phone
from droidpilot.device.adbd.protocol import Conn, ProtocolError
from droidpilot.device.adbd.services import FEATURES, Services, Session
from droidpilot.device.base import Device, DeviceError
from droidpilot.errors import InputError

log = logging.getLogger(__name__)
REQUEST_TIMEOUT = 120.0  # seconds a client may idle between requests
LISTEN_BACKLOG = 1024  # pending connections the kernel queues (socketserver's default of 5 stalls bursts)


def check_loopback(host: str) -> str:
    """``host`` if it names a loopback address; InputError otherwise (the front is local only)."""
    if host == "localhost":
        return "127.0.0.1"
    try:
        if ipaddress.ip_address(host).is_loopback:
            return host
    except ValueError:
        pass
    raise InputError(f"--host {host!r} is not a loopback address: the SimPhone adb server listens on "
                     "loopback only (use 127.0.0.1 or ::1)")


class _Handler(socketserver.BaseRequestHandler):
    server: _TcpServer

    def handle(self) -> None:
        """Serve one client connection until it closes or a service ends it."""
        sock: socket.socket = self.request
        owner = self.server.owner
        owner._track(sock, True)
        conn = Conn(sock)
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.settimeout(REQUEST_TIMEOUT)
            session = Session()
            while True:
                request = conn.read_request()
                if request is None:
                    break
                log.debug("adb request %r", request)
                if not owner.services.handle(conn, request, session):
                    break
        except ProtocolError as exc:
            log.debug("dropping client: %s", exc)
            with contextlib.suppress(OSError):
                conn.fail(f"protocol fault: {exc}")
        except (OSError, DeviceError) as exc:
            log.debug("client connection ended: %s", exc)
        except Exception:  # one bad request must not take the server down
            log.exception("internal error while serving an adb client")
        finally:
            owner._track(sock, False)
            conn.close()


class _TcpServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    block_on_close = False
    request_queue_size = LISTEN_BACKLOG

    def __init__(self, addr: tuple[str, int], owner: AdbServer) -> None:
        self.owner = owner
        if ":" in addr[0]:
            self.address_family = socket.AF_INET6
        super().__init__(addr, _Handler)


class AdbServer:
    """Serves phones as adb devices ``simphone-1..N`` (or the serials given) on a loopback port.

    ``features`` is what the devices advertise; leave out ``shell_v2`` to act like an old (Android < 7) phone.
    With ``realtime`` each phone's clock also follows the wall clock between requests (toasts fade and
    installs finish while an agent sleeps); without it SimPhone stays deterministic (time moves per event).
    """

    def __init__(self, devices: Sequence[Device], host: str = "127.0.0.1", port: int = 5037, *,
                 allow_kill: bool = False, serials: Sequence[str] | None = None,
                 features: Sequence[str] = FEATURES, realtime: bool = False) -> None:
        self.host = check_loopback(host)
        names = list(serials) if serials else [f"simphone-{i}" for i in range(1, len(devices) + 1)]
        self.phones = [Phone(serial=s, transport_id=i, device=d, realtime=realtime)
                       for i, (s, d) in enumerate(zip(names, devices, strict=True), start=1)]
        self.allow_kill = allow_kill
        self.services = Services(self.phones, lambda: self.allow_kill, self._kill, tuple(features))
        self.services.forwards.host = self.host  # `adb forward` listeners bind where the server does
        self._port = port
        self._tcp: _TcpServer | None = None
        self._thread: threading.Thread | None = None
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self.stopped = threading.Event()

    @property
    def port(self) -> int:
        """The bound port (useful after binding port 0)."""
        return self._tcp.server_address[1] if self._tcp else self._port

    def start(self) -> AdbServer:
        """Bind and serve in a background thread; returns self."""
        try:
            self._tcp = _TcpServer((self.host, self._port), self)
        except OSError as exc:
            raise InputError(f"cannot listen on {self.host}:{self._port}: {exc.strerror or exc} "
                             "(is another adb server running there? pick another --port)") from None
        self._thread = threading.Thread(target=self._tcp.serve_forever, kwargs={"poll_interval": 0.2},
                                        name=f"adbd-{self.port}", daemon=True)
        self._thread.start()
        return self

    def wait(self) -> None:
        """Block until the server stops (host:kill or stop())."""
        while not self.stopped.wait(0.5):
            pass

    def stop(self) -> None:
        """Stop listening and drop every open connection."""
        if self.stopped.is_set():
            return
        self.stopped.set()
        if self._tcp is not None:
            self._tcp.shutdown()
            self._tcp.server_close()
        self.services.forwards.remove_all()
        with self._lock:
            socks = list(self._open)
        for s in socks:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def __enter__(self) -> AdbServer:
        return self.start() if self._tcp is None else self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _kill(self) -> None:
        threading.Thread(target=self.stop, daemon=True).start()

    def _track(self, sock: socket.socket, add: bool) -> None:
        with self._lock:
            (self._open.add if add else self._open.discard)(sock)
