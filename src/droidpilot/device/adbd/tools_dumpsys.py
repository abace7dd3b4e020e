"""`dumpsys` of the SimPhone shell: window, activity, input, display, power, battery and package.

The window and activity sections are laid out as Android 14 prints them, because clients parse them:
``dumpsys window windows`` lists ``Window #N`` entries and has no ``mCurrentFocus=`` line (that moved to
``dumpsys window displays`` in Android 10+), so adbutils' ``app_current`` reads ``dumpsys activity top``,
whose ``ACTIVITY pkg/.Cls HASH pid=N`` line carries the same pid as `ps -A` and `pidof`.
"""

from __future__ import annotations

import hashlib

from droidpilot.device.adbd.phone import Phone
from droidpilot.device.adbd.pkgdb import dump_package, dump_system_package
from droidpilot.device.adbd.sh import Result, Shell
from droidpilot.device.adbd.tools_process import app_user, processes
from droidpilot.device.adbd.tools_system import activity_of, packages

_SERVICES = ("activity", "battery", "display", "input", "package", "power", "window")


def _phone(sh: Shell) -> Phone:
    assert isinstance(sh.ctx, Phone)
    return sh.ctx


def _hash(kind: str, pkg: str) -> str:
    """A stable identity hash for one of an app's records (Java prints System.identityHashCode in hex)."""
    return hashlib.sha256(f"{kind}:{pkg}".encode()).hexdigest()[:7]


def _task(pkg: str) -> int:
    """The id of an app's task, stable per package."""
    return 10 + int(hashlib.sha256(pkg.encode()).hexdigest()[:4], 16) % 990


class _Apps:
    """The running apps of one `dumpsys` call: the focused package first, each with its pid and user."""

    def __init__(self, phone: Phone) -> None:
        with phone.lock:
            self.focus = phone.device.current_app()
        processes(phone)  # gives running apps that have none yet a pid, and drops stopped apps' pids
        with phone.lock:
            self.pids = dict(phone.pids)
        self.order = [self.focus, *sorted(p for p in self.pids if p != self.focus)]
        self.users = {p: app_user(phone, p) for p in self.order}

    def record(self, pkg: str) -> str:
        return f"ActivityRecord{{{_hash('activity', pkg)} u0 {activity_of(pkg)} t{_task(pkg)}}}"

    def process(self, pkg: str) -> str:
        user = self.users[pkg].replace("_", "")  # u0_a105 is printed u0a105 in process records
        return f"ProcessRecord{{{_hash('process', pkg)} {self.pids.get(pkg, 0)}:{pkg}/{user}}}"

    def window(self, pkg: str) -> str:
        return f"Window{{{_hash('window', pkg)} u0 {pkg}/{pkg}.MainActivity}}"

    def uid(self, pkg: str) -> int:
        return 10000 + int(self.users[pkg][4:])


def _window(phone: Phone, apps: _Apps, section: str) -> str:
    w, h = phone.display_size()
    focus = apps.focus
    displays = (f"WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n  Display: mDisplayId=0\n"
                f"    init={w}x{h} 420dpi cur={w}x{h} app={w}x{h}\n    mCurrentRotation=ROTATION_0\n"
                f"  mCurrentFocus={apps.window(focus)}\n  mFocusedApp={apps.record(focus)}\n")
    windows = ["WINDOW MANAGER WINDOWS (dumpsys window windows)\n"]
    for n, pkg in enumerate([focus]):  # the focused app's window; others are stopped behind it
        windows.append(f"  Window #{n} {apps.window(pkg)}:\n"
                       f"    mDisplayId=0 rootTaskId={_task(pkg)} mSession=Session{{{_hash('session', pkg)} "
                       f"{apps.pids.get(pkg, 0)}:{apps.users[pkg].replace('_', '')}}}\n"
                       f"    mOwnerUid={apps.uid(pkg)} showForAllUsers=false package={pkg} appop=NONE\n"
                       f"    mActivityRecord={apps.record(pkg)}\n")
    if section == "windows":
        return "".join(windows)
    if section == "displays":
        return displays
    return displays + "".join(windows)


