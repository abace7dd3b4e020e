"""The generated rules: typed answers and screen values, the infeasibility declaration, and answer versus
route (the checkpoints are required only when the instruction names the route), judged on traces."""

from __future__ import annotations

from typing import Any

import pytest

from droidpilot.bench.suite import load_suite
from droidpilot.bench.world.rulegen import build_rule, names_route, rule_document, value_spec
from droidpilot.errors import InputError
from droidpilot.verify.engine import verify


@pytest.mark.parametrize(("instruction", "labels", "named"), [
    ("What is the phone number of Julian Young? Look it up in Contacts.", ["Contacts"], True),
    ("Search Contacts for Liam Turner and tell me their email address.", ["Contacts"], True),
    ("Dinner cost $40 for 4 people. Use Calculator to split it evenly.", ["Calculator"], True),
    ("Add their amounts with the Calculator app and tell me the total.", ["Expenses", "Calculator"], True),
    ("How much did I pay Ava? Find it in Bank's recent activity.", ["Bank"], True),
    ("Check the Phone app and answer with the name.", ["Phone"], True),
    ("What will the weather be on Monday? Answer with the condition Weather shows.", ["Weather"], True),
    ("How many photos are in my Gallery?", ["Gallery"], True),
    ("李娜最近在微聊里发来的消息是什么？", ["微聊"], True),
    ("What is the phone number of my only favorite contact?", ["Contacts"], False),
    ("How many contacts are saved on this phone?", ["Contacts", "Phone"], False),  # not the Phone app
    ("What do the expenses Lunch and Taxi add up to?", ["Expenses", "Calculator"], False),
    ("When does my team stand-up start today?", ["Calendar"], False),
    ("李娜最近发来的消息是什么？", ["微聊"], False),
])
def test_names_route(instruction: str, labels: list[str], named: bool) -> None:
    assert names_route(instruction, labels) is named


@pytest.mark.parametrize(("text", "kind"), [
    ("$1,204.10", "money"), ("-$54.20", "money"), ("09:30", "time"), ("8:15 PM", "time"),
    ("555-572-3919", "phone"), ("(555) 572-3919", "phone"),
    ("Amount $54.20", None), ("3 alarms", None), ("Harper Cook", None), ("85%", None), ("12", None),
])
def test_value_texts(text: str, kind: str | None) -> None:
    spec = value_spec(text)
    assert (spec["type"] if spec else None) == kind


def answer(text: str) -> dict[str, Any]:
    return {"text": text, "action": {"type": "answer", "text": text}}


def shows(*labels: str) -> dict[str, Any]:
    nodes = "".join(f'<node index="{i}" text="{t}" class="android.widget.TextView" package="p" '
                    f'content-desc="" bounds="[0,{i * 50}][500,{i * 50 + 40}]" />'
                    for i, t in enumerate(labels))
    return {"text": "", "xml": f'<hierarchy rotation="0">{nodes}</hierarchy>', "action": {"type": "click"}}


def rule(instruction: str, checkpoints: list[list[str]], said: str | None, kind: str = "retrieval",
         labels: tuple[str, ...] = ("Expenses", "Calculator"), answer_type: Any = None):
    doc = rule_document("t-0-0", "com.simphone.expenses", kind, instruction, checkpoints, said,
                        answer_type=answer_type, app_labels=labels)
    task, _ = build_rule(doc)
    assert task.warnings == []
    return task


TOTAL = [["Lunch", "Amount $12.50"], ["Taxi", "Amount $168.50"], ["Calculator", "181", "History"]]
ROUTE = [shows("Lunch", "Amount $12.50"), shows("Taxi", "Amount $168.50"),
         shows("Calculator", "181", "History")]


