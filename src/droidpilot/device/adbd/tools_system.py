"""The system tools of the SimPhone shell: `am`, `monkey`, `settings`, `ime`, `getprop`, `cmd`.

Their output copies the lines agents grep for (``package:``, ``Events injected: 1``), and intents reach the
phone as app launches, HOME, or ADBKeyboard text broadcasts. `dumpsys` is in tools_dumpsys.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import time

from droidpilot.device.adbd.intents import describe, intent_args
from droidpilot.device.adbd.phone import ADB_IME, Phone
from droidpilot.device.adbd.sh import Result, Shell
from droidpilot.device.adbd.tools_input import press_keycode, tool_wm
from droidpilot.device.adbd.u2keyboard import focused_text, u2_keyboard_broadcast
from droidpilot.device.base import DeviceError

_HOME_CATEGORY = "android.intent.category.HOME"
_VIEW = "android.intent.action.VIEW"


def _phone(sh: Shell) -> Phone:
    assert isinstance(sh.ctx, Phone)
    return sh.ctx


def packages(phone: Phone) -> dict[str, str]:
    """Installed packages -> labels: SimPhone's installed apps (``apps()`` + ``state()``), the launcher and
    the system packages every phone has."""
    dev = phone.device
    found: dict[str, str] = {}
    with phone.lock:
        apps, state = getattr(dev, "apps", None), getattr(dev, "state", None)
        if callable(apps):
            installed = set(state()["system"]["installed_apps"]) if callable(state) else None
            found = {a.package: a.label for a in apps() if installed is None or a.name in installed}
        found.setdefault(dev.current_app(), "Launcher")
    for pkg in ("android", "com.android.shell", "com.android.systemui", "com.android.adbkeyboard"):
        found.setdefault(pkg, pkg)
    for pkg, rec in phone.installed.items():
        found.setdefault(pkg, rec.info.label)
    return found


def activity_of(pkg: str) -> str:
    """The component string of a package's launcher activity."""
    return f"{pkg}/.MainActivity"


def _open(phone: Phone, pkg: str) -> None:
    with phone.lock:
        phone.device.open_app(pkg)


