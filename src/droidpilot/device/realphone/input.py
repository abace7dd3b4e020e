"""How AdbDevice types text: `input text` command lines for ASCII, ADBKeyboard broadcasts for the rest.

`adb shell` hands its command line to the phone's /system/bin/sh, and `input text` turns every ``%s`` into
a space; these functions build command lines that survive both, for any printable ASCII.
"""

from __future__ import annotations

import base64

ADB_KEYBOARD_IME = "com.android.adbkeyboard/.AdbIME"
ENTER_KEYCODE = 66
INSTALL_HINT = (
    "typing non-ASCII text needs the ADBKeyboard input method (an IME that types what the "
    "ADB_INPUT_B64 broadcast carries). Install it on the phone (`adb install ADBKeyboard.apk`, from "
    "the ADBKeyBoard project), then enable and select it: `adb shell ime enable "
    f"{ADB_KEYBOARD_IME}` and `adb shell ime set {ADB_KEYBOARD_IME}`."
)


def sh_quote(text: str) -> str:
    """``text`` as one word for a POSIX shell: single-quoted, with ``'`` written as ``'\\''``."""
    if text and all(c.isalnum() or c in "@%+=:,./-_" for c in text):
        return text
    return "'" + text.replace("'", "'\\''") + "'"


def is_plain_ascii(text: str) -> bool:
    """True when `input text` can type all of ``text`` (printable ASCII, newlines and tabs)."""
    return all(32 <= ord(c) < 127 or c in "\n\t" for c in text)


def _pieces(line: str) -> list[str]:
    """Arguments for successive `input text` calls that type ``line`` exactly.

    Spaces are sent as ``%s`` (what `input text` turns into a space); a literal ``%s`` in the text has no
    escape, so the text is cut between its ``%`` and ``s``.
    """
    pieces, current = [], []
    for i, c in enumerate(line):
        if c == "s" and i > 0 and line[i - 1] == "%" and current:
            pieces.append("".join(current))
            current = []
        current.append("%s" if c == " " else c)
    if current:
        pieces.append("".join(current))
    return pieces


def input_text_commands(text: str) -> list[str]:
    """Shell command lines that type ASCII ``text``, newlines sent as the Enter key."""
    commands: list[str] = []
    for n, line in enumerate(text.split("\n")):
        if n:
            commands.append(f"input keyevent {ENTER_KEYCODE}")
        commands.extend(f"input text {sh_quote(piece)}" for piece in _pieces(line))
    return commands


def ime_broadcast_command(text: str) -> str:
    """The ADBKeyboard broadcast that types any Unicode ``text`` (base64 of its UTF-8)."""
    msg = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return f"am broadcast -a ADB_INPUT_B64 --es msg {msg}"


def is_adb_keyboard(ime_id: str) -> bool:
    """True when the active input method is ADBKeyboard (or a compatible IME with that package)."""
    return "adbkeyboard" in ime_id.lower() or "adbime" in ime_id.lower()
