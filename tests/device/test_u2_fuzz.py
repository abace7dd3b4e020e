"""Fuzzing SimPhone's uiautomator server through the ADB front (hypothesis, bounded): hostile JSON-RPC
bodies (methods, params, selectors, numbers, ids, garbage, deep nesting) and odd HTTP requests. Every
JSON-RPC answer is a well-formed result or error (code, message, data) carrying the request's id and no
internal failure; nothing hangs (sockets time out); the server keeps answering ``ping``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.device.adbd_support import Front
from tests.device.u2_raw import call, dumps, http, open_server, rpc
from tests.support.hypothesis_profiles import examples

from droidpilot.device.u2 import rpc as rpc_module
from droidpilot.device.u2.server import U2Server

BOUNDED = settings(max_examples=examples(80), deadline=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
WAITS = ("waitForExists", "waitUntilGone", "waitForWindowUpdate", "clickAndWaitForNewWindow")  # their
# second argument is a timeout: kept short
CODES = {rpc_module.NOT_FOUND, rpc_module.METHOD_NOT_FOUND, rpc_module.INVALID_PARAMS, rpc_module.PARSE_ERROR,
         rpc_module.INVALID_REQUEST, rpc_module.SERVER_ERROR}
SELECTOR_KEYS = ["text", "textContains", "textMatches", "textStartsWith", "className", "classNameMatches",
                 "description", "descriptionContains", "resourceId", "resourceIdMatches", "packageName",
                 "index", "instance", "checked", "clickable", "scrollable", "enabled", "focused", "colour"]
NUMBERS = st.one_of(st.integers(-(2**70), 2**70), st.integers(-5, 400), st.floats(allow_nan=False),
                    st.sampled_from([0, 1, 0.5, 1e9, 2**63, 2**31, -1]))
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, st.text(max_size=20),
                    st.sampled_from(["Settings", "Display", "home", "back", "(", ".*", "simphone-object-1"]))


@st.composite
def selectors(draw: st.DrawFn, depth: int = 2) -> dict[str, Any]:
    sel: dict[str, Any] = {"mask": draw(st.integers(0, 2**24))}
    sel.update(draw(st.dictionaries(st.sampled_from(SELECTOR_KEYS), SCALARS, max_size=3)))
    if depth and draw(st.integers(0, 3)) == 0:
        n = draw(st.integers(1, 2))
        sel["childOrSibling"] = draw(st.lists(st.sampled_from(["child", "sibling", "parent"]), min_size=n,
                                              max_size=n + draw(st.integers(0, 1))))
        sel["childOrSiblingSelector"] = [draw(selectors(depth - 1)) for _ in range(n)]
    return sel


ARGS = st.one_of(SCALARS, selectors(), st.lists(SCALARS, max_size=4))


@st.composite
def bodies(draw: st.DrawFn, methods: list[str]) -> tuple[bytes, Any]:
    """(the body, the id the answer must carry)."""
    kind = draw(st.sampled_from(["call"] * 6 + ["deep", "garbage", "value", "no-method"]))
    req_id = draw(st.one_of(st.integers(-(2**53), 2**53), st.text(max_size=10), st.none()))
    if kind == "garbage":
        return draw(st.binary(max_size=100)), None
    if kind == "value":
        return json.dumps(draw(st.lists(SCALARS, max_size=3))).encode(), None
    if kind == "deep":
        depth = draw(st.integers(101, 4000))
        selector = '{"mask": 1, "childOrSibling": ["child"], "childOrSiblingSelector": [' * (depth // 2)
        selector += '{"text": "x"}' + "]}" * (depth // 2)
        text = f'{{"jsonrpc": "2.0", "method": "exist", "params": [{selector}], "id": {json.dumps(req_id)}}}'
        return text.encode(), req_id
    method = draw(st.sampled_from(methods)) if draw(st.integers(0, 4)) else draw(st.text(max_size=12))
    params: Any = draw(st.one_of(st.lists(ARGS, max_size=5), st.none(), selectors(),
                                 st.dictionaries(st.text(max_size=8), SCALARS, max_size=3), SCALARS))
    if method in WAITS and isinstance(params, list) and len(params) > 1:
        params[1] = draw(st.integers(0, 200))
    doc: dict[str, Any] = {"jsonrpc": "2.0", "id": req_id, "params": params}
    if kind == "call":
        doc["method"] = method
    return dumps(doc).encode(), (req_id if kind == "call" else None)


@pytest.fixture(scope="module")
def methods(u2_front: Front) -> list[str]:
    """Every method the server answers (from a server object of its own, never started)."""
    return sorted(U2Server(u2_front.server.phones[0], 0).methods)


def _check_answer(answer: dict[str, Any], req_id: Any) -> None:
    assert answer["id"] == req_id, answer
    assert ("result" in answer) != ("error" in answer), answer
    if "error" in answer:
        err = answer["error"]
        assert err["code"] in CODES and isinstance(err["message"], str) and isinstance(err["data"], str), err
        assert not err["message"].startswith("java.lang.RuntimeException"), err  # no internal failure


@BOUNDED
@given(data=st.data())
def test_every_jsonrpc_answer_is_well_formed_and_keeps_its_id(u2_front: Front, methods: list[str],
                                                               data: st.DataObject) -> None:
    body, req_id = data.draw(bodies(methods))
    with open_server(u2_front.port) as s:
        _check_answer(rpc(s, body), req_id)
        assert call(s, "ping", req_id=0)["result"] == "pong"  # the same connection still serves


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS"]),
       path=st.one_of(st.sampled_from(["/ping", "/jsonrpc/0", "/jsonrpc/0?x=1", "/", "/jsonrpc"]),
                      st.text(alphabet="abc/%?=.-_0123456789", max_size=20).map(lambda t: "/" + t)),
       body=st.binary(max_size=64))
def test_odd_http_requests_get_an_answer_and_the_server_goes_on(u2_front: Front, method: str, path: str,
                                                                body: bytes) -> None:
    with open_server(u2_front.port) as s:
        try:
            status, _headers, reply = http(s, method, path, body)
        except ConnectionError:  # the HTTP layer refused the request line and closed, as a server may
            status, reply = 0, b""
        assert status in (0, 200, 400, 404, 501), (status, reply[:200])
        if status == 200 and path.startswith("/jsonrpc/0") and method == "POST":
            answer = json.loads(reply)
            assert answer["jsonrpc"] == "2.0" and ("result" in answer or "error" in answer)
    with open_server(u2_front.port) as s:
        assert call(s, "ping")["result"] == "pong"


def test_a_fresh_connection_is_served_after_a_client_drops_mid_request(u2_front: Front) -> None:
    with open_server(u2_front.port) as s:
        s.sendall(b"POST /jsonrpc/0 HTTP/1.1\r\nContent-Length: 100\r\n\r\n{\"id\": 1")  # then gone
    with open_server(u2_front.port) as s:
        assert call(s, "ping")["result"] == "pong"
