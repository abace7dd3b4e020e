"""SimPhone's apps have one pid on every surface a client reads: uiautomator2's ``app_current`` (through
adbutils' `dumpsys activity top`), `ps -A`, `pidof`, `dumpsys activity processes` and `dumpsys window`."""

from __future__ import annotations

import re

import pytest
import uiautomator2 as u2
from tests.device.adbd_support import Front
from tests.device.u2_support import front_fixtures

pytestmark = pytest.mark.slow
SETTINGS = "com.android.settings"

front, d, fresh = front_fixtures(1)


def _ps_pid(d: u2.Device, pkg: str) -> int:
    rows = [line.split() for line in d.shell(["ps", "-A"]).output.splitlines()[1:]]
    found = [int(r[1]) for r in rows if r[-1] == pkg]
    assert len(found) == 1, f"{pkg} has {len(found)} rows in ps -A"
    return found[0]


def test_app_current_pid_is_the_pid_of_ps_and_pidof(d: u2.Device) -> None:
    d.app_start(SETTINGS, stop=True)
    current = d.app_current()
    assert current["package"] == SETTINGS and current["activity"] == ".MainActivity"
    pid = current["pid"]
    assert pid > 1000  # a real-looking pid, above the system processes'
    assert d.shell(["pidof", SETTINGS]).output.split() == [str(pid)]
    assert _ps_pid(d, SETTINGS) == pid
    procs = d.shell(["dumpsys", "activity", "processes"]).output
    assert re.search(rf"PID #{pid}: ProcessRecord\{{\w+ {pid}:{re.escape(SETTINGS)}/u0a\d+\}}", procs)
    windows = d.shell(["dumpsys", "window", "windows"]).output
    assert f" {pid}:u0a" in windows  # the window's Session names its process
    assert "mCurrentFocus" not in windows  # Android 10+ prints the focus under `dumpsys window displays`
    assert f"{SETTINGS}/{SETTINGS}.MainActivity" in d.shell("dumpsys window | grep mCurrentFocus").output


def test_pid_stays_while_the_app_runs_and_changes_after_force_stop(d: u2.Device) -> None:
    d.app_start(SETTINGS, stop=True)
    first = d.app_current()["pid"]
    d(text="Display").click()
    d.press("home")
    assert d.app_current()["package"] != SETTINGS
    assert d.shell(["pidof", SETTINGS]).output.split() == [str(first)]  # in Recents: still running
    d.app_start(SETTINGS)
    assert d.app_current()["pid"] == first
    d.shell(["am", "force-stop", SETTINGS])
    stopped = d.shell(["pidof", SETTINGS])
    assert (stopped.output, stopped.exit_code) == ("", 1)  # a stopped app has no process
    assert not [line for line in d.shell(["ps", "-A"]).output.splitlines() if line.endswith(" " + SETTINGS)]
    assert f":{SETTINGS}/" not in d.shell(["dumpsys", "activity", "processes"]).output
    d.app_start(SETTINGS)
    second = d.app_current()["pid"]
    assert second > 1000 and second != first
    assert _ps_pid(d, SETTINGS) == second


def test_each_running_app_has_its_own_pid(front: Front, d: u2.Device) -> None:
    d.app_start("com.simphone.browser", stop=True)
    browser = d.app_current()["pid"]
    d.app_start(SETTINGS, stop=True)
    settings = d.app_current()["pid"]
    assert browser != settings
    assert d.shell(["pidof", "com.simphone.browser"]).output.split() == [str(browser)]
    top = d.shell(["dumpsys", "activity", "top"]).output
    assert re.search(rf"^  ACTIVITY {re.escape(SETTINGS)}/\.MainActivity \w+ pid={settings}$", top, re.M)
    assert "Bad activity command" in d.shell(["dumpsys", "activity", "nonsense"]).output
