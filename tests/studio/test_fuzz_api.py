"""Fuzzing the studio's HTTP and WebSocket API on a real server (hypothesis, bounded): hostile methods,
paths, queries, headers and bodies, from strangers and from the phone's controller, and hostile WebSocket
frames. Whatever arrives, the answer is JSON (an error with a message, or a success) and never a 500, a
page only for the page routes; nothing hangs (every socket has a timeout); the studio keeps serving.

Paths in bodies stay inside a temporary folder (or do not exist), so labels and exports land there."""

from __future__ import annotations

import json
import socket
import string
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support.hypothesis_profiles import examples
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from droidpilot.studio.server import Studio, create_studio, make_phones

from .raw_http import Answer, request

BOUNDED = settings(max_examples=examples(60), deadline=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                          HealthCheck.data_too_large])
ROOT_KEY = "fuzz-root"  # stands for the temporary folder in generated paths
FIELDS = ["client", "op", "path", "rule", "label", "note", "task_file", "out", "action", "instruction",
          "brain", "max_steps", "x", "y", "x2", "y2", "view_w", "view_h", "key", "text", "app", "app_name",
          "language", "model", "responses", "check_completion"]
ANY_TEXT = st.text(st.characters(exclude_categories=()), max_size=30)  # lone surrogates too
WORDS = st.sampled_from(["click", "swipe", "type", "key", "long_press", "open_app", "take", "release", "pass",
                         "home", "back", "Settings", "", "\x00", "~nobody/x"])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False),
                    st.text(max_size=30), ANY_TEXT, WORDS)
VALUES = st.recursive(
    SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                     st.dictionaries(st.text(max_size=6), inner, max_size=3)), max_leaves=12)
PATHS = st.one_of(st.sampled_from([ROOT_KEY, f"{ROOT_KEY}/trace", f"{ROOT_KEY}/loop", f"{ROOT_KEY}/none",
                                   "/nonexistent/x", "x" * 5000, "/tmp/\x00", "", " ", "~nobody/x",
                                   "\ud800", f"{ROOT_KEY}/\udcff"]),
                  st.text(alphabet=st.characters(blacklist_characters="./\\"), max_size=20)
                  .map(lambda t: f"{ROOT_KEY}/n-{t}"))
ROUTES = ["/api/phones", "/api/phones/phone1", "/api/phones/phone1/control", "/api/phones/phone1/op",
          "/api/phones/phone1/record/start", "/api/phones/phone1/record/stop", "/api/phones/phone1/record/x",
          "/api/phones/phone1/agent/stop", "/api/phones/phone1/agent/take_over", "/api/phones/phone9/op",
          "/api/review/open", "/api/review/trace", "/api/review/label", "/api/review/export",
          "/api/review/save-task", "/api/review/image", "/api/review/verify", "/api/review/nope", "/api/nope",
          "/", "/review", "/phone/phone1", "/phone/nope", "/static/phone.js", "/static/../README.md"]
PAGES = ("/", "/review", "/phone/", "/static/")


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Studio, Path]]:
    root = tmp_path_factory.mktemp("fuzz")
    (root / "trace").mkdir()
    (root / "trace" / "actions.json").write_text('{"task_description": "t", "actions": []}')
    (root / "loop").mkdir()
    (root / "loop" / "actions.json").symlink_to(root / "loop" / "actions.json")
    server = create_studio(make_phones(1), out_root=root / "runs").start()
    try:
        yield server, root
    finally:
        server.stop()


@pytest.fixture(scope="module")
def controller(fuzzed: tuple[Studio, Path]) -> Iterator[str]:
    """The client id of a viewer of phone1 that holds control (so its operations get past the check); it
    reads everything the studio sends, as a page does."""
    studio = fuzzed[0]
    with connect(f"ws://127.0.0.1:{studio.port}/ws/phones/phone1", open_timeout=10) as ws:
        client = json.loads(ws.recv(timeout=10))["client"]
        body = json.dumps({"client": client, "action": "take"}).encode()
        assert request(studio.port, "POST", "/api/phones/phone1/control", body).status == 200
        reader = threading.Thread(target=lambda: [None for _ in ws], daemon=True)  # until closed
        reader.start()
        yield client


def _with_root(value: Any, root: Path) -> Any:
    if isinstance(value, str):
        return value.replace(ROOT_KEY, str(root))
    if isinstance(value, dict):
        return {k: _with_root(v, root) for k, v in value.items()}
    if isinstance(value, list):
        return [_with_root(v, root) for v in value]
    return value


@st.composite
def bodies(draw: st.DrawFn) -> bytes | None:
    kind = draw(st.sampled_from(["object", "object", "object", "value", "bytes", "deep", "none"]))
    if kind == "none":
        return None
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    if kind == "deep":
        n = draw(st.integers(50, 3000))
        return (draw(st.sampled_from(['{"a":', "[", '{"client":'])) * n).encode()
    if kind == "value":
        return json.dumps(draw(VALUES)).encode()
    doc = draw(st.dictionaries(st.sampled_from(FIELDS), st.one_of(VALUES, PATHS), max_size=6))
    return json.dumps(doc).encode()


GETS = ("/api/phones", "/api/phones/phone1", "/api/review/image", "/", "/review", "/phone/", "/static/")


def _target(draw: st.DrawFn) -> tuple[str, str]:
    """(a method, a request target): mostly a known route with its own method."""
    route = draw(st.one_of(st.sampled_from(ROUTES), st.sampled_from(ROUTES),
                           st.text(max_size=30).map(lambda t: "/api/" + t)))
    method = "GET" if route in GETS or route.startswith(("/phone/", "/static/")) else "POST"
    if draw(st.integers(0, 3)) == 0:
        method = draw(st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "FUZZ"]))
    path = quote(route, safe="/", errors="surrogatepass")
    if draw(st.booleans()):
        query = draw(st.dictionaries(st.sampled_from(["path", "n", "token", "x"]),
                                     st.one_of(PATHS, st.text(max_size=12)), max_size=3))
        path += "?" + "&".join(f"{quote(k)}={quote(v, errors='surrogatepass')}" for k, v in query.items())
    return method, path


