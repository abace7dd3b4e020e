"""Reading and writing the files of a trace folder for the review page, whatever the folder holds.

Only regular files are read (a FIFO named ``react.json`` would block the reader forever), at most
``MAX_FILE`` bytes each, as JSON nested at most ``datalimits.MAX_DEPTH`` deep; a name that is not a
readable file is described (a looping or dangling symbolic link, a folder, a device) instead of being
called missing.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Any

from droidpilot.atomicio import atomic_write_json
from droidpilot.datalimits import DataLimitError, load_json_text
from droidpilot.studio.errors import StudioError

MAX_FILE = 64 * 1024 * 1024  # bytes of one JSON file of a trace the review page reads


def is_dir(path: Path) -> bool:
    """Whether ``path`` is a folder (False for any name the OS cannot look up)."""
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


def file_problem(path: Path) -> str | None:
    """Why ``path`` is not a regular file that can be read (None when it is one, "missing" when absent)."""
    try:
        info = path.stat()
    except FileNotFoundError:
        try:
            target = os.readlink(path)
        except OSError:
            return "missing"
        return f"{path.name} is a symbolic link to {target!r}, which does not exist"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return f"{path.name} is a symbolic link that loops (it leads back to itself)"
        return f"{path.name} cannot be looked at: {exc.strerror}"
    except ValueError as exc:
        return f"{path.name}: {exc}"
    if stat.S_ISDIR(info.st_mode):
        return f"{path.name} is a folder, not a file"
    if not stat.S_ISREG(info.st_mode):
        return f"{path.name} is not a regular file (a pipe, socket or device), so it is not read"
    if info.st_size > MAX_FILE:
        return f"{path.name} is {info.st_size:,} bytes; the review page reads files of at most {MAX_FILE:,}"
    if not os.access(path, os.R_OK):
        return f"{path.name} cannot be read: permission denied"
    return None


def read_text(path: Path) -> str:
    """The text of a regular file (StudioError naming the file and the problem otherwise)."""
    problem = file_problem(path)
    if problem is not None:
        raise StudioError(f"{path.parent}: {'no ' + path.name if problem == 'missing' else problem}")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise StudioError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise StudioError(f"{path}: cannot be read: {exc.strerror}") from None


def load_json(path: Path) -> Any:
    """The JSON document in ``path`` (StudioError: unreadable, too deep, malformed)."""
    text = read_text(path)
    try:
        return load_json_text(text)
    except DataLimitError as exc:
        raise StudioError(f"{path}: {exc}") from None
    except ValueError as exc:
        raise StudioError(f"{path}: not valid JSON ({exc})") from None


def read_json(path: Path) -> Any:
    """A side file's JSON for display: None when absent, ``{"unreadable": why}`` when it cannot be read."""
    if file_problem(path) == "missing":
        return None
    try:
        return load_json(path)
    except StudioError as exc:
        return {"unreadable": str(exc)}


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The JSON objects of a JSON-lines file, skipping lines that are not one (a run killed mid-line)."""
    try:
        lines = read_text(path).splitlines()
    except StudioError:
        return []
    out = []
    for line in lines:
        try:
            item = load_json_text(line)
        except (ValueError, DataLimitError):  # a cut, malformed or hostile line
            continue
        if isinstance(item, dict):
            out.append(item)
    return out


def write_json(path: Path, data: Any) -> None:
    """Write ``data`` to ``path`` atomically (StudioError naming the file when the folder refuses it)."""
    try:
        atomic_write_json(path, data)
    except OSError as exc:
        raise StudioError(f"cannot write {path}: {exc.strerror or exc}") from None
