"""Finding the package of an app by the name a person or an agent uses ("Settings", "微信", "notes").

Android's shell has no command that prints app labels, so AdbDevice matches a name against a table of
well-known apps and against the installed packages' name segments (``com.example.notes`` for "Notes").
"""

from __future__ import annotations

import re

from droidpilot.device.base import DeviceError

KNOWN_APPS: dict[str, tuple[str, ...]] = {
    "settings": ("com.android.settings",),
    "chrome": ("com.android.chrome",),
    "browser": ("com.android.chrome", "com.android.browser"),
    "youtube": ("com.google.android.youtube",),
    "gmail": ("com.google.android.gm",),
    "maps": ("com.google.android.apps.maps",),
    "google maps": ("com.google.android.apps.maps",),
    "play store": ("com.android.vending",),
    "camera": ("com.android.camera2", "com.google.android.GoogleCamera", "com.android.camera"),
    "clock": ("com.google.android.deskclock", "com.android.deskclock"),
    "calendar": ("com.google.android.calendar", "com.android.calendar"),
    "contacts": ("com.google.android.contacts", "com.android.contacts"),
    "phone": ("com.google.android.dialer", "com.android.dialer"),
    "messages": ("com.google.android.apps.messaging", "com.android.mms"),
    "photos": ("com.google.android.apps.photos",),
    "files": ("com.google.android.documentsui", "com.android.documentsui"),
    "calculator": ("com.google.android.calculator", "com.android.calculator2"),
    "wechat": ("com.tencent.mm",),
    "微信": ("com.tencent.mm",),
    "bilibili": ("tv.danmaku.bili",),
    "哔哩哔哩": ("tv.danmaku.bili",),
    "alipay": ("com.eg.android.AlipayGphone",),
    "支付宝": ("com.eg.android.AlipayGphone",),
    "tiktok": ("com.zhiliaoapp.musically", "com.ss.android.ugc.trill"),
    "抖音": ("com.ss.android.ugc.aweme",),
}


def _norm(text: str) -> str:
    return re.sub(r"[\s_\-.]+", "", text.lower())


def looks_like_package(name: str) -> bool:
    """True for ``a.b`` style Java package names."""
    return re.fullmatch(r"[A-Za-z][\w]*(\.[A-Za-z_][\w]*)+", name) is not None


def resolve_package(name: str, installed: list[str]) -> str:
    """The installed package ``name`` refers to; DeviceError listing close candidates when none fits."""
    wanted = name.strip()
    if wanted in installed:
        return wanted
    for pkg in KNOWN_APPS.get(wanted.lower(), ()):
        if pkg in installed:
            return pkg
    key = _norm(wanted)
    if key:
        by_last = [p for p in installed if _norm(p.rsplit(".", 1)[-1]) == key]
        if len(by_last) == 1:
            return by_last[0]
        by_segment = [p for p in installed if key in (_norm(s) for s in p.split("."))]
        if len(by_segment) == 1:
            return by_segment[0]
        if len(by_last) + len(by_segment) > 1:
            options = ", ".join(sorted(set(by_last + by_segment)))
            raise DeviceError(f"app name {name!r} is ambiguous: it matches {options}; pass the package")
    near = [p for p in installed if key and key[:4] in _norm(p)][:8]
    hint = f" (similar packages: {', '.join(near)})" if near else ""
    raise DeviceError(f"no installed app matches {name!r}{hint}; pass its package name, "
                      "e.g. from `adb shell pm list packages`")
