"""OCR readings that stop early: the batch order, the stop test, completion callbacks, and the real engine's
promise that a finished reading is exactly ``recognize``'s answer."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from droidpilot.perception.cache import CachedOcr, OcrCache
from droidpilot.perception.line_memo import LineMemo
from droidpilot.perception.rapid import RapidOcrEngine
from droidpilot.perception.reading import FinishedReading, Step, StepReading, start_reading
from droidpilot.perception.synth import SynthScreen
from droidpilot.perception.types import OcrLine


def line(text: str, y: int) -> OcrLine:
    return OcrLine(text, (10, y, 200, y + 20), 0.9)


def steps(ran: list[int]) -> list[Step]:
    """Three batches 160, 400 and 900 columns wide, recording which ran."""
    def batch(width: int, texts: list[str], y: int) -> Step:
        def run() -> list[OcrLine]:
            ran.append(width)
            return [line(t, y + 30 * i) for i, t in enumerate(texts)]
        return Step(width, len(texts), run)
    return [batch(160, ["OK", "12:30"], 0), batch(400, ["Dark mode"], 100),
            batch(900, ["Turn on dark mode to save battery"], 200)]


def has(word: str) -> Callable[[list[OcrLine]], bool]:
    return lambda lines: any(word in ln.text for ln in lines)


def test_a_reading_runs_the_wide_enough_batches_first_and_stops_once_the_test_holds() -> None:
    ran: list[int] = []
    reading = StepReading(steps(ran))
    assert (reading.total, reading.read, reading.done) == (4, 0, False)
    lines = reading.read_until(has("Dark mode"), min_columns=300)
    assert ran == [400] and [ln.text for ln in lines] == ["Dark mode"]
    assert (reading.read, reading.done) == (1, False)
    assert [ln.text for ln in reading.read_until(has("Dark mode"))] == ["Dark mode"]  # already holds
    assert ran == [400]


def test_a_reading_that_never_finds_reads_everything_once_in_reading_order() -> None:
    ran: list[int] = []
    done: list[list[str]] = []
    reading = StepReading(steps(ran))
    reading.when_done(lambda lines: done.append([ln.text for ln in lines]))
    lines = reading.read_until(has("Airplane"), min_columns=300)
    assert ran == [400, 900, 160] and reading.done and reading.read == 4
    assert [ln.text for ln in lines] == ["OK", "12:30", "Dark mode", "Turn on dark mode to save battery"]
    assert reading.finish() == lines and ran == [400, 900, 160]  # nothing runs twice
    assert done == [[ln.text for ln in lines]]  # the callback ran once, with every line


def test_engines_that_read_a_screen_at_once_give_a_finished_reading() -> None:
    class Whole:
        name = "whole"

        def settings_key(self) -> str:
            return "v1"

        def recognize(self, image: object) -> list[OcrLine]:
            return [line("Settings", 0)]

    reading = start_reading(Whole(), b"any image")
    assert isinstance(reading, FinishedReading) and reading.done and reading.total == 1
    got: list[int] = []
    reading.when_done(lambda lines: got.append(len(lines)))
    assert got == [1] and reading.read_until(has("nothing"))[0].text == "Settings"


@pytest.fixture(scope="module")
def dense(list_screen: Callable[..., SynthScreen]) -> SynthScreen:
    """A full-size settings list: titles and longer summaries, so recognition takes several batches."""
    return list_screen(size=(1080, 2400), scale=1.0, seed=3)


@pytest.fixture
def forgetful(rapid_engine: RapidOcrEngine) -> Iterator[RapidOcrEngine]:
    """The session's engine with an empty line memory for the test (so every line is read anew)."""
    reader = rapid_engine._direct()
    saved, reader.memo = reader.memo, LineMemo()
    yield rapid_engine
    reader.memo = saved


def test_a_finished_reading_is_exactly_what_recognize_returns(forgetful: RapidOcrEngine,
                                                              dense: SynthScreen) -> None:
    reading = forgetful.start_reading(dense.image)
    first = reading.read_until(has(dense.labels[0].text), min_columns=8 * len(dense.labels[0].text))
    assert any(dense.labels[0].text in ln.text for ln in first)
    assert not reading.done and reading.read < reading.total, "one label needs only part of the screen"
    finished = reading.finish()
    forgetful._direct().memo = LineMemo()
    assert finished == forgetful.recognize(dense.image)  # read afresh, batch by batch, in another order
    again = forgetful.start_reading(dense.image)  # every line remembered now: nothing left to run
    assert again.done and again.read == again.total and again.lines() == finished


def test_the_cache_keeps_only_finished_readings(forgetful: RapidOcrEngine, dense: SynthScreen,
                                                tmp_path: Path) -> None:
    cache = OcrCache(tmp_path)
    ocr = CachedOcr(forgetful, cache)
    key = ocr.cache_key(dense.image)
    reading = ocr.start_reading(dense.image)
    reading.read_until(has(dense.labels[0].text))
    assert cache.get(key) is None, "a partial reading is not the screen's lines"
    lines = reading.finish()
    assert cache.get(key) == lines
    again = ocr.start_reading(dense.image)
    assert again.done and again.lines() == lines and (ocr.hits, ocr.misses) == (1, 1)
