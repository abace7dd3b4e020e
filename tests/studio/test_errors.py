"""Hostile requests and odd trace folders get a JSON error with a message, never a bare 500: deep JSON,
wrong types, NUL bytes, huge paths and bodies, looping symbolic links, pipes, unknown routes and
phones; an unexpected failure is logged and answered without its traceback."""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosedError
from websockets.sync.client import connect

from droidpilot.device.sim.phone import SimDevice
from droidpilot.studio import review
from droidpilot.studio.inputs import MAX_BODY, MAX_PATH
from droidpilot.studio.phone import MAX_PENDING, PhoneSession
from droidpilot.studio.server import Studio, create_studio

from .raw_http import post, request

DEEP = b'{"a":' * 5000 + b"1" + b"}" * 5000


def _error(answer: Any, status: int, *fragments: str) -> str:
    assert answer.status == status, (answer.status, answer.body[:300])
    message = answer.json()["error"]
    assert isinstance(message, str) and "Traceback" not in message
    for fragment in fragments:
        assert fragment in message, message
    return message


@pytest.fixture
def trace(tmp_path: Path) -> Path:
    folder = tmp_path / "trace"
    folder.mkdir()
    (folder / "actions.json").write_text(json.dumps({"task_description": "x", "actions": []}))
    return folder


def test_hostile_bodies_get_json_errors(studio: Studio) -> None:
    port = studio.port
    _error(request(port, "POST", "/api/phones/phone2/op", DEEP), 400, "nested more than 100 levels")
    _error(request(port, "POST", "/api/review/open", DEEP), 400, "nested more than 100 levels")
    _error(post(port, "/api/phones/phone2/control", {"client": {"a": 1}}), 400, "'client' must be a string")
    _error(post(port, "/api/phones/phone2/control", {"client": ["x"], "action": "release"}), 400, "'client'")
    _error(post(port, "/api/phones/phone2/control", {"client": "c", "force": "yes"}), 400,
           "field 'force' must be true or false, got 'yes'")
    _error(request(port, "POST", "/api/phones/phone2/op", b'{"client": 1' + b"0" * 5000 + b"}"), 400,
           "a number with 5,001 digits")
    _error(request(port, "POST", "/api/phones/phone2/op", b'{"x": NaN}'), 400, "NaN is not a number")
    _error(request(port, "POST", "/api/phones/phone2/op", b"\xff\xfe{}"), 400, "not UTF-8")
    _error(request(port, "POST", "/api/phones/phone2/op", b"", declared=MAX_BODY + 1), 413, "larger than")
    chunked = b"%x\r\n" % (MAX_BODY + 1) + b" " * (MAX_BODY + 1) + b"\r\n0\r\n\r\n"
    _error(request(port, "POST", "/api/phones/phone2/op", headers={"Transfer-Encoding": "chunked",
                                                                    "Content-Type": "application/json"},
                   body=None, raw_tail=chunked), 413, "larger than")
    _error(post(port, "/api/phones/phone2/record/start", {"client": "c", "app_name": {"x": 1}}), 400,
           "'app_name' must be a string")
    for call, body in (("/api/review/open", {"path": "\ud800"}),
                       ("/api/review/open", {"path": "/tmp/\udcff"}),
                       ("/api/phones/phone2/op", {"client": "c", "op": "type", "text": "a\ud800"})):
        _error(post(port, call, body), 400, "lone UTF-16 surrogate", "valid Unicode")


def test_hostile_paths_get_json_errors(studio: Studio, trace: Path) -> None:
    port = studio.port
    _error(post(port, "/api/review/open", {"path": "/tmp/\x00x"}), 400, "NUL byte")
    message = _error(post(port, "/api/review/open", {"path": "/tmp/" + "a" * 100_000}), 400,
                     f"at most {MAX_PATH}")
    assert len(message) < 300  # the 100k path is not echoed back
    _error(post(port, "/api/review/trace", {"path": ["/tmp"]}), 400, "'path' must name a folder")
    _error(request(port, "GET", "/api/review/image?path=/tmp/%00&n=1"), 400, "NUL byte")
    _error(request(port, "GET", f"/api/review/image?path={trace}&n=" + "9" * 5000), 400, "at most 9 digits")
    _error(request(port, "GET", f"/api/review/image?path={trace}&n=%D9%A3"), 400, "whole number")  # Arabic 3
    _error(post(port, "/api/review/verify", {"path": str(trace), "rule": "r\x00"}), 400, "'rule'", "NUL")
    _error(post(port, "/api/review/save-task", {"path": str(trace), "task_file": 5, "out": "x"}), 400,
           "'task_file' must name a file")
    _error(post(port, "/api/review/label", {"path": str(trace), "label": ["pass"]}), 400, "label must be")
    _error(post(port, "/api/review/export", {"path": "/proc/self"}), 400, "cannot write")


def test_unknown_routes_and_methods_are_json(studio: Studio) -> None:
    _error(request(studio.port, "GET", "/api/nope"), 404, "no such page or API call: GET '/api/nope'")
    _error(request(studio.port, "GET", "/static/nope.js"), 404, "no such page")
    _error(request(studio.port, "GET", "/api/phones/phone2/op"), 405, "GET is not allowed", "use POST")
    _error(request(studio.port, "DELETE", "/api/phones"), 405, "DELETE is not allowed")
    _error(post(studio.port, "/api/review/nope", {}), 404, "unknown review call 'nope'", "use open, trace")


