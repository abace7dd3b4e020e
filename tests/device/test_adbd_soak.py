"""Soak: 200 adb clients at once against `droidpilot sim serve`, for a bounded time; every request answered.

Each client holds one connection open (``host:track-devices``) for the whole run and meanwhile sends shell
requests through the real adbutils client. A listen backlog of 5 made part of such a burst wait for SYN
retries (seconds each) and some held connections time out.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import adbutils
import pytest

from droidpilot.device.adbd.server import LISTEN_BACKLOG

CLIENTS = 200
SOAK_SECONDS = 3.0  # how long each client keeps sending requests
CLIENT_TIMEOUT = 30.0  # a request not answered within this counts as lost


@pytest.fixture(scope="module")
def serve_port() -> Iterator[int]:
    cmd = [sys.executable, "-m", "droidpilot", "sim", "serve", "--port", "0", "--devices", "2"]
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        m = re.search(r"127\.0\.0\.1:(\d+)", line)
        assert m, line
        yield int(m.group(1))
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def _read(s: socket.socket, n: int) -> bytes:
    buf = b""
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            raise ConnectionError(f"closed after {len(buf)} of {n} bytes")
        buf += chunk
    return buf


def test_the_listen_backlog_holds_a_burst_of_clients(serve_port: int) -> None:
    out = subprocess.run(["ss", "-ltnH", f"sport = :{serve_port}"], capture_output=True, text=True,
                         check=True).stdout.split()
    assert int(out[2]) >= LISTEN_BACKLOG >= CLIENTS  # Send-Q of a listening socket is its backlog


def test_200_concurrent_clients_get_every_answer(serve_port: int) -> None:
    start = threading.Barrier(CLIENTS, timeout=60)
    answered = [0] * CLIENTS
    errors: list[str] = []

    def client(i: int) -> None:
        try:
            start.wait()
            with socket.create_connection(("127.0.0.1", serve_port), timeout=CLIENT_TIMEOUT) as held:
                held.sendall(b"0012host:track-devices")
                assert _read(held, 4) == b"OKAY"
                listing = _read(held, int(_read(held, 4), 16)).decode()
                assert "simphone-1\tdevice" in listing, listing
                device = adbutils.AdbClient(host="127.0.0.1", port=serve_port,
                                            socket_timeout=CLIENT_TIMEOUT).device(f"simphone-{i % 2 + 1}")
                stop = time.monotonic() + SOAK_SECONDS
                n = 0
                while n == 0 or time.monotonic() < stop:
                    word = f"c{i}-{n}"
                    reply = device.shell(f"echo {word}")
                    assert reply == word, f"{word!r} answered {reply!r}"
                    answered[i] += 1
                    n += 1
                held.sendall(b"")  # still open: the server kept the held connection all along
        except Exception as exc:  # collected, so one failure does not hide the others
            errors.append(f"client {i}: {type(exc).__name__}: {exc}")

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=SOAK_SECONDS + 2 * CLIENT_TIMEOUT + 60)
    assert not any(t.is_alive() for t in threads), "a client hung"
    assert errors == [], f"{len(errors)} of {CLIENTS} clients lost requests: {errors[:5]}"
    assert all(answered)
