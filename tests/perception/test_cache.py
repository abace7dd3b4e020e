"""The persistent OCR cache: content-addressed keys, atomic entries, bounded size, concurrent writers, and
no screenshot recognised twice — within a process and across processes, with the real engine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import platformdirs
import pytest

from droidpilot.errors import InputError
from droidpilot.perception.cache import CachedOcr, OcrCache, cached, default_cache_dir
from droidpilot.perception.rapid import RapidOcrEngine
from droidpilot.perception.types import OcrLine

LINES = [OcrLine("设置", (10, 20, 110, 60), 0.987654321), OcrLine("Wi-Fi", (10, 80, 90, 120), 0.5)]


def test_cache_directory_comes_from_the_environment_else_the_user_cache(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DROIDPILOT_CACHE_DIR", str(tmp_path / "c"))
    assert default_cache_dir() == tmp_path / "c"
    assert OcrCache().directory == tmp_path / "c" / "ocr"
    monkeypatch.delenv("DROIDPILOT_CACHE_DIR")
    assert default_cache_dir() == Path(platformdirs.user_cache_dir("droidpilot"))


def test_key_changes_with_image_engine_and_settings() -> None:
    base = OcrCache.key(b"png-bytes", "rapidocr", "det=960")
    assert base == OcrCache.key(b"png-bytes", "rapidocr", "det=960")
    assert len({base, OcrCache.key(b"png-bytes!", "rapidocr", "det=960"),
                OcrCache.key(b"png-bytes", "tesseract", "det=960"),
                OcrCache.key(b"png-bytes", "rapidocr", "det=1280")}) == 4


def test_round_trip_keeps_text_boxes_and_full_precision_scores(cache_dir: Path) -> None:
    cache = OcrCache()
    key = OcrCache.key(b"x", "e", "s")
    assert cache.get(key) is None
    cache.put(key, LINES, {"engine": "e"})
    assert cache.get(key) == LINES
    assert not list(cache.directory.rglob("*.tmp"))  # the temporary file was renamed into place


def test_corrupt_entry_is_a_miss_and_is_removed(cache_dir: Path) -> None:
    cache = OcrCache()
    key = OcrCache.key(b"y", "e", "s")
    cache.put(key, LINES)
    cache.path(key).write_text('{"format": 1, "lines": [{"te')
    assert cache.get(key) is None
    assert not cache.path(key).exists()


def test_size_is_bounded_and_least_recently_used_entries_go_first(tmp_path: Path) -> None:
    cache = OcrCache(tmp_path, max_bytes=4000, evict_every=1)
    keys = [OcrCache.key(str(i).encode(), "e", "s") for i in range(40)]
    for i, key in enumerate(keys):
        cache.put(key, LINES)
        os.utime(cache.path(key), (1000 + i, 1000 + i))  # a distinct, increasing age
        if i == 5:
            os.utime(cache.path(keys[0]), (5000, 5000))  # entry 0 was used recently
    assert cache.size() <= 4000
    assert cache.get(keys[-1]) == LINES  # the newest stays
    assert cache.get(keys[0]) == LINES  # recently used: kept although written first
    assert cache.get(keys[1]) is None  # old and unused: evicted


def test_size_limit_from_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DROIDPILOT_OCR_CACHE_MAX_MB", "0.5")
    assert OcrCache(tmp_path).max_bytes == 512 * 1024
    monkeypatch.setenv("DROIDPILOT_OCR_CACHE_MAX_MB", "lots")
    with pytest.raises(InputError, match="DROIDPILOT_OCR_CACHE_MAX_MB"):
        OcrCache(tmp_path)


def test_concurrent_writers_of_the_same_keys_leave_only_whole_entries(tmp_path: Path) -> None:
    script = textwrap.dedent("""
        import sys
        from droidpilot.perception.cache import OcrCache
        from droidpilot.perception.types import OcrLine
        cache = OcrCache(sys.argv[1])
        lines = [OcrLine("line %d" % i, (0, i, 50, i + 10), 0.9) for i in range(30)]
        for round in range(10):
            for k in range(8):
                cache.put(OcrCache.key(bytes([k]), "e", "s"), lines)
                got = cache.get(OcrCache.key(bytes([k]), "e", "s"))
                assert got is None or got == lines, "torn read"
    """)
    procs = [subprocess.Popen([sys.executable, "-c", script, str(tmp_path)]) for _ in range(3)]
    assert [p.wait(timeout=60) for p in procs] == [0, 0, 0]
    cache = OcrCache(tmp_path)
    assert len(cache.entries()) == 8
    for _, _, path in cache.entries():
        assert len(json.loads(path.read_text())["lines"]) == 30
    assert not list(cache.directory.rglob("*.tmp"))


class CountingEngine:
    """The session's real engine, counting how often it is asked to recognise."""

    def __init__(self, engine: RapidOcrEngine) -> None:
        self.engine = engine
        self.name = engine.name
        self.calls = 0

    def settings_key(self) -> str:
        return self.engine.settings_key()

    def recognize(self, image: object) -> list[OcrLine]:
        self.calls += 1
        return self.engine.recognize(image)  # type: ignore[arg-type]


