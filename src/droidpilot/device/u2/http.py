"""HTTP/1.1 over one connection to the server's port: ``GET /ping`` and ``POST /jsonrpc/0``.

The connection arrives already accepted (through the ADB front's ``tcp:PORT`` service or a host forward),
so the standard library's request handler runs on it directly; keep-alive is honoured until the client
closes or the server stops.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import select
import socket
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from typing import Any

log = logging.getLogger(__name__)
IDLE_TIMEOUT = 300.0  # seconds a kept-alive connection may sit idle (the client's own default timeout)
MAX_BODY = 8 * 1024 * 1024


class _QuickAckReader(io.RawIOBase):
    """Reads the socket acknowledging every segment at once (Linux TCP_QUICKACK before each read).

    http.client sends a request's headers and its body as two writes; with Nagle on the client's side the
    body waits for the ACK of the headers, which a delayed ACK holds back ~40 ms per call.
    """

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def readable(self) -> bool:
        return True

    def readinto(self, buf: memoryview) -> int:  # type: ignore[override]
        with contextlib.suppress(OSError, AttributeError):
            self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)  # type: ignore[attr-defined]
        return self.sock.recv_into(buf)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "SimPhone-uiautomator/1.0"
    timeout = IDLE_TIMEOUT
    rpc: Callable[[bytes], dict[str, Any]]
    alive: Callable[[], bool]

    def setup(self) -> None:
        super().setup()
        self.rfile = io.BufferedReader(_QuickAckReader(self.connection))

    def do_GET(self) -> None:
        if self.path.split("?")[0] == "/ping":
            self._reply(200, b"pong", "text/plain")
        else:
            self._reply(404, b"Not Found", "text/plain")

    def do_POST(self) -> None:
        if self.path.split("?")[0] != "/jsonrpc/0":
            self._reply(404, b"Not Found", "text/plain")
            return
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            length = -1
        if not 0 <= length <= MAX_BODY:
            self._reply(400, b"bad Content-Length", "text/plain")
            return
        body = self.rfile.read(length)
        answer = self.rpc(body)
        self._reply(200, json.dumps(answer, ensure_ascii=False).encode("utf-8"), "application/json")

    def _reply(self, status: int, body: bytes, ctype: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype + "; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        if not self.alive():
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("u2 http: " + format, *args)


def serve_connection(sock: socket.socket, rpc: Callable[[bytes], dict[str, Any]],
                     alive: Callable[[], bool]) -> None:
    """Answer HTTP requests on ``sock`` until the client closes it (or the server has stopped)."""
    handler = type("Handler", (_Handler,), {"rpc": staticmethod(rpc), "alive": staticmethod(alive)})
    try:
        handler(sock, ("simphone", 0), None)  # type: ignore[arg-type]
    except (OSError, ValueError) as exc:
        log.debug("u2 connection ended: %s", exc)


def client_gone(sock: socket.socket) -> bool:
    """Whether the peer closed ``sock`` (readable with nothing to read), without consuming data."""
    try:
        readable, _, _ = select.select([sock], [], [], 0)
        if not readable:
            return False
        return sock.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):
        return True