@st.composite
def requests(draw: st.DrawFn) -> dict[str, Any]:
    headers = {}
    content_type = draw(st.sampled_from(["application/json", "application/json", "text/plain", None,
                                         "application/json; charset=utf-8", "APPLICATION/JSON",
                                         "multipart/form-data"]))
    if content_type:
        headers["Content-Type"] = content_type
    origin = draw(st.sampled_from([None] * 12 + ["own"] * 5 + ["http://evil.example", "null", "garbage"]))
    if origin:
        headers["Origin"] = origin
    method, target = _target(draw)
    host = draw(st.sampled_from([""] * 16 + ["localhost:{port}", "[::1]:{port}", "evil.example:{port}"]))
    return {"method": method, "target": target, "body": draw(bodies()), "headers": headers,
            "host": host, "as_controller": draw(st.booleans())}


def _send(studio: Studio, root: Path, req: dict[str, Any], client: str | None) -> Answer:
    body = req["body"]
    if body is not None and req["as_controller"] and client is not None and body.startswith(b"{"):
        try:
            doc = json.loads(body)
        except (ValueError, RecursionError):  # not JSON, or too deep for this side too
            doc = None
        if isinstance(doc, dict):
            body = json.dumps({**doc, "client": client}).encode()
    if body is not None:
        body = body.replace(ROOT_KEY.encode(), str(root).encode())
    headers = {k: (f"http://127.0.0.1:{studio.port}" if v == "own" else v) for k, v in req["headers"].items()}
    host = req["host"].format(port=studio.port)
    target = req["target"].replace(quote(ROOT_KEY), quote(str(root)))
    return request(studio.port, req["method"], target, body, host=host, headers=headers, timeout=30)


def _check(answer: Answer, req: dict[str, Any]) -> None:
    assert answer.status < 500, (req, answer.status, answer.body[:300])
    page = any(req["target"].startswith(p) for p in PAGES)
    if req["method"] == "HEAD":
        return  # no body to check
    ctype = answer.headers.get("content-type", "")
    if ctype.startswith("application/json"):
        parsed = json.loads(answer.body)
        if answer.status >= 400:
            message = parsed.get("error")
            assert isinstance(message, str) and message and "Traceback" not in message
    else:  # only pages (HTML, the page's scripts, the unknown phone's page) are not JSON
        assert page and (answer.status < 400 or req["target"].startswith("/phone/")), (req, answer)


@BOUNDED
@given(req=requests())
def test_every_http_answer_is_json_or_a_page_never_a_500(fuzzed: tuple[Studio, Path], controller: str,
                                                           req: dict[str, Any]) -> None:
    studio, root = fuzzed
    answer = _send(studio, root, req, controller)
    _check(answer, req)
    assert request(studio.port, "GET", "/api/phones").status == 200  # still serving


FRAMES = st.one_of(st.text(max_size=200), st.binary(max_size=200), st.just(b"\x00" * 65536),
                   st.just("{" * 5000), st.just(json.dumps({"type": "hello", "client": "x"})))


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(pid=st.one_of(st.just("phone1"), st.text(alphabet=string.ascii_letters + string.digits + "-_.~%",
                                                 max_size=20)),
       origin=st.sampled_from([None, "own", "http://evil.example"]), frames=st.lists(FRAMES, max_size=4))
def test_websocket_frames_never_break_the_studio(fuzzed: tuple[Studio, Path], pid: str, origin: str | None,
                                                 frames: list[str | bytes]) -> None:
    studio = fuzzed[0]
    own = f"http://127.0.0.1:{studio.port}"
    sock = socket.create_connection(("127.0.0.1", studio.port), timeout=10)
    url = f"ws://127.0.0.1:{studio.port}/ws/phones/{quote(pid, safe='')}"
    try:
        with connect(url, sock=sock, open_timeout=10, close_timeout=5,
                     origin=own if origin == "own" else origin, max_size=None) as ws:  # type: ignore[arg-type]
            first = json.loads(ws.recv(timeout=10))
            if pid != "phone1":
                assert first["type"] == "error" and "phone1" in first["message"]
                assert "unknown phone" in first["message"] or "no WebSocket at" in first["message"]
                return
            assert first["type"] == "hello"
            for frame in frames:
                ws.send(frame)
            ws.ping().wait(10)  # answered: the connection is alive, or closed with a reason below
    except ConnectionClosed as closed:
        assert closed.rcvd is not None and closed.rcvd.code == 4404, closed
    except InvalidStatus as refused:
        assert origin == "http://evil.example" and refused.response.status_code == 403
        assert "origin" in json.loads(refused.response.body)["error"]
    with connect(f"ws://127.0.0.1:{studio.port}/ws/phones/phone1", open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "hello"  # still serving viewers


def test_an_oversized_frame_is_closed_with_1009(fuzzed: tuple[Studio, Path]) -> None:
    studio = fuzzed[0]
    with connect(f"ws://127.0.0.1:{studio.port}/ws/phones/phone1", open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "hello"
        # a masked binary frame announcing 2 MiB (over ws_max_size): refused from its header alone
        ws.socket.sendall(bytes([0x82, 0x80 | 127]) + (2 << 20).to_bytes(8, "big") + b"mask" + b"x" * 16)
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    with connect(f"ws://127.0.0.1:{studio.port}/ws/phones/phone1", open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "hello"
