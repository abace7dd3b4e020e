"""The world suite as data: parameters, templates, instances, generated oracles and rules, suite checks."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from droidpilot.bench.params import ParamError, draw
from droidpilot.bench.suite import SuiteError, load_suite, suite_folder
from droidpilot.bench.world import load_world
from droidpilot.bench.world.check import CheckReport, check_suite
from droidpilot.bench.world.instance import instantiate, tier_of
from droidpilot.bench.world.template import load_templates

SEEDS = 3


@pytest.fixture(scope="module")
def report() -> list[CheckReport]:
    """check_suite on every template, each for one of the seeds 0, 1, 2 in turn (all three for every
    template: `droidpilot suite validate world --seeds 3`). Depth over 50 seeds, most of check_suite's
    time, is asserted for every template by test_depth_and_twins.py (and its use here by the shallow-
    template test there)."""
    folder = suite_folder("world")
    every = load_templates(folder)
    return [check_suite(folder, (seed,), depth_seeds=0, templates=every[seed::SEEDS])
            for seed in range(SEEDS)]


def test_params_are_drawn_from_the_seed() -> None:
    spec = {"type": "records", "count": 5, "unique": "name", "fields": {"name": "full_name", "n": "phone"}}
    a, b = draw(spec, random.Random(3)), draw(spec, random.Random(3))
    assert a == b and len({r["name"] for r in a}) == 5
    assert draw(spec, random.Random(4)) != a
    with pytest.raises(ParamError, match="unknown parameter type 'colour'"):
        draw({"type": "colour"}, random.Random(0), "params.x")


def test_every_template_instantiates_and_none_is_solved_at_start(report: list[CheckReport]) -> None:
    assert [line for part in report for line in part.problems] == []
    # a do-nothing agent passes nothing
    assert [tid for part in report for tid in part.satisfied_at_start] == []
    assert sum(part.templates for part in report) == len(load_templates(suite_folder("world")))
    assert all(part.instances == part.templates > 0 for part in report)
    kinds = {kind for part in report for kind in part.kinds}
    assert {"retrieval", "infeasible", "multi-app", "data-entry", "settings"} <= kinds
    assert len({app for part in report for app in part.apps}) >= 12


def test_instances_are_reproducible_and_differ_by_seed() -> None:
    one = load_world(suite_folder("world"), seed=5, patterns="contacts-favorite")
    again = load_suite("world", seed=5, templates="contacts-favorite")
    other = load_suite("world", seed=6, templates="contacts-favorite")
    task = one.tasks[0]
    assert task.instruction == again.tasks[0].instruction and task.setup == again.tasks[0].setup
    assert task.instruction != other.tasks[0].instruction
    assert len(task.setup["state"]["contacts.contacts"]) == 60  # a long list, found by scrolling
    assert any(op.until == task.params["target"]["name"] for op in task.reference)
    assert task.rule.nodes and task.rule_text.startswith("task_id:")


def test_selection_by_pattern_tier_and_instances() -> None:
    suite = load_suite("world", seed=1, instances=2, templates="clock-*,settings-switch")
    assert len(suite.tasks) == 2 * 15  # 14 clock templates (alarms, timer, stopwatch) and the settings switch
    assert {t.template for t in suite.tasks} >= {"clock-add", "clock-alarm-at", "settings-switch"}
    easy = load_suite("world", templates="clock-*", tier="easy")
    assert easy.tasks and all(t.tier == "easy" and t.level == 1 for t in easy.tasks)
    with pytest.raises(SuiteError, match="matches no template"):
        load_suite("world", templates="nope-*")
    with pytest.raises(SuiteError, match="--tier"):
        load_suite("world", tier="extreme")
    assert [tier_of(n) for n in (4, 5, 9, 10)] == ["easy", "medium", "medium", "hard"]


def test_retrieval_and_infeasible_are_judged_on_the_answer() -> None:
    task = load_suite("world", seed=2, templates="clock-label").tasks[0]
    looked, said = task.oracle["all"]  # opened Clock (no guessing), then the answer
    assert looked == {"path": "system.recents", "contains": "clock"}
    assert said["path"] == "agent.answer"
    assert said["value"]["equals"] == task.params["target"]["label"]  # read as its answer_type
    assert task.reference[-1].action == f"answer ({task.params['target']['label']})"
    assert task.rule.nodes[-1].id == "answer"
    infeasible = load_suite("world", templates="files-zip").tasks[0]
    assert "infeasible" in infeasible.reference[-1].action
    claim = {"all": [{"path": "system.recents", "contains": "files"},
                     {"path": "agent.answer", "declares_infeasible": True}]}
    assert claim in infeasible.oracle["all"]  # a plain claim, made after opening Files
    assert infeasible.effects == {}  # and nothing may change


def test_distractors_are_seeded_recorded_and_handled_by_the_reference() -> None:
    tasks = load_suite("world", seed=0, instances=3, templates="contacts-*,expenses-*").tasks
    dialogs = [t for t in tasks if t.setup.get("dialogs")]
    notes = [t for t in tasks if t.setup.get("notifications")]
    assert dialogs and notes
    for t in dialogs:
        kind = t.setup["dialogs"][0]["screen"]
        assert kind in t.distractors and kind in t.notes
        assert any(
            op.action.startswith("click text (")
            and op.action[12:-1] in ("Don't allow", "Not now", "Get started")
            for op in t.reference
        )
    assert all("wait (2)" in [op.action for op in t.reference] for t in notes)


def test_the_covering_keyboard_is_seeded_recorded_and_put_away_by_the_reference() -> None:
    tasks = load_suite("world", seed=0, instances=4, templates="bank-send*,hard-bank-*,hard-messages-*").tasks
    covered = [t for t in tasks if "keyboard" in t.distractors]
    assert covered and len(covered) < len(tasks)  # drawn for some instances, not all
    for t in covered:
        app = t.setup["keyboard"][0]["app"]
        assert app in ("bank", "messages") and "keyboard" in t.notes
        actions = [op.action for op in t.reference]
        button = "click text (Review)" if app == "bank" else "click text (Send)"
        for i, action in enumerate(actions):
            if action == button and actions[i - 2].startswith("type ("):
                assert actions[i - 1] == "back"  # the keyboard is put away before the tap
    again = load_suite("world", seed=0, instances=4, templates="bank-send*,hard-bank-*,hard-messages-*").tasks
    assert [t.setup for t in again] == [t.setup for t in tasks]


def test_the_hard_tier_has_long_references() -> None:
    hard = load_suite("world", seed=1, tier="hard", templates="hard-*").tasks
    assert len(hard) >= 15
    assert all(len([op for op in t.reference if op.action != "wait (2)"]) >= 10 for t in hard)


def _write(folder: Path, text: str) -> None:
    folder.mkdir(exist_ok=True)
    (folder / "_suite.yaml").write_text("type: templates\n", encoding="utf-8")
    (folder / "mine.yaml").write_text(text, encoding="utf-8")


def test_a_users_folder_gets_clear_errors(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    _write(
        folder,
        "app: notes\ntemplates:\n  - id: a\n    kind: chores\n    instruction: x\n"
        "    reference: [back]\n    checkpoints: [[Notes]]\n    oracle: {path: notes.notes, exists: true}\n",
    )
    with pytest.raises(SuiteError, match=r"mine.yaml:3: template 'a' field 'kind': 'chores' is not a kind"):
        load_suite(str(folder))
    _write(
        folder,
        "app: notes\ntemplates:\n  - id: b\n    kind: edit\n    instruction: 'Say {nothing}'\n"
        "    reference: [back]\n    checkpoints: [[Notes]]\n    oracle: {path: notes.notes, exists: true}\n",
    )
    with pytest.raises(
        SuiteError, match=r"mine.yaml:3: template 'b'.*placeholder \{nothing\} names no parameter"
    ):
        load_suite(str(folder))
    _write(
        folder,
        "app: notes\ntemplates:\n  - id: c\n    kind: edit\n    instruction: x\n    reference: [back]\n"
        "    checkpoints: [[Notes]]\n    oracle: {path: notes.notes, exists: true}\n    colour: red\n",
    )
    with pytest.raises(SuiteError, match="field 'colour': unknown field"):
        load_suite(str(folder))


def test_a_checkpoint_value_is_a_typed_spec_checked_when_filled(tmp_path: Path) -> None:
    head = ("app: music\ntemplates:\n  - id: d\n    kind: data-entry\n    instruction: x\n"
            "    params: {low: {type: const, value: 'soon'}}\n    reference: [back]\n"
            "    oracle: {path: music.playlists, exists: true}\n")
    folder = tmp_path / "mine"
    _write(folder, head + "    checkpoints: [[Music, {colour: red}]]\n")
    with pytest.raises(SuiteError, match=r"field 'checkpoints'.*a list of texts or typed values"):
        load_suite(str(folder))
    _write(folder, head + "    checkpoints: [[Music, {type: duration, between: ['{low}', '48:00']}]]\n")
    with pytest.raises(SuiteError, match=r"template 'd'.*checkpoints\[0\]\.between: 'soon' does not read as "
                                         r"one duration"):
        load_suite(str(folder), seed=0)


def test_concat_and_calc_parameters() -> None:
    from droidpilot.bench.world.derived import derive

    rng = random.Random(0)
    ctx = {"older": [{"n": 1}, {"n": 2}], "last": {"n": 3}, "a": 37, "b": "24"}
    joined = derive({"type": "concat", "from": ["older", "last"]}, rng, ctx, "params.calls")
    assert joined == [{"n": 1}, {"n": 2}, {"n": 3}] and joined[0] is not ctx["older"][0]
    assert derive({"type": "calc", "value": "{a}*{b}"}, rng, ctx, "params.p") == "888"
    assert derive({"type": "calc", "value": "{b}/4"}, rng, ctx, "params.q") == "6"
    with pytest.raises(ParamError, match=r"params\.r: '\{a\}/0' is not an expression"):
        derive({"type": "calc", "value": "{a}/0"}, rng, ctx, "params.r")
    with pytest.raises(ParamError, match="concat needs a list"):
        derive({"type": "concat", "from": "older"}, rng, ctx, "params.s")


def test_the_last_missed_call_is_placed_where_the_task_says() -> None:
    task = load_suite("world", seed=3, templates="dialer-missed-who").tasks[0]
    calls = task.setup["state"]["dialer.calls"]
    assert len(calls) == 32 and calls[-2] == task.params["missed"] and calls[-2]["kind"] == "Missed"
    assert calls[-1]["kind"] in ("Incoming", "Outgoing")  # a newer answered call sits above it
    said = task.oracle["all"][-1]
    assert said["path"] == "agent.answer"
    assert said["value"]["equals"] == task.params["missed"]["name"]


def test_a_note_to_read_is_within_the_pages_a_run_may_scroll() -> None:
    # Notes lists the newest (last) note first; a note shown below row 25 takes more identical page-downs
    # than the agent loop allows (max_repeated_actions), so the reference itself ended in repeated_action.
    template = next(t for t in load_templates(suite_folder("world")) if t.id == "notes-read")
    drawn = load_suite("world", seed=7, templates="notes-read").tasks[0]
    assert instantiate(template, 7).params == drawn.params
    for seed in range(50):
        task = instantiate(template, seed)  # what the suite draws for the seed, as checked above
        titles = [n["title"] for n in task.params["items"]]
        row = len(titles) - 1 - titles.index(task.params["target"]["title"])
        assert 5 <= row <= 25, (seed, row)


@pytest.mark.parametrize("template", ["notes-count", "notes-delete-all"])
def test_the_note_a_rule_looks_for_is_the_one_notes_lists_first(template: str) -> None:
    # the checkpoint's note must show on the first screen of Notes, which lists the newest (last) first
    for seed in range(3):
        task = load_suite("world", seed=seed, templates=template).tasks[0]
        assert task.params["shown"] == task.params["items"][-1], seed
