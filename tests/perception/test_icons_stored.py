"""The glyph library's descriptors stored on disk: built once, loaded after, rebuilt when a font changes
or the entry is damaged, and the same numbers either way."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from droidpilot.perception.icons.glyphs import stored


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DROIDPILOT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv(stored.STORE_ENV, raising=False)
    return tmp_path / "cache" / "glyphs"


class Builder:
    """A build function that counts its calls and returns fixed arrays (rng seeded)."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> dict[str, np.ndarray]:
        self.calls += 1
        rng = np.random.default_rng(7)
        return {"names": np.asarray(["settings", "cogs"]), "matrix": rng.random((2, 5), dtype=np.float32)}


def test_built_once_then_loaded_with_the_same_numbers(cache: Path, tmp_path: Path) -> None:
    font = tmp_path / "a.ttf"
    font.write_bytes(b"font one")
    build = Builder()
    first = stored.load_or_build("styled", [str(font)], build)
    second = stored.load_or_build("styled", [str(font)], build)
    assert build.calls == 1 and len(list(cache.glob("styled-*.npz"))) == 1
    assert list(second["names"]) == ["settings", "cogs"]
    np.testing.assert_array_equal(first["matrix"], second["matrix"])  # built is rounded as loaded is
    assert second["matrix"].dtype == np.float32


def test_another_font_is_another_entry(cache: Path, tmp_path: Path) -> None:
    font = tmp_path / "a.ttf"
    font.write_bytes(b"font one")
    build = Builder()
    stored.load_or_build("styled", [str(font)], build)
    font.write_bytes(b"font two")  # near miss: same path, other bytes
    stored.load_or_build("styled", [str(font)], build)
    assert build.calls == 2 and len(list(cache.glob("styled-*.npz"))) == 2


def test_a_damaged_entry_is_built_again(cache: Path, tmp_path: Path,
                                        caplog: pytest.LogCaptureFixture) -> None:
    build = Builder()
    stored.load_or_build("drawn", [str(tmp_path / "x")], build)
    (entry,) = cache.glob("drawn-*.npz")
    entry.write_bytes(b"not an npz")
    again = stored.load_or_build("drawn", [str(tmp_path / "x")], build)
    assert build.calls == 2 and list(again["names"]) == ["settings", "cogs"]
    assert "unreadable" in caplog.text


def test_the_store_can_be_turned_off(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(stored.STORE_ENV, "0")
    build = Builder()
    stored.load_or_build("drawn", [], build)
    stored.load_or_build("drawn", [], build)
    assert build.calls == 2 and not cache.exists()


def test_old_entries_are_pruned(cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stored, "KEEP", 2)
    build = Builder()
    for i in range(4):
        stored.load_or_build("drawn", [f"font-{i}"], build)
    assert len(list(cache.glob("drawn-*.npz"))) == 2