def test_an_answer_worked_out_without_the_route_passes_when_the_instruction_names_none() -> None:
    free = rule("What do the expenses Lunch and Taxi add up to?", TOTAL, "181")
    assert verify(free, [ROUTE[0], answer("$181")]).ok            # the data seen, no Calculator
    assert not verify(free, [answer("$181")]).ok                  # never looked: a guess, however right
    assert verify(free, [*ROUTE, answer("181")]).ok
    assert not verify(free, [*ROUTE, answer("$1810")]).ok        # the answer is still judged, typed
    assert not verify(free, [answer("181 or 180")]).ok
    partial = verify(free, [*ROUTE[:2], answer("$180")])
    assert not partial.ok and 0 < partial.total_score < partial.max_score  # CR credits the screens


def test_the_route_is_required_when_the_instruction_names_it() -> None:
    named = rule("Open Lunch and Taxi in Expenses, add their amounts in Calculator and tell me the total.",
                 TOTAL, "181")
    assert not verify(named, [answer("181")]).ok
    assert not verify(named, [*ROUTE[:2], answer("181")]).ok
    assert verify(named, [*ROUTE, answer("It is 181.")]).ok


def test_screen_numbers_are_whole_and_values_typed() -> None:
    named = rule("Open Lunch in Expenses and tell me the amount.", [["Lunch", "$12.50"]], "12.50",
                 answer_type="money")
    assert verify(named, [shows("Lunch", "-$12.50"), answer("$12.50")]).ok
    assert not verify(named, [shows("Lunch", "-$112.50"), answer("$12.50")]).ok
    # an amount inside a keyword is read as money: the same amount written otherwise shows it, another not
    keyword = rule("Open Lunch in Expenses and tell me the amount.", [["Lunch", "Amount $12.5"]], "12.5")
    assert verify(keyword, [shows("Lunch", "Amount $12.50"), answer("12.5")]).ok
    assert verify(keyword, [shows("Lunch", "Amount $12.5"), answer("12.5")]).ok
    assert not verify(keyword, [shows("Lunch", "Amount $112.50"), answer("12.5")]).ok
    assert not verify(keyword, [shows("Lunch", "Amount $12.55"), answer("12.5")]).ok
    assert not verify(keyword, [shows("Lunch", "Total $12.50"), answer("12.5")]).ok


def entered(checkpoints: list[list[str]], typed: list[str]):
    doc = rule_document("t-0-0", "com.simphone.contacts", "data-entry", "Add it.", checkpoints, None,
                        typed=typed)
    task, _ = build_rule(doc)
    assert task.warnings == []
    return task


def test_a_text_the_reference_types_is_shown_whole() -> None:
    task = entered([["New contact", "Paige Parker"], ["Contact saved"]], ["Paige Parker"])
    saved = shows("Contact saved")
    assert verify(task, [shows("New contact", "Paige Parker"), saved]).ok
    assert verify(task, [shows("New contact", "paige parker."), saved]).ok
    assert not verify(task, [shows("New contact", "Paige Parkerson"), saved]).ok
    assert not verify(task, [shows("New contact", "Paige Parker Jr"), saved]).ok
    untyped = entered([["New contact", "Paige Parker"], ["Contact saved"]], [])  # a keyword as before
    assert verify(untyped, [shows("New contact", "Paige Parkerson"), saved]).ok


def test_a_typed_number_is_read_as_that_number() -> None:
    task = entered([["Send $132 to Ava?"], ["Checking"]], ["132", "Ava"])
    done = shows("Checking")
    assert verify(task, [shows("Send $132.00 to Ava?"), done]).ok
    assert not verify(task, [shows("Send $1320 to Ava?"), done]).ok
    amount = entered([["Add expense", "23.25"]], ["23.25"])
    assert verify(amount, [shows("Add expense", "$23.25")]).ok
    assert not verify(amount, [shows("Add expense", "$123.25")]).ok


