"""`pm` of the SimPhone shell: list, path, install (an APK read for its manifest), uninstall, grant, revoke.

Output copies Android 14's: ``Success``, ``Failure [INSTALL_PARSE_FAILED_...: detail]``
(``Failure [-124: ...]`` for a compressed resources.arsc, what exactly is wrong on stderr),
``package:NAME``, and the SecurityException texts of `pm grant`, which adbutils and uiautomator2 look for.
"""

from __future__ import annotations

import datetime as dt
import itertools

from droidpilot.device.adbd.apk import InstallError, read_apk
from droidpilot.device.adbd.phone import Phone
from droidpilot.device.adbd.pkgdb import RUNTIME_PERMISSIONS, Installed
from droidpilot.device.adbd.sh import Result, Shell
from droidpilot.device.adbd.tools_system import packages

_USAGE = (b"usage: pm list packages [FILTER] | pm path PACKAGE | pm install [-r] [-t] [-d] [-g] PATH\n"
          b"       pm uninstall PACKAGE | pm grant|revoke PACKAGE PERMISSION\n")
_uids = itertools.count(10150)


def _phone(sh: Shell) -> Phone:
    assert isinstance(sh.ctx, Phone)
    return sh.ctx


def _now(phone: Phone) -> str:
    """The phone's own date and clock as dumpsys prints times (the wall clock for other devices)."""
    state = getattr(phone.device, "state", None)
    if callable(state):
        with phone.lock:
            system = state().get("system", {})
        if system.get("date") and system.get("clock"):
            return f"{system['date']} {system['clock']}:00"
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M:%S")


def _failure(reason: str, detail: str) -> Result:
    return Result(out=f"Failure [{reason}: {detail}]\n".encode(), code=1)


def _install(sh: Shell, args: list[str]) -> Result:
    phone = _phone(sh)
    flags = {a for a in args if a.startswith("-")}
    paths = [a for i, a in enumerate(args) if not a.startswith("-") and (i == 0 or args[i - 1] != "--user")]
    if len(paths) != 1:
        return Result(err=b"Error: pm install takes one APK path (split APKs: install-multiple)\n", code=1)
    path = paths[0] if paths[0].startswith("/") else f"{sh.cwd.rstrip('/')}/{paths[0]}"
    try:
        data = sh.fs.read(path)  # type: ignore[attr-defined]
    except OSError:
        return Result(err=f"Error: Unable to open file: {paths[0]}\nConsider using a file under "
                      f"/data/local/tmp/\nError: Can't open file: {paths[0]}\n".encode(), code=1)
    try:
        info = read_apk(data, path)
    except InstallError as exc:
        failed = _failure(exc.printed, exc.detail)
        return Result(out=failed.out, err=f"{exc.hint}\n".encode() if exc.hint else b"", code=failed.code)
    pkg = info.package
    old = phone.installed.get(pkg)
    sideloaded = getattr(phone.device, "sideloaded", None)
    if old is None and pkg in packages(phone) and not (callable(sideloaded) and sideloaded(pkg)):
        return _failure("INSTALL_FAILED_UPDATE_INCOMPATIBLE", f"Package {pkg} signatures do not match "
                        "previously installed version; ignoring! (it is an app of SimPhone's system image)")
    if old is not None and "-r" not in flags and "--replace" not in flags:
        return _failure("INSTALL_FAILED_ALREADY_EXISTS",
                        f"Attempt to re-install {pkg} without first uninstalling.")
    if old is not None and info.version_code < old.info.version_code and "-d" not in flags:
        return _failure("INSTALL_FAILED_VERSION_DOWNGRADE", f"Downgrade detected: Update version code "
                        f"{info.version_code} is older than current {old.info.version_code}")
    now = _now(phone)
    granted = set(info.permissions) & RUNTIME_PERMISSIONS if "-g" in flags else set()
    if old is not None:
        granted |= old.granted & set(info.permissions)
    with phone.lock:
        phone.installed[pkg] = Installed(info, old.first_install if old else now, now,
                                         old.uid if old else next(_uids), granted)
        launcher = getattr(phone.device, "install_apk", None)
        if callable(launcher):  # SimPhone puts it on its launcher under its label
            launcher(pkg, info.label)
    return Result(out=b"Performing Streamed Install\nSuccess\n")


def _uninstall(phone: Phone, args: list[str]) -> Result:
    names = [a for i, a in enumerate(args) if not a.startswith("-") and (i == 0 or args[i - 1] != "--user")]
    if not names:
        return Result(err=_USAGE, code=1)
    with phone.lock:
        gone = phone.installed.pop(names[-1], None)
        if gone is None:
            return Result(out=b"Failure [DELETE_FAILED_INTERNAL_ERROR]\n", code=1)
        launcher = getattr(phone.device, "uninstall_apk", None)
        if callable(launcher):
            launcher(gone.info.package)
        for ime in (f"{gone.info.package}/{svc}" for svc in gone.info.input_methods):
            if phone.ime == ime:  # the system falls back to its own keyboard
                phone.settings["secure"]["default_input_method"] = phone.input_methods()[0]
    return Result(out=b"Success\n")


def _grant(phone: Phone, verb: str, args: list[str]) -> Result:
    words = [a for i, a in enumerate(args) if not a.startswith("-") and (i == 0 or args[i - 1] != "--user")]
    if len(words) != 2:
        return Result(err=_USAGE, code=1)
    pkg, perm = words
    rec = phone.installed.get(pkg)
    head = f"Exception occurred while executing '{verb}':\n"
    exc = head + "java.lang.SecurityException: "
    if rec is None:
        if pkg in packages(phone):
            return Result(err=f"{exc}Package {pkg} has not requested permission {perm}\n".encode(), code=255)
        return Result(err=f"{head}java.lang.IllegalArgumentException: Unknown package: {pkg}\n".encode(),
                      code=255)
    if perm not in rec.info.permissions:
        return Result(err=f"{exc}Package {pkg} has not requested permission {perm}\n".encode(), code=255)
    if perm not in RUNTIME_PERMISSIONS:
        return Result(err=f"{exc}Permission {perm} requested by {pkg} is not a changeable permission "
                      f"type\n".encode(), code=255)
    with phone.lock:
        (rec.granted.add if verb == "grant" else rec.granted.discard)(perm)
    return Result()


def tool_pm(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`pm list packages [FILTER]`, `pm path PKG`, `pm install`, `pm uninstall`, `pm grant|revoke`."""
    phone = _phone(sh)
    if args[:2] == ["list", "packages"]:
        pkgs = packages(phone)
        third = "-3" in args[2:]
        filters = [a for a in args[2:] if not a.startswith("-")]
        names = [p for p in sorted(pkgs) if (not filters or filters[0] in p)
                 and (not third or p in phone.installed)]
        return Result(out="".join(f"package:{p}\n" for p in names).encode())
    if args[:1] == ["path"] and len(args) > 1:
        rec = phone.installed.get(args[1])
        if rec is not None:
            return Result(out=f"package:{rec.code_path}/base.apk\n".encode())
        if args[1] not in packages(phone):
            return Result(code=1)
        return Result(out=f"package:/data/app/{args[1]}-1/base.apk\n".encode())
    if args[:1] == ["install"]:
        return _install(sh, args[1:])
    if args[:1] == ["uninstall"]:
        return _uninstall(phone, args[1:])
    if args[:1] in (["grant"], ["revoke"]):
        return _grant(phone, args[0], args[1:])
    return Result(err=_USAGE, code=1)
