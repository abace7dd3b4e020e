"""A brand's logo the classifier is sure of keeps its score where a label naming the brand elsewhere names
another tile (rank.sure_logo): "small whatsapp icon" on a store page whose "WhatsApp Business" row has
its own tile."""

from __future__ import annotations

from droidpilot.perception.icons.candidates import Region
from droidpilot.perception.icons.describe import IconDescription
from droidpilot.perception.icons.learned import Verdict
from droidpilot.perception.icons.rank import LOGO_OVER_LABEL, sure_logo
from droidpilot.perception.icons.scored import ScoredIcon


def _tile(p: float | None) -> ScoredIcon:
    verdict = None if p is None else Verdict(p, 1.0 - p)
    desc = IconDescription("green", 1.0, "rounded square", 0.9)
    return ScoredIcon(Region((45, 199, 101, 255), "mask"), desc, None, 1.0, None, None, 1.0, "glyph", 1.0,
                      None, verdict)


def test_a_sure_logo_keeps_its_score() -> None:
    assert sure_logo(_tile(0.99))


def test_near_misses_an_unsure_or_absent_classifier_leaves_the_label_its_say() -> None:
    assert not sure_logo(_tile(LOGO_OVER_LABEL - 0.01))  # a look-alike the classifier only half believes
    assert not sure_logo(_tile(0.02))
    assert not sure_logo(_tile(None))  # no classifier: the label decides, as before
