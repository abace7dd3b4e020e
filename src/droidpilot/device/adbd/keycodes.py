"""Android key codes by name, so `input keyevent` accepts 4, KEYCODE_BACK and BACK alike."""

from __future__ import annotations

KEYCODES: dict[str, int] = {
    "UNKNOWN": 0, "SOFT_LEFT": 1, "SOFT_RIGHT": 2, "HOME": 3, "BACK": 4, "CALL": 5, "ENDCALL": 6,
    **{str(d): 7 + d for d in range(10)},
    "STAR": 17, "POUND": 18, "DPAD_UP": 19, "DPAD_DOWN": 20, "DPAD_LEFT": 21, "DPAD_RIGHT": 22,
    "DPAD_CENTER": 23, "VOLUME_UP": 24, "VOLUME_DOWN": 25, "POWER": 26, "CAMERA": 27, "CLEAR": 28,
    **{chr(ord("A") + i): 29 + i for i in range(26)},
    "COMMA": 55, "PERIOD": 56, "TAB": 61, "SPACE": 62, "ENTER": 66, "DEL": 67, "GRAVE": 68, "MINUS": 69,
    "EQUALS": 70, "LEFT_BRACKET": 71, "RIGHT_BRACKET": 72, "BACKSLASH": 73, "SEMICOLON": 74,
    "APOSTROPHE": 75, "SLASH": 76, "AT": 77, "MENU": 82, "NOTIFICATION": 83, "SEARCH": 84,
    "MEDIA_PLAY_PAUSE": 85, "MEDIA_STOP": 86, "MEDIA_NEXT": 87, "MEDIA_PREVIOUS": 88, "MUTE": 91,
    "PAGE_UP": 92, "PAGE_DOWN": 93, "ESCAPE": 111, "FORWARD_DEL": 112, "MOVE_HOME": 122, "MOVE_END": 123,
    "NUMPAD_ENTER": 160, "VOLUME_MUTE": 164, "APP_SWITCH": 187, "SLEEP": 223, "WAKEUP": 224,
    "ASSIST": 219, "BRIGHTNESS_DOWN": 220, "BRIGHTNESS_UP": 221,
}
_BY_CODE = {v: k for k, v in KEYCODES.items()}


def keycode(name: str) -> int | None:
    """The key code for a number or a (KEYCODE_-prefixed or bare) name; None when unknown."""
    text = name.strip()
    if text.lstrip("-").isdigit():
        return int(text)
    upper = text.upper()
    if upper.startswith("KEYCODE_"):
        upper = upper[len("KEYCODE_"):]
    return KEYCODES.get(upper)


def keyname(code: int) -> str:
    """``KEYCODE_BACK`` for 4, the number itself when unnamed."""
    name = _BY_CODE.get(code)
    return f"KEYCODE_{name}" if name else str(code)
