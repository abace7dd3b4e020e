"""A reader of an APK's compiled resource table (resources.arsc), enough to resolve a string resource.

A manifest's ``android:label="@string/app_name"`` is compiled to a reference (``0x7f0b0001``: package 0x7f,
type 0x0b, entry 1); its text lives in resources.arsc, once per configuration (``values/``,
``values-fr/``...). ``resolve`` finds the value Android would show on a phone of the given locale: the
exact locale, then its language alone, then the default (unqualified) configuration. Every malformed
offset is an ``ArscError`` naming the chunk and byte offset.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from droidpilot.device.adbd.axml import AxmlError, read_string_pool

RES_STRING_POOL, RES_TABLE, RES_TABLE_PACKAGE = 0x0001, 0x0002, 0x0200
RES_TABLE_TYPE, RES_TABLE_TYPE_SPEC = 0x0201, 0x0202
TYPE_REFERENCE, TYPE_STRING = 0x01, 0x03
FLAG_COMPLEX, FLAG_COMPACT = 0x0001, 0x0008  # ResTable_entry flags
FLAG_SPARSE, FLAG_OFFSET16 = 0x01, 0x02  # ResTable_type flags
NO_ENTRY = 0xFFFFFFFF
MAX_CHUNKS = 100_000  # a crafted table cannot make us walk for long
MAX_HOPS = 8  # a reference to a reference ... (Android gives up on cycles too)


class ArscError(ValueError):
    """The bytes are not a well-formed resource table."""


class Unresolved(LookupError):
    """The table is fine but has no text for the reference on this phone; the message says why."""


@dataclass(frozen=True)
class Value:
    """One configuration's value of an entry: its locale ("" for the default) and typed data."""

    locale: str  # "" (default), "fr", "en-US"
    kind: int
    data: int


def _u16(buf: bytes, at: int, what: str) -> int:
    if at < 0 or at + 2 > len(buf):
        raise ArscError(f"{what}: offset {at} is past the end of the {len(buf)}-byte table")
    return int(struct.unpack_from("<H", buf, at)[0])


def _u32(buf: bytes, at: int, what: str) -> int:
    if at < 0 or at + 4 > len(buf):
        raise ArscError(f"{what}: offset {at} is past the end of the {len(buf)}-byte table")
    return int(struct.unpack_from("<I", buf, at)[0])


def _chunks(buf: bytes, start: int, end: int, what: str) -> list[tuple[int, int, int, int]]:
    """(type, header size, offset, size) of the chunks laid end to end in ``buf[start:end]``."""
    out, at = [], start
    while at < end:
        kind, header, size = _u16(buf, at, what), _u16(buf, at + 2, what), _u32(buf, at + 4, what)
        if size < 8 or header < 8 or header > size or at + size > end:
            raise ArscError(f"{what}: the chunk at byte {at} claims {size} bytes (header {header}), "
                            f"which does not fit in bytes {at}..{end}")
        out.append((kind, header, at, size))
        at += size
        if len(out) > MAX_CHUNKS:
            raise ArscError(f"{what}: more than {MAX_CHUNKS} chunks")
    return out


def _locale(buf: bytes, at: int) -> str:
    """The locale of a ResTable_config at ``at`` ("" when it has none), as ``en`` or ``en-US``."""
    size = _u32(buf, at, "type config")
    if size < 12:
        return ""
    if at + 12 > len(buf):
        raise ArscError(f"type config at byte {at}: its locale is past the end of the {len(buf)}-byte table")
    lang, country = buf[at + 8:at + 10], buf[at + 10:at + 12]

    def unpack(two: bytes, base: int) -> str:
        if not two[0] & 0x80:  # two plain letters, or none
            return two.rstrip(b"\0").decode("ascii", "replace")
        a, b = two[0], two[1]  # a packed three-letter code
        codes = (b & 0x1F, ((b & 0xE0) >> 5) | ((a & 0x03) << 3), (a & 0x7C) >> 2)
        return "".join(chr(base + c) for c in codes)

    language, region = unpack(lang, ord("a")), unpack(country, ord("0"))
    return f"{language}-{region}" if language and region else language


