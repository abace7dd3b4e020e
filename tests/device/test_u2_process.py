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


def _swipe_card_away(d: u2.Device, label: str) -> None:
    card = d(resourceId="com.simphone.launcher:id/task", description=label).info["bounds"]
    x, y = (card["left"] + card["right"]) // 2, (card["top"] + card["bottom"]) // 2
    d.shell(["input", "swipe", str(x), str(y), str(x), str(y - 900), "200"])


def _end_in_recents(d: u2.Device, way: str) -> None:
    """End Settings' process (it is in Recents, the home screen in front) the way named."""
    if way == "am force-stop":
        d.shell(["am", "force-stop", SETTINGS])
        return
    if way == "am kill":
        d.shell(["am", "kill", SETTINGS])
        return
    d.press("recent")
    if way == "swiped from Recents":
        _swipe_card_away(d, "Settings")
    else:
        d(resourceId="com.simphone.launcher:id/clear_all").click()
    d.press("home")


@pytest.mark.parametrize("way", ["swiped from Recents", "Clear all", "am kill", "am force-stop"])
def test_a_relaunch_after_the_process_ended_gets_a_new_pid_though_nobody_looked_between(d: u2.Device,
                                                                                       way: str) -> None:
    d.app_start(SETTINGS, stop=True)
    first = d.app_current()["pid"]
    d.press("home")
    _end_in_recents(d, way)  # no ps, pidof or dumpsys until the app is back
    d.app_start(SETTINGS)
    current = d.app_current()
    assert current["package"] == SETTINGS and current["pid"] != first and current["pid"] > 1000
    second = current["pid"]
    assert d.shell(["pidof", SETTINGS]).output.split() == [str(second)]
    assert _ps_pid(d, SETTINGS) == second
    procs = d.shell(["dumpsys", "activity", "processes"]).output
    assert f"PID #{second}: ProcessRecord" in procs and f" {first}:{SETTINGS}/" not in procs


def test_am_kill_ends_a_background_process_but_keeps_its_task(d: u2.Device) -> None:
    d.app_start(SETTINGS, stop=True)
    d(text="Display").click()
    first = d.app_current()["pid"]
    d.press("home")
    d.shell(["am", "kill", SETTINGS])
    killed = d.shell(["pidof", SETTINGS])
    assert (killed.output, killed.exit_code) == ("", 1)
    assert f":{SETTINGS}/" not in d.shell(["dumpsys", "activity", "processes"]).output
    d.press("recent")
    assert d(resourceId="com.simphone.launcher:id/task", description="Settings").exists  # the task stays
    d.press("home")
    d.app_start(SETTINGS)
    assert d(text="Dark mode").exists  # back on the Display page it was left on, in a new process
    assert d.app_current()["pid"] not in (first, 0)


def test_am_kill_leaves_the_app_in_front_running(d: u2.Device) -> None:
    """Near miss: `am kill` ends only background processes, as on Android; the foreground app keeps its."""
    d.app_start(SETTINGS, stop=True)
    first = d.app_current()["pid"]
    done = d.shell(["am", "kill", SETTINGS])
    assert done.exit_code == 0 and done.output == ""
    current = d.app_current()
    assert current["package"] == SETTINGS and current["pid"] == first
    assert d.shell(["pidof", SETTINGS]).output.split() == [str(first)]
