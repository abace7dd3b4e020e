"""TCP ports listening "on the phone": what the ``tcp:PORT`` device service and host forwards connect to.

A program started on the phone (the uiautomator server that ``app_process`` runs) listens on a port by
registering a handler here; each connection a client opens to that port is handed to the handler as a
plain byte stream, exactly as adbd hands a device socket to the client after ``OKAY``.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable

Handler = Callable[[socket.socket], None]
"""Serves one accepted connection until it is done (the caller closes the socket afterwards)."""


class PortInUse(Exception):
    """Another program on the phone already listens on that port."""


class PortTable:
    """The phone's listening TCP ports, each with the handler that serves its connections."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._handlers: dict[int, Handler] = {}

    def listen(self, port: int, handler: Handler) -> None:
        """Start serving ``port`` with ``handler``; PortInUse if something already listens there."""
        with self._lock:
            if port in self._handlers:
                raise PortInUse(f"bind failed: EADDRINUSE (Address already in use): port {port}")
            self._handlers[port] = handler

    def close(self, port: int, handler: Handler) -> None:
        """Stop listening on ``port`` (only if ``handler`` is still the one listening there)."""
        with self._lock:
            if self._handlers.get(port) == handler:  # bound methods are equal, never identical
                del self._handlers[port]

    def handler(self, port: int) -> Handler | None:
        """What serves ``port`` now, or None when nothing listens there."""
        with self._lock:
            return self._handlers.get(port)

    def listening(self) -> list[int]:
        """The ports something listens on, ascending."""
        with self._lock:
            return sorted(self._handlers)


def parse_tcp(spec: str) -> int:
    """The port of a ``tcp:PORT`` (or ``tcp:localhost:PORT``) address; ValueError when it is not one."""
    if not spec.startswith("tcp:"):
        raise ValueError(f"'{spec}' is not a tcp:PORT address")
    rest = spec[4:]
    host, _, port_text = rest.rpartition(":")
    if host not in ("", "localhost", "127.0.0.1"):
        raise ValueError(f"'{spec}': SimPhone only reaches ports on the phone itself (localhost)")
    if not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(f"'{spec}': the port must be a number from 1 to 65535")
    return int(port_text)
