"""A trace folder as bytes and back: how a Ray worker on another machine hands its trace to the driver.

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
    """The files of ``folder`` (recursively, paths relative to it) as tar bytes; b"" when it is missing."""
    folder = Path(folder)
    if not folder.is_dir():
        return b""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for path in sorted(folder.rglob("*")):
            tar.add(path, arcname=path.relative_to(folder).as_posix(), recursive=False)
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
