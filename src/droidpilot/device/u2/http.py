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
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from typing import Any

log = logging.getLogger(__name__)
IDLE_TIMEOUT = 300.0  # seconds a kept-alive connection may sit idle (the client's own default timeout)
MAX_BODY = 8 * 1024 * 1024
# Once a request began, seconds its next bytes may take: a client whose Content-Length promises more than
# it sends (or that stops mid-headers) is answered 408 then, not waited on for the idle timeout. Loopback
# clients send a request in milliseconds; a slow one that keeps sending is never cut by this.
REQUEST_STALL = 10.0
BODY_DEADLINE = 60.0  # seconds a whole body may take (a client dribbling a byte per stall is refused)


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

    def handle_one_request(self) -> None:
        """Wait for a request as long as a kept-alive connection may idle; once its first byte came, read
        the rest under REQUEST_STALL (see ``_read_body`` for the body) and answer 408 if it stalls."""
        self.connection.settimeout(IDLE_TIMEOUT)
        try:
            began = self.rfile.peek(1)
        except (TimeoutError, OSError):
            began = b""
        if not began:
            self.close_connection = True
            return
        self.request_version, self.requestline, self.command = self.protocol_version, "", ""
        self.connection.settimeout(REQUEST_STALL)
        try:
            self.raw_requestline = self.rfile.readline(65537)
            if len(self.raw_requestline) > 65536:
                self.send_error(414)
                return
            if not self.parse_request():
                return
            method = getattr(self, "do_" + self.command, None)
            if method is None:
                self.send_error(501, f"Unsupported method ({self.command!r})")
                return
            method()
            self.wfile.flush()
        except TimeoutError:
            self._refuse(408, f"the request stalled: nothing more arrived for {REQUEST_STALL:g} s after it "
                              "began; send the request line, headers and body without pausing")

    def _refuse(self, status: int, why: str) -> None:
        """Answer ``status`` saying ``why`` and close: the stream's framing can no longer be trusted."""
        log.debug("u2 http: %s %s", status, why)
        self.close_connection = True
        with contextlib.suppress(OSError):  # a client that already left gets nothing
            self._reply(status, why.encode("utf-8"), "text/plain", close=True)

    def _read_body(self, length: int) -> bytes | None:
        """The ``length`` bytes Content-Length promised, read under REQUEST_STALL per read and BODY_DEADLINE
        in all; None after answering 408 (stalled or too slow) or 400 (the client closed early)."""
        chunks: list[bytes] = []
        got = 0
        deadline = time.monotonic() + BODY_DEADLINE
        while got < length:
            left = deadline - time.monotonic()
            if left <= 0:
                self._refuse(408, f"the body took over {BODY_DEADLINE:g} s: {got} of the {length} bytes "
                                  "Content-Length promised arrived; send it faster or in one piece")
                return None
            self.connection.settimeout(min(REQUEST_STALL, left))
            try:
                chunk = self.rfile.read1(min(length - got, 1 << 16))
            except TimeoutError:
                if time.monotonic() >= deadline:
                    continue  # answered as too slow above
                self._refuse(408, f"the body stalled: Content-Length promised {length} bytes, {got} arrived, "
                                  f"then nothing for {REQUEST_STALL:g} s; send the whole body, or a "
                                  "Content-Length that matches it")
                return None
            if not chunk:
                self._refuse(400, f"the connection ended after {got} of the {length} bytes Content-Length "
                                  "promised; send the whole body, or a Content-Length that matches it")
                return None
            chunks.append(chunk)
            got += len(chunk)
        self.connection.settimeout(IDLE_TIMEOUT)  # answering may take long, and so may a client reading it
        return b"".join(chunks)

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
        body = self._read_body(length)
        if body is None:
            return
        answer = self.rpc(body)
        self._reply(200, json.dumps(answer, ensure_ascii=False).encode("utf-8"), "application/json")

    def _reply(self, status: int, body: bytes, ctype: str, close: bool = False) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype + "; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        if close or not self.alive():
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
