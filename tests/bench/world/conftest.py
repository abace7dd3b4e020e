"""What every world-suite run test shares: one SimPhone, one OCR engine, the verifier set-up."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(scope="session")
def world_engines() -> dict[str, Any]:
    """A SimPhone, a cached RapidOCR engine and verifier options that read with it, made once a session."""
    from droidpilot.device.sim.phone import SimDevice
    from droidpilot.perception.cache import cached
    from droidpilot.perception.ocr import make_ocr_engine
    from droidpilot.verify.setup import VerifierChoices, build_options

    engine = cached(make_ocr_engine("rapidocr"))
    options = build_options(VerifierChoices(ocr="none"))
    options.ocr_engine = engine  # the agent's engine: one model in memory, and its readings memoised once
    return {"device": SimDevice(), "ocr_engine": engine, "options": options}


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """How many near-miss cases each judge got right (left on the config by test_nearmiss's fixture)."""
    lines = getattr(config, "nearmiss_report", None)
    if lines:
        terminalreporter.section("world near-miss judges")
        for line in lines:
            terminalreporter.write_line(line)
