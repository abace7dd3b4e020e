"""An in-memory file system for one SimPhone: /sdcard and /data/local/tmp, so push, pull and screencap work.

Paths are POSIX and absolute; /sdcard, /storage/self/primary and /mnt/sdcard name the same directory as
/storage/emulated/0, the way they do on Android. Errors carry the errno text Android's tools print.
"""

from __future__ import annotations

import posixpath
import stat as stat_mod
import threading
import time
from dataclasses import dataclass, field

_ALIASES = {
    "/sdcard": "/storage/emulated/0",
    "/storage/self/primary": "/storage/emulated/0",
    "/mnt/sdcard": "/storage/emulated/0",
}
_READ_ONLY = ("/system", "/proc", "/vendor", "/product")
_INITIAL_DIRS = (
    "/", "/data", "/data/local", "/data/local/tmp", "/storage", "/storage/emulated", "/storage/emulated/0",
    "/storage/emulated/0/Download", "/storage/emulated/0/Pictures", "/storage/emulated/0/DCIM",
    "/storage/emulated/0/Documents", "/storage/emulated/0/Music", "/system", "/system/bin", "/dev",
)
_LINKS = {"/storage/self": 0o755, "/mnt": 0o755}


class VfsError(OSError):
    """A file-system call failed; ``str()`` is the errno text (e.g. 'No such file or directory')."""

    def __init__(self, reason: str, path: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.path = path

    def __str__(self) -> str:
        return self.reason


@dataclass
class Node:
    """One file or directory: mode bits (type included), contents for files, modification time."""

    mode: int
    data: bytearray = field(default_factory=bytearray)
    mtime: int = field(default_factory=lambda: int(time.time()))

    @property
    def is_dir(self) -> bool:
        """True for directories."""
        return stat_mod.S_ISDIR(self.mode)

    @property
    def size(self) -> int:
        """Bytes in a file (4096 for a directory, as ext4 reports)."""
        return 4096 if self.is_dir else len(self.data)


def canonical(path: str, cwd: str = "/") -> str:
    """The absolute, normalised form of ``path`` with Android's storage aliases resolved."""
    if not path.startswith("/"):
        path = posixpath.join(cwd, path)
    path = posixpath.normpath(path)
    if path.startswith("//"):
        path = "/" + path.lstrip("/")
    for alias, target in _ALIASES.items():
        if path == alias or path.startswith(alias + "/"):
            return target + path[len(alias):]
    return path


class Vfs:
    """A thread-safe tree of files and directories held in memory."""

    def __init__(self, capacity: int = 256 * 1024 * 1024) -> None:
        self._lock = threading.RLock()
        self._nodes: dict[str, Node] = {}
        self.capacity = capacity  # bytes all files together may hold (memory is the phone's storage)
        for d in _INITIAL_DIRS:
            self._nodes[d] = Node(stat_mod.S_IFDIR | 0o771)
        for link, perm in _LINKS.items():
            self._nodes.setdefault(link, Node(stat_mod.S_IFDIR | perm))

    def stat(self, path: str) -> Node:
        """The node at ``path``; raises VfsError if there is none."""
        p = canonical(path)
        with self._lock:
            node = self._nodes.get(p)
        if node is None:
            raise VfsError("No such file or directory", path)
        return node

    def exists(self, path: str) -> bool:
        """True when something is at ``path``."""
        with self._lock:
            return canonical(path) in self._nodes

    def read(self, path: str) -> bytes:
        """The contents of the file at ``path``."""
        node = self.stat(path)
        if node.is_dir:
            raise VfsError("Is a directory", path)
        return bytes(node.data)

    def _parent_dir(self, p: str, shown: str) -> None:
        parent = self._nodes.get(posixpath.dirname(p))
        if parent is None:
            raise VfsError("No such file or directory", shown)
        if not parent.is_dir:
            raise VfsError("Not a directory", shown)
        if any(p == r or p.startswith(r + "/") for r in _READ_ONLY):
            raise VfsError("Read-only file system", shown)

    def write(self, path: str, data: bytes, *, append: bool = False, mode: int = 0o660,
              mtime: int | None = None) -> None:
        """Create or replace (or append to) the file at ``path``; its directory must exist."""
        p = canonical(path)
        with self._lock:
            self._parent_dir(p, path)
            node = self._nodes.get(p)
            if node is not None and node.is_dir:
                raise VfsError("Is a directory", path)
            kept = len(node.data) if node is not None and append else 0
            replaced = len(node.data) if node is not None else 0
            if self.used() - replaced + kept + len(data) > self.capacity:
                raise VfsError("No space left on device", path)
            if node is None or not append:
                node = Node(stat_mod.S_IFREG | (mode & 0o7777))
                self._nodes[p] = node
            node.data.extend(data)
            node.mtime = int(time.time()) if mtime is None else mtime

    def used(self) -> int:
        """Bytes held by all files."""
        with self._lock:
            return sum(len(n.data) for n in self._nodes.values())

    def mkdir(self, path: str, *, parents: bool = False) -> None:
        """Create a directory (and with ``parents`` its missing ancestors)."""
        p = canonical(path)
        with self._lock:
            if p in self._nodes:
                if parents and self._nodes[p].is_dir:
                    return
                raise VfsError("File exists", path)
            if parents and posixpath.dirname(p) not in self._nodes:
                self.mkdir(posixpath.dirname(p), parents=True)
            self._parent_dir(p, path)
            self._nodes[p] = Node(stat_mod.S_IFDIR | 0o771)

    def remove(self, path: str, *, recursive: bool = False) -> None:
        """Delete a file, or with ``recursive`` a directory and everything under it."""
        p = canonical(path)
        with self._lock:
            node = self._nodes.get(p)
            if node is None:
                raise VfsError("No such file or directory", path)
            if node.is_dir and not recursive:
                raise VfsError("Is a directory", path)
            if p in _INITIAL_DIRS or p in _LINKS:
                raise VfsError("Permission denied", path)
            for key in [k for k in self._nodes if k == p or k.startswith(p + "/")]:
                del self._nodes[key]

    def listdir(self, path: str) -> list[tuple[str, Node]]:
        """(name, node) of the entries of a directory, sorted by name."""
        p = canonical(path)
        with self._lock:
            node = self._nodes.get(p)
            if node is None:
                raise VfsError("No such file or directory", path)
            if not node.is_dir:
                raise VfsError("Not a directory", path)
            prefix = p.rstrip("/") + "/"
            out = [(k[len(prefix):], n) for k, n in self._nodes.items()
                   if k.startswith(prefix) and k != p and "/" not in k[len(prefix):]]
        return sorted(out)
