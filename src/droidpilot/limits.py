"""The largest counts a user can type on the command line, in one table, and the check that enforces them.

A count nobody bounded turns a typo into a hang or a MemoryError (``--instances 1000000000`` builds a
billion tasks before anything prints). Every count option of every command is checked against the limit
here, with a message naming the option, the limit and how to do more (split the run, several folders).
The README's limits table lists the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from droidpilot.errors import InputError


@dataclass(frozen=True)
class Limit:
    """The allowed range of one option, and what to do when a user needs more than ``high``."""

    low: int
    high: int
    more: str = ""


SPLIT = "split the work into several runs (e.g. by --templates, --tier or --tasks) with an --out folder each"

INSTANCES = Limit(1, 1_000, "draw more from other seeds: run again with --seed N into another --out folder")
TRIALS = Limit(1, 100, "run the suite again into another --out folder and compare the runs")
DEVICES = Limit(1, 64, "use several machines (--ray) or several runs")
JOBS = Limit(0, 64, "")
MAX_STEPS = Limit(1, 1_000, "no task needs more; a run that does is stuck")
SEEDS = Limit(1, 100, "validate in several calls, each from the next --first-seed")
SEED = Limit(0, 2**32 - 1, "")
IMAGE_MAX_SIDE = Limit(64, 8_192, "")
PORT = Limit(1, 65_535, "")
# Work items of one bench run (tasks x trials) and templates in one template suite (variants counted).
WORK_ITEMS = 100_000
TEMPLATES = 10_000
TEMPLATE_FILE_BYTES = 1024 * 1024  # one YAML file of a suite (parsing is the slow part: ~10 s per MiB)


class LimitError(InputError):
    """A count outside its documented range; the message names the option, the range and what to do."""


def check(option: str, value: int | None, limit: Limit, *, what: str = "") -> None:
    """LimitError when ``value`` (None: left out, fine) is outside ``limit``'s range."""
    if value is None or limit.low <= value <= limit.high:
        return
    if value < limit.low:
        raise LimitError(f"{option} must be at least {limit.low:,}, got {value:,}")
    more = f"; to do more, {limit.more}" if limit.more else ""
    raise LimitError(f"{option} {value:,} is over the limit of {limit.high:,}{(' ' + what) if what else ''}"
                     f"{more}")


def check_work(items: int, detail: str) -> None:
    """LimitError when one run would hold more than WORK_ITEMS tasks x trials (``detail`` says how)."""
    if items > WORK_ITEMS:
        raise LimitError(f"this run would hold {items:,} tasks ({detail}), over the limit of "
                         f"{WORK_ITEMS:,} per run; {SPLIT}")
