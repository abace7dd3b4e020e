"""SimPhone's uiautomator server against hostile JSON-RPC: deep selectors, huge or odd numbers, bad key
codes, meta states and screenshot scales get a JSON-RPC error in the real server's shape (code, a Java
exception in ``message``, a stack line in ``data``) that keeps the request's id and names the limit."""

from __future__ import annotations

import base64
import io
import json
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image
from tests.device.adbd_support import Front
from tests.device.u2_raw import call, open_server, rpc

from droidpilot.device.u2 import rpc as rpc_module
from droidpilot.device.u2.args import MAX_KEYCODE


@pytest.fixture
def conn(u2_front: Front) -> Iterator[socket.socket]:
    with open_server(u2_front.port) as s:
        yield s


METHOD, CONVERSION = rpc_module.SERVER_ERROR, rpc_module.INVALID_PARAMS  # the method's own check / Jackson's


def _error(answer: dict[str, Any], req_id: Any, *fragments: str, code: int = METHOD) -> str:
    assert "result" not in answer and answer["id"] == req_id, answer
    err = answer["error"]
    assert err["code"] == code and isinstance(err["data"], str), err
    assert not err["message"].startswith("java.lang.RuntimeException"), err  # no internal failure
    for fragment in fragments:
        assert fragment in err["message"], err["message"]
    return str(err["message"])


def _chain_text(levels: int) -> str:
    """The JSON of a selector with ``levels`` nested child steps (written out: too deep for json.dumps)."""
    step = '{"mask": 1, "text": "x", "childOrSibling": ["child"], "childOrSiblingSelector": ['
    return step * levels + '{"mask": 1, "text": "x"}' + "]}" * levels


def _chain(levels: int) -> dict[str, Any]:
    return json.loads(_chain_text(levels))


@pytest.mark.parametrize("levels", [60, 2500])
@pytest.mark.parametrize("id_first", [True, False])
def test_a_deep_selector_is_refused_with_its_id(conn: socket.socket, levels: int, id_first: bool) -> None:
    call_text = f'"jsonrpc": "2.0", "method": "exist", "params": [{_chain_text(levels)}]'
    body = '{"id": 7361, ' + call_text + "}" if id_first else "{" + call_text + ', "id": "x-9"}'
    answer = rpc(conn, body.encode())
    _error(answer, 7361 if id_first else "x-9", "java.lang.IllegalArgumentException",
           f"nested more than {rpc_module.MAX_DEPTH} levels", code=CONVERSION)


def test_a_selector_chain_within_the_limit_is_answered(conn: socket.socket) -> None:
    answer = call(conn, "exist", _chain(45), req_id=3)
    assert answer == {"jsonrpc": "2.0", "id": 3, "result": False}
    assert call(conn, "exist", {"mask": 1, "text": "Settings"})["result"] is True


@pytest.mark.parametrize(("params", "said", "code"), [
    ([1e9, 80], "scale must be more than 0 and at most 1", METHOD), ([0, 80], "scale must be", METHOD),
    ([-0.5, 80], "scale must be", METHOD), ([1.0000001, 80], "scale must be", METHOD),
    (["0.5", 80], "scale must be a finite", METHOD), ([True, 80], "scale must be a finite", METHOD),
    ([1, 101], "quality must be a whole number from 0 to 100", METHOD), ([1, -1], "quality must be", METHOD),
    ([1, 50.5], "quality must be", METHOD), ([1e400, 80], "not a finite number", CONVERSION),
])
def test_screenshot_arguments_are_checked(conn: socket.socket, params: list[Any], said: str,
                                          code: int) -> None:
    _error(call(conn, "takeScreenshot", *params, req_id=11), 11, "IllegalArgumentException", said, code=code)


