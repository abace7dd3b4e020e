"""Trace folders and files as bytes and back (how traces cross machines); a hostile archive is refused."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

from droidpilot.errors import DroidpilotError
from droidpilot.tarpack import pack_folder, unpack_folder


def test_a_folder_round_trips_and_replaces_the_target(tmp_path: Path) -> None:
    src = tmp_path / "trace"
    (src / "sub").mkdir(parents=True)
    (src / "1.jpg").write_bytes(bytes(range(256)) * 10)
    (src / "sub" / "a.json").write_text('{"x": 1}')
    dest = tmp_path / "out" / "trace"
    dest.mkdir(parents=True)
    (dest / "stale.txt").write_text("old")
    unpack_folder(pack_folder(src), dest)
    assert sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*")) == ["1.jpg", "sub", "sub/a.json"]
    assert (dest / "1.jpg").read_bytes() == (src / "1.jpg").read_bytes()
    assert sorted(p.name for p in dest.parent.iterdir()) == ["trace"]  # no staging folder left


def test_a_file_and_a_missing_folder(tmp_path: Path) -> None:
    frames = tmp_path / "frames.json"
    frames.write_text("[]")
    unpack_folder(pack_folder(frames), tmp_path / "got")
    assert (tmp_path / "got" / "frames.json").read_text() == "[]"
    assert pack_folder(tmp_path / "nothing") == b""


def test_members_outside_the_folder_are_refused(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        data = b"pwned"
        info = tarfile.TarInfo("../escaped.txt")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    with pytest.raises(DroidpilotError, match="could not be unpacked"):
        unpack_folder(buffer.getvalue(), tmp_path / "in" / "trace")
    assert not (tmp_path / "in" / "escaped.txt").exists()
    with pytest.raises(DroidpilotError, match="could not be unpacked"):
        unpack_folder(b"not a tar at all" * 40, tmp_path / "in" / "trace")
