"""A reader of Android's binary XML (AXML), the form an APK's AndroidManifest.xml is compiled to.

Only what `pm install` needs: the string pool (UTF-8 or UTF-16), the resource-id map and the element
start/end chunks with their attributes, typed as aapt2 types them. Every malformed offset or length is an
``AxmlError`` naming the chunk and byte offset, never an IndexError or struct.error.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

RES_STRING_POOL = 0x0001
RES_XML = 0x0003
RES_XML_START_NAMESPACE = 0x0100
RES_XML_END_NAMESPACE = 0x0101
RES_XML_START_ELEMENT = 0x0102
RES_XML_END_ELEMENT = 0x0103
RES_XML_CDATA = 0x0104
RES_XML_RESOURCE_MAP = 0x0180
UTF8_FLAG = 0x100
NO_INDEX = 0xFFFFFFFF
# Res_value data types
TYPE_REFERENCE, TYPE_STRING, TYPE_INT_DEC, TYPE_INT_HEX, TYPE_BOOLEAN = 0x01, 0x03, 0x10, 0x11, 0x12
MAX_ELEMENTS = 100_000  # a manifest has hundreds at most; a crafted file cannot make us loop for long


class AxmlError(ValueError):
    """The bytes are not a well-formed binary XML document."""


@dataclass(frozen=True)
class Attr:
    """One attribute: its name, namespace URI, resource id (0 when unmapped) and typed value."""

    name: str
    namespace: str
    res_id: int
    kind: int
    data: int
    raw: str | None  # the string value (aapt2 keeps the raw text of string attributes)

    @property
    def value(self) -> str | int | bool:
        """The value as Python sees it: text, a whole number, a boolean, or ``@0x7f...`` for a reference."""
        if self.kind == TYPE_STRING and self.raw is not None:
            return self.raw
        if self.kind == TYPE_BOOLEAN:
            return self.data != 0
        if self.kind in (TYPE_INT_DEC, TYPE_INT_HEX):
            return self.data - (1 << 32) if self.data >= 1 << 31 else self.data
        if self.kind == TYPE_REFERENCE:
            return f"@0x{self.data:08x}"
        return self.raw if self.raw is not None else self.data


@dataclass
class Element:
    """One element with its attributes and children, in document order."""

    tag: str
    attrs: list[Attr]
    children: list[Element] = field(default_factory=list)
    line: int = 0

    def attr(self, name: str, res_id: int = 0) -> Attr | None:
        """The attribute called ``name`` (or carrying resource id ``res_id``; shrunk APKs blank names)."""
        return next((a for a in self.attrs if a.name == name or (res_id and a.res_id == res_id)), None)

    def iter(self, tag: str) -> list[Element]:
        """This element and every descendant called ``tag``, in document order."""
        out, stack = [], [self]
        while stack:
            el = stack.pop()
            if el.tag == tag:
                out.append(el)
            stack.extend(reversed(el.children))
        return out


def _u16(buf: bytes, at: int, what: str) -> int:
    if at < 0 or at + 2 > len(buf):
        raise AxmlError(f"{what}: offset {at} is past the end of the {len(buf)}-byte document")
    return int(struct.unpack_from("<H", buf, at)[0])


def _u32(buf: bytes, at: int, what: str) -> int:
    if at < 0 or at + 4 > len(buf):
        raise AxmlError(f"{what}: offset {at} is past the end of the {len(buf)}-byte document")
    return int(struct.unpack_from("<I", buf, at)[0])


def _string_pool(buf: bytes, at: int, size: int) -> list[str]:
    count = _u32(buf, at + 8, "string pool")
    flags = _u32(buf, at + 16, "string pool")
    start = _u32(buf, at + 20, "string pool")
    if count > size // 4:
        raise AxmlError(f"string pool at byte {at}: {count} strings cannot fit in its {size} bytes")
    header = _u16(buf, at + 2, "string pool")
    end = at + size
    out = []
    for i in range(count):
        pos = at + start + _u32(buf, at + header + 4 * i, f"string pool offset {i}")
        try:
            out.append(_utf8_at(buf, pos, end) if flags & UTF8_FLAG else _utf16_at(buf, pos, end))
        except (IndexError, UnicodeDecodeError, AxmlError) as exc:
            raise AxmlError(f"string {i} of the pool at byte {pos}: {exc}") from None
    return out


def read_string_pool(buf: bytes, at: int, size: int) -> list[str]:
    """The strings of the pool chunk at ``at`` (``size`` bytes); resources.arsc has the same chunks."""
    return _string_pool(buf, at, size)


def _utf8_at(buf: bytes, pos: int, end: int) -> str:
    pos += 2 if buf[pos] & 0x80 else 1  # the length in UTF-16 units, which we do not need
    n = buf[pos]
    if n & 0x80:
        n, pos = ((n & 0x7F) << 8) | buf[pos + 1], pos + 2
    else:
        pos += 1
    if pos + n > end:
        raise AxmlError(f"a {n}-byte string runs past the pool's end")
    return buf[pos:pos + n].decode("utf-8")


def _utf16_at(buf: bytes, pos: int, end: int) -> str:
    n = _u16(buf, pos, "string length")
    if n & 0x8000:
        n, pos = ((n & 0x7FFF) << 16) | _u16(buf, pos + 2, "string length"), pos + 4
    else:
        pos += 2
    if pos + 2 * n > end:
        raise AxmlError(f"a {n}-unit string runs past the pool's end")
    return buf[pos:pos + 2 * n].decode("utf-16-le")


def parse(buf: bytes) -> Element:
    """The document's root element; ``AxmlError`` for anything that is not binary XML."""
    if len(buf) < 8 or _u16(buf, 0, "header") != RES_XML:
        raise AxmlError("not binary XML (it does not start with the RES_XML_TYPE chunk 0x0003; "
                        "a text AndroidManifest.xml is not what aapt puts in an APK)")
    total = min(_u32(buf, 4, "header"), len(buf))
    strings: list[str] = []
    res_ids: list[int] = []
    stack: list[Element] = []
    root: Element | None = None
    at, seen = _u16(buf, 2, "header"), 0
    while at + 8 <= total:
        kind, size = _u16(buf, at, "chunk"), _u32(buf, at + 4, "chunk")
        if size < 8 or at + size > total:
            raise AxmlError(f"chunk 0x{kind:04x} at byte {at} claims {size} bytes; {total - at} are left")
        if kind == RES_STRING_POOL:
            strings = _string_pool(buf, at, size)
        elif kind == RES_XML_RESOURCE_MAP:
            res_ids = [_u32(buf, at + 8 + 4 * i, "resource map") for i in range((size - 8) // 4)]
        elif kind == RES_XML_START_ELEMENT:
            seen += 1
            if seen > MAX_ELEMENTS:
                raise AxmlError(f"more than {MAX_ELEMENTS} elements")
            el = _element(buf, at, strings, res_ids)
            if stack:
                stack[-1].children.append(el)
            elif root is None:
                root = el
            else:
                raise AxmlError(f"a second root element <{el.tag}> at byte {at}")
            stack.append(el)
        elif kind == RES_XML_END_ELEMENT:
            if not stack:
                raise AxmlError(f"an end tag at byte {at} closes no open element")
            stack.pop()
        at += size
    if root is None:
        raise AxmlError("the document has no elements")
    if stack:
        raise AxmlError(f"<{stack[-1].tag}> is never closed")
    return root


def _string(strings: list[str], index: int, what: str) -> str:
    if index == NO_INDEX:
        return ""
    if index >= len(strings):
        raise AxmlError(f"{what} names string {index}; the pool has {len(strings)}")
    return strings[index]


def _element(buf: bytes, at: int, strings: list[str], res_ids: list[int]) -> Element:
    line = _u32(buf, at + 8, "element")
    ext = at + _u16(buf, at + 2, "element")
    tag = _string(strings, _u32(buf, ext + 4, "element"), f"element at byte {at}")
    attr_start, attr_size, count = (_u16(buf, ext + 8 + 2 * k, "element") for k in range(3))
    if count and attr_size < 20:
        raise AxmlError(f"<{tag}> at byte {at}: attributes of {attr_size} bytes (20 expected)")
    attrs = []
    for i in range(count):
        a = ext + attr_start + i * attr_size
        ns_i, name_i, raw_i = (_u32(buf, a + 4 * k, f"attribute {i} of <{tag}>") for k in range(3))
        kind = buf[a + 15] if a + 16 <= len(buf) else 0
        data = _u32(buf, a + 16, f"attribute {i} of <{tag}>")
        name = _string(strings, name_i, f"attribute {i} of <{tag}>")
        res_id = res_ids[name_i] if name_i < len(res_ids) else 0
        raw = _string(strings, raw_i, f"attribute {name} of <{tag}>") if raw_i != NO_INDEX else None
        if kind == TYPE_STRING and raw is None:
            raw = _string(strings, data, f"attribute {name} of <{tag}>")
        attrs.append(Attr(name, _string(strings, ns_i, "namespace"), res_id, kind, data, raw))
    return Element(tag, attrs, line=line)