def test_the_answer_is_typed_from_answer_type() -> None:
    money = rule("What is my Checking balance?", [["Checking", "$1,204.10"]], "1204.10", answer_type="money")
    balance = shows("Checking", "$1,204.10")
    assert verify(money, [balance, answer("$1,204.10")]).ok
    assert verify(money, [balance, answer("The balance is 1204.1 dollars.")]).ok
    assert not verify(money, [balance, answer("$12,041.00")]).ok
    phone = rule("What is Ava's number?", [["Ava", "555-392-7824"]], "555-392-7824", answer_type="phone")
    card = shows("Ava", "555-392-7824")
    assert verify(phone, [card, answer("(555) 392-7824")]).ok
    text = rule("What is Ava's number?", [["Ava", "555-392-7824"]], "555-392-7824")  # the fallback: text
    assert verify(text, [card, answer("It is (555) 392-7824.")]).ok
    assert not verify(text, [card, answer("555-392-78245")]).ok
    names = rule("Who are my favorites?", [["Favorites"]], "Ava, Noah",
                 answer_type={"type": "set", "of": "name"})
    favorites = shows("Favorites")
    assert verify(names, [favorites, answer("Noah and Ava")]).ok
    assert not verify(names, [favorites, answer("Noah")]).ok


def test_a_bad_answer_type_is_a_rule_error() -> None:
    doc = rule_document("t-0-0", "p", "retrieval", "What?", [["A"]], "181", answer_type="moneyy")
    with pytest.raises(InputError, match="'moneyy' is not a value type"):
        build_rule(doc)


def test_infeasible_needs_a_plain_declaration_after_the_screens() -> None:
    task = rule("Apply for a loan in the Bank app.", [["Bank", "Send money"]], "infeasible",
                kind="infeasible", labels=("Bank",))
    bank = shows("Bank", "Send money")
    assert verify(task, [bank, answer("This cannot be done in the app")]).ok
    assert verify(task, [bank, answer("infeasible: Bank has no loans")]).ok
    assert not verify(task, [bank, answer("It is not infeasible, I applied.")]).ok
    assert not verify(task, [bank, answer("maybe infeasible?")]).ok
    assert not verify(task, [answer("infeasible")]).ok  # never looked


def test_every_retrieval_and_infeasible_instance_gets_a_typed_rule_without_warnings() -> None:
    tasks = load_suite("world", seed=0).tasks
    answered = [t for t in tasks if t.kind in ("retrieval", "infeasible")]
    assert len(answered) > 50
    for task in answered:
        assert task.rule.warnings == [], task.id
        final = next(n for n in task.rule.nodes if n.id == "answer").condition
        assert final is not None and final.type == "action_match", task.id
        assert ("declares" in final.params) is (task.kind == "infeasible"), task.id
        assert "contains" not in final.params, task.id


def shaped(checkpoints: list[list[str]], **shape: Any):
    doc = rule_document("t-0-0", "com.simphone.tasks", "data-entry", "Add both.", checkpoints, None, **shape)
    task, _ = build_rule(doc)
    assert task.warnings == []
    return task


def test_records_asked_for_together_are_a_set() -> None:
    task = shaped([["New task", "A"], ["New task", "B"], ["A", "B"]], any_order=[[1, 2]])
    a, b, both = shows("New task", "A"), shows("New task", "B"), shows("A", "B")
    assert verify(task, [a, b, both]).ok
    assert verify(task, [b, a, both]).ok  # the other order
    assert not verify(task, [a, a, both]).ok  # the same record twice is not both
    assert not verify(task, [a, both]).ok
    chain = shaped([["New task", "A"], ["New task", "B"], ["A", "B"]])  # without any_order: in order
    assert not verify(chain, [b, a, both]).ok


def test_a_set_at_the_end_needs_all_of_it() -> None:
    task = shaped([["Contacts"], ["Ava", "Starred"], ["Ben", "Starred"]], any_order=[[2, 3]])
    assert task.success_targets() == ("all", ["screen_2", "screen_3"])
    start, ava, ben = shows("Contacts"), shows("Ava", "Starred"), shows("Ben", "Starred")
    assert verify(task, [start, ben, ava]).ok
    assert not verify(task, [start, ben]).ok


