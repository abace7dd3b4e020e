"""Raw HTTP to SimPhone's uiautomator server through the ADB front, the way the client reaches it
(``host:transport:SERIAL`` then ``tcp:9008``), so tests can send bodies no client would."""

from __future__ import annotations

import json
import math
import socket
from typing import Any

from tests.device.adbd_support import read_exact

PORT = 9008


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
    head = bytearray()
    while not head.endswith(b"\r\n\r\n"):
        chunk = s.recv(1)
        if not chunk:
            raise ConnectionError(f"the server closed the connection after {bytes(head)!r}")
        head += chunk
    status_line, *rest = head.decode("latin-1").rstrip("\r\n").split("\r\n")
    parsed = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in rest)}
    length = 0 if method == "HEAD" else int(parsed.get("content-length", "0"))  # HEAD: headers only
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
