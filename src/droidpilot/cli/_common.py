"""What every sub-command shares: turning droidpilot errors into a message and an exit status."""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

import typer

from droidpilot.errors import DroidpilotError, InputError
from droidpilot.textsafe import printable

if TYPE_CHECKING:
    from rich.console import Console

    err_console: Console


@functools.cache
def _err_console() -> Console:
    from rich.console import Console

    return Console(stderr=True)


def __getattr__(name: str) -> Console:
    """``err_console``, stderr's Rich console, made on first use: a command that prints nothing through
    Rich (a cold `droidpilot ocr --json`) does not import it."""
    if name == "err_console":
        return _err_console()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

EXIT_FAILED = 1  # the command ran but did not get its job done (demo: the verdict failed; bench: all errored)
EXIT_BAD_INPUT = 2  # a bad argument or input file, or no such device
EXIT_DEVICE = 3  # the device failed or could not be reached
EXIT_MODEL = 4  # the model could not be reached or kept failing
EXIT_INTERRUPTED = 130

# How a run's termination maps to the exit status of `droidpilot run`; any other termination is 0.
TERMINATION_EXIT = {"device_error": EXIT_DEVICE, "brain_error": EXIT_MODEL, "interrupted": EXIT_INTERRUPTED}


def shown(text: object) -> str:
    """Untrusted ``text`` ready for Rich markup: terminal controls stripped, markup escaped."""
    from rich.markup import escape

    return escape(printable(text))


def fail(message: str, code: int = EXIT_BAD_INPUT) -> typer.Exit:
    """Print ``message`` on stderr (escaped: it may quote untrusted text) and return the Exit to raise."""
    _err_console().print(f"[bold red]error:[/] {shown(message)}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


@contextlib.contextmanager
def guard() -> Iterator[None]:
    """Run a command body; a DroidpilotError becomes a clear message and exit status 2, not a traceback."""
    try:
        yield
    except InputError as exc:
        raise fail(str(exc)) from None
    except DroidpilotError as exc:
        raise fail(str(exc)) from None
    except KeyboardInterrupt:
        _err_console().print("interrupted")
        sys.exit(EXIT_INTERRUPTED)
