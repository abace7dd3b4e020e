"""A real, tiny training run: a handful of glyph classes learned from renders, deterministic by seed."""

from __future__ import annotations

import numpy as np
import pytest

from droidpilot.perception.icons.glyphs.catalogue import available
from droidpilot.perception.icons.learned.classes import NONE, glyph_classes
from droidpilot.perception.icons.learned.data import build_set
from droidpilot.perception.icons.learned.train import Settings, fit, train

pytestmark = pytest.mark.skipif(not available(), reason="the Material icon font is not installed")

FEW = ["settings", "wb_sunny", "notifications", "lock", "home", "store"]
SMALL = Settings(per_class=30, negatives=60, epochs=25, hidden=64, seed=3)


def test_a_tiny_run_learns_to_separate_a_handful_of_glyphs() -> None:
    model = train(SMALL, FEW, labels=[])  # renders only (real crops: test_real_crops.py)
    classes = model.classes
    assert [c[0] for c in classes] == [*FEW, NONE]
    x, y = build_set(glyph_classes(FEW), 12, seed=99, negatives=60)  # renders the training never saw
    predicted = model.probabilities(x).argmax(axis=1)
    glyphs = y != len(classes) - 1
    accuracy = float((predicted[glyphs] == y[glyphs]).mean())
    assert accuracy >= 0.8, accuracy
    for c in range(len(FEW)):  # every class learned, not only the easy ones
        assert (predicted[y == c] == c).mean() >= 0.5, classes[c]
    assert model.manifest["seed"] == 3 and model.manifest["samples"] == len(FEW) * 30 + 60


def test_training_is_deterministic_for_a_seed_and_differs_for_another() -> None:
    x, y = build_set(glyph_classes(FEW[:3]), 8, seed=5, negatives=8)
    assert np.array_equal(x, build_set(glyph_classes(FEW[:3]), 8, seed=5, negatives=8)[0])
    few = Settings(epochs=3, hidden=16, seed=1)
    a, b = fit(x, y, 4, few), fit(x, y, 4, few)
    assert np.array_equal(a.w1, b.w1) and np.array_equal(a.w2, b.w2)
    c = fit(x, y, 4, Settings(epochs=3, hidden=16, seed=2))
    assert not np.array_equal(a.w1, c.w1)


def test_aliases_the_font_draws_alike_share_one_class() -> None:
    classes = glyph_classes(["alarm", "access_alarm", "settings"])
    assert classes == [("alarm", "access_alarm"), ("settings",), (NONE,)]