def test_screenshot_within_range_scales_down(conn: socket.socket) -> None:
    full = Image.open(io.BytesIO(base64.b64decode(call(conn, "takeScreenshot", 1, 80)["result"])))
    half = Image.open(io.BytesIO(base64.b64decode(call(conn, "takeScreenshot", 0.5, 0)["result"])))
    assert half.size == (full.width // 2, full.height // 2)
    assert "result" in call(conn, "takeScreenshot", 1e-9, 100)  # a 1x1 image, as scaling down allows


@pytest.mark.parametrize(("params", "said"), [
    ([2**63 - 1], f"keyCode must be a whole number from 0 to {MAX_KEYCODE}"), ([-1], "keyCode must be"),
    ([MAX_KEYCODE + 1], "keyCode must be"), ([3.5], "keyCode must be"), ([True], "keyCode must be"),
    (["3"], "keyCode must be"), ([4, -1], "metaState must be"), ([4, 2**31], "metaState must be"),
    ([4, 0x800000], "bits 0x800000 that are no KeyEvent.META_* flag"),
])
def test_key_codes_and_meta_states_are_checked(conn: socket.socket, params: list[Any], said: str) -> None:
    _error(call(conn, "pressKeyCode", *params, req_id=5), 5, "IllegalArgumentException", said)


@pytest.mark.parametrize("code", [2**63, -(2**63) - 1, 10**1000])
def test_key_codes_no_java_long_holds_are_params_errors(conn: socket.socket, code: int) -> None:
    _error(call(conn, "pressKeyCode", code, req_id="k"), "k", "outside Java's long range", code=CONVERSION)


def test_key_codes_within_range_are_pressed(u2_front: Front, conn: socket.socket) -> None:
    assert call(conn, "pressKeyCode", 3.0)["result"] is True  # HOME, as Jackson reads a whole float
    assert call(conn, "pressKeyCode", MAX_KEYCODE, 0x1 | 0x1000)["result"] is True  # no effect on SimPhone
    assert call(conn, "pressKeyCode", 0)["result"] is True
    assert u2_front.sims[0].current_app() == "com.simphone.launcher"


@pytest.mark.parametrize(("body", "said", "code"), [
    (b'{"jsonrpc": "2.0", "id": 1, "method": "click", "params": [NaN, 5]}', "NaN", rpc_module.PARSE_ERROR),
    (b'{"jsonrpc": "2.0", "id": 1, "method": "click", "params": [' + b"9" * 5000 + b", 5]}",
     "more than 4,300 digits", rpc_module.PARSE_ERROR),
    (b"\xff\xfe", "not UTF-8", rpc_module.PARSE_ERROR),
])
def test_numbers_no_java_server_reads_are_parse_errors(conn: socket.socket, body: bytes, said: str,
                                                       code: int) -> None:
    answer = rpc(conn, body)
    assert answer["id"] is None and answer["error"]["code"] == code and said in answer["error"]["message"]


@pytest.mark.parametrize(("method", "params", "said", "code"), [
    ("click", [1e400, 5], "argument 1 of click is inf", CONVERSION),
    ("click", [5, 5, 2**40], "duration must be", METHOD),
    ("swipe", [1, 1, 2**64, 1, 5], "outside Java's long range", CONVERSION),
    ("dumpWindowHierarchy", [False, "deep"], "maxDepth", METHOD),
    ("longClick", [True, 5], "x must be a finite number", METHOD),
    ("exist", [{"mask": 1, "instance": 1e400}], "bad selector", METHOD),
    ("swipe", ["a", 1, 2, 3, 4], "bad arguments for swipe", CONVERSION),
    ("swipePoints", [{"0": 1, "1": 2, "2": 3, "3": 4}], "a list of x,y pairs", METHOD),  # was a KeyError
    ("swipePoints", [[1, 2, "3", 4]], "points[2] must be a finite number", METHOD),
])
def test_other_odd_arguments_are_illegal_arguments(conn: socket.socket, method: str, params: list[Any],
                                                   said: str, code: int) -> None:
    _error(call(conn, method, *params, req_id=[1, 2]), [1, 2], said, code=code)


def test_top_level_id_scan() -> None:
    scan = rpc_module.top_level_id
    assert scan('{"a": [[[["id"]]]], "id": 5}') == 5
    assert scan('{"params": {"id": 1}, "id": "x"}') == "x"
    assert scan('{"id": {"a": 1}}') is None and scan('{"ids": 3}') is None and scan("[1]") is None
    assert scan('{"x": "\\"id\\": 4", "id": null}') is None
    assert scan('{"x": "a", "id": 2.5 }') == 2.5