def test_a_trace_too_deep_to_read(studio: Studio, trace: Path) -> None:
    (trace / "actions.json").write_bytes(DEEP)
    _error(post(studio.port, "/api/review/trace", {"path": str(trace)}), 400,
           "actions.json: line 1: nested more than 100 levels")
    (trace / "actions.json").write_text('{"actions": [], "task_description": "x"}')
    (trace / "react.json").write_bytes(DEEP)
    (trace / "steps.jsonl").write_bytes(DEEP + b"\n" + b'{"frame": 1, "step": 1}\n')
    loaded = post(studio.port, "/api/review/trace", {"path": str(trace)}).json()
    assert loaded["instruction"] == "x" and loaded["frames"] == []


@pytest.mark.parametrize(("make", "said"), [
    (lambda p: os.symlink(p, p), "is a symbolic link that loops"),
    (lambda p: os.symlink(p.parent / "gone.json", p), "is a symbolic link to"),
    (lambda p: p.mkdir(), "is a folder, not a file"),
    (lambda p: os.mkfifo(p), "not a regular file"),
])
def test_an_actions_json_that_is_not_a_file_is_described(studio: Studio, tmp_path: Path, make: Any,
                                                        said: str) -> None:
    make(tmp_path / "actions.json")
    for call in ("trace", "open", "label"):
        message = _error(post(studio.port, f"/api/review/{call}", {"path": str(tmp_path), "label": "pass"}),
                         400, said)
        assert "no actions.json" not in message


def test_side_files_that_are_pipes_are_not_read(trace: Path) -> None:
    os.mkfifo(trace / "react.json")  # reading it would block the worker forever
    os.mkfifo(trace / "steps.jsonl")
    loaded = review.load(str(trace))
    assert loaded["frames"] == [] and loaded["run"] is None


def test_export_refuses_a_folder_too_large_to_walk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for i in range(12):
        (tmp_path / f"t{i}").mkdir()
    monkeypatch.setattr(review, "MAX_EXPORT_FOLDERS", 10)
    with pytest.raises(review.StudioError, match="holds more than 10 folders"):
        review.export_labels(str(tmp_path))


def test_a_websocket_to_an_unknown_phone_says_which_phones_exist(studio: Studio) -> None:
    with connect(f"ws://127.0.0.1:{studio.port}/ws/phones/nope", open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=10)) == {
            "type": "error", "message": "unknown phone 'nope'; the studio has: phone1, phone2"}
        with pytest.raises(ConnectionClosedError) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
    assert closed.value.rcvd.reason == "unknown phone 'nope'; the studio has: phone1, phone2"


class _BrokenPhone(SimDevice):
    """A SimPhone whose keys fail in a way nobody foresaw (not a DeviceError)."""

    def key(self, key: Any) -> None:
        raise ZeroDivisionError("secret internals")


@pytest.fixture
def broken(tmp_path: Path) -> Iterator[Studio]:
    server = create_studio([(_BrokenPhone(serial="broken"), 0.0)], out_root=tmp_path).start()
    try:
        yield server
    finally:
        server.stop()


def test_an_unexpected_failure_is_logged_and_answered_without_its_traceback(
        broken: Studio, caplog: pytest.LogCaptureFixture) -> None:
    with connect(f"ws://127.0.0.1:{broken.port}/ws/phones/phone1", open_timeout=10) as ws:
        client = json.loads(ws.recv(timeout=10))["client"]
        assert post(broken.port, "/api/phones/phone1/control", {"client": client}).status == 200
        with caplog.at_level(logging.ERROR, logger="droidpilot.studio.app"):
            answer = post(broken.port, "/api/phones/phone1/op",
                          {"client": client, "op": "key", "key": "home"})
        message = _error(answer, 500, "ZeroDivisionError", "studio's log")
        assert "secret internals" not in message
        assert any(r.exc_info and "secret internals" in str(r.exc_info[1]) for r in caplog.records)
        assert request(broken.port, "GET", "/api/phones").status == 200  # still serving


@pytest.mark.parametrize(("reference", "task", "said"), [
    ("- a\n- b\n", "id: x\n", "'reference' must be a list of steps"),
    ("reference: [a, {b: 1}]\n", "id: x\n", "'reference' must be a list of steps"),
    ("reference: [a]\n", "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        for p, c in zip("abcdefgh", "bcdefghi", strict=True)), "expands to more than"),
    ("reference: [a]\n", "x: " + "[" * 5000 + "]" * 5000 + "\n", "nested more than 100 levels"),
    ("reference: [a]\n", "x: [\n", "not valid YAML"),
])
def test_save_task_refuses_hostile_yaml(studio: Studio, trace: Path, reference: str, task: str,
                                        said: str) -> None:
    (trace / "reference.yaml").write_text(reference)
    (trace / "task.yaml").write_text(task)
    body = {"path": str(trace), "task_file": str(trace / "task.yaml"), "out": str(trace / "out.yaml")}
    _error(post(studio.port, "/api/review/save-task", body), 400, said)
    assert not (trace / "out.yaml").exists()


def test_a_viewer_that_stops_reading_holds_a_bounded_queue(tmp_path: Path) -> None:
    session = PhoneSession("p", SimDevice(), out_root=tmp_path)
    viewer = session.connect()
    for i in range(3 * MAX_PENDING):
        session._broadcast(f'{{"type": "status", "n": {i}}}')
        session._broadcast(b"frame")
    assert viewer.queue.qsize() <= MAX_PENDING + 1
