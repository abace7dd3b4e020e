"""Keep the verifier's DEBUG log lines (the checkers' step-by-step output) in the result.

While a verification runs, every record logged under ``droidpilot.verify`` is captured as a string.
Records below the level the application configured are captured but not passed on, so turning on
capture does not make a quiet program noisy.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator

LOGGER_NAME = "droidpilot.verify"


class _Capture(logging.Handler):
    def __init__(self, sink: list[str], forward_level: int, parent: logging.Logger) -> None:
        super().__init__(logging.DEBUG)
        self.sink = sink
        self.forward_level = forward_level
        self.parent_logger = parent
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.sink.append(self.format(record))
        except Exception:  # a record that cannot be formatted must not stop the verification
            self.handleError(record)
        if record.levelno >= self.forward_level:
            self.parent_logger.handle(record)


@contextlib.contextmanager
def capture_logs(enabled: bool = True) -> Iterator[list[str]]:
    """Yield a list that fills with the formatted records of ``droidpilot.verify`` (DEBUG and up)."""
    lines: list[str] = []
    if not enabled:
        yield lines
        return
    logger = logging.getLogger(LOGGER_NAME)
    old_level, old_propagate = logger.level, logger.propagate
    forward_level = logger.getEffectiveLevel()
    parent = logger.parent or logging.getLogger()
    handler = _Capture(lines, forward_level, parent)
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    try:
        yield lines
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)
        logger.propagate = old_propagate
