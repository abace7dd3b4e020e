"""The fitted settle rule (perception/icons/settle.py, used last by outcome.decide): an ambiguous answer
whose first candidate has clear evidence (a lead in score and in the classifier's probability, a sure
shape fit) is tapped; near-ties, a first candidate that does not fit every asked part, and candidates
without a classifier verdict stay questions for the model."""

from __future__ import annotations

import numpy as np
import pytest
from tests.support.benchmarks import load_benchmark

from droidpilot.errors import InputError
from droidpilot.perception.icons import settle
from droidpilot.perception.icons.candidates import Region
from droidpilot.perception.icons.describe import IconDescription
from droidpilot.perception.icons.learned import Verdict
from droidpilot.perception.icons.outcome import decide
from droidpilot.perception.icons.query import parse_icon_query
from droidpilot.perception.icons.scene import Scene
from droidpilot.perception.icons.scored import ScoredIcon
from droidpilot.perception.icons.settle import Offered, settles
from droidpilot.perception.types import Box

PAGE = np.full((1170, 540, 3), 255, np.uint8)
LEFT, RIGHT = (60, 500, 110, 550), (400, 500, 450, 550)


def _offered(score: float, p: float | None, shape: float, matches: bool = True) -> Offered:
    return Offered(score, p, shape, None, None, matches)


def test_a_clear_lead_in_score_and_probability_is_tapped() -> None:
    assert settles([_offered(1.0, 0.95, 0.95), _offered(0.66, 0.05, 0.6)])


@pytest.mark.parametrize("offered", [
    # near miss: two readings of the same glyph a hair apart in score (three dots on two cards)
    [_offered(0.98, 0.908, 0.97), _offered(0.97, 0.868, 0.96)],
    # a lead in score, but the classifier names the runner-up (a shift key against the caps-lock arrow)
    [_offered(0.81, 0.007, 0.80), _offered(0.76, 0.057, 0.75)],
    # the same clear lead, but the first fits no asked shape: colour and place alone never tap
    [_offered(1.0, 0.95, 0.95, matches=False), _offered(0.66, 0.05, 0.6)],
    # the same clear lead without a classifier: the rule was fitted on its probabilities
    [_offered(1.0, None, 0.95), _offered(0.66, None, 0.6)],
    [_offered(1.0, 0.95, 0.95)],  # one candidate: nothing to settle
])
def test_near_ties_misfits_and_missing_evidence_stay_questions(offered: list[Offered]) -> None:
    assert not settles(offered)


def _icon(box: Box, score: float, p: float, shape: float) -> ScoredIcon:
    desc = IconDescription("gray", 1.0, "unknown", 0.0)
    return ScoredIcon(Region(box, "mask"), desc, None, shape, None, None, score, "icon", shape, None,
                      Verdict(p, 0.0))


def test_decide_settles_an_ambiguous_answer_it_used_to_ask_about() -> None:
    # a weak shape reading (0.75 < SURE_SHAPE) leading by 1.8x, not the 2.5x a shape-only tap needs,
    # and a classifier short of sure (0.3 < LEARNED_SURE): icon_outcome shows it with its runner-up;
    # its leads in score and probability are clear, so the fitted rule taps it
    best, runner = _icon(LEFT, 0.76, 0.3, 0.75), _icon(RIGHT, 0.42, 0.01, 0.4)
    query = parse_icon_query("gear")
    asked = decide(PAGE, query, Scene(), [best, runner], [], settle=False)
    assert asked.status == "ambiguous"
    result = decide(PAGE, query, Scene(), [best, runner], [])
    assert result.status == "found" and result.candidates[0].box == LEFT


def test_decide_keeps_asking_when_the_classifier_names_the_runner_up() -> None:
    # the near miss of the one above: the same scores, but the runner-up is the likelier glyph
    best, runner = _icon(LEFT, 0.76, 0.01, 0.75), _icon(RIGHT, 0.42, 0.3, 0.4)
    result = decide(PAGE, parse_icon_query("gear"), Scene(), [best, runner], [])
    assert result.status == "ambiguous" and len(result.candidates) == 2


def test_decide_leaves_words_not_understood_to_the_model() -> None:
    best, runner = _icon(LEFT, 0.76, 0.3, 0.75), _icon(RIGHT, 0.42, 0.01, 0.4)
    query = parse_icon_query("gear to frobnicate")
    assert query.unknown
    assert decide(PAGE, query, Scene(), [best, runner], []).status == "ambiguous"


def test_unreadable_coefficients_name_the_file_and_the_fix(tmp_path, monkeypatch) -> None:
    broken = tmp_path / "settle.json"
    broken.write_text('{"coefficients": {"intercept": 0.1}}', encoding="utf-8")  # features missing
    monkeypatch.setattr(settle, "DATA", broken)
    settle._coefficients.cache_clear()
    try:
        with pytest.raises(InputError, match=r"settle\.json.*icon_decide_fit\.py --write"):
            settles([_offered(1.0, 0.95, 0.95), _offered(0.66, 0.05, 0.6)])
    finally:
        settle._coefficients.cache_clear()


def test_the_stored_rule_taps_only_above_the_cost_break_even() -> None:
    # the threshold comes from the costs (a wrong tap = two questions), not from a fit
    assert pytest.approx(2 / 3) == settle.TAP_AT
    coef = settle.COEFFICIENTS
    assert set(coef) == {"intercept", *settle.FEATURES}


def test_the_stored_coefficients_are_the_fit_of_the_kept_evidence() -> None:
    # benchmarks/data/settle_evidence.json keeps the rows settle.json was fitted on: refitting them must
    # give the stored coefficients (no hand edit of the data file), and the stored rule adds no wrong tap
    fitter = load_benchmark("icon_decide_fit")
    halves = fitter.load_evidence(fitter.EVIDENCE)
    x = np.vstack([h[0] for h in halves.values()])
    y = np.concatenate([h[1] for h in halves.values()])
    refit = fitter.fit(x, y)
    stored = np.array([settle.COEFFICIENTS[k] for k in ("intercept", *settle.FEATURES)])
    assert np.allclose(refit, stored, atol=1e-3)
    for hx, hy, _, _ in halves.values():
        assert fitter.judge(settle.probability(hx, stored) >= settle.TAP_AT, hy)[1] == 0


def test_evidence_for_other_features_is_refused_with_the_fix(tmp_path) -> None:
    fitter = load_benchmark("icon_decide_fit")
    stale = tmp_path / "evidence.json"
    stale.write_text('{"features": ["p", "score_lead"], "halves": {}}', encoding="utf-8")
    with pytest.raises(SystemExit, match=r"not settle\.py's.*icon_decide_data\.py"):
        fitter.load_evidence(stale)
