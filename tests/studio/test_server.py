"""The studio's server against a real uvicorn: bad requests get clear JSON errors with the right status,
a viewer that vanishes gives up control, and a non-loopback bind needs its token on every request."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from droidpilot.errors import InputError
from droidpilot.studio.server import Studio, check_bind, create_studio, make_phones

from .conftest import call

PHONE = "/api/phones/phone2"


def _ws(base: str, pid: str = "phone2", query: str = "", **kwargs: Any) -> Any:
    root = base.split("?")[0].replace("http://", "ws://").rstrip("/")
    return connect(f"{root}/ws/phones/{pid}{query}", **kwargs)


def _hello(ws: Any) -> str:
    hello = json.loads(ws.recv(timeout=10))
    assert hello["type"] == "hello" and hello["size"] == [1080, 2400]
    return hello["client"]


@pytest.fixture(scope="module")
def controller(studio: Studio) -> Any:
    """A connected viewer of phone2 that has taken control: (websocket, client id)."""
    with _ws(studio.url) as ws:
        client = _hello(ws)
        status, body = call(studio.url, f"{PHONE}/control", {"client": client, "action": "take"})
        assert status == 200 and body["controller"] == client
        yield ws, client


def test_bad_requests_get_clear_errors(studio: Studio, controller: Any) -> None:
    _, client = controller
    outside = {"client": client, "op": "click", "x": 600, "y": 10, "view_w": 540, "view_h": 1200}
    status, body = call(studio.url, f"{PHONE}/op", outside)
    assert status == 400 and "outside the 540x1200 screen image" in body["error"]
    status, body = call(studio.url, "/api/phones/nope/op", {"client": client, "op": "key", "key": "home"})
    assert status == 404 and "unknown phone 'nope'" in body["error"] and "phone1" in body["error"]
    status, body = call(studio.url, f"{PHONE}/op", raw=b'{"op": "key", "key": ')
    assert status == 400 and "malformed JSON" in body["error"]
    status, body = call(studio.url, f"{PHONE}/op", raw=b"[1, 2]")
    assert status == 400 and "must be a JSON object" in body["error"]
    status, body = call(studio.url, f"{PHONE}/op", raw=b"op=key", headers={"Content-Type": "text/plain"})
    assert status == 415 and "JSON" in body["error"]
    status, body = call(studio.url, f"{PHONE}/op", {"client": client, "op": "fly"})
    assert status == 400 and "unknown operation 'fly'" in body["error"]
    status, body = call(studio.url, f"{PHONE}/op", {"client": client, "op": "key", "key": "power"})
    assert status == 400 and "unknown key 'power'" in body["error"]
    status, body = call(studio.url, f"{PHONE}/op", {"client": "someone-else", "op": "key", "key": "home"})
    assert status == 409 and "take control first" in body["error"]
    status, body = call(studio.url, f"{PHONE}/agent/start",
                        {"client": client, "instruction": "x", "brain": "x"})
    assert status == 400 and "unknown brain 'x'" in body["error"]


def test_a_recording_stopped_twice(studio: Studio, controller: Any) -> None:
    _, client = controller
    status, started = call(studio.url, f"{PHONE}/record/start", {"client": client, "instruction": "Go home."})
    assert status == 200 and started["steps"] == []
    status, body = call(studio.url, f"{PHONE}/record/start", {"client": client, "instruction": "Again."})
    assert status == 409 and "already running" in body["error"]
    status, body = call(studio.url, f"{PHONE}/op", {"client": client, "op": "key", "key": "recents"})
    assert status == 200 and body["action"]["text"] == "recents"
    status, body = call(studio.url, f"{PHONE}/op", {"client": client, "op": "key", "key": "home"})
    assert status == 200 and body["frame"] == 2
    status, stopped = call(studio.url, f"{PHONE}/record/stop", {"client": client})
    assert status == 200 and stopped["steps"] == ["recents", "home"] and stopped["finished"]
    status, body = call(studio.url, f"{PHONE}/record/stop", {"client": client})
    assert status == 409 and "no recording is running" in body["error"]


def test_a_vanished_viewer_gives_up_control_and_others_keep_watching(studio: Studio, controller: Any) -> None:
    ws, client = controller
    with _ws(studio.url) as other:
        other_id = _hello(other)
        status, body = call(studio.url, f"{PHONE}/control", {"client": other_id, "action": "take"})
        assert status == 409 and "another viewer controls" in body["error"]
        call(studio.url, f"{PHONE}/control", {"client": client, "action": "release"})
        assert call(studio.url, f"{PHONE}/control", {"client": other_id, "action": "take"})[0] == 200
        other.socket.close()  # gone without a closing handshake
    deadline = time.monotonic() + 10
    while call(studio.url, PHONE)[1]["controller"] == other_id:
        assert time.monotonic() < deadline, "the vanished controller still holds the phone"
        time.sleep(0.05)
    assert call(studio.url, f"{PHONE}/control", {"client": client, "action": "take"})[0] == 200
    # the remaining viewer still gets a frame for the next change
    while True:  # drain what was queued
        try:
            ws.recv(timeout=0.2)
        except TimeoutError:
            break
    assert call(studio.url, f"{PHONE}/op", {"client": client, "op": "open_app", "app": "Settings"})[0] == 200
    deadline = time.monotonic() + 10
    while not isinstance(ws.recv(timeout=10), bytes):
        assert time.monotonic() < deadline


def test_non_loopback_bind_needs_explicit_host_and_token(tmp_path: Any) -> None:
    assert check_bind("127.0.0.1", explicit=False) is None
    assert check_bind("::1", explicit=False) is None
    with pytest.raises(InputError, match=r"not a loopback address; pass --host 0\.0\.0\.0"):
        check_bind("0.0.0.0", explicit=False)
    exposed = create_studio(make_phones(1), host="0.0.0.0", explicit_host=True, out_root=tmp_path).start()
    try:
        assert exposed.token and f"?token={exposed.token}" in exposed.url
        base = f"http://127.0.0.1:{exposed.port}"
        status, body = call(base, "/api/phones")
        assert status == 401 and "token" in body["error"]
        status, _ = call(base, "/api/phones", headers={"Authorization": "Bearer wrong"})
        assert status == 401
        status, body = call(base, "/api/phones", headers={"Authorization": f"Bearer {exposed.token}"})
        assert status == 200 and body["phones"][0]["id"] == "phone1"
        status, _ = call(base, f"/api/phones?token={exposed.token}")
        assert status == 200
        status, _ = call(base, "/api/phones", headers={"Cookie": f"droidpilot_studio_token={exposed.token}"})
        assert status == 200
        with pytest.raises(InvalidStatus, match="HTTP 401") as refused, _ws(base, "phone1") as ws:
            ws.recv(timeout=5)
        assert "needs its token" in json.loads(refused.value.response.body)["error"]
        with _ws(base, "phone1", f"?token={exposed.token}") as ws:
            assert _hello(ws)
    finally:
        exposed.stop()


def test_cross_origin_websocket_is_refused(studio: Studio) -> None:
    with pytest.raises(InvalidStatus, match="HTTP 403"), \
            _ws(studio.url, origin="http://evil.example") as ws:  # type: ignore[arg-type]
        ws.recv(timeout=5)