@dataclass
class Table:
    """A parsed resource table: its value strings and each (package, type, entry)'s values."""

    strings: list[str]
    values: dict[int, list[Value]]  # resource id -> value in each configuration, in file order

    def resolve(self, res_id: int, locale: str = "en-US") -> tuple[str, str]:
        """(text, configuration locale it came from, "" for the default) of string resource ``res_id`` on
        a phone in ``locale``; ``Unresolved`` says why there is none."""
        for _ in range(MAX_HOPS):
            found = self.values.get(res_id)
            if not found:
                raise Unresolved(f"resources.arsc has no entry @0x{res_id:08x}")
            language = locale.split("-")[0]
            ranked = [v for want in (locale, language, "") for v in found if v.locale == want]
            if not ranked:
                have = ", ".join(sorted({v.locale for v in found}))
                raise Unresolved(f"@0x{res_id:08x} has values only for {have}: none for {locale}, "
                                 f"{language} or the default configuration")
            value = ranked[0]
            if value.kind == TYPE_STRING:
                if value.data >= len(self.strings):
                    raise ArscError(f"@0x{res_id:08x} points at string {value.data} of "
                                    f"{len(self.strings)} in the table's pool")
                return self.strings[value.data], value.locale
            if value.kind != TYPE_REFERENCE:
                raise Unresolved(f"@0x{res_id:08x} is a value of type 0x{value.kind:02x}, not a string")
            res_id = value.data
        raise Unresolved(f"more than {MAX_HOPS} references in a row from the label (a cycle?)")


def parse(buf: bytes) -> Table:
    """The resource table in ``buf``; ``ArscError`` for anything that is not one."""
    if _u16(buf, 0, "table header") != RES_TABLE:
        raise ArscError("not a resource table: it does not start with a RES_TABLE_TYPE chunk")
    header, size = _u16(buf, 2, "table header"), _u32(buf, 4, "table header")
    if size > len(buf) or header < 12:
        raise ArscError(f"the table claims {size} bytes (header {header}) but the file has {len(buf)}")
    strings: list[str] = []
    values: dict[int, list[Value]] = {}
    for kind, _, at, chunk_size in _chunks(buf, header, size, "table"):
        if kind == RES_STRING_POOL and not strings:
            try:
                strings = read_string_pool(buf, at, chunk_size)
            except AxmlError as exc:
                raise ArscError(f"the table's string pool: {exc}") from None
        elif kind == RES_TABLE_PACKAGE:
            _package(buf, at, chunk_size, values)
    return Table(strings, values)


def _package(buf: bytes, at: int, size: int, values: dict[int, list[Value]]) -> None:
    pkg_id = _u32(buf, at + 8, f"package at byte {at}")
    header = _u16(buf, at + 2, f"package at byte {at}")
    for kind, _, t_at, _ in _chunks(buf, at + header, at + size, f"package 0x{pkg_id:02x}"):
        if kind == RES_TABLE_TYPE:
            _type(buf, t_at, pkg_id, values)


def _type(buf: bytes, at: int, pkg_id: int, values: dict[int, list[Value]]) -> None:
    where = f"type chunk at byte {at}"
    header, size = _u16(buf, at + 2, where), _u32(buf, at + 4, where)
    if header < 24:  # 20 bytes of fields, then a configuration of at least its own size field
        raise ArscError(f"{where}: a {header}-byte header is too short for a type chunk")
    type_id, flags = buf[at + 8], buf[at + 9]
    count, entries = _u32(buf, at + 12, where), _u32(buf, at + 16, where)
    if entries > size or count > size:
        raise ArscError(f"{where}: {count} entries from byte {entries} do not fit in its {size} bytes")
    locale = _locale(buf, at + 20)
    offsets: list[tuple[int, int]] = []  # (entry index, offset from entriesStart)
    table = at + header
    for i in range(count):
        if flags & FLAG_SPARSE:
            offsets.append((_u16(buf, table + 4 * i, where), 4 * _u16(buf, table + 4 * i + 2, where)))
        elif flags & FLAG_OFFSET16:
            off = _u16(buf, table + 2 * i, where)
            if off != 0xFFFF:
                offsets.append((i, 4 * off))
        else:
            off = _u32(buf, table + 4 * i, where)
            if off != NO_ENTRY:
                offsets.append((i, off))
    for index, off in offsets:
        pos = at + entries + off
        if pos + 8 > at + size:
            raise ArscError(f"{where}: entry {index} at byte {pos} is past the chunk's end")
        e_size, e_flags = _u16(buf, pos, where), _u16(buf, pos + 2, where)
        if e_flags & FLAG_COMPACT:  # key in the size field, type in the flags' high byte, data after
            kind, data = e_flags >> 8, _u32(buf, pos + 4, where)
        elif e_flags & FLAG_COMPLEX:
            continue  # a style or plural map: never a label's text
        else:
            if pos + e_size + 8 > at + size:
                raise ArscError(f"{where}: the value of entry {index} runs past the chunk's end")
            kind, data = buf[pos + e_size + 3], _u32(buf, pos + e_size + 4, where)
        res_id = (pkg_id << 24) | (type_id << 16) | index
        values.setdefault(res_id, []).append(Value(locale, kind, data))
