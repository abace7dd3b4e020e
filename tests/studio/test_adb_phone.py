"""A phone over ADB in the studio (SimPhone's ADB front reached by the real adbutils client): its screen is
polled, so a change made outside the studio reaches the viewers, and manual operations go through ADB."""

from __future__ import annotations

import json
import time
from pathlib import Path

from tests.device.adbd_support import running_front
from websockets.sync.client import connect

from droidpilot.device.realphone import AdbDevice
from droidpilot.studio.server import create_studio

from .conftest import call, sim_label_center


def _frame(ws: object, within: float = 15.0) -> bytes:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        message = ws.recv(timeout=within)  # type: ignore[attr-defined]
        if isinstance(message, bytes):
            return message
    raise AssertionError("no frame arrived")


def test_a_phone_over_adb_is_polled_and_operated(tmp_path: Path) -> None:
    with running_front(1) as front:
        phone = AdbDevice("simphone-1", port=front.port)
        studio = create_studio([(phone, 0.0)], out_root=tmp_path).start()
        try:
            assert not studio.sessions["phone1"].device.pushes
            root = studio.url.replace("http://", "ws://").rstrip("/")
            with connect(root + "/ws/phones/phone1") as ws:
                client = json.loads(ws.recv(timeout=10))["client"]
                _frame(ws, within=60.0)  # the first screen: its first render loads fonts (slow when busy)
                front.sims[0].open_app("Settings")  # behind the studio's back: only polling can see it
                _frame(ws)
                assert call(studio.url, "/api/phones/phone1/control", {"client": client})[0] == 200
                x, y = sim_label_center(front.sims[0].ui_xml(), "Display")
                before = front.sims[0].state()["foreground"]["screen"]
                status, body = call(studio.url, "/api/phones/phone1/op",
                                    {"client": client, "op": "click", "x": x / 2, "y": y / 2,
                                     "view_w": 540, "view_h": 1200})
                assert status == 200 and body["action"]["text"] == f"tap ({x}, {y})"
                assert front.sims[0].state()["foreground"]["screen"] != before
        finally:
            studio.stop()