def _activity(apps: _Apps, section: str) -> str:
    focus = apps.focus
    activities = ["ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n",
                  "Display #0 (activities from top to bottom):\n"]
    for pkg in apps.order:
        activities.append(f"  * Task{{{_hash('task', pkg)} #{_task(pkg)} type=standard "
                          f"A={apps.uid(pkg)}:{pkg}}}\n"
                          f"    * Hist #0: {apps.record(pkg)}\n      app={apps.process(pkg)}\n")
    activities.append(f"  mResumedActivity: {apps.record(focus)}\n  mFocusedApp={apps.record(focus)}\n")
    top = (f"TASK {focus} id={_task(focus)} userId=0\n"
           f"  ACTIVITY {activity_of(focus)} {_hash('activity', focus)} pid={apps.pids.get(focus, 0)}\n")
    procs = ["ACTIVITY MANAGER RUNNING PROCESSES (dumpsys activity processes)\n  All known processes:\n"]
    procs += [f"  *APP* UID {apps.uid(p)} {apps.process(p)}\n" for p in apps.order]
    procs.append("  PID mappings:\n")
    procs += [f"    PID #{apps.pids[p]}: {apps.process(p)}\n" for p in sorted(apps.pids, key=apps.pids.get)]
    parts = {"activities": "".join(activities), "a": "".join(activities), "top": top,
             "processes": "".join(procs), "p": "".join(procs)}
    if section in parts:
        return parts[section]
    if section:
        return f"Bad activity command, or no activities match: {section}\nUse -h for help.\n"
    return parts["activities"] + "\n" + parts["processes"]


def _battery(phone: Phone) -> str:
    level = "85"
    state = getattr(phone.device, "state", None)
    if callable(state):
        with phone.lock:
            level = str(state().get("system", {}).get("battery", level))
    return (f"Current Battery Service state:\n  AC powered: false\n  USB powered: true\n  status: 2\n"
            f"  health: 2\n  present: true\n  level: {level}\n  scale: 100\n")


def _display(w: int, h: int) -> str:
    return (f"DISPLAY MANAGER (dumpsys display)\n"
            f"  mViewports=[DisplayViewport{{type=INTERNAL, valid=true, "
            f"isActive=true, displayId=0, uniqueId='local:0', physicalPort=0, orientation=0, "
            f"logicalFrame=Rect(0, 0 - {w}, {h}), physicalFrame=Rect(0, 0 - {w}, {h}), "
            f"deviceWidth={w}, deviceHeight={h}}}]\n"
            f"  mBaseDisplayInfo=DisplayInfo{{\"Built-in Screen\", displayId 0, "
            f"real {w} x {h}, rotation 0}}\n")


def tool_dumpsys(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`dumpsys [SERVICE [SECTION|PACKAGE]]`: the focus, activities, processes, rotation, package lines."""
    phone = _phone(sh)
    service = args[0] if args else ""
    rest = [a for a in args[1:] if not a.startswith("-")]
    section = rest[0] if rest else ""
    w, h = phone.display_size()
    if service == "window":
        text = _window(phone, _Apps(phone), section)
    elif service == "activity":
        text = _activity(_Apps(phone), section)
    elif service == "input":
        text = (f"INPUT MANAGER (dumpsys input)\n  Viewport INTERNAL: displayId=0, orientation=0, "
                f"logicalFrame=[0, 0, {w}, {h}], deviceSize=[{w}, {h}]\n    SurfaceOrientation: 0\n")
    elif service == "display":
        text = _display(w, h)
    elif service == "power":
        text = ("POWER MANAGER (dumpsys power)\n  mWakefulness=Awake\n  mWakefulnessChanging=false\n"
                "  mIsPowered=true\n  mHoldingDisplaySuspendBlocker=true\nDisplay Power: state=ON\n")
    elif service == "battery":
        text = _battery(phone)
    elif service == "package":
        text = "".join(dump_package_of(phone, p) for p in (rest[:1] or sorted(packages(phone))))
    elif not service:
        text = "Currently running services:\n" + "".join(f"  {s}\n" for s in _SERVICES)
    else:
        return Result(out=f"Can't find service: {service}\n".encode())
    return Result(out=text.encode())


def dump_package_of(phone: Phone, pkg: str) -> str:
    """`dumpsys package PKG`: an installed APK's record, an app of the system image, or nothing found."""
    rec = phone.installed.get(pkg)
    if rec is not None:
        return dump_package(rec)
    label = packages(phone).get(pkg)
    if label is None:
        return f"Unable to find package: {pkg}\n"
    return dump_system_package(pkg, label)
