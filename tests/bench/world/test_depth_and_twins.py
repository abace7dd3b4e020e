"""Verdicts you can cite: retrieval answers have a declared type, every infeasible task has a feasible twin
in the same words, and every template varies with the seed (or says why it cannot)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from droidpilot.bench.suite import SuiteError, load_suite, suite_folder
from droidpilot.bench.world.depth import MIN_DISTINCT, depth_of, summary
from droidpilot.bench.world.derived import derive
from droidpilot.bench.world.fill import fill
from droidpilot.bench.world.instance import draw_params, instantiate
from droidpilot.bench.world.template import Template, load_templates


@pytest.fixture(scope="module")
def templates() -> list[Template]:
    return load_templates(suite_folder("world"))


def _folder(tmp_path: Path, body: str) -> Path:
    folder = tmp_path / "mine"
    folder.mkdir(exist_ok=True)
    (folder / "_suite.yaml").write_text("type: templates\n", encoding="utf-8")
    (folder / "mine.yaml").write_text("app: clock\ntemplates:\n" + body, encoding="utf-8")
    return folder


RETRIEVAL = (
    "  - id: r\n    kind: retrieval\n{extra}    instruction: 'How many alarms?'\n"
    "    reference: ['answer (1)']\n    checkpoints: [[Alarms]]\n    answer: '1'\n"
)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("", r"mine.yaml:3: template 'r' field 'answer_type': missing — add `answer_type: NAME` after"),
        ("    answer_type: integer\n", r"'integer' is not an answer type — use one of count, number"),
        ("    answer_type: {type: Count}\n", r"'Count' is not an answer type"),
        ("    answer_type: {type: count, aliases: [one]}\n", r"key\(s\) \['aliases'\] for type 'count'"),
        ("    answer_type: {type: set, of: set}\n", r"set of 'set'"),
        ("    answer_type: {type: text, aliases: one}\n", r"aliases must be a list of texts"),
        ("    answer_type: count\n    static: ''\n", r"field 'static': expected the reason as text"),
    ],
)
def test_a_bad_answer_type_or_static_is_an_error_naming_file_line_and_fix(
    tmp_path: Path, extra: str, message: str
) -> None:
    with pytest.raises(SuiteError, match=message):
        load_templates(_folder(tmp_path, RETRIEVAL.format(extra=extra)))


def test_answer_types_are_normalised_to_a_mapping_and_reach_the_task(tmp_path: Path) -> None:
    cases = {
        "count": {"type": "count"},
        "{type: text, aliases: [Ave, 7]}": {"type": "text", "aliases": ["Ave", "7"]},
        "{type: set, of: name}": {"type": "set", "of": "name"},
        "{type: set}": {"type": "set", "of": "text"},
    }
    for written, want in cases.items():
        folder = _folder(tmp_path, RETRIEVAL.format(extra=f"    answer_type: {written}\n"))
        (t,) = load_templates(folder)
        assert t.answer_type == want
        assert load_suite(str(folder)).tasks[0].answer_type == want
    edit = (
        "  - id: e\n    kind: edit\n    answer_type: count\n    instruction: x\n    reference: [back]\n"
        "    checkpoints: [[Alarms]]\n    oracle: {path: clock.alarms, length_at_least: 9}\n"
    )
    with pytest.raises(SuiteError, match="field 'answer_type': only a retrieval task has an answer"):
        load_templates(_folder(tmp_path, edit))


def test_every_retrieval_template_of_the_world_suite_declares_its_answer_type(
    templates: list[Template],
) -> None:
    retrieval = [t for t in templates if t.kind == "retrieval"]
    assert retrieval and all(t.answer_type.get("type") for t in retrieval)
    by_id = {t.id: t.answer_type["type"] for t in retrieval}
    assert by_id["clock-count"] == "count" and by_id["bank-balance"] == "money"
    assert by_id["messages-time"] == "time" and by_id["maps-address"] == "place"
    assert by_id["contacts-phone-lookup"] == "phone" and by_id["dialer-missed-who"] == "name"


def test_every_infeasible_template_has_a_feasible_twin_in_the_same_words(templates: list[Template]) -> None:
    infeasible = [t for t in templates if t.kind == "infeasible"]
    assert len(infeasible) == 19
    for t in infeasible:
        twins = [o for o in templates if o.kind != "infeasible" and o.instruction == t.instruction]
        assert twins, f"{t.id} has no feasible twin with the instruction {t.instruction!r}"
        assert twins[0].oracle, twins[0].id  # a real task with a real check


def _instruction(t: Template, seed: int) -> str:
    """Instance 0's instruction for ``seed`` without building the instance (its rule, setup, distractors):
    the parameters drawn from the stream instantiate() draws them from, filled in (as depth_of does)."""
    ctx = draw_params(t, random.Random(f"{t.id}:{seed}:0"))
    return str(fill(t.instruction, ctx, t.id)).strip()


def test_no_instruction_gives_infeasibility_away(templates: list[Template]) -> None:
    tells = ("say so", "cannot be done", "if it cannot", "tell me if", "如果做不到", "if there is no")
    for t in templates:
        for seed in range(5):
            text = _instruction(t, seed).lower()
            assert not any(tell in text for tell in tells), (t.id, text)
    first_of_kind = {t.kind: t for t in reversed(templates)}.values()
    for t in first_of_kind:  # the shortcut gives what the suite draws
        assert _instruction(t, 3) == instantiate(t, 3).instruction, t.id


def test_an_impossible_alarm_and_its_twin_differ_only_in_the_time() -> None:
    bad = load_suite("world", seed=3, templates="clock-impossible-time").tasks[0]
    good = load_suite("world", seed=3, templates="clock-alarm-at").tasks[0]
    hour = int(bad.params["time"].split(":")[0])
    assert hour >= 24 and bad.instruction == f"Set an alarm for {bad.params['time']} in Clock."
    assert good.instruction == f"Set an alarm for {good.params['time']} in Clock."
    assert int(good.params["time"].split(":")[0]) <= 23 and good.kind == "data-entry"


def test_every_world_template_varies_with_the_seed_or_says_why_not(templates: list[Template]) -> None:
    rows = [depth_of(t) for t in templates]
    shallow = [d.template for d in rows if d.shallow and not d.static]
    assert shallow == []
    deep = [d for d in rows if not d.static]
    assert min(d.instructions for d in deep) >= MIN_DISTINCT
    assert min(d.answers for d in deep if d.answers is not None) >= MIN_DISTINCT
    facts = {d.template: d for d in rows}
    for drawn in ("calendar-event-time", "weather-forecast", "settings-about-model", "tasks-count-done"):
        assert (facts[drawn].answers or 0) >= MIN_DISTINCT, drawn  # world facts come from the seed
    assert summary(rows)["static"] == sum(1 for t in templates if t.static)


def test_a_shallow_template_fails_the_suite_check_unless_marked_static(tmp_path: Path) -> None:
    from droidpilot.bench.world.check import check_suite

    body = (
        "  - id: fixed\n    kind: data-entry\n    instruction: Set an alarm for 07:00 in Clock.\n"
        "    reference: ['open App (Clock)']\n    checkpoints: [[Alarms]]\n"
        "    oracle: {path: clock.alarms, length_at_least: 2}\nSTATIC"
    )
    report = check_suite(_folder(tmp_path, body.replace("STATIC", "")), (0,), depth_seeds=20)
    assert len(report.problems) == 1
    assert "mine.yaml:3: template 'fixed' gives 1 distinct instructions over 20 seeds" in report.problems[0]
    assert 'mark it static: "why it cannot vary"' in report.problems[0]
    static = body.replace("STATIC", "    static: the one wake-up alarm\n")
    marked = check_suite(_folder(tmp_path, static), (0,))
    assert marked.problems == [] and marked.to_dict()["depth"]["static"] == 1


def test_column_lists_one_field_of_the_matching_items() -> None:
    ctx = {"items": [{"t": "a", "done": "yes"}, {"t": "b", "done": "no"}, {"t": "c", "done": "yes"}]}
    spec = {"type": "column", "from": "items", "field": "t", "where": "done", "equals": "yes"}
    assert derive(spec, random.Random(0), ctx, "p") == ["a", "c"]
    assert derive({**spec, "join": ", "}, random.Random(0), ctx, "p") == "a, c"
    assert derive({**spec, "equals": "maybe"}, random.Random(0), ctx, "p") == []
