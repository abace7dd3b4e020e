"""A writer of Android resource tables (resources.arsc), for APKs whose label is a string resource.

It lays out what aapt2 writes for ``values*/strings.xml``: the table header, the value string pool, one
package (0x7f) with its type and key string pools, a type spec and one type chunk per configuration. Entries
can be written densely (32-bit offsets), with 16-bit offsets, sparsely, or as compact entries, which are the
layouts aapt2 chooses between.
"""

from __future__ import annotations

import struct

from tests.device.apk_builder import _pool

STRING_TYPE_ID = 2  # types: 1 attr, 2 string
PACKAGE_ID = 0x7F


def res_id(entry: int) -> int:
    """The resource id of string entry ``entry`` (``@string/...`` in the manifest)."""
    return (PACKAGE_ID << 24) | (STRING_TYPE_ID << 16) | entry


def _config(locale: str) -> bytes:
    """A 64-byte ResTable_config with only the locale set ("" default, "fr", "en-US")."""
    lang, _, country = locale.partition("-")
    body = bytearray(64)
    struct.pack_into("<I", body, 0, 64)
    body[8:10] = lang.encode("ascii").ljust(2, b"\0")
    body[10:12] = country.encode("ascii").ljust(2, b"\0")
    return bytes(body)


def _entry(key: int, kind: int, data: int, compact: bool) -> bytes:
    if compact:  # ResTable_entry with FLAG_COMPACT: key, flags with the type in the high byte, data
        return struct.pack("<HHI", key, 0x0008 | (kind << 8), data)
    return struct.pack("<HHI", 8, 0, key) + struct.pack("<HBBI", 8, 0, kind, data)


def table(entries: list[dict[str, object]], layout: str = "dense", compact: bool = False,
          utf8: bool = True) -> bytes:
    """A resources.arsc whose string entry ``i`` has the value ``entries[i][locale]`` in each locale.

    A value is text (a string), ``("ref", id)`` (a reference) or ``("int", n)``; a locale missing from an
    entry leaves that entry out of that configuration. ``layout``: "dense", "offset16" or "sparse"."""
    texts: list[str] = []
    for values in entries:
        for v in values.values():
            if isinstance(v, str) and v not in texts:
                texts.append(v)
    locales: list[str] = []
    for values in entries:
        locales += [loc for loc in values if loc not in locales]
    types, keys = _pool(["attr", "string"], True), _pool([f"s{i}" for i in range(len(entries))], True)
    chunks = [struct.pack("<HHIBBHI", 0x0202, 16, 16 + 4 * len(entries), STRING_TYPE_ID, 0, 0, len(entries))
              + b"\0\0\0\0" * len(entries)]
    for loc in locales:
        body, offsets = b"", []
        for i, values in enumerate(entries):
            if loc not in values:
                offsets.append(None)
                continue
            v = values[loc]
            kind, data = ((0x03, texts.index(v)) if isinstance(v, str)
                          else (0x01, int(v[1])) if v[0] == "ref" else (0x10, int(v[1])))  # type: ignore[index]
            offsets.append(len(body))
            body += _entry(i, kind, data, compact)
        present = [(i, o) for i, o in enumerate(offsets) if o is not None]
        if layout == "sparse":
            index = b"".join(struct.pack("<HH", i, o // 4) for i, o in present)
            flags, count = 0x01, len(present)
        elif layout == "offset16":
            index = b"".join(struct.pack("<H", 0xFFFF if o is None else o // 4) for o in offsets)
            index += b"\0" * (-len(index) % 4)
            flags, count = 0x02, len(offsets)
        else:
            index = b"".join(struct.pack("<I", 0xFFFFFFFF if o is None else o) for o in offsets)
            flags, count = 0x00, len(offsets)
        header = 20 + 64
        start = header + len(index)
        chunks.append(struct.pack("<HHIBBHII", 0x0201, header, start + len(body), STRING_TYPE_ID, flags, 0,
                                  count, start) + _config(loc) + index + body)
    pkg_header = 288
    name = "com.example".encode("utf-16-le").ljust(256, b"\0")
    inner = types + keys + b"".join(chunks)
    package = (struct.pack("<HHII", 0x0200, pkg_header, pkg_header + len(inner), PACKAGE_ID) + name
               + struct.pack("<IIIII", pkg_header, 0, pkg_header + len(types), 0, 0) + inner)
    values_pool = _pool(texts, utf8)
    return struct.pack("<HHII", 0x0002, 12, 12 + len(values_pool) + len(package), 1) + values_pool + package
