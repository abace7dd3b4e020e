"""Framing of the adb server protocol: 4-hex-digit length requests, OKAY/FAIL replies, shell v2 packets.

A client sends ``%04x`` + service; the server answers ``OKAY`` (then data) or ``FAIL`` + ``%04x`` + message.
After a ``shell,v2`` service both sides exchange packets of ``id (1 byte) + length (u32 LE) + data``.
"""

from __future__ import annotations

import socket
import struct

OKAY = b"OKAY"
FAIL = b"FAIL"
MAX_BLOCK = 0xFFFF  # the most a %04x length prefix can say
MAX_REQUEST = 64 * 1024  # longer requests are garbage (the real server's limit is MAX_PAYLOAD, 1 MiB)
# Seconds the rest of a request may take once its first byte came (a client waits as long as it likes
# between requests): a length prefix that promises more than is sent is a protocol fault then.
REQUEST_STALL = 10.0

# shell v2 packet ids
STDIN, STDOUT, STDERR, EXIT, CLOSE_STDIN, WINDOW_SIZE = 0, 1, 2, 3, 4, 5


class ProtocolError(Exception):
    """The peer sent something that is not the adb protocol, or went away mid-message."""


class Conn:
    """A client connection with exact reads and the reply helpers the services need."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def read_exact(self, n: int) -> bytes:
        """Exactly ``n`` bytes; ProtocolError if the peer closes first."""
        buf = bytearray()
        while len(buf) < n:
            chunk = self.sock.recv(min(n - len(buf), 1 << 20))
            if not chunk:
                raise ProtocolError(f"connection closed after {len(buf)} of {n} bytes")
            buf.extend(chunk)
        return bytes(buf)

    def read_request(self) -> str | None:
        """One ``%04x``-framed service request, or None when the client closed cleanly before sending.
        Once it began, the rest must come within REQUEST_STALL, else a ProtocolError saying it stalled."""
        first = self.sock.recv(4)
        if not first:
            return None
        idle = self.sock.gettimeout()
        self.sock.settimeout(REQUEST_STALL if idle is None else min(idle, REQUEST_STALL))
        try:
            return self._rest_of_request(bytearray(first))
        except TimeoutError:
            raise ProtocolError(f"the request stalled: nothing more arrived for {REQUEST_STALL:g} s after it "
                                "began; send the length prefix and the whole service name together") from None
        finally:
            self.sock.settimeout(idle)

    def _rest_of_request(self, head: bytearray) -> str:
        while len(head) < 4:
            chunk = self.sock.recv(4 - len(head))
            if not chunk:
                raise ProtocolError("connection closed inside a request header")
            head.extend(chunk)
        try:
            length = int(head.decode("ascii"), 16)
        except (UnicodeDecodeError, ValueError):
            raise ProtocolError(f"bad request length {bytes(head)!r}") from None
        if length <= 0 or length > MAX_REQUEST:
            raise ProtocolError(f"request length {length} out of range")
        try:
            return self.read_exact(length).decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("request is not UTF-8") from None

    def send(self, data: bytes) -> None:
        """Send all of ``data``."""
        self.sock.sendall(data)

    def okay(self, payload: bytes | str | None = None) -> None:
        """OKAY, followed by a length-prefixed block when ``payload`` is given."""
        self.send(OKAY + (block(payload) if payload is not None else b""))

    def fail(self, message: str) -> None:
        """FAIL with the reason, as the real server reports errors (the client prints the text)."""
        self.send(FAIL + block(fit_block(message)))

    def close(self) -> None:
        """Half-close, drain what the client still sends (so no RST eats our last bytes), then close."""
        try:
            self.sock.shutdown(socket.SHUT_WR)
            self.sock.settimeout(2.0)
            while self.sock.recv(65536):
                pass
        except OSError:
            pass
        finally:
            self.sock.close()


def block(payload: bytes | str) -> bytes:
    """A ``%04x`` length prefix and the payload (text is UTF-8)."""
    data = payload.encode("utf-8") if isinstance(payload, str) else payload
    return b"%04x" % len(data) + data


def fit_block(message: str, limit: int = MAX_BLOCK) -> bytes:
    """``message`` as UTF-8, cut (on a character boundary, marked ``...``) to fit a ``%04x`` length."""
    data = message.encode("utf-8")
    if len(data) <= limit:
        return data
    return data[:limit - 3].decode("utf-8", "ignore").encode("utf-8") + b"..."


def packet(kind: int, data: bytes) -> bytes:
    """One shell v2 packet."""
    return struct.pack("<BI", kind, len(data)) + data


def shell_v2_reply(stdout: bytes, stderr: bytes, code: int, chunk: int = 256 * 1024) -> bytes:
    """The packets a shell v2 session sends for a finished command: output, errors, then the exit code."""
    out = bytearray()
    for kind, data in ((STDOUT, stdout), (STDERR, stderr)):
        for i in range(0, len(data), chunk):
            out += packet(kind, data[i:i + chunk])
    out += packet(EXIT, bytes([code & 0xFF]))
    return bytes(out)