def tool_am(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`am start|force-stop|broadcast|kill` for HOME, launches and ADBKeyboard text."""
    phone = _phone(sh)
    if not args:
        return Result(err=b"usage: am [start|broadcast|force-stop] ...\n", code=1)
    sub, rest = args[0], args[1:]
    if sub in ("start", "start-activity"):
        intent, _ = intent_args(rest)
        text = f"Starting: {describe(intent, False)}\n"
        cats = intent["cat"]
        comp = intent.get("-n")
        if isinstance(comp, str):
            pkg = comp.split("/", 1)[0]
            if pkg not in packages(phone):
                err = f"Error type 3\nError: Activity class {{{comp}}} does not exist.\n"
                return Result(out=text.encode(), err=err.encode(), code=1)
            try:
                _open(phone, pkg)
            except DeviceError as exc:
                return Result(out=text.encode(), err=f"Error: Activity not started, {exc}\n".encode(), code=1)
        elif intent.get("-a") == _VIEW and isinstance(intent.get("-d"), str):
            return _view(phone, str(intent["-d"]), text)
        elif isinstance(cats, list) and _HOME_CATEGORY in cats:
            with phone.lock:
                press_keycode(phone, 3)
        else:
            return Result(out=text.encode(), err=b"Error: Activity not started, unable to resolve Intent\n",
                          code=1)
        return Result(out=text.encode())
    if sub in ("force-stop", "kill"):
        if rest:
            with phone.lock:
                end = getattr(phone.device, "stop_app" if sub == "force-stop" else "kill_background", None)
                if callable(end):  # kill: only a background process ends; its task stays in Recents
                    with contextlib.suppress(DeviceError):  # an unknown package: am says nothing either
                        end(rest[-1])
                elif sub == "force-stop" and phone.device.current_app() == rest[-1]:
                    press_keycode(phone, 3)
        return Result()
    if sub == "broadcast":
        return _broadcast(phone, rest)
    return Result(err=f"Error: Unknown command: {sub}\n".encode(), code=255)


def _view(phone: Phone, url: str, text: str) -> Result:
    """`am start -a VIEW -d URL`: a web address opens the browser there; other data resolves to nothing."""
    open_url = getattr(phone.device, "open_url", None)
    if not callable(open_url) or not url.lower().startswith(("http://", "https://")):
        return Result(out=text.encode(), err=b"Error: Activity not started, unable to resolve Intent\n",
                      code=1)
    try:
        with phone.lock:
            open_url(url)
    except DeviceError as exc:
        return Result(out=text.encode(), err=f"Error: Activity not started, {exc}\n".encode(), code=1)
    return Result(out=text.encode())


def _broadcast(phone: Phone, args: list[str]) -> Result:
    intent, extras = intent_args(args)
    if str(intent.get("-a", "")).startswith("ADB_KEYBOARD_"):
        return u2_keyboard_broadcast(phone, intent, extras)
    out = f"Broadcasting: {describe(intent, bool(extras))}\nBroadcast completed: result=0\n".encode()
    action = intent.get("-a")
    if phone.ime != ADB_IME or action not in ("ADB_INPUT_TEXT", "ADB_INPUT_B64", "ADB_INPUT_CODE",
                                              "ADB_CLEAR_TEXT"):
        return Result(out=out)  # nobody receives it: Android reports success all the same
    msg = extras.get("msg", "")
    try:
        with phone.lock:
            if action == "ADB_CLEAR_TEXT":
                for _ in range(len(focused_text(phone) or "")):
                    press_keycode(phone, 67)  # what the keyboard's clear does: delete every character
            elif action == "ADB_INPUT_CODE":
                press_keycode(phone, int(extras.get("code", "0")))
            elif action == "ADB_INPUT_B64":
                phone.device.type_text(base64.b64decode(msg, validate=True).decode("utf-8"))
            else:
                phone.device.type_text(msg)
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return Result(out=out)  # the keyboard drops what it cannot decode, as ADBKeyboard does
    except DeviceError as exc:
        return Result(out=out, err=f"ADBKeyboard: {exc}\n".encode())
    return Result(out=out)


def tool_monkey(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`monkey -p PKG -c android.intent.category.LAUNCHER 1`: launch the package's main activity."""
    phone = _phone(sh)
    pkgs = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "-p"]
    if not pkgs:
        return Result(err=b"** Error: you must specify at least one package with -p\n", code=1)
    started = time.monotonic()
    if pkgs[0] not in packages(phone):
        return Result(err=b"** No activities found to run, monkey aborted.\n", code=252)
    try:
        _open(phone, pkgs[0])
    except DeviceError as exc:
        return Result(err=f"** Monkey aborted: {exc}\n".encode(), code=252)
    ms = int((time.monotonic() - started) * 1000)
    text = "".join(f"  bash arg: {a}\n" for a in args)
    text += (f"Events injected: 1\n## Network stats: elapsed time={ms}ms "
             f"(0ms mobile, 0ms wifi, {ms}ms not connected)\n")
    return Result(out=text.encode())


# settings that mirror SimPhone's own state (its Settings app): key -> (state path, on, off)
_LIVE_SETTINGS = {
    ("global", "wifi_on"): ("wifi", "1", "0"),
    ("global", "bluetooth_on"): ("bluetooth", "1", "0"),
    ("global", "airplane_mode_on"): ("airplane_mode", "1", "0"),
    ("secure", "ui_night_mode"): ("dark_mode", "2", "1"),
}
_SETTINGS_USAGE = (b"usage:  settings [--user <USER_ID> | current] get|put|delete|list "
                   b"NAMESPACE [KEY [VALUE]]\n")


