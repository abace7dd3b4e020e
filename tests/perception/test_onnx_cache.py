"""Optimised OCR models kept on disk: an entry per (model bytes, onnxruntime, CPU), opened instead of
optimising again with the same outputs; damaged entries rebuilt, concurrent writers safe, a cache that
cannot be written only costs the optimisation."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from droidpilot.errors import DroidpilotError
from droidpilot.perception import onnx_sessions
from droidpilot.perception.onnx_cache import KEEP_PER_MODEL, SUBDIR, ModelCache, runtime_identity
from droidpilot.perception.rapid_config import DET_MODEL, shipped_model_dir

PROBE = np.random.default_rng(7).random((1, 3, 96, 160), dtype=np.float32) * 2 - 1


@pytest.fixture
def model(tmp_path: Path) -> Path:
    """A private copy of the shipped detection model (its file identity is this test's own)."""
    path = tmp_path / "models" / DET_MODEL
    path.parent.mkdir()
    shutil.copy(shipped_model_dir() / DET_MODEL, path)
    return path


@pytest.fixture
def cache_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "cache"
    monkeypatch.setenv("DROIDPILOT_CACHE_DIR", str(root))
    monkeypatch.delenv(onnx_sessions.CACHE_SWITCH, raising=False)
    return root / SUBDIR


def _read(session) -> np.ndarray:
    return session.run(None, {session.get_inputs()[0].name: PROBE})[0]


def _plain(model: Path) -> np.ndarray:
    """What a session onnxruntime optimises itself reads (no cache involved)."""
    opts = onnx_sessions._options(ort, 2, False)
    return _read(ort.InferenceSession(str(model), opts, providers=["CPUExecutionProvider"]))


def _entries(root: Path) -> list[Path]:
    return sorted(root.glob("*.onnx"))


def test_the_saved_model_is_opened_next_time_and_reads_the_same(model, cache_root, monkeypatch) -> None:
    expected = _plain(model)
    first = onnx_sessions.new_session(model)
    [entry] = _entries(cache_root)
    assert np.array_equal(_read(first), expected)
    opened = []
    real = ModelCache.open

    def spy(self, path, build, load):
        return real(self, path, build, lambda name: opened.append(name) or load(name))

    monkeypatch.setattr(ModelCache, "open", spy)
    second = onnx_sessions.new_session(model)
    assert opened == [str(entry)]  # the optimised copy, not the model file
    assert np.array_equal(_read(second), expected)
    assert _entries(cache_root) == [entry] and not list(cache_root.glob(".*.tmp"))


def test_the_key_follows_the_model_bytes_runtime_and_cpu_not_the_path(model, tmp_path) -> None:
    cache = ModelCache(tmp_path / "c", "1.0;build", cpu="x86_64;avx2 fma")
    cache.directory.mkdir()
    elsewhere = tmp_path / "other" / model.name
    elsewhere.parent.mkdir()
    shutil.copy(model, elsewhere)
    assert cache.entry(elsewhere) == cache.entry(model)  # same bytes: same entry
    assert ModelCache(cache.directory, "1.1;build", cpu="x86_64;avx2 fma").entry(model) != cache.entry(model)
    assert ModelCache(cache.directory, "1.0;build", cpu="x86_64;avx2 avx512f fma").entry(model) \
        != cache.entry(model)
    changed = bytearray(model.read_bytes())
    changed[-1] ^= 1  # one bit of one weight
    elsewhere.write_bytes(bytes(changed))
    assert cache.entry(elsewhere) != cache.entry(model)


def test_the_hash_is_remembered_and_a_damaged_memo_is_recomputed(model, tmp_path) -> None:
    cache = ModelCache(tmp_path / "c", "rt", cpu="cpu")
    cache.directory.mkdir()
    digest = cache.model_digest(model)
    [memo] = cache.directory.glob("*.sha256")
    assert memo.read_text() == digest
    memo.write_text("0" * 63 + "g")  # not a SHA-256: hashed again, and the memo mended
    assert cache.model_digest(model) == digest and memo.read_text() == digest
    memo.write_text("f" * 64)  # a remembered hash is trusted while the file is the same file...
    assert cache.model_digest(model) == "f" * 64
    model.write_bytes(model.read_bytes() + b"\0")  # ...and not once it changes
    assert cache.model_digest(model) not in ("f" * 64, digest)


@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty"])
def test_a_damaged_entry_is_rebuilt(model, cache_root, damage) -> None:
    expected = _plain(model)
    onnx_sessions.new_session(model)
    [entry] = _entries(cache_root)
    whole = entry.read_bytes()
    entry.write_bytes({"garbage": b"not a model at all" * 100, "truncated": whole[: len(whole) // 2],
                       "empty": b""}[damage])
    assert np.array_equal(_read(onnx_sessions.new_session(model)), expected)
    rebuilt = _entries(cache_root)
    assert rebuilt == [entry] and abs(entry.stat().st_size - len(whole)) < 1024  # written again, whole
    opts = onnx_sessions._options(ort, 2, False)
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    assert np.array_equal(_read(ort.InferenceSession(str(entry), opts)), expected)


def test_concurrent_writers_leave_one_whole_entry(model, cache_root) -> None:
    expected = _plain(model)
    results: list[object] = [None] * 4
    start = threading.Barrier(len(results))

    def open_one(i: int) -> None:
        start.wait()
        try:
            results[i] = _read(onnx_sessions.new_session(model))
        except BaseException as exc:  # reported below
            results[i] = exc

    threads = [threading.Thread(target=open_one, args=(i,)) for i in range(len(results))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(isinstance(r, np.ndarray) and np.array_equal(r, expected) for r in results), results
    assert len(_entries(cache_root)) == 1 and not list(cache_root.glob(".*.tmp"))
    assert np.array_equal(_read(onnx_sessions.new_session(model)), expected)  # the entry that won opens


def test_a_cache_that_cannot_be_written_only_costs_the_optimisation(model, tmp_path, monkeypatch) -> None:
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x")
    monkeypatch.setenv("DROIDPILOT_CACHE_DIR", str(blocked))
    assert np.array_equal(_read(onnx_sessions.new_session(model)), _plain(model))
    assert blocked.read_text() == "x"


@pytest.mark.parametrize("off", ["0", "off", " No ", "false"])
def test_switched_off_nothing_is_written(model, cache_root, monkeypatch, off) -> None:
    monkeypatch.setenv(onnx_sessions.CACHE_SWITCH, off)
    onnx_sessions.new_session(model)
    assert not cache_root.exists()


def test_a_folder_of_its_own_outlives_an_emptied_cache(model, cache_root, tmp_path, monkeypatch) -> None:
    own = tmp_path / "models-optimised"
    monkeypatch.setenv(onnx_sessions.CACHE_SWITCH, str(own))
    onnx_sessions.new_session(model)
    assert len(_entries(own)) == 1 and not cache_root.exists()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(onnx_sessions.CACHE_SWITCH, "offline")  # a folder named like a switch, nearly
    onnx_sessions.new_session(model)
    assert len(_entries(tmp_path / "offline")) == 1


def test_a_broken_model_still_fails_with_the_usual_message_and_leaves_nothing(tmp_path, cache_root) -> None:
    broken = tmp_path / DET_MODEL
    broken.write_bytes(b"not a model")
    with pytest.raises(DroidpilotError, match=r"cannot be loaded .*reinstall the rapidocr wheel"):
        onnx_sessions.new_session(broken)
    assert _entries(cache_root) == [] and not list(cache_root.glob(".*.tmp"))


def test_old_entries_of_a_model_are_pruned(model, tmp_path) -> None:
    directory = tmp_path / "c"
    directory.mkdir()
    stem = model.stem
    for i in range(KEEP_PER_MODEL + 2):
        old = directory / f"{stem}.{i:040d}.onnx"
        old.write_bytes(b"old")
        stamp = 1_000_000 + i
        os.utime(old, (stamp, stamp))
    (directory / "other-model.1.onnx").write_bytes(b"kept")
    stale = directory / f".{stem}.x.onnx.abc.tmp"
    stale.write_bytes(b"left by a writer that died")
    os.utime(stale, (1, 1))
    cache = ModelCache(directory, runtime_identity(ort))
    cache.open(model, lambda name, save_to: onnx_sessions.new_session(Path(name)) if save_to is None
               else _build_saving(name, save_to), lambda name: None)
    kept = sorted(p.name for p in directory.glob(f"{stem}.*.onnx"))
    assert len(kept) == KEEP_PER_MODEL and cache.entry(model).name in kept
    assert f"{stem}.{KEEP_PER_MODEL + 1:040d}.onnx" in kept  # the newest old ones stay
    assert (directory / "other-model.1.onnx").exists() and not stale.exists()


def _build_saving(model: str, save_to: str):
    opts = onnx_sessions._options(ort, 1, False)
    opts.optimized_model_filepath = save_to
    return ort.InferenceSession(model, opts, providers=["CPUExecutionProvider"])
