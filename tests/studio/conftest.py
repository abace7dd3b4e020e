"""One studio server (two SimPhones, a real uvicorn on an ephemeral loopback port) for all studio tests."""

from __future__ import annotations

import contextlib
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from droidpilot.studio.server import Studio, create_studio, make_phones


@pytest.fixture(scope="session")
def studio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Studio]:
    """phone1 is driven by the browser tests, phone2 by the server tests."""
    server = create_studio(make_phones(2), out_root=tmp_path_factory.mktemp("studio")).start()
    try:
        yield server
    finally:
        server.stop()


def call(base: str, path: str, body: Any = None, *, raw: bytes | None = None,
         headers: dict[str, str] | None = None) -> tuple[int, Any]:
    """(status, parsed JSON) of a GET (no body) or POST to the studio."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    hdrs = {"Content-Type": "application/json"} if data is not None else {}
    hdrs.update(headers or {})
    request = urllib.request.Request(base.rstrip("/") + path, data=data, headers=hdrs)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


def sim_label_center(xml: str, label: str) -> tuple[int, int]:
    """The centre (device pixels) of the first node whose text is ``label`` in a SimPhone UI dump."""
    import xml.etree.ElementTree as ET

    for node in ET.fromstring(xml).iter("node"):
        if node.get("text") == label:
            a, b = node.get("bounds", "").strip("[]").split("][")
            x1, y1 = (int(v) for v in a.split(","))
            x2, y2 = (int(v) for v in b.split(","))
            return (x1 + x2) // 2, (y1 + y2) // 2
    raise AssertionError(f"no node with text {label!r} on the screen")



@contextlib.contextmanager
def phone_page(studio: Studio, chromium: Any, pid: str = "phone1", *, width: int = 1280, height: int = 1000,
               control: bool = True, expected: tuple[int, ...] = (409,)) -> Iterator[Any]:
    """A phone's page in the session's Chromium (control taken unless ``control`` is False); a console
    error other than a response with an ``expected`` status fails the test that used it."""
    errors: list[str] = []
    context = chromium.new_context(viewport={"width": width, "height": height})
    try:
        pg = context.new_page()
        pg.set_default_timeout(30_000)
        pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.goto(studio.url + "phone/" + pid)
        pg.wait_for_function("window.__studio.frames.length > 0 && window.__studio.client")
        if control:
            pg.click("#take")
            pg.wait_for_function("window.__studio.status && window.__studio.status.controller === "
                                 "window.__studio.client")
        yield pg
    finally:
        context.close()
    assert [e for e in errors if not any(f"status of {code} " in e for code in expected)] == []


def press_key(page: Any, key: str) -> None:
    """Click a key button (home, back, ...) and wait until the studio has answered its request.

    The message line is empty before the request is answered too, so waiting on it lets the key land
    after whatever the test does next (a Home arriving after ``open_app`` leaves the launcher showing).
    """
    with page.expect_response(lambda r: r.url.endswith("/op") and r.request.method == "POST") as answer:
        page.click(f"button[data-key={key}]")
    assert answer.value.ok, f"the {key} key was answered {answer.value.status}"


def tap_device(page: Any, x: int, y: int, size: tuple[int, int] = (1080, 2400)) -> None:
    """Click the screen image where device pixel (x, y) is shown, and wait for the next frame."""
    before = page.evaluate("window.__studio.frames.length")
    box = page.locator("#frame").bounding_box()
    page.mouse.click(box["x"] + x * box["width"] / size[0], box["y"] + y * box["height"] / size[1])
    page.wait_for_function(f"window.__studio.frames.length > {before}")
