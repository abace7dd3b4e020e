"""Shared by the uiautomator2 tests: an ADB front on a free port and the real `uiautomator2` client on it.

The client is the PyPI package (a dev dependency). In this process it is handed an ``adbutils`` device of
the front's port; scripts that call ``u2.connect("simphone-1")`` exactly as users do run as subprocesses
with ``ANDROID_ADB_SERVER_PORT``, the variable adbutils reads when it is imported.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import adbutils
import pytest
import uiautomator2 as u2

from droidpilot.device.adbd.phone import Phone


def connect(port: int, serial: str = "simphone-1") -> u2.Device:
    """The real client connected to ``serial`` on the front at ``port`` (starts the server on the phone)."""
    return u2.connect(adbutils.AdbClient(port=port).device(serial))


def client_env(port: int) -> dict[str, str]:
    """The environment of a client subprocess: adbutils' port variable set to the front's port."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANDROID_", "ADB_"))}
    env["ANDROID_ADB_SERVER_PORT"] = str(port)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(Path(__file__).resolve().parents[2]),
                                                    env.get("PYTHONPATH", "")) if p)
    return env


def run_client(port: int, script: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    """Run a Python script (which imports uiautomator2 itself) against the front; raises if it fails."""
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=timeout,
                          env=client_env(port))
    if proc.returncode != 0:
        raise AssertionError(f"client script exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}")
    return proc


def reset_phone(phone: Phone) -> None:
    """Back to a fresh phone between tests: the simulator's state, the keyboard setting, the clipboard."""
    with phone.lock:
        phone.device.reset()  # type: ignore[attr-defined]
        phone.settings["secure"]["default_input_method"] = "com.android.adbkeyboard/.AdbIME"
        phone.clipboard = ""


def front_fixtures(phones: int) -> tuple[Any, Any, Any]:
    """The fixtures a uiautomator2 client test module shares: ``front`` (SimPhone's ADB front with ``phones``
    phones, once per module), ``d`` (the client connected to it) and ``fresh`` (every phone reset before
    each test). Assign them at module level: ``front, d, fresh = front_fixtures(1)``."""
    from tests.device.adbd_support import Front, running_front

    @pytest.fixture(scope="module", name="front")
    def front() -> Iterator[Front]:
        with running_front(phones) as f:
            yield f

    @pytest.fixture(scope="module", name="d")
    def d(front: Front) -> u2.Device:
        return connect(front.port)

    @pytest.fixture(autouse=True, name="fresh")
    def fresh(front: Front) -> None:
        for phone in front.server.phones:
            reset_phone(phone)

    return front, d, fresh
