"""Fuzzing the ADB front (hypothesis, bounded): request framing, the sync parser, the shell parser and the
live server. Whatever arrives, the front answers in its framing or reports a ProtocolError; it never
raises anything else and keeps serving the next client."""

from __future__ import annotations

import socket
import struct
import threading
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.device.adbd_support import Front, read_exact, running_front
from tests.support.hypothesis_profiles import examples

from droidpilot.device.adbd.protocol import MAX_BLOCK, Conn, ProtocolError
from droidpilot.device.adbd.shparse import ShSyntaxError, parse
from droidpilot.device.adbd.sync import serve_sync
from droidpilot.device.adbd.vfs import Vfs

BOUNDED = settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _feed(data: bytes) -> tuple[Conn, socket.socket]:
    """A Conn whose peer has sent ``data`` and closed its side; the peer socket drains the replies."""
    server, client = socket.socketpair()
    server.settimeout(10)
    client.sendall(data)
    client.shutdown(socket.SHUT_WR)
    return Conn(server), client


def _drain(sock: socket.socket, into: bytearray) -> threading.Thread:
    def run() -> None:
        try:
            while chunk := sock.recv(65536):
                into.extend(chunk)
        except ConnectionResetError:  # the server closed with unread input: a reset, not a fault
            pass

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


@BOUNDED
@given(st.binary(max_size=300))
def test_request_framing_reads_a_request_or_reports_a_protocol_error(data: bytes) -> None:
    conn, client = _feed(data)
    try:
        while True:
            request = conn.read_request()
            if request is None:
                break
            assert 0 < len(request.encode("utf-8")) <= 64 * 1024
    except ProtocolError:
        pass
    finally:
        conn.sock.close()
        client.close()


SYNC_IDS = [b"STAT", b"STA2", b"LST2", b"LIST", b"LIS2", b"RECV", b"SEND", b"SEND", b"SEND", b"DATA", b"DONE",
            b"QUIT", b"XXXX"]  # SEND thrice: uploads have the most to parse
PATHS = st.one_of(st.sampled_from(["/sdcard", "/sdcard/Download/f.txt", "/", "/nowhere", ""]),
                  st.text(max_size=40))
MODES = st.one_of(st.integers(min_value=0, max_value=0o177777).map(str),
                  st.integers(min_value=-(2**70), max_value=2**70).map(str), st.text(max_size=12))


@st.composite
def sync_packets(draw: st.DrawFn) -> bytes:
    out = bytearray()
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(SYNC_IDS))
        if kind == b"SEND":
            body = f"{draw(PATHS)},{draw(MODES)}".encode()
        elif kind == b"DATA":
            body = draw(st.binary(max_size=64))
        else:
            body = draw(PATHS).encode()
        length = draw(st.one_of(st.just(len(body)), st.just(len(body)), st.integers(0, 2**32 - 1)))
        out += kind + struct.pack("<I", length) + body
        if kind == b"SEND" and draw(st.integers(0, 3)):  # mostly a whole upload: data chunks, then DONE
            for chunk in draw(st.lists(st.binary(max_size=32), max_size=2)):
                out += b"DATA" + struct.pack("<I", len(chunk)) + chunk
            out += b"DONE" + struct.pack("<I", draw(st.integers(0, 2**32 - 1)))
    return bytes(out)


@BOUNDED
@given(sync_packets())
def test_the_sync_parser_answers_or_stops_cleanly(data: bytes) -> None:
    conn, client = _feed(data)
    replies = bytearray()
    drain = _drain(client, replies)
    try:
        serve_sync(conn, Vfs(capacity=1 << 20))
    except ProtocolError:
        pass
    finally:
        conn.sock.shutdown(socket.SHUT_RDWR)
        conn.sock.close()
        drain.join(timeout=10)
        client.close()
    assert not drain.is_alive()


@BOUNDED
@given(st.text(alphabet=st.sampled_from(list("$()`'\"\\;|&<> \nab1{}*?#=")), max_size=200))
def test_the_shell_parser_parses_or_reports_a_syntax_error(line: str) -> None:
    try:
        script = parse(line)
    except ShSyntaxError as exc:
        assert str(exc)  # says which token was unexpected
    else:
        assert all(connector in (";", "&&", "||") for connector, _ in script)


@pytest.fixture(scope="module")
def front() -> Iterator[Front]:
    with running_front(1) as f:
        yield f


PREFIXES = ["host:", "host-serial:simphone-1:", "host:transport:", "host:tport:serial:", "host-local:",
            "host:transport-id:", "sync:", "tport:", ""]


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PREFIXES), st.text(min_size=0, max_size=80).filter(lambda t: "kill" not in t))
def test_the_live_server_frames_every_reply_and_keeps_serving(front: Front, prefix: str, rest: str) -> None:
    request = (prefix + rest).encode("utf-8")
    if not request or len(request) > 0xFFFF:
        return
    with socket.create_connection(("127.0.0.1", front.port), timeout=10) as s:
        s.sendall(b"%04x" % len(request) + request)
        head = read_exact(s, 4, partial=True)
        if head == b"FAIL":
            size = read_exact(s, 4, partial=True)
            assert len(size) == 4 and int(size, 16) <= MAX_BLOCK
            assert len(read_exact(s, int(size, 16), partial=True)) == int(size, 16)
        else:
            assert head in (b"OKAY", b""), head
    with socket.create_connection(("127.0.0.1", front.port), timeout=10) as s:
        s.sendall(b"000chost:version")
        assert read_exact(s, 12, partial=True) == b"OKAY00040029"