def test_a_forbidden_tap_after_the_change_fails_the_run() -> None:
    task = shaped([["Ava", "Favorite"], ["Ava", "In favorites"]], forbid=[{"click": "Favorite", "after": 2},
                                                                         {"click": "Unfavorite", "after": 2}])
    card = shows("Ava", "Favorite") | {"action": {"type": "click", "text": "Favorite"}}
    done = shows("Ava", "In favorites")
    assert verify(task, [card, done]).ok
    undone = done | {"action": {"type": "click", "text": "Unfavorite"}}
    assert not verify(task, [card, undone, shows("Ava", "Favorite")]).ok
    other = shows("Ben", "Favorite") | {"action": {"type": "click", "text": "Favorite"}}
    assert not verify(task, [card, done, other, shows("Ben", "In favorites")]).ok
    # tapping the same button before the change is part of making it
    assert verify(task, [card, card, done]).ok


def test_a_forbidden_screen_from_the_start() -> None:
    doc = rule_document("t-0-0", "com.simphone.bank", "infeasible", "Request $61 from Ava in Bank.",
                        [["Bank", "Send money"]], "infeasible",
                        forbid=[{"shows": ["Money sent"], "after": 0}])
    task, _ = build_rule(doc)
    assert task.warnings == [] and task.forbidden() == ["forbid_1"]
    home, said = shows("Bank", "Send money"), answer("Infeasible: the app cannot request money")
    assert verify(task, [home, said]).ok
    assert not verify(task, [shows("Money sent"), home, said]).ok


def test_other_switches_are_forbidden_but_the_asked_one() -> None:
    rows = ["Wi-Fi", "Bluetooth", "Dark mode"]
    task = shaped([["Settings", "Display"], ["Dark mode", "Dark theme is on"]],
                  forbid=[{"click": rows, "except": "Dark mode", "after": 0}])
    page = shows("Settings", "Display") | {"action": {"type": "click", "text": "Dark mode"}}
    done = shows("Dark mode", "Dark theme is on")
    assert verify(task, [page, done]).ok
    wifi = shows("Wi-Fi", "Bluetooth") | {"action": {"type": "click", "text": "Wi-Fi"}}
    assert not verify(task, [wifi, page, done]).ok
    every = shaped([["Settings"]], forbid=[{"click": ["Dark mode"], "except": ["Dark mode"], "after": 0}])
    assert every.forbidden() == []  # nothing left to forbid: no node


def test_a_typed_text_read_earlier_is_whole_only_where_it_is_entered() -> None:
    subject = "Plumber museum passport"
    task = entered([["Inbox", subject], ["New event", subject]], [subject])
    inbox, event = shows("Inbox", f"{subject} · Nov 17"), shows("New event", subject)
    assert verify(task, [inbox, event]).ok  # read in a longer row of the inbox
    assert not verify(task, [inbox, shows("New event", f"{subject}s")]).ok  # entered with a letter too many


def test_a_typed_value_checkpoint_is_shown_inside_its_range() -> None:
    """A checkpoint may list a typed value as such: a playlist's total length shown between two ends."""
    length = {"type": "duration", "between": ["46:00", "48:00"]}
    task = rule("Make a playlist of 46 to 48 minutes.", [["Road trip", length]], None, kind="data-entry",
                labels=("Music",))
    assert task.nodes[0].name == "The screen shows Road trip, a duration between 46:00 and 48:00"
    assert verify(task, [shows("Road trip", "4 songs", "Total length 47:12", "4:29")]).ok
    assert verify(task, [shows("Road trip", "Total length 48:00")]).ok  # the ends count
    for total in ("45:59", "48:01", "4:29"):  # near misses: just outside, or a single song's length
        assert not verify(task, [shows("Road trip", f"Total length {total}")]).ok, total
    assert not verify(task, [shows("Road trip"), shows("Total length 47:12")]).ok  # not on one screen
