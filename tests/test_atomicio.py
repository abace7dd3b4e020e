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
