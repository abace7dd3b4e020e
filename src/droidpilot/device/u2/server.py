"""Start and stop SimPhone's uiautomator server on a phone port; what `app_process` runs.

``start_server(phone, 9008)`` makes the phone listen on tcp:9008 (through the ADB front's port table);
every connection is served as HTTP with the JSON-RPC methods of ``methods_device`` and ``methods_object``.
The returned function stops it (the shell that ran app_process hung up).
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from typing import Any

from droidpilot.device.adbd.phone import Phone
from droidpilot.device.u2 import rpc
from droidpilot.device.u2.http import client_gone, serve_connection
from droidpilot.device.u2.methods_device import device_methods
from droidpilot.device.u2.methods_gesture import gesture_methods
from droidpilot.device.u2.methods_object import object_methods
from droidpilot.device.u2.session import Session


class U2Server:
    """One uiautomator server process on one phone."""

    def __init__(self, phone: Phone, port: int) -> None:
        self.phone = phone
        self.port = port
        self.session = Session(phone)
        self.methods = {**device_methods(self.session), **object_methods(self.session),
                        **gesture_methods(self.session)}
        self.stopped = threading.Event()
        self._local = threading.local()
        self.session.cancelled = self._cancelled

    def serve(self, sock: socket.socket) -> None:
        """Serve one connection (the port table's handler)."""
        sock.settimeout(None)

        def call(body: bytes) -> dict[str, Any]:
            self._local.sock = sock
            return rpc.handle(body, self.methods)

        serve_connection(sock, call, lambda: not self.stopped.is_set())

    def _cancelled(self) -> bool:
        sock = getattr(self._local, "sock", None)
        return self.stopped.is_set() or (sock is not None and client_gone(sock))

    def stop(self) -> None:
        """Stop listening; connections in flight finish their request and close."""
        self.stopped.set()
        self.phone.ports.close(self.port, self.serve)


def start_server(phone: Phone, port: int) -> Callable[[], None]:
    """Listen on ``port`` of ``phone`` (PortInUse if taken); returns the function that stops the server."""
    server = U2Server(phone, port)
    phone.ports.listen(port, server.serve)
    return server.stop
