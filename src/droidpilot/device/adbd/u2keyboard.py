"""uiautomator2's own keyboard (``com.github.uiautomator/.AdbKeyboard``) once its APK is installed: the
broadcasts the client sends it, answered ``result=-1, data="success"`` as the real keyboard answers.

The keyboard receives them only while it is the selected input method; otherwise nobody does and Android
reports ``result=0``, which the client takes as a failed broadcast.
"""

from __future__ import annotations

import base64
import binascii
import html
import re

from droidpilot.device.adbd.intents import describe
from droidpilot.device.adbd.phone import Phone
from droidpilot.device.adbd.sh import Result
from droidpilot.device.adbd.tools_input import press_keycode
from droidpilot.device.base import DeviceError

U2_IME = "com.github.uiautomator/.AdbKeyboard"
KEYCODE_ENTER, KEYCODE_DEL, KEYCODE_BACK = 66, 67, 4
EDITOR_ACTIONS = range(0, 8)  # EditorInfo.IME_ACTION_UNSPECIFIED .. IME_ACTION_PREVIOUS


def _answer(intent: dict[str, str | list[str]], extras: bool, code: int, data: str | None) -> Result:
    tail = f', data="{data}"' if data is not None else ""
    return Result(out=f"Broadcasting: {describe(intent, extras)}\nBroadcast completed: result={code}{tail}\n"
                  .encode())


def u2_keyboard_broadcast(phone: Phone, intent: dict[str, str | list[str]], extras: dict[str, str]) -> Result:
    """Act on one ``ADB_KEYBOARD_*`` broadcast as the keyboard does, when it is the active input method."""
    action = str(intent.get("-a", ""))
    if phone.ime != U2_IME:
        return _answer(intent, bool(extras), 0, None)
    try:
        with phone.lock:
            data = _act(phone, action, extras)
    except DeviceError as exc:
        return _answer(intent, bool(extras), 0, f"error: {exc}".replace('"', "'"))
    except _Refused as exc:
        return _answer(intent, bool(extras), 0, str(exc).replace('"', "'"))
    return _answer(intent, bool(extras), -1, data)


class _Refused(Exception):
    """The keyboard cannot do what the broadcast asks (bad extras): answered result=0 with the reason."""


def _act(phone: Phone, action: str, extras: dict[str, str]) -> str:
    dev = phone.device
    if action == "ADB_KEYBOARD_INPUT_TEXT":
        try:
            text = base64.b64decode(extras.get("text", ""), validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            raise _Refused("text extra is not base64 of UTF-8 text") from None
        dev.type_text(text)
    elif action == "ADB_KEYBOARD_CLEAR_TEXT":
        for _ in range(len(focused_text(phone) or "")):
            press_keycode(phone, KEYCODE_DEL)
    elif action == "ADB_KEYBOARD_HIDE":
        if focused_text(phone) is not None:  # back hides a shown keyboard and does nothing else
            press_keycode(phone, KEYCODE_BACK)
    elif action == "ADB_KEYBOARD_EDITOR_CODE":
        code = extras.get("code", "")
        if not code.lstrip("-").isdigit() or int(code) not in EDITOR_ACTIONS:
            raise _Refused(f"code extra {code[:40]!r} is no EditorInfo IME_ACTION (0-7)")
        if focused_text(phone) is not None:
            press_keycode(phone, KEYCODE_ENTER)  # SimPhone's fields submit on their editor action
    elif action == "ADB_KEYBOARD_SMART_ENTER":
        if focused_text(phone) is not None:
            press_keycode(phone, KEYCODE_ENTER)
    elif action == "ADB_KEYBOARD_INPUT_KEYCODE":
        code = extras.get("code", "")
        if not code.isdigit():
            raise _Refused(f"code extra {code[:40]!r} is no key code")
        press_keycode(phone, int(code))
    elif action == "ADB_KEYBOARD_GET_CLIPBOARD":
        return base64.b64encode(phone.clipboard.encode("utf-8")).decode("ascii")
    else:
        raise _Refused(f"AdbKeyboard has no action {action[:60]}")
    return "success"


def focused_text(phone: Phone) -> str | None:
    """The text of the focused editable field in the phone's UI dump (None when none is focused)."""
    for m in re.finditer(r"<node\b[^>]*>", phone.device.ui_xml()):
        node = m.group(0)
        if 'focused="true"' in node and "EditText" in node:
            text = re.search(r'\btext="([^"]*)"', node)
            return html.unescape(text.group(1)) if text else ""
    return None
