"""Atomic writes leave either the old or the new file, never a torn one or a stray temporary file."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from droidpilot.atomicio import atomic_write_bytes, atomic_write_json


def test_replaces_the_file_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    atomic_write_json(target, {"a": "é"})
    atomic_write_json(target, {"b": 2})
    assert json.loads(target.read_text("utf-8")) == {"b": 2}
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_concurrent_writers_each_leave_a_whole_file(tmp_path: Path) -> None:
    target = tmp_path / "shared.bin"
    payloads = [bytes([i]) * 200_000 for i in range(8)]
    threads = [threading.Thread(target=atomic_write_bytes, args=(target, p), kwargs={"fsync": False})
               for p in payloads]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert target.read_bytes() in payloads
    assert [p.name for p in tmp_path.iterdir()] == ["shared.bin"]


def test_a_failed_write_keeps_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "keep.json"
    atomic_write_json(target, [1])
    with pytest.raises(TypeError):
        atomic_write_json(target, {"not json": object()})
    assert json.loads(target.read_text("utf-8")) == [1]
    assert [p.name for p in tmp_path.iterdir()] == ["keep.json"]


def test_written_files_are_readable_by_the_group_as_open_would_leave_them(tmp_path: Path) -> None:
    import os

    from droidpilot.atomicio import file_mode

    old = os.umask(0o022)
    os.umask(old)
    target = tmp_path / "results.json"
    atomic_write_json(target, {"a": 1})
    assert file_mode() == 0o666 & ~old
    assert target.stat().st_mode & 0o777 == file_mode()
    if old == 0o022:
        assert target.stat().st_mode & 0o777 == 0o644
