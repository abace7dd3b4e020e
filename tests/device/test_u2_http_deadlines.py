"""SimPhone's uiautomator HTTP server against clients that promise more than they send: a stalled or short
body, or headers that stop coming, get a 408/400 saying what arrived, in bounded time (not the 300 s idle
timeout); a slow client that keeps sending, and a kept-alive connection that idles, are still served."""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest
from tests.device.adbd_support import Front
from tests.device.u2_raw import open_server, response, rpc

from droidpilot.device.u2 import http as u2_http

PING = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "deviceInfo", "params": []}).encode()


@pytest.fixture
def short_stall(monkeypatch: pytest.MonkeyPatch) -> float:
    """A stall limit short enough for a test (the server reads it per request)."""
    monkeypatch.setattr(u2_http, "REQUEST_STALL", 1.0)
    return 1.0


def head(length: int) -> bytes:
    return (f"POST /jsonrpc/0 HTTP/1.1\r\nHost: 127.0.0.1:9008\r\nContent-Type: application/json\r\n"
            f"Content-Length: {length}\r\n\r\n").encode()


def test_a_body_shorter_than_its_content_length_is_a_408_saying_what_arrived(u2_front: Front,
                                                                            short_stall: float) -> None:
    with open_server(u2_front.port) as s:  # the client's own timeout (20 s) is far below the idle 300 s
        s.sendall(head(len(PING) + 40) + PING)
        status, headers, body = response(s)
        assert status == 408 and headers["connection"] == "close"
        text = body.decode()
        assert f"Content-Length promised {len(PING) + 40} bytes, {len(PING)} arrived" in text
        assert "nothing for 1 s" in text and "Content-Length that matches it" in text
        assert s.recv(1) == b""  # and the connection is closed: its framing is lost


def test_headers_that_stop_coming_are_a_408(u2_front: Front, short_stall: float) -> None:
    with open_server(u2_front.port) as s:
        s.sendall(b"POST /jsonrpc/0 HTTP/1.1\r\nHost: 127.0.0.1:9008\r\n")
        status, _, body = response(s)
        assert status == 408 and b"the request stalled" in body


def test_a_slow_client_that_keeps_sending_is_served(u2_front: Front, short_stall: float) -> None:
    """Near miss: pauses shorter than the stall limit, in headers and body, are no stall."""
    with open_server(u2_front.port) as s:
        message = head(len(PING)) + PING
        for start in range(0, len(message), 25):
            s.sendall(message[start:start + 25])
            time.sleep(0.05)
        status, _, body = response(s)
        assert status == 200 and json.loads(body)["id"] == 7
        assert rpc(s, PING)["id"] == 7  # the connection stays usable


def test_an_idle_kept_alive_connection_is_not_a_stall(u2_front: Front, short_stall: float) -> None:
    """Between requests a connection may idle (up to the idle timeout): only a begun request stalls."""
    with open_server(u2_front.port) as s:
        assert rpc(s, PING)["id"] == 7
        time.sleep(3 * short_stall)
        assert rpc(s, PING)["id"] == 7


def test_a_body_over_its_deadline_is_refused(u2_front: Front, monkeypatch: pytest.MonkeyPatch) -> None:
    """A client dribbling bytes within the stall limit, but past the whole body's deadline."""
    monkeypatch.setattr(u2_http, "BODY_DEADLINE", 0.3)
    with open_server(u2_front.port) as s:
        s.sendall(head(len(PING)) + PING[:5])
        for byte in PING[5:13]:  # 0.8 s of bytes, each well within the stall limit
            s.sendall(bytes([byte]))
            time.sleep(0.1)
        status, _, body = response(s)
        assert status == 408 and b"the body took over 0.3 s" in body


def test_a_body_cut_short_by_the_client_closing_is_a_400() -> None:
    """The handler on a socket pair whose client half-closes after part of the body."""
    ours, theirs = socket.socketpair()
    answered: list[bytes] = []
    worker = threading.Thread(target=u2_http.serve_connection,
                              args=(ours, lambda body: answered.append(body) or {}, lambda: True))
    worker.start()
    try:
        theirs.sendall(head(100) + PING[:10])
        theirs.shutdown(socket.SHUT_WR)
        theirs.settimeout(20)
        status, _, body = response(theirs)
        assert status == 400 and b"ended after 10 of the 100 bytes" in body and not answered
    finally:
        theirs.close()
        worker.join(20)
        ours.close()