def _live_setting(phone: Phone, namespace: str, key: str) -> str | None:
    spec = _LIVE_SETTINGS.get((namespace, key))
    state = getattr(phone.device, "state", None)
    if spec is None or not callable(state):
        return None
    with phone.lock:
        value = state().get("settings", {}).get(spec[0])
    return None if value is None else (spec[1] if value else spec[2])


def tool_settings(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`settings get|put|delete|list NAMESPACE [KEY [VALUE]]`; Wi-Fi, Bluetooth, airplane mode and night mode
    read SimPhone's own settings."""
    phone = _phone(sh)
    rest: list[str] = []
    i = 0
    while i < len(args):
        if args[i] == "--user" and i + 1 < len(args):
            i += 2
            continue
        rest.append(args[i])
        i += 1
    if len(rest) < 2 or rest[1] not in phone.settings:
        return Result(err=_SETTINGS_USAGE, code=255)
    verb, namespace, table = rest[0], rest[1], phone.settings[rest[1]]
    if verb == "get" and len(rest) >= 3:
        live = _live_setting(phone, namespace, rest[2])
        return Result(out=f"{live if live is not None else table.get(rest[2], 'null')}\n".encode())
    if verb in ("put", "delete") and (namespace, rest[2] if len(rest) > 2 else "") in _LIVE_SETTINGS:
        return Result(err=f"settings: {rest[2]} follows SimPhone's Settings app; change it there\n".encode(),
                      code=255)
    if verb == "put" and len(rest) >= 4:
        table[rest[2]] = rest[3]
        return Result()
    if verb == "delete" and len(rest) >= 3:
        existed = table.pop(rest[2], None) is not None
        return Result(out=f"Deleted {int(existed)} rows\n".encode())
    if verb == "list":
        return Result(out="".join(f"{k}={v}\n" for k, v in sorted(table.items())).encode())
    return Result(err=_SETTINGS_USAGE, code=255)


def tool_ime(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`ime list -s [-a]`, `ime enable|disable|set ID`: the system's keyboards and installed ones."""
    phone = _phone(sh)
    known = phone.input_methods()
    if args[:1] == ["list"]:
        return Result(out="".join(i + "\n" for i in known).encode())
    if len(args) >= 2 and args[0] in ("enable", "disable", "set"):
        if args[-1] not in known:
            msg = f"Unknown input method {args[-1]} cannot be selected for user #0\n"
            return Result(err=msg.encode(), code=255)
        if args[0] == "set":
            phone.settings["secure"]["default_input_method"] = args[-1]
            return Result(out=f"Input method {args[-1]} selected for user #0\n".encode())
        if args[0] == "disable":
            if phone.ime == args[-1]:
                phone.settings["secure"]["default_input_method"] = known[0]
            return Result(out=f"Input method {args[-1]}: now disabled for user #0\n".encode())
        return Result(out=f"Input method {args[-1]}: already enabled for user #0\n".encode())
    return Result(err=b"usage: ime list|enable|disable|set ID\n", code=255)


def tool_getprop(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`getprop [NAME [DEFAULT]]`."""
    props = _phone(sh).props
    if not args:
        return Result(out="".join(f"[{k}]: [{v}]\n" for k, v in sorted(props.items())).encode())
    return Result(out=f"{props.get(args[0], args[1] if len(args) > 1 else '')}\n".encode())


def tool_cmd(sh: Shell, args: list[str], stdin: bytes) -> Result:
    """`cmd package|window|activity ...`: the binder shell front of pm, wm and am."""
    from droidpilot.device.adbd.tools_pm import tool_pm  # pm reads `packages` from this module

    table = {"package": tool_pm, "window": tool_wm, "activity": tool_am, "settings": tool_settings,
             "input_method": tool_ime}
    if not args or args[0] not in table:
        return Result(err=f"cmd: Can't find service: {args[0] if args else ''}\n".encode(), code=20)
    return table[args[0]](sh, args[1:], stdin)