def test_cached_engine_recognises_each_image_once(cache_dir: Path, rapid_engine: RapidOcrEngine,
                                                  text_image: Callable) -> None:
    engine = CountingEngine(rapid_engine)
    ocr = CachedOcr(engine)
    img = text_image(["Bluetooth"], size=26, width=260)
    first = ocr.recognize(img)
    assert [ln.text for ln in first] == ["Bluetooth"]
    assert ocr.recognize(img) == first
    assert engine.calls == 1 and (ocr.hits, ocr.misses) == (1, 1)
    assert cached(ocr) is ocr and ocr.name == "rapidocr" and ocr.settings_key() == rapid_engine.settings_key()
    assert CachedOcr(CountingEngine(rapid_engine)).recognize(img) == first  # a new wrapper: from disk
    ocr.recognize(text_image(["Wi-Fi"], size=26, width=260))
    assert engine.calls == 2


CHILD = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    from droidpilot.perception.cache import CachedOcr
    from droidpilot.perception.rapid import RapidOcrEngine

    class Counting(RapidOcrEngine):
        def start_reading(self, image):  # what the cache asks an engine that reads step by step
            with open(sys.argv[2], "a") as marker:
                marker.write("ocr\\n")
            return super().start_reading(image)

    ocr = CachedOcr(Counting())
    print(json.dumps([line.to_dict() for line in ocr.recognize(Path(sys.argv[1]))]))
""")


def test_a_second_process_reuses_the_first_ones_recognition(
        cache_dir: Path, rapid_engine: RapidOcrEngine, text_image: Callable, tmp_path: Path) -> None:
    shot, other = tmp_path / "shot.png", tmp_path / "other.png"
    text_image(["Airplane mode"], size=26, width=300).save(shot)
    text_image(["OK"], size=26, width=120).save(other)
    first = CachedOcr(rapid_engine).recognize(shot)  # this process recognises and stores
    assert first
    marker = tmp_path / "ocr-calls.txt"

    def child(image: Path) -> list[dict]:
        out = subprocess.run([sys.executable, "-c", CHILD, str(image), str(marker)], capture_output=True,
                             text=True, timeout=120, check=True)
        return json.loads(out.stdout)

    assert child(shot) == [ln.to_dict() for ln in first]
    assert not marker.exists()  # answered from the cache: the engine never ran in the child
    child(other)  # a new screenshot: the child's engine runs, which the marker proves it would record
    assert marker.read_text().count("ocr") == 1


class CountingReader(CountingEngine):
    """The session's real engine read step by step, counting the readings it starts."""

    def start_reading(self, image: object) -> object:
        self.calls += 1
        return self.engine.start_reading(image)  # type: ignore[arg-type]


def _jpeg(image: object) -> bytes:
    import io

    out = io.BytesIO()
    image.save(out, format="JPEG", quality=90)  # type: ignore[attr-defined]
    return out.getvalue()


def test_a_screen_shown_again_byte_for_byte_shares_the_unfinished_reading(
        cache_dir: Path, rapid_engine: RapidOcrEngine, text_image: Callable) -> None:
    engine = CountingReader(rapid_engine)
    ocr = CachedOcr(engine)
    lines = ["Mango", "Quartz lantern inventory 41 pending"]  # two widths: two recognition steps
    screen = _jpeg(text_image(lines, size=28, width=720))
    first = ocr.start_reading(screen)
    first.read_until(lambda found: bool(found))  # a check that found its words after one step
    assert not first.done and engine.calls == 1
    again = ocr.start_reading(bytes(screen))  # the same bytes, another frame of the trace
    assert again is first and engine.calls == 1 and ocr.shared == 1
    with ThreadPoolExecutor(1) as pool:  # another thread (a studio request) continues a reading of its own
        assert pool.submit(ocr.start_reading, screen).result() is not first and engine.calls == 2
    # The near miss: one line changed, a few bytes differ -> a reading of its own, which reads the change.
    changed = ocr.start_reading(_jpeg(text_image(["Mango", "Quartz lantern inventory 47 pending"], size=28,
                                                 width=720)))
    assert changed is not first and engine.calls == 3
    assert "Quartz lantern inventory 47 pending" in [ln.text for ln in changed.finish()]
    whole = again.finish()
    assert [ln.text for ln in whole] == lines and first.done
    assert ocr.start_reading(screen).lines() == whole and engine.calls == 3 and ocr.hits == 1  # now cached


def test_without_sharing_a_screen_shown_again_gets_a_reading_of_its_own_that_reads_the_same(
        cache_dir: Path, rapid_engine: RapidOcrEngine, text_image: Callable) -> None:
    # the baseline benchmarks/ocr_reuse_identity.py compares the sharing against
    engine = CountingReader(rapid_engine)
    ocr = CachedOcr(engine, share_unfinished=False)  # lines no other test reads: the engine remembers lines
    screen = _jpeg(text_image(["Papaya", "Cobalt harbour manifest 93 waiting"], size=28, width=720))
    first = ocr.start_reading(screen)
    first.read_until(lambda found: bool(found))
    assert not first.done
    again = ocr.start_reading(bytes(screen))
    assert again is not first and engine.calls == 2 and ocr.shared == 0
    assert again.finish() == first.finish()
