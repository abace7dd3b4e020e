"""The Hypothesis policy holds: the suite runs derandomized under ``ci`` unless ``fuzz`` is asked for, and
no property test pins its own budget, seed or database (so ``make fuzz`` really explores more)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from hypothesis import settings
from tests.support.hypothesis_profiles import CI_EXAMPLES, FUZZ_FACTOR, PROFILE_VARIABLE, examples

TESTS = Path(__file__).resolve().parent
PINNED = re.compile(r"max_examples\s*=\s*\d|derandomize\s*=|database\s*=|\bseed\(")


def hypothesis_test_files() -> list[Path]:
    return sorted(p for p in TESTS.rglob("test_*.py")
                  if re.search(r"^(from|import) hypothesis", p.read_text(encoding="utf-8"), re.M))


def test_the_active_profile_is_the_one_asked_for() -> None:
    if os.environ.get(PROFILE_VARIABLE, "ci") == "ci":
        assert settings.default.derandomize is True
        assert settings.default.database is None
        assert settings.default.max_examples == CI_EXAMPLES
        assert examples(60) == 60
    else:
        assert settings.default.derandomize is False
        assert examples(60) == 60 * FUZZ_FACTOR


def test_no_property_test_pins_its_budget_seed_or_database() -> None:
    files = hypothesis_test_files()
    assert len(files) >= 6, files  # the search below found the property tests at all
    offenders = [f"{p.relative_to(TESTS)}:{n}: {line.strip()}" for p in files
                 for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
                 if PINNED.search(line) and p.name != Path(__file__).name]
    assert not offenders, "use examples(n) and the profiles instead:\n" + "\n".join(offenders)
