"""Raw HTTP to SimPhone's uiautomator server through the ADB front, the way the client reaches it
(``host:transport:SERIAL`` then ``tcp:9008``), so tests can send bodies no client would."""

from __future__ import annotations

import json
import math
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.device.adbd_support import Front, read_exact, running_front

from droidpilot.device.u2.server import start_server

PORT = 9008


@contextmanager
def running_u2_front() -> Iterator[Front]:
    """One SimPhone behind the ADB front, its uiautomator server listening on the phone's tcp:9008."""
    with running_front(1) as front:
        stop = start_server(front.server.phones[0], PORT)
        try:
            yield front
        finally:
            stop()


def _adb(s: socket.socket, request: str) -> None:
    data = request.encode()
    s.sendall(b"%04x" % len(data) + data)
    assert read_exact(s, 4) == b"OKAY", request


def open_server(front_port: int, serial: str = "simphone-1", timeout: float = 20.0) -> socket.socket:
    """A connection to the phone's tcp:9008 through the front."""
    s = socket.create_connection(("127.0.0.1", front_port), timeout=timeout)
    _adb(s, f"host:transport:{serial}")
    _adb(s, f"tcp:{PORT}")
    return s


def http(s: socket.socket, method: str, target: str, body: bytes = b"",
         headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """One request on a kept-alive connection: (status, headers, body)."""
    lines = [f"{method} {target} HTTP/1.1", "Host: 127.0.0.1:9008", f"Content-Length: {len(body)}"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    s.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
    return response(s, head_only=method == "HEAD")


def response(s: socket.socket, head_only: bool = False) -> tuple[int, dict[str, str], bytes]:
    """Read one HTTP response: (status, headers with lower-case names, body); ``head_only`` for an
    answer to HEAD (headers only). ConnectionError if the server closes before the headers end."""
    head = bytearray()
    while not head.endswith(b"\r\n\r\n"):
        chunk = s.recv(1)
        if not chunk:
            raise ConnectionError(f"the server closed the connection after {bytes(head)!r}")
        head += chunk
    status_line, *rest = head.decode("latin-1").rstrip("\r\n").split("\r\n")
    parsed = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in rest)}
    length = 0 if head_only else int(parsed.get("content-length", "0"))
    return int(status_line.split(" ")[1]), parsed, read_exact(s, length)


def rpc(s: socket.socket, body: bytes | dict[str, Any]) -> dict[str, Any]:
    """POST a JSON-RPC body (a dict is encoded); the parsed answer, which must be a 200 JSON object."""
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    status, headers, answer = http(s, "POST", "/jsonrpc/0", raw, {"Content-Type": "application/json"})
    assert status == 200 and headers["content-type"].startswith("application/json"), (status, answer[:200])
    parsed = json.loads(answer)
    assert isinstance(parsed, dict) and parsed.get("jsonrpc") == "2.0"
    return parsed


_INF = {"\x01+inf\x01": "1e400", "\x01-inf\x01": "-1e400"}


def _marked(value: Any) -> Any:
    if isinstance(value, float) and math.isinf(value):
        return "\x01+inf\x01" if value > 0 else "\x01-inf\x01"
    if isinstance(value, dict):
        return {k: _marked(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_marked(v) for v in value]
    return value


def dumps(doc: Any) -> str:
    """JSON text of ``doc`` where an infinite float is written ``1e400`` (a JSON number that overflows a
    double), since JSON has no Infinity."""
    text = json.dumps(_marked(doc))
    for marker, number in _INF.items():
        text = text.replace(json.dumps(marker), number)
    return text


def call(s: socket.socket, method: str, *params: Any, req_id: Any = 1) -> dict[str, Any]:
    """A JSON-RPC call with positional params (infinite floats sent as ``1e400``)."""
    return rpc(s, dumps({"jsonrpc": "2.0", "id": req_id, "method": method, "params": list(params)}).encode())
