"""DNS rebinding: the studio answers only to its own names (Host, and Origin when sent), with a JSON 403
saying what was refused and how to allow it; checked with raw HTTP against real servers on loopback."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from droidpilot.errors import InputError
from droidpilot.studio.hosts import HostPolicy, split_host
from droidpilot.studio.server import Studio, create_studio, make_phones

from .raw_http import post, request


def test_a_rebound_name_is_refused_on_every_route(studio: Studio) -> None:
    port = studio.port
    evil = f"evil.example:{port}"
    for answer in (request(port, "GET", "/api/phones", host=evil),
                   post(port, "/api/review/open", {"path": "/tmp"}, host=evil),
                   post(port, "/api/phones/phone2/control", {"client": "x"}, host=evil),
                   request(port, "GET", "/", host=evil), request(port, "GET", "/static/phone.js", host=evil)):
        assert answer.status == 403
        message = answer.json()["error"]
        assert f"host 'evil.example:{port}'" in message and "DNS rebinding" in message
        assert "--allow-host" in message and f"localhost on port {port}" in message


@pytest.mark.parametrize("host", ["localhost:{port}", "127.0.0.1:{port}", "[::1]:{port}", "LOCALHOST:{port}",
                                  "localhost.:{port}"])
def test_its_own_names_are_served(studio: Studio, host: str) -> None:
    answer = request(studio.port, "GET", "/api/phones", host=host.format(port=studio.port))
    assert answer.status == 200 and answer.json()["phones"][0]["id"] == "phone1"


@pytest.mark.parametrize("host", [
    "localhost:{other}", "localhost", "127.0.0.1", "127.0.0.1.evil.example:{port}",
    "localhost.evil.example:{port}", "evil.example", "localhost:{port}@evil.example", "[::1]x:{port}",
    "localhost:0{port}0",
    "localhost:{port}:{port}", " ", "evil.example:{port}\u00e9"])
def test_near_misses_of_its_own_names_are_refused(studio: Studio, host: str) -> None:
    value = host.format(port=studio.port, other=studio.port + 1 if studio.port < 65535 else 1)
    answer = request(studio.port, "GET", "/api/phones", host=value)
    assert answer.status in (400, 403), answer  # 400: uvicorn refuses a header it cannot parse
    if answer.status == 403:
        assert "refused a request for host" in answer.json()["error"]


def test_a_request_without_host_is_refused(studio: Studio) -> None:
    assert request(studio.port, "GET", "/api/phones", host=None).status == 400  # HTTP/1.1 needs a Host
    answer = request(studio.port, "GET", "/api/phones", host=None, version="1.0")
    assert answer.status == 403 and "no Host header" in answer.json()["error"]


def test_a_foreign_origin_is_refused_and_the_own_origin_served(studio: Studio) -> None:
    port = studio.port
    refused = post(port, "/api/review/open", {"path": "/tmp"}, headers={"Origin": "http://evil.example"})
    assert refused.status == 403 and "origin 'http://evil.example'" in refused.json()["error"]
    for origin in ("null", f"ftp://localhost:{port}", f"http://localhost:{port + 1}", "http://localhost"):
        assert request(port, "GET", "/api/phones", headers={"Origin": origin}).status == 403, origin
    for origin in (f"http://localhost:{port}", f"http://127.0.0.1:{port}", f"http://[::1]:{port}"):
        assert request(port, "GET", "/api/phones", headers={"Origin": origin}).status == 200, origin


def _ws(port: int, name: str = "127.0.0.1", **kwargs: Any) -> Any:
    """A WebSocket to the studio on loopback whose handshake names ``name`` as its host."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    return connect(f"ws://{name}:{port}/ws/phones/phone1", sock=sock, open_timeout=10, **kwargs)


def test_websockets_check_host_and_origin(studio: Studio) -> None:
    port = studio.port
    for kwargs in ({"origin": f"http://evil.example:{port}"}, {"name": "evil.example"}):
        with pytest.raises(InvalidStatus, match="HTTP 403") as refused, _ws(port, **kwargs):
            pass
        assert "--allow-host" in json.loads(refused.value.response.body)["error"]
    with _ws(port, origin=f"http://localhost:{port}") as ws:  # type: ignore[arg-type]
        assert json.loads(ws.recv(timeout=10))["type"] == "hello"


@pytest.fixture(scope="module")
def behind_a_proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Studio]:
    server = create_studio(make_phones(1), out_root=tmp_path_factory.mktemp("proxy"),
                           allow_hosts=["studio.test", "proxy.test:8443", "[fd00::1]:9000"]).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.parametrize(("host", "status"), [
    ("studio.test", 200), ("studio.test:1234", 200), ("Studio.Test:443", 200), ("proxy.test:8443", 200),
    ("[fd00::1]:9000", 200), ("proxy.test:8444", 403), ("proxy.test", 403), ("[fd00::1]:9001", 403),
    ("sub.studio.test", 403), ("studio.test.evil.example", 403),
])
def test_allowed_names_behind_a_proxy(behind_a_proxy: Studio, host: str, status: int) -> None:
    answer = request(behind_a_proxy.port, "GET", "/api/phones", host=host)
    assert answer.status == status
    if status == 403:
        assert "studio.test" in answer.json()["error"] and "proxy.test:8443" in answer.json()["error"]


@pytest.mark.parametrize(("origin", "status"), [
    ("https://studio.test", 200), ("http://studio.test:8080", 200), ("https://proxy.test:8443", 200),
    ("https://proxy.test", 403), ("http://proxy.test:8443.evil.example", 403),
])
def test_allowed_origins_behind_a_proxy(behind_a_proxy: Studio, origin: str, status: int) -> None:
    assert request(behind_a_proxy.port, "GET", "/api/phones", headers={"Origin": origin}).status == status


def test_bound_to_every_address_any_ip_literal_is_served_but_names_are_not(tmp_path: Path) -> None:
    exposed = create_studio(make_phones(1), host="0.0.0.0", explicit_host=True, out_root=tmp_path).start()
    try:
        bearer, port = {"Authorization": f"Bearer {exposed.token}"}, exposed.port
        for host in (f"192.0.2.7:{port}", f"[2001:db8::7]:{port}", f"localhost:{port}"):
            assert request(port, "GET", "/api/phones", host=host, headers=bearer).status == 200
        refused = request(port, "GET", "/api/phones", host=f"evil.example:{port}", headers=bearer)
        assert refused.status == 403 and "or any IP address" in refused.json()["error"]
    finally:
        exposed.stop()


@pytest.mark.parametrize(("value", "expected"), [
    ("localhost:8765", ("localhost", 8765)), ("LocalHost", ("localhost", 80)), ("[::1]:1", ("::1", 1)),
    ("a.b.:5", ("a.b", 5)), ("[::1]", ("::1", 80)), ("::1", None), ("[::1", None), ("[zz]:1", None),
    ("a:99999", None), ("a:0", None), ("a:-1", None), ("a b:1", None), ("", None), ("a:", None),
    ("x" * 400, None), ("a:1:2", None), ("\u00e9.example", None),
])
def test_split_host(value: str, expected: tuple[str, int] | None) -> None:
    assert split_host(value, 80) == expected


def test_bad_allow_host_entries_are_input_errors() -> None:
    for entry in ("a b", "http://x", "x:70000", ""):
        with pytest.raises(InputError, match="--allow-host"):
            HostPolicy("127.0.0.1", 8765, [entry])
    proc = subprocess.run([sys.executable, "-m", "droidpilot", "studio", "--allow-host", "not a host"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--allow-host 'not a host'" in proc.stderr
    assert "Traceback" not in proc.stderr
