"""A writer of Android binary XML (AXML) and tiny APKs, for testing `pm install` with manifests built here.

It writes what aapt2 writes for a manifest: a UTF-16 or UTF-8 string pool, the resource-id map of the
android:* attributes, a namespace and typed attributes (strings, decimal ints, booleans, references).
"""

from __future__ import annotations

import io
import struct
import zipfile
from dataclasses import dataclass, field

ANDROID_NS = "http://schemas.android.com/apk/res/android"
RES_IDS = {"label": 0x01010001, "name": 0x01010003, "permission": 0x01010006, "versionCode": 0x0101021B,
           "versionName": 0x0101021C, "minSdkVersion": 0x0101020C, "targetSdkVersion": 0x01010270}
STRING, INT_DEC, BOOLEAN, REFERENCE = 0x03, 0x10, 0x12, 0x01


@dataclass
class El:
    """An element to write: tag, attributes (android:NAME or plain NAME -> str/int/bool/('ref', id))."""

    tag: str
    attrs: dict[str, object] = field(default_factory=dict)
    children: list[El] = field(default_factory=list)


def _pool(strings: list[str], utf8: bool) -> bytes:
    body, offsets = b"", []
    for s in strings:
        offsets.append(len(body))
        if utf8:
            raw = s.encode("utf-8")
            assert len(s) < 128 and len(raw) < 128
            body += bytes([len(s), len(raw)]) + raw + b"\0"
        else:
            body += struct.pack("<H", len(s)) + s.encode("utf-16-le") + b"\0\0"
    body += b"\0" * (-len(body) % 4)
    header = 28
    start = header + 4 * len(strings)
    size = start + len(body)
    return (struct.pack("<HHIIIIII", 0x0001, header, size, len(strings), 0, 0x100 if utf8 else 0, start, 0)
            + b"".join(struct.pack("<I", o) for o in offsets) + body)


def axml(root: El, utf8: bool = False, strip_names: bool = False) -> bytes:
    """The binary XML of ``root`` (``strip_names``: android attribute names left blank, as shrinkers do)."""
    android_names: list[str] = []
    others: list[str] = []

    def collect(el: El) -> None:
        if el.tag not in others:
            others.append(el.tag)
        for key in el.attrs:
            if key.startswith("android:"):
                name = key[8:]
                if name not in android_names:
                    android_names.append(name)
        for key, value in el.attrs.items():
            for s in (([] if key.startswith("android:") else [key])
                      + ([value] if isinstance(value, str) else [])):
                if s not in others:
                    others.append(s)
        for c in el.children:
            collect(c)

    collect(root)
    shown = ["" if strip_names else n for n in android_names]
    strings = shown + [s for s in [ANDROID_NS, "android", *others] if s not in shown]
    # with stripped names, several attributes share "" in the pool but keep their own map slots
    index = {n: i for i, n in enumerate(android_names)}

    def sid(s: str) -> int:
        return strings.index(s, len(android_names))

    chunks = [_pool(strings, utf8),
              struct.pack("<HHI", 0x0180, 8, 8 + 4 * len(android_names))
              + b"".join(struct.pack("<I", RES_IDS[n]) for n in android_names)]
    chunks.append(struct.pack("<HHIIIII", 0x0100, 16, 24, 1, 0xFFFFFFFF, sid("android"), sid(ANDROID_NS)))

    def write(el: El, line: int) -> None:
        attrs = b""
        for key, value in el.attrs.items():
            if key.startswith("android:"):
                ns, name = sid(ANDROID_NS), index[key[8:]]
            else:
                ns, name = 0xFFFFFFFF, sid(key)
            if isinstance(value, bool):
                raw, kind, data = 0xFFFFFFFF, BOOLEAN, 0xFFFFFFFF if value else 0
            elif isinstance(value, int):
                raw, kind, data = 0xFFFFFFFF, INT_DEC, value & 0xFFFFFFFF
            elif isinstance(value, tuple):
                raw, kind, data = 0xFFFFFFFF, REFERENCE, int(value[1])
            else:
                raw = sid(str(value))
                kind, data = STRING, raw
            attrs += struct.pack("<IIIHBBI", ns, name, raw, 8, 0, kind, data)
        n = len(el.attrs)
        chunks.append(struct.pack("<HHIIIIIHHHHHH", 0x0102, 16, 36 + len(attrs), line, 0xFFFFFFFF,
                                  0xFFFFFFFF, sid(el.tag), 20, 20, n, 0, 0, 0) + attrs)
        for c in el.children:
            write(c, line + 1)
        chunks.append(struct.pack("<HHIIIII", 0x0103, 16, 24, line, 0xFFFFFFFF, 0xFFFFFFFF, sid(el.tag)))

    write(root, 1)
    chunks.append(struct.pack("<HHIIIII", 0x0101, 16, 24, 1, 0xFFFFFFFF, sid("android"), sid(ANDROID_NS)))
    body = b"".join(chunks)
    return struct.pack("<HHI", 0x0003, 8, 8 + len(body)) + body


