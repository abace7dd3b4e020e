"""A studio request whose Content-Length promises more than it sends is answered 408 with what arrived,
after the stall limit (uvicorn alone waits as long as the connection stays open); a client that pauses
less than that between pieces is answered as usual."""

from __future__ import annotations

import json
import socket
import time
from typing import Any

import pytest

from droidpilot.studio import inputs
from droidpilot.studio.server import Studio

from .raw_http import request

OP = "/api/phones/phone2/op"


@pytest.fixture
def short_stall(monkeypatch: pytest.MonkeyPatch) -> float:
    monkeypatch.setattr(inputs, "REQUEST_STALL", 1.0)
    return 1.0


def _message(answer: Any, status: int) -> str:
    assert answer.status == status, (answer.status, answer.body[:300])
    message = answer.json()["error"]
    assert isinstance(message, str) and "Traceback" not in message
    return message


def test_a_short_body_is_a_408_saying_what_arrived(studio: Studio, short_stall: float) -> None:
    message = _message(request(studio.port, "POST", OP, b'{"client": "c"', declared=100), 408)
    assert "the body stalled: nothing arrived for 1 s after 14 bytes of the 100 bytes Content-Length " \
           "promised" in message and "a Content-Length that matches it" in message


def test_a_body_over_its_deadline_is_a_408(studio: Studio, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(inputs, "BODY_DEADLINE", 0.3)
    message = _message(request(studio.port, "POST", OP, b"{", declared=50), 408)
    assert "the body took over 0.3 s after 1 bytes of the 50 bytes" in message


def test_a_slow_client_that_keeps_sending_is_answered(studio: Studio, short_stall: float) -> None:
    """Near miss: pauses shorter than the stall limit; the answer is about the request, not the pace."""
    body = json.dumps({"client": "slow", "op": "no-such-op"}).encode()
    head = (f"POST {OP} HTTP/1.1\r\nHost: 127.0.0.1:{studio.port}\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", studio.port), timeout=20) as s:
        s.sendall(head)
        for start in range(0, len(body), 8):
            time.sleep(0.05)
            s.sendall(body[start:start + 8])
        data = bytearray()
        while chunk := s.recv(65536):
            data += chunk
    status = int(data.split(b" ", 2)[1])
    assert status != 408 and status < 500, data[:300]
    assert b"stalled" not in data
