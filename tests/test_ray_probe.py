"""``--ray ADDRESS`` is checked (HOST:PORT, a port from 1 to 65535) before anything starts, and must answer
as a gRPC server within DROIDPILOT_RAY_TIMEOUT seconds: a refused port, a port that accepts and stays
silent, and one that answers in another protocol each end in an error naming the address, instead of
Ray's own retries that went on past 300 s. Servers here listen on 127.0.0.1 only and stop by themselves."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from droidpilot.errors import DroidpilotError, InputError
from droidpilot.ray_env import TIMEOUT_ENV, check_address, connect_timeout, probe, split_address


@pytest.mark.parametrize(("address", "host", "port"), [
    ("127.0.0.1:6379", "127.0.0.1", 6379),
    ("ray://head.local:10001", "head.local", 10001),
    ("[::1]:6379", "::1", 6379),
    ("localhost:65535", "localhost", 65535),
    ("h:1", "h", 1),
])
def test_right_addresses_split(address: str, host: str, port: int) -> None:
    assert split_address(address) == (host, port) and check_address(f" {address} ") == address


@pytest.mark.parametrize(("address", "message"), [
    ("127.0.0.1:99999", "the port 99999 is not from 1 to 65535"),
    ("127.0.0.1:0", "the port 0 is not from 1 to 65535"),
    ("127.0.0.1:65536", "the port 65536 is not from 1 to 65535"),
    ("127.0.0.1:", "the port '' is not a number"),
    ("127.0.0.1:-1", "the port '-1' is not a number"),
    ("127.0.0.1:６３７９", "is not a number"),  # full-width digits: isdigit() but not ASCII
    (":6379", "not HOST:PORT"),
    ("headnode", "not HOST:PORT"),
    ("ray://", "not HOST:PORT"),
    ("user@host:6379", "not HOST:PORT"),
    ("fe80::1::2:6379", "not HOST:PORT"),
])
def test_near_miss_addresses_are_refused(address: str, message: str) -> None:
    with pytest.raises(InputError, match="--ray") as caught:
        check_address(address)
    assert message in str(caught.value)


def test_the_timeout_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(TIMEOUT_ENV, raising=False)
    assert connect_timeout() == 30.0
    monkeypatch.setenv(TIMEOUT_ENV, "2.5")
    assert connect_timeout() == 2.5
    for bad in ("abc", "0", "nan", "601"):
        monkeypatch.setenv(TIMEOUT_ENV, bad)
        with pytest.raises(InputError, match=f"{TIMEOUT_ENV}="):
            connect_timeout()


@contextmanager
def _server(reply: bytes | None) -> Iterator[str]:
    """A loopback TCP server for one test: answers each connection with ``reply`` (None: says nothing
    and holds the connection until the test ends)."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    srv.settimeout(0.2)
    stop = threading.Event()
    held: list[socket.socket] = []

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = srv.accept()
            except OSError:
                continue
            held.append(conn)
            if reply is not None:
                conn.sendall(reply)
                conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{srv.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(timeout=5)
        for conn in held:
            conn.close()
        srv.close()


def _closed_port() -> str:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    return f"127.0.0.1:{port}"


def test_a_refused_port_is_named() -> None:
    address = _closed_port()
    with pytest.raises(DroidpilotError, match=f"--ray {address}: cannot reach a Ray head .Connection "
                                              "refused"):
        probe(address, 5)


def test_a_silent_port_gives_up_after_the_timeout() -> None:
    with _server(None) as address, pytest.raises(DroidpilotError) as caught:
        probe(address, 0.3)
    assert f"--ray {address}: no answer from a Ray head within 0.3 s (set {TIMEOUT_ENV}" in str(caught.value)


GOAWAY = b"\x00\x00\x00\x07\x00\x00\x00\x00\x00"


@pytest.mark.parametrize("reply", [b"HTTP/1.1 400 Bad Request\r\n\r\n", GOAWAY])
def test_another_protocol_is_not_a_ray_head(reply: bytes) -> None:
    """An HTTP/1 server, and an HTTP/2 frame that is not SETTINGS (GOAWAY: a near miss)."""
    with _server(reply) as address, pytest.raises(DroidpilotError, match=r"not a Ray head \(no gRPC reply"):
        probe(address, 5)


def test_a_grpc_style_answer_passes_the_probe() -> None:
    """The first bytes of a gRPC server (an HTTP/2 SETTINGS frame); the real Ray head is in
    tests/bench/test_ray_runner.py, whose CLI test goes through this probe."""
    with _server(b"\x00\x00\x06\x04\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x64") as address:
        probe(address, 5)


def test_bench_with_a_silent_ray_address_ends_with_a_clear_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with _server(None) as address:
        done = subprocess.run([sys.executable, "-m", "droidpilot", "bench", "--brain", "reference", "--tasks",
                               "music-3", "--no-report", "--out", str(tmp_path / "out"), "--ray", address],
                              capture_output=True, text=True, timeout=120,
                              env={**os.environ, TIMEOUT_ENV: "0.5", "COLUMNS": "200"})
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"--ray {address}: no answer from a Ray head within 0.5 s" in " ".join(done.stderr.split())
    assert "Traceback" not in done.stderr
