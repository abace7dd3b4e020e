"""The phone's one file system: Files' own documents, Gallery's photos and Recorder's recordings seen as
files in folders, and the file operations (move, copy, delete, open) that change the app lists underneath.

Each app keeps its records where it always did (``files.files``, ``gallery.photos``,
``recorder.recordings``); this module is the shared view of them, as Android's media store and
DocumentsUI are: a photo is ``TITLE.jpg`` in DCIM (the Camera's) or Pictures, a video ``TITLE.mp4``, a
recording ``NAME.m4a`` in Recordings, unless the record names its own ``file`` and ``folder``. A copy stays
with its kind (a copied photo is a new photo, which Gallery shows too). A name clash in the destination is
resolved as Android's ``FileUtils.buildUniqueFile`` does: both are kept and the newcomer becomes
``name (1).ext`` (then ``(2)``...).
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any

from droidpilot.errors import InputError

# folders every phone has, shown even when empty (as Android's top-level storage folders)
STANDARD_FOLDERS = ("DCIM", "Documents", "Download", "Music", "Pictures", "Recordings")
_SUFFIX = re.compile(r"^(.*) \((\d+)\)$")


@dataclass(frozen=True)
class Source:
    """Where one kind of file lives: an app's state list, and how a record reads as a file."""

    app: str
    key: str
    opens: str  # the screen of ``app`` that shows one record, given as ``param``
    param: str

    def records(self, states: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
        """The live list of this source's records (created empty when the app's state lacks it)."""
        app_state = states.setdefault(self.app, {})
        items = app_state.setdefault(self.key, [])
        if not isinstance(items, list):
            raise InputError(f"{self.app}.{self.key} must be a list to hold files, "
                             f"not {type(items).__name__}")
        return items


SOURCES = (
    Source("files", "files", "view", "f"),
    Source("gallery", "photos", "view", "p"),
    Source("recorder", "recordings", "view", "r"),
)


def file_name(source: Source, rec: dict[str, Any]) -> str:
    """The file name a record shows in Files."""
    if source.app == "files":
        return str(rec.get("name", ""))
    if rec.get("file"):
        return str(rec["file"])
    if source.app == "gallery":
        return f"{rec.get('title', '')}.{'mp4' if rec.get('kind') == 'video' else 'jpg'}"
    return f"{rec.get('name', '')}.m4a"


def folder_of(source: Source, rec: dict[str, Any]) -> str:
    """The folder a record lies in."""
    if rec.get("folder"):
        return str(rec["folder"])
    if source.app == "gallery":
        return "DCIM" if rec.get("album") == "Camera" else "Pictures"
    return "Recordings" if source.app == "recorder" else "Documents"


def _size(source: Source, rec: dict[str, Any]) -> str:
    if rec.get("size"):
        return str(rec["size"])
    return {"gallery": "2.4 MB", "recorder": "320 KB"}.get(source.app, "12 KB")


def unique_name(name: str, taken: set[str]) -> str:
    """``name``, or ``stem (N).ext`` with the smallest N not taken (Android keeps both on a clash)."""
    if name not in taken:
        return name
    stem, dot, ext = name.rpartition(".")
    if not dot or not stem:
        stem, ext = name, ""
    match = _SUFFIX.match(stem)
    base = match.group(1) if match else stem
    n = 1
    while True:
        candidate = f"{base} ({n})" + (f".{ext}" if ext else "")
        if candidate not in taken:
            return candidate
        n += 1


class FileSystem:
    """Operations on the shared file system over the apps' live state (``World.states``)."""

    def __init__(self, states: dict[str, dict[str, Any]]) -> None:
        self.states = states

    def listing(self) -> list[dict[str, Any]]:
        """Every file: ``{name, folder, size, source, openable}``, Files' own first, then photos, then
        recordings (a document of Files' own opens only where it names an app: ``opens``)."""
        out = []
        for source in SOURCES:
            if source.app not in self.states:
                continue
            for rec in self.states[source.app].get(source.key) or []:
                if isinstance(rec, dict):
                    out.append({"name": file_name(source, rec), "folder": folder_of(source, rec),
                                "size": _size(source, rec), "source": source.app,
                                "openable": source.app != "files" or isinstance(rec.get("opens"), dict)})
        return out

    def folders(self) -> list[dict[str, Any]]:
        """Every folder (standard, holding a file, or made in Files) with how many files it holds (``count``,
        and as words, ``items``: "1 item", "3 items")."""
        files = self.listing()
        made = self.states.get("files", {}).get("folders") or []
        names = set(STANDARD_FOLDERS) | {f["folder"] for f in files} | {str(m) for m in made}
        counts = {n: sum(1 for f in files if f["folder"] == n) for n in names}
        return [{"name": n, "count": counts[n], "items": f"{counts[n]} item{'' if counts[n] == 1 else 's'}"}
                for n in sorted(names, key=str.lower)]

    def _find(self, file: dict[str, Any]) -> tuple[Source, dict[str, Any]]:
        if not isinstance(file, dict) or not {"name", "folder", "source"} <= set(file):
            raise InputError("a file operation needs a file from the listing (name, folder, source), "
                             f"got {file!r}")
        for source in SOURCES:
            if source.app != file["source"] or source.app not in self.states:
                continue
            for rec in source.records(self.states):
                if file_name(source, rec) == file["name"] and folder_of(source, rec) == file["folder"]:
                    return source, rec
        raise InputError(f"no file {file['name']!r} in {file['folder']!r} any more")

    def _taken(self, folder: str) -> set[str]:
        return {f["name"] for f in self.listing() if f["folder"] == folder}

    @staticmethod
    def _place(source: Source, rec: dict[str, Any], name: str, folder: str) -> None:
        rec["folder"] = folder
        if source.app == "files":
            rec["name"] = name
        elif name != file_name(source, {**rec, "file": None}):
            rec["file"] = name

    def move(self, file: dict[str, Any], folder: str) -> str:
        """Move ``file`` into ``folder``; returns its name there (renamed on a clash)."""
        source, rec = self._find(file)
        if folder_of(source, rec) == folder:
            return file_name(source, rec)
        name = unique_name(file_name(source, rec), self._taken(folder))
        self._place(source, rec, name, folder)
        return name

    def copy(self, file: dict[str, Any], folder: str) -> str:
        """Put a copy of ``file`` into ``folder`` (the original stays); returns the copy's name."""
        source, rec = self._find(file)
        name = unique_name(file_name(source, rec), self._taken(folder))
        dup = copy.deepcopy(rec)
        self._place(source, dup, name, folder)
        source.records(self.states).append(dup)
        return name

    def delete(self, file: dict[str, Any]) -> None:
        """Remove ``file`` from its app's list."""
        source, rec = self._find(file)
        items = source.records(self.states)
        items[:] = [r for r in items if r is not rec]

    def opener(self, file: dict[str, Any]) -> tuple[str, str, dict[str, Any]]:
        """What opening ``file`` shows: (app, screen, params), the app that owns the record (a record may
        name another: ``opens: {app, screen, param}``, e.g. a page saved in Download opening in Browser)."""
        source, rec = self._find(file)
        custom = rec.get("opens")
        if isinstance(custom, dict):
            if not {"app", "screen"} <= set(custom):
                raise InputError(f"file {file['name']!r}: opens needs `app` and `screen` "
                                 "(and may give `with`)")
            return str(custom.get("app", "")), str(custom.get("screen", "")), dict(custom.get("with") or {})
        if source.app == "files":
            raise InputError(f"no app opens {file['name']!r}: give its record `opens: {{app, screen}}`")
        return source.app, source.opens, {source.param: copy.deepcopy(rec)}
