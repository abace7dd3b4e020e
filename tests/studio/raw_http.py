"""HTTP/1.1 over a raw socket, so tests can send what no polite client would: any Host, no Host, NUL bytes
and odd methods. One request per connection (``Connection: close``); the answer is read to EOF."""

from __future__ import annotations

import json
import socket
from dataclasses import dataclass
from typing import Any


@dataclass
class Answer:
    """A parsed HTTP response."""

    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        assert self.headers.get("content-type", "").startswith("application/json"), (self.status, self.body)
        return json.loads(self.body)


def _unchunk(data: bytes) -> bytes:
    out = bytearray()
    while data:
        size_line, _, data = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out += data[:size]
        data = data[size + 2:]
    return bytes(out)


def request(port: int, method: str, target: str, body: bytes | None = None, *,
            host: str | None = "", headers: dict[str, str] | None = None, timeout: float = 20.0,
            version: str = "1.1", declared: int | None = None, raw_tail: bytes = b"") -> Answer:
    """Send one request to 127.0.0.1:``port``; ``host=""`` sends ``Host: 127.0.0.1:port``, None none;
    ``declared`` is a Content-Length to claim instead of the body's (the body is sent as it is);
    ``raw_tail`` goes out after the head as it is (a chunked body)."""
    lines = [f"{method} {target} HTTP/{version}"]
    if host is not None:
        lines.append(f"Host: {host or f'127.0.0.1:{port}'}")
    lines.append("Connection: close")
    extra = dict(headers or {})
    if body is not None:
        extra.setdefault("Content-Type", "application/json")
        extra["Content-Length"] = str(len(body) if declared is None else declared)
    lines += [f"{k}: {v}" for k, v in extra.items()]
    head = ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8")
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(head + (body or b"") + raw_tail)
        data = bytearray()
        while chunk := s.recv(65536):
            data += chunk
    top, _, rest = bytes(data).partition(b"\r\n\r\n")
    status_line, *header_lines = top.decode("latin-1").split("\r\n")
    parsed = {}
    for line in header_lines:
        key, _, value = line.partition(":")
        parsed[key.strip().lower()] = value.strip()
    if parsed.get("transfer-encoding") == "chunked":
        rest = _unchunk(rest)
    return Answer(int(status_line.split(" ")[1]), parsed, rest)


def post(port: int, target: str, data: Any, **kwargs: Any) -> Answer:
    """POST ``data`` as JSON."""
    return request(port, "POST", target, json.dumps(data).encode("utf-8"), **kwargs)
