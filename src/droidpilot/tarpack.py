"""A trace (folder or file) as bytes and back: how traces cross machines in a Ray cluster (a bench
actor hands its trace folder to the driver; the driver hands a trace to a remote verifier).

The archive is a plain (uncompressed: screenshots are JPEG/PNG already) tar of the folder's files. The
driver unpacks it with the ``data`` filter, so a member can never land outside the target folder.
"""

from __future__ import annotations

import io
import shutil
import tarfile
from pathlib import Path

from droidpilot.errors import DroidpilotError


def pack_folder(folder: Path) -> bytes:
    """The files of ``folder`` (recursively, paths relative to it) as tar bytes; b"" when it is missing.
    A plain file is packed as the archive's one member, under its own name."""
    folder = Path(folder)
    if folder.is_file():
        members = [(folder, folder.name)]
    elif folder.is_dir():
        members = [(p, p.relative_to(folder).as_posix()) for p in sorted(folder.rglob("*"))]
    else:
        return b""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for path, name in members:
            tar.add(path, arcname=name, recursive=False)
    return buffer.getvalue()


def unpack_folder(data: bytes, folder: Path) -> None:
    """Replace ``folder`` with the contents of ``data`` (from :func:`pack_folder`); DroidpilotError when
    the archive is damaged or tries to write outside the folder."""
    folder = Path(folder)
    staging = folder.with_name(folder.name + ".incoming")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    try:
        if data:
            with tarfile.open(fileobj=io.BytesIO(data), mode="r") as tar:
                tar.extractall(staging, filter="data")
    except (tarfile.TarError, OSError) as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise DroidpilotError(f"the trace archive for {folder} could not be unpacked: {exc}") from None
    shutil.rmtree(folder, ignore_errors=True)
    staging.replace(folder)
