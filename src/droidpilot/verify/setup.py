"""Build VerifierOptions from the choices a person makes on the command line.

The choices are a small picklable record, so ``verify-batch`` can send them to worker processes, each of
which builds its own OCR engine and LLM judge (those hold models and connections that do not travel).
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from droidpilot.errors import InputError

if TYPE_CHECKING:  # the checkers and options load with the verifier, after `verify` starts its OCR prefetch
    from droidpilot.verify.options import VerifierOptions

OCR_CHOICES = ("rapidocr", "tesseract", "none")
DEFAULT_OCR = "rapidocr"
_MODEL_ENV = "DROIDPILOT_LLM_MODEL"


@dataclass(frozen=True)
class VerifierChoices:
    """What the user picked: OCR engine, LLM endpoint and model, icon folders, escalation order."""

    ocr: str = DEFAULT_OCR
    llm_base_url: str | None = None
    llm_model: str | None = None
    icons_dirs: tuple[Path, ...] = field(default_factory=tuple)
    escalation_order: tuple[str, ...] | None = None
    force_llm_verification: bool = False


def parse_escalation_order(text: str | None) -> tuple[str, ...] | None:
    """``"text,ocr,llm"`` -> ``("text", "ocr", "llm")``; InputError (with a suggestion) for unknown keys."""
    if text is None or not text.strip():
        return None
    from droidpilot.verify.checkers.base import SUBCHECKER_ALIASES

    known = list(SUBCHECKER_ALIASES) + [v for v in SUBCHECKER_ALIASES.values() if v not in SUBCHECKER_ALIASES]
    names = tuple(part.strip() for part in text.split(",") if part.strip())
    for name in names:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise InputError(f"--escalation-order: unknown checker {name!r}{hint} "
                             f"(choose from {', '.join(SUBCHECKER_ALIASES)})")
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise InputError(f"--escalation-order: {', '.join(dupes)} listed twice")
    return names


def _ocr_engine(name: str) -> object | None:
    key = (name or "none").strip().lower()
    if key not in OCR_CHOICES:
        raise InputError(f"--ocr: unknown engine {name!r}; choose one of {', '.join(OCR_CHOICES)}")
    if key == "none":
        return None
    from droidpilot.perception.ocr import make_ocr_engine

    return make_ocr_engine(key)


def _llm_judge(choices: VerifierChoices) -> object | None:
    if not (choices.llm_base_url or choices.llm_model or os.environ.get(_MODEL_ENV)):
        return None  # no model configured: llm checks are undecided and say how to configure one
    from droidpilot.llm.judge import LlmJudge

    return LlmJudge(base_url=choices.llm_base_url, model=choices.llm_model)


def build_options(choices: VerifierChoices) -> VerifierOptions:
    """VerifierOptions with the chosen OCR engine and LLM judge; InputError for a bad choice."""
    from droidpilot.verify.options import VerifierOptions

    options = VerifierOptions()
    if choices.escalation_order:
        options.escalation_order = list(choices.escalation_order)
    for folder in choices.icons_dirs:
        if not Path(folder).is_dir():
            raise InputError(f"--icons-dir: {folder} is not a folder")
    options.icons_dirs = [Path(p) for p in choices.icons_dirs]
    options.force_llm_verification = choices.force_llm_verification
    options.ocr_engine = _ocr_engine(choices.ocr)
    options.llm_judge = _llm_judge(choices)
    return options
