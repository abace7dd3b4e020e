"""The learned classifier's say in the outcome (outcome.py): which of a few candidates offered to the
model it names as the asked glyph, so the best-scored one is tapped without asking.

It only settles a choice, never vetoes a tap: on tune/report screens it is sure (0.55-0.87) that right,
confidently found real icons (Amazon Music's bell and gear, a Notes pencil) are other glyphs, since it
learnt from the library's fonts; stopping those taps turned at least 11 hits into questions (measured).

Ranking already lifts a candidate's glyph fit by the classifier's probability (rank.blend_fits); these
rules use the probabilities themselves where the scores leave a choice. A probability of LEARNED_SURE
(of ~2000 classes) is more than all other classes together: the classifier is sure. LEARNED_LEAD is how
much surer it must be of the named candidate than of any other offered one for its word to settle the
choice.

Checked again with the real-crop-trained classifier, cross-fitted by app (benchmarks/icon_decide_fit.py
on the training halves): on the answers these rules leave ambiguous, loosening them loses on both halves
(p >= 0.35 with the 2x lead: 0 and -2; p >= 0.5 without it: -10 and -6, as hits gained - 2 x wrong
taps); what is left to settle is settled by the fitted rule of settle.py.
"""

from __future__ import annotations

from collections.abc import Sequence

from droidpilot.perception.icons.scored import MIN_COLOUR, MIN_POSITION, ScoredIcon

LEARNED_SURE = 0.5  # a probability above every other class's together
LEARNED_LEAD = 2.0  # how many times the runner-up's (or the asked glyph's) probability the named one needs


def asked_of(s: ScoredIcon) -> float:
    """The classifier's probability that the candidate is the asked glyph (0 without a classifier)."""
    return s.verdict.asked if s.verdict is not None else 0.0


def places_fit(s: ScoredIcon) -> bool:
    """Do the asked colour and place not contradict the candidate (each fits, when asked)?"""
    return ((s.colour is None or s.colour >= MIN_COLOUR)
            and (s.position is None or s.position >= MIN_POSITION))


def named_among(offered: Sequence[ScoredIcon]) -> ScoredIcon | None:
    """The best-scored of the offered candidates when the classifier is sure it is the asked glyph, far
    surer than of any other offered one, and its colour and place fit; else None (the model chooses)."""
    if len(offered) < 2:
        return None
    top, rest = offered[0], offered[1:]
    p = asked_of(top)
    if p < LEARNED_SURE or not places_fit(top):
        return None
    return top if all(p >= LEARNED_LEAD * asked_of(o) for o in rest) else None
