"""The ``sync:`` service: STAT/STA2/LST2, LIST/LIS2, RECV, SEND and QUIT on the phone's file system.

Each request is a 4-byte id, a u32 little-endian length and that many bytes (a path, or ``path,mode`` for
SEND); replies are the structs adbd sends, so `adb push`/`pull`/`ls` and adbutils' Sync work unchanged.
"""

from __future__ import annotations

import errno
import re
import stat as stat_mod
import struct
import time

from droidpilot.device.adbd.protocol import Conn, ProtocolError
from droidpilot.device.adbd.vfs import Node, Vfs, VfsError

MAX_PATH = 1024
MAX_CHUNK = 64 * 1024  # SYNC_DATA_MAX
MAX_FILE = 512 * 1024 * 1024
_ERRNO = {"No such file or directory": errno.ENOENT, "Not a directory": errno.ENOTDIR,
          "Is a directory": errno.EISDIR, "Permission denied": errno.EACCES,
          "Read-only file system": errno.EROFS, "File exists": errno.EEXIST,
          "No space left on device": errno.ENOSPC}


def _u32(v: int) -> bytes:
    return struct.pack("<I", v & 0xFFFFFFFF)


def _fail(conn: Conn, message: str) -> None:
    data = message.encode("utf-8")
    conn.send(b"FAIL" + _u32(len(data)) + data)


def _stat_v1(node: Node | None) -> bytes:
    if node is None:
        return b"STAT" + bytes(12)
    return b"STAT" + struct.pack("<III", node.mode, node.size & 0xFFFFFFFF, node.mtime)


def _stat_v2(kind: bytes, node: Node | None, err: int, ino: int) -> bytes:
    if node is None:
        return kind + struct.pack("<IQQIIIIQqqq", err, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    nlink = 2 if node.is_dir else 1
    return kind + struct.pack("<IQQIIIIQqqq", 0, 0xFD00, ino, node.mode, nlink, 0, 1015, node.size,
                              node.mtime, node.mtime, node.mtime)


def _lookup(fs: Vfs, path: str) -> tuple[Node | None, int]:
    try:
        return fs.stat(path), 0
    except VfsError as exc:
        return None, _ERRNO.get(exc.reason, errno.EIO)


def _list(conn: Conn, fs: Vfs, path: str, v2: bool) -> None:
    try:
        entries = fs.listdir(path)
        here = fs.stat(path)
        entries = [(".", here), ("..", here), *entries]
    except VfsError:
        entries = []
    out = bytearray()
    for ino, (name, node) in enumerate(entries, start=2):
        raw = name.encode("utf-8")
        if v2:
            out += _stat_v2(b"DNT2", node, 0, ino) + _u32(len(raw)) + raw
        else:
            out += b"DENT" + struct.pack("<IIII", node.mode, node.size, node.mtime, len(raw)) + raw
    out += b"DONE" + bytes(72 if v2 else 16)
    conn.send(bytes(out))


def _recv(conn: Conn, fs: Vfs, path: str) -> None:
    try:
        data = fs.read(path)
    except VfsError as exc:
        _fail(conn, f"open failed: {exc}")
        return
    for i in range(0, len(data), MAX_CHUNK):
        chunk = data[i:i + MAX_CHUNK]
        conn.send(b"DATA" + _u32(len(chunk)) + chunk)
    conn.send(b"DONE" + _u32(0))


_MODE = re.compile(r"0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*")  # strtoul(..., 0): hex, octal, decimal
MAX_MODE = 0o177777  # the file type bits (S_IFMT) and the permission bits (07777)


def parse_mode(text: str) -> int | None:
    """The mode of a SEND spec as adbd reads it (``strtoul(text, nullptr, 0)``: decimal, 0-prefixed
    octal or 0x hex), or None for text that is not such a number or a mode beyond MAX_MODE."""
    if len(text) > 24 or not _MODE.fullmatch(text):
        return None
    mode = int(text, 0) if not (text.startswith("0") and text[1:2].isdigit()) else int(text, 8)
    return mode if mode <= MAX_MODE else None


def _send(conn: Conn, fs: Vfs, spec: str) -> None:
    path, comma, mode_text = spec.rpartition(",")
    mode = parse_mode(mode_text) if comma else None  # None: refused once the data is read (stays in step)
    buf = bytearray()
    too_big = False
    while True:
        head = conn.read_exact(8)
        kind, length = head[:4], struct.unpack("<I", head[4:])[0]
        if kind == b"DATA":
            if length > MAX_CHUNK * 16:
                raise ProtocolError(f"sync DATA chunk of {length} bytes")
            chunk = conn.read_exact(length)
            if len(buf) + len(chunk) > MAX_FILE:
                too_big = True
            else:
                buf += chunk
        elif kind == b"DONE":
            mtime = length or int(time.time())
            break
        else:
            raise ProtocolError(f"unexpected {kind!r} inside SEND")
    if not comma:
        _fail(conn, f"missing , in ID_SEND (expected PATH,MODE, got {spec[:200]!r})")
        return
    if mode is None:
        _fail(conn, f"bad file mode {mode_text[:40]!r} in ID_SEND: expected a number (decimal, 0-prefixed "
                    f"octal or 0x hex) from 0 to {MAX_MODE:#o}, the file type and permission bits ({path})")
        return
    if too_big:
        _fail(conn, f"write failed: No space left on device ({path})")
        return
    if stat_mod.S_ISLNK(mode):
        _fail(conn, f"symlinks are not supported ({path})")
        return
    try:
        parent = path.rsplit("/", 1)[0]
        if parent:
            fs.mkdir(parent, parents=True)
        fs.write(path, bytes(buf), mode=mode & 0o777, mtime=mtime)
    except VfsError as exc:
        _fail(conn, f"couldn't create file: {exc}")
        return
    conn.send(b"OKAY" + _u32(0))


def serve_sync(conn: Conn, fs: Vfs) -> None:
    """Answer sync requests until QUIT or the client goes away."""
    while True:
        try:
            head = conn.read_exact(8)
        except ProtocolError:
            return
        kind, length = head[:4], struct.unpack("<I", head[4:])[0]
        if kind == b"QUIT":
            return
        if length > MAX_PATH:
            _fail(conn, f"path too long ({length} bytes)")
            return
        raw = conn.read_exact(length)
        try:
            path = raw.decode("utf-8")
        except UnicodeDecodeError:
            _fail(conn, "path is not UTF-8")
            return
        if kind == b"STAT":
            conn.send(_stat_v1(_lookup(fs, path)[0]))
        elif kind in (b"STA2", b"LST2"):
            node, err = _lookup(fs, path)
            conn.send(_stat_v2(kind, node, err, 1))
        elif kind in (b"LIST", b"LIS2"):
            _list(conn, fs, path, kind == b"LIS2")
        elif kind == b"RECV":
            _recv(conn, fs, path)
        elif kind == b"SEND":
            _send(conn, fs, path)
        else:
            _fail(conn, f"unknown sync command {kind!r}")
            return
