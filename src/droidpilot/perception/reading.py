"""An OCR read of one screenshot that can stop once the caller has what it needs.

A verifier asking "is 'Dark mode' on this screen?" needs every line only to say no; to say yes it needs
the one line that holds the words. An engine that recognises lines in independent batches (the default
RapidOCR engine) hands out a ``StepReading``: detection done, recognition run batch by batch, likeliest
batches first, until the caller's test is met. The lines of a batch do not depend on which other batches
ran, so a finished reading gives exactly the lines ``recognize`` gives. Engines that read a screen in one
go give a ``FinishedReading``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from droidpilot.perception.ocr import ImageInput, sort_lines
from droidpilot.perception.types import OcrLine

Enough = Callable[[list[OcrLine]], bool]


class OcrReading(ABC):
    """The lines of one screenshot, read so far; ``finish`` reads the rest."""

    def __init__(self) -> None:
        self._on_done: list[Callable[[list[OcrLine]], None]] = []

    @property
    @abstractmethod
    def done(self) -> bool:
        """Whether every detected line has been recognised."""

    @property
    @abstractmethod
    def total(self) -> int:
        """How many text lines detection found (recognised or not)."""

    @property
    @abstractmethod
    def read(self) -> int:
        """How many of them have been recognised."""

    @abstractmethod
    def lines(self) -> list[OcrLine]:
        """The lines recognised so far, in reading order (all of them once ``done``)."""

    @abstractmethod
    def read_until(self, enough: Enough, min_columns: int = 0) -> list[OcrLine]:
        """Recognise more until ``enough(lines so far)`` holds or every line is read; the lines so far.
        Batches whose lines are at least ``min_columns`` wide (at recognition height 48) go first: a
        caller looking for words knows how wide a line holding them must at least be."""

    def finish(self) -> list[OcrLine]:
        """Every line of the screenshot."""
        return self.read_until(_never)

    def when_done(self, callback: Callable[[list[OcrLine]], None]) -> None:
        """Call ``callback(all lines)`` once the reading is finished (now, if it already is)."""
        if self.done:
            callback(self.lines())
        else:
            self._on_done.append(callback)

    def _finished(self) -> None:
        callbacks, self._on_done = self._on_done, []
        for callback in callbacks:
            callback(self.lines())


def _never(_lines: list[OcrLine]) -> bool:
    return False


class FinishedReading(OcrReading):
    """A reading whose lines are all known: from a cache, or an engine that reads a screen in one go."""

    def __init__(self, lines: Sequence[OcrLine]) -> None:
        super().__init__()
        self._lines = list(lines)

    @property
    def done(self) -> bool:
        return True

    @property
    def total(self) -> int:
        return len(self._lines)

    @property
    def read(self) -> int:
        return len(self._lines)

    def lines(self) -> list[OcrLine]:
        return list(self._lines)

    def read_until(self, enough: Enough, min_columns: int = 0) -> list[OcrLine]:
        return list(self._lines)


@dataclass(frozen=True)
class Step:
    """One batch of recognition: how wide its widest line is (columns at height 48), how many lines it
    holds, and the call that recognises them (the lines kept after the engine's own filters)."""

    width: int
    size: int
    run: Callable[[], list[OcrLine]]


class StepReading(OcrReading):
    """A reading run batch by batch; see the module docstring."""

    def __init__(self, steps: Sequence[Step], known: Sequence[OcrLine] = (), known_count: int = 0) -> None:
        """``known``: lines the engine has without running a step (remembered ones), of ``known_count``
        detected lines (some may have been dropped by the engine's filters)."""
        super().__init__()
        self._pending = list(steps)
        self._total = sum(step.size for step in steps) + known_count
        self._read = known_count
        self._found: list[OcrLine] = list(known)
        self._sorted: list[OcrLine] | None = None

    @property
    def done(self) -> bool:
        return not self._pending

    @property
    def total(self) -> int:
        return self._total

    @property
    def read(self) -> int:
        return self._read

    def lines(self) -> list[OcrLine]:
        if self._sorted is None:
            self._sorted = sort_lines(self._found)
        return list(self._sorted)

    def read_until(self, enough: Enough, min_columns: int = 0) -> list[OcrLine]:
        if not self._pending or enough(self.lines()):
            return self.lines()
        while self._pending:
            wide = [s for s in self._pending if s.width >= min_columns]
            step = min(wide or self._pending, key=lambda s: s.width)
            self._pending.remove(step)
            self._found.extend(step.run())
            self._read += step.size
            self._sorted = None
            if not self._pending:
                self._finished()
                break
            if enough(self.lines()):
                break
        return self.lines()


def start_reading(engine: Any, image: ImageInput) -> OcrReading:
    """A reading of ``image`` by ``engine``: step by step when the engine can (``start_reading``), else
    the whole screen at once through ``recognize``."""
    start = getattr(engine, "start_reading", None)
    if callable(start):
        return start(image)
    return FinishedReading(engine.recognize(image))
