"""The runner on a phone over ADB: SimPhone's ADB front stands in for a real device (real TCP, adbutils'
client). There is no state() over ADB, so the oracle is not available and Su comes from the rule alone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from droidpilot.bench.runner import run_suite
from droidpilot.bench.worker import RunConfig
from droidpilot.device.adbd.server import AdbServer
from droidpilot.device.sim.phone import SimDevice

pytestmark = pytest.mark.slow


@pytest.fixture
def front() -> Iterator[tuple[AdbServer, SimDevice]]:
    sim = SimDevice(serial="simphone-adb")
    server = AdbServer([sim], port=0, serials=["simphone-adb"]).start()
    try:
        yield server, sim
    finally:
        server.stop()


def test_reference_over_adb(front: tuple[AdbServer, SimDevice], tmp_path: Path) -> None:
    server, sim = front
    config = RunConfig(suite="mobile-eval", brain="reference", out=tmp_path, adb_port=server.port)
    outcome = run_suite(config, ["simphone-adb"], task_ids=["settings-2"])
    (row,) = outcome.rows
    assert not row["error"], row["error"]
    assert row["su"] == 1 and row["su_oracle"] is None and row["device"] == "simphone-adb"
    assert sim.state()["settings"]["airplane_mode"] is True  # the phone behind the front really changed
    assert outcome.document["device"] == ["simphone-adb"]


def test_unreachable_device_is_recorded_as_an_error(tmp_path: Path) -> None:
    config = RunConfig(suite="mobile-eval", brain="reference", out=tmp_path, adb_port=1)
    outcome = run_suite(config, ["NOPE123"], task_ids=["settings-2"])
    (row,) = outcome.rows
    assert row["termination"] == "error" and row["su"] == 0
    assert "NOPE123" in row["error"] and "127.0.0.1:1" in row["error"], row["error"]
