"""Settle an "ambiguous" icon answer on its first candidate when the evidence says it is right often
enough that tapping beats asking: a small logistic rule over a handful of features of the offered
candidates, its coefficients fitted on many queries (settle.json, by benchmarks/icon_decide_fit.py) and
not tuned per screen.

A wrong tap costs more than a question (the agent must notice and undo it): counted as two, a tap pays
when the first candidate is right with probability TAP_AT = 2/3 or more. The rule leans on the learned
classifier's probability for the asked glyph (p, and its lead over the other offered candidates): it
never settles without a classifier verdict on the first candidate, and weights retrained to be surer or
less sure move its taps (refit with the benchmark script when the weights change).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from droidpilot.errors import InputError

TAP_AT = 2.0 / 3.0  # tap when P(right) * 1 >= (1 - P(right)) * 2: a wrong tap costs two questions
FEATURES = ("p", "p_lead", "score_lead", "shape")
EPS = 0.02  # probabilities below this are "not this glyph" alike: the lead of 0.001 over 0.0001 is none
DATA = Path(__file__).with_name("settle.json")


@dataclass(frozen=True)
class Offered:
    """What the rule reads of one offered candidate (a ScoredIcon's parts)."""

    score: float
    p: float | None  # the classifier's probability that it is the asked glyph (None: no classifier)
    shape: float | None
    colour: float | None
    position: float | None
    matches: bool


def features(offered: Sequence[Offered]) -> list[float]:
    """The first candidate against the best of the others: its probability, the log-ratios of
    probability and of score, and its shape fit."""
    top, rest = offered[0], offered[1:]
    p = top.p or 0.0
    p_rest = max((o.p or 0.0 for o in rest), default=0.0)
    s_rest = max((o.score for o in rest), default=0.0)
    return [p, math.log((p + EPS) / (p_rest + EPS)), math.log(max(top.score, 1e-6) / max(s_rest, 1e-6)),
            top.shape or 0.0]


def probability(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The logistic rule's probability that the first candidate is right, per row of features."""
    z = w[0] + np.asarray(x, float) @ w[1:]
    return 1.0 / (1.0 + np.exp(-z))


@lru_cache(maxsize=1)
def _coefficients() -> dict[str, float]:
    try:
        doc = json.loads(DATA.read_text(encoding="utf-8"))
        coef = {k: float(doc["coefficients"][k]) for k in ("intercept", *FEATURES)}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{DATA}: the settle rule's coefficients are unreadable ({exc}); refit them with "
                         "benchmarks/icon_decide_fit.py --write") from None
    return coef


def __getattr__(name: str) -> object:  # COEFFICIENTS read lazily: importing must not fail on a bad file
    if name == "COEFFICIENTS":
        return _coefficients()
    raise AttributeError(name)


def eligible(offered: Sequence[Offered]) -> bool:
    """May the rule settle these at all? Two or more offered, the first with a classifier verdict and
    fitting every asked part: a first candidate whose shape, colour or place does not fit (the few
    colour and place single out when no shape fits) is never tapped unasked."""
    return len(offered) >= 2 and offered[0].p is not None and offered[0].matches


def settles(offered: Sequence[Offered]) -> bool:
    """Should the first of the offered candidates be tapped rather than the model asked?"""
    if not eligible(offered):
        return False
    coef = _coefficients()
    w = np.array([coef["intercept"], *(coef[k] for k in FEATURES)])
    x = np.array([features(offered)])
    return bool(probability(x, w)[0] >= TAP_AT)
