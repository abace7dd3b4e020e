"""Why a path cannot be read as a file or written as a folder, in words (not just "does not exist").

A looping symbolic link, a FIFO (reading it would block forever) or a link to /dev/zero (reading it
never ends) are not missing files; saying so sends people looking in the wrong place.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from droidpilot.errors import InputError

_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def file_problem(path: Path) -> str | None:
    """What stops ``path`` from being read as a regular file (``"does not exist"``, ``"is a symbolic
    link that loops"``, ``"is a FIFO (named pipe), not a regular file"`` ...), or None when nothing does."""
    try:
        info = path.stat()
    except ValueError:  # the only one stat raises: an embedded NUL byte
        return "has a NUL byte in its name (no file can be called that; check how the path was made)"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "is a symbolic link that loops (it points back to itself)"
        if path.is_symlink():
            return f"is a symbolic link to {os.readlink(path)!r}, which does not exist"
        if exc.errno == errno.ENOENT:
            return "does not exist"
        return f"cannot be read ({exc.strerror or exc})"
    if stat.S_ISDIR(info.st_mode):
        return "is a folder, not a file"
    if not stat.S_ISREG(info.st_mode):
        kind = next((name for test, name in _KINDS if test(info.st_mode)), "a special file")
        via = f" (a link to {os.path.realpath(path)})" if path.is_symlink() else ""
        return f"is {kind}{via}, not a regular file"
    if not os.access(path, os.R_OK):
        return "is not readable (check its permissions)"
    return None


def writable_folder(path: Path, option: str = "--out") -> Path:
    """Create folder ``path`` if needed and make sure files can be written in it; InputError (naming
    ``option``) when it is a file, lies under a file, or cannot be written."""
    if path.exists() and not path.is_dir():
        raise InputError(f"{option} {path} is a file; give a folder (it is created if missing)")
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        reason = exc.strerror or str(exc)
        if exc.errno in (errno.ENOTDIR, errno.EEXIST):
            reason = "a part of the path is a file, not a folder"
        raise InputError(f"{option} {path}: cannot write there ({reason}); choose a folder you can "
                         "write to") from None
    return path