def manifest(package: str, version_code: int = 1, version_name: str | None = "1.0",
             label: object = "Demo", permissions: tuple[str, ...] = (), ime: str | None = None,
             target_sdk: int = 33) -> El:
    """A manifest element tree: package, version, target SDK, a launcher activity, permissions, optionally
    an IME."""
    attrs: dict[str, object] = {"android:versionCode": version_code, "package": package}
    if version_name is not None:
        attrs["android:versionName"] = version_name
    app = El("application", {"android:label": label} if label is not None else {},
             [El("activity", {"android:name": ".MainActivity"},
                 [El("intent-filter", {}, [El("action", {"android:name": "android.intent.action.MAIN"})])])])
    if ime:
        app.children.append(El("service", {"android:name": ime,
                                           "android:permission": "android.permission.BIND_INPUT_METHOD"},
                               [El("intent-filter", {},
                                   [El("action", {"android:name": "android.view.InputMethod"})])]))
    kids = [El("uses-sdk", {"android:minSdkVersion": 21, "android:targetSdkVersion": target_sdk}),
            *[El("uses-permission", {"android:name": p}) for p in permissions], app]
    return El("manifest", attrs, kids)


ARSC_STORAGE = ("aligned", "deflated", "unaligned")


def apk(manifest_bytes: bytes | None, extra: dict[str, bytes] | None = None, arsc: str = "aligned") -> bytes:
    """A zip with the manifest (left out when None) and a stub classes.dex, the rest deflated; a
    resources.arsc among ``extra`` is stored as ``arsc`` says: uncompressed on a 4-byte boundary (as aapt
    and zipalign leave it), deflated, or uncompressed two bytes off the boundary."""
    if arsc not in ARSC_STORAGE:
        raise ValueError(f"arsc {arsc!r}: use one of {', '.join(ARSC_STORAGE)}")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        if manifest_bytes is not None:
            z.writestr("AndroidManifest.xml", manifest_bytes)
        z.writestr("classes.dex", b"dex\n035\0" + b"\0" * 104)
        for name, data in (extra or {}).items():
            if name == "resources.arsc" and arsc != "deflated":
                z.writestr(_stored(name, buf.tell(), 0 if arsc == "aligned" else 2), data)
            else:
                z.writestr(name, data)
    return buf.getvalue()


def _stored(name: str, header_at: int, off_by: int) -> zipfile.ZipInfo:
    """An uncompressed entry whose data starts ``off_by`` bytes past a 4-byte boundary: padded with an
    extra field (zipalign's 0xD935, holding the alignment) in front of the data."""
    info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_STORED
    start = header_at + 30 + len(name.encode()) + 6  # local header, name, the extra field's own 6 bytes
    pad = (off_by - start) % 4
    info.extra = struct.pack("<HHH", 0xD935, 2 + pad, 4) + b"\0" * pad
    return info
