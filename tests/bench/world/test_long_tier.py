"""The long tier (issue 27): templates needing 20+ reference operations across 3+ apps are tier ``long``,
selectable with ``--tier long``; nothing shorter or within fewer apps is, and the suite check counts them."""

from __future__ import annotations

import pytest

from droidpilot.bench.suite import SuiteError, load_suite
from droidpilot.bench.world.instance import LONG_APPS, LONG_STEPS, TIERS, tier_of


def test_tier_boundaries() -> None:
    assert TIERS[-1] == "long" and (LONG_STEPS, LONG_APPS) == (20, 3)
    assert tier_of(19, 5) == "hard"  # one operation short
    assert tier_of(30, 2) == "hard"  # long, but within two apps
    assert tier_of(20, 3) == "long"
    assert [tier_of(n) for n in (4, 5, 9, 10, 25)] == ["easy", "medium", "medium", "hard", "hard"]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_long_templates_are_long_on_every_seed(seed: int) -> None:
    tasks = load_suite("world", seed=seed, templates="longtier-*").tasks
    assert len(tasks) >= 8
    for task in tasks:
        assert task.tier == "long" and task.level == 4, task.id
        assert len(set(task.apps)) >= 3, task.id
        opened = {op.action for op in task.reference if op.action.startswith("open App (")}
        assert len(opened) >= 3, f"{task.id} opens {sorted(opened)}"
        # the distractors' steps (a dialog dismissed, a banner waited out) do not make a task long
        own = [op for op in task.reference if op.action not in ("wait (2)", "back")]
        assert len(own) >= LONG_STEPS - 4, task.id
        assert task.effects, f"{task.id} declares no effects"


def test_only_the_long_templates_are_long_and_the_tier_selects_them() -> None:
    everything = load_suite("world", seed=0).tasks
    long_ids = sorted(t.template for t in everything if t.tier == "long")
    assert long_ids and all(i.startswith("longtier-") for i in long_ids)
    selected = load_suite("world", seed=0, tier="long").tasks
    assert sorted(t.template for t in selected) == long_ids
    with pytest.raises(SuiteError, match="no selected template is of tier long"):
        load_suite("world", seed=0, tier="long", templates="clock-*")
