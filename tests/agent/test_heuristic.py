"""The heuristic brain's generic reading of instructions and screens (no OCR: lines are given)."""

from __future__ import annotations

import pytest
from PIL import Image

from droidpilot.agent.actions import parse_action
from droidpilot.agent.brains.base import BrainRequest, HistoryEntry
from droidpilot.agent.brains.heuristic import HeuristicBrain
from droidpilot.agent.brains.heuristic_plan import make_plan
from droidpilot.agent.response import parse_completion, parse_response
from droidpilot.agent.screen import ScreenView
from droidpilot.perception.types import OcrLine

SIZE = (1080, 2400)


@pytest.mark.parametrize(("instruction", "query", "to_type"), [
    ("Search singer Jay Chou in Music.", "Jay Chou", []),
    ("Navigate to Hangzhou West Lake.", "Hangzhou West Lake", []),
    ("Search for videos about Stephen Curry on Tube.", "Stephen Curry", []),
    ('Search a music about "agent" in Music and play it.', "agent", ["agent"]),
    ("Send an empty email to a@b.com.", None, ["a@b.com"]),
    ("Write down the following content: meeting at 3pm.", None, ["meeting at 3pm"]),
    ('Swipe a video about pet cat and click a "like" for this video.', None, []),
])
def test_plan_reads_targets_and_texts(instruction: str, query: str | None, to_type: list[str]) -> None:
    plan = make_plan(instruction)
    assert plan.query == query
    assert plan.texts_to_type == to_type


def test_plan_goals_and_implied_apps_come_from_generic_vocabulary() -> None:
    plan = make_plan("I want to listen music to relax. Find an App to help me.")
    assert "music" in plan.app_hints and ["play"] in plan.goals
    assert make_plan("Turn on the dark mode.").wants_toggle
    # YAML must not turn words such as "on" into booleans: "on" is a stopword, not a target.
    assert make_plan("Turn on the dark mode.").phrases == ["dark mode"]


def _ask(instruction: str, texts: list[tuple[str, int]], history: list[HistoryEntry],
         kind: str = "operate") -> str:
    lines = [OcrLine(t, (100, y, 100 + 30 * len(t), y + 50), 0.99) for t, y in texts]
    screen = ScreenView(Image.new("RGB", SIZE), lines=lines)
    request = BrainRequest(kind=kind, instruction=instruction, prompt="", screen=screen,  # type: ignore[arg-type]
                           step=len(history) + 1, history=history)
    return HeuristicBrain().decide(request).text


def _action(text: str) -> str:
    return parse_action(parse_response(text).action_text).format()


def test_opens_the_named_app_then_the_matching_row() -> None:
    home = [("Settings", 700), ("Notes", 700), ("Mail", 700)]
    assert _action(_ask("Turn on the dark mode.", home, [])) == "open App (Settings)"
    opened = [HistoryEntry(1, "open App (Settings)", result="done", change=0.9)]
    page = [("Settings", 150), ("Network & internet", 500), ("Display", 900),
            ("Dark mode, font size, brightness", 960)]
    assert _action(_ask("Turn on the dark mode.", page, opened)) == \
        "click text (Dark mode, font size, brightness)"


def test_types_into_a_focused_field_and_submits_a_search() -> None:
    keyboard = [(ch, 1700 + 130 * row) for row in range(3) for ch in "qwertyu"]
    history = [HistoryEntry(1, "open App (Music)", result="done", change=0.9),
               HistoryEntry(2, "click text (Search artists)", result="done", change=0.2)]
    screen = [("Search artists", 200), *keyboard]
    assert _action(_ask("Search singer Jay Chou in Music.", screen, history)) == "type (Jay Chou)"
    history.append(HistoryEntry(3, "type (Jay Chou)", result="done", change=0.01))
    assert _action(_ask("Search singer Jay Chou in Music.", screen, history)) == "enter"


def test_a_switch_tapped_once_is_not_tapped_again_and_the_check_agrees() -> None:
    history = [HistoryEntry(1, "open App (Settings)", result="done", change=0.9),
               HistoryEntry(2, "click text (Airplane mode)", result="done", change=0.01)]
    screen = [("Network & internet", 150), ("Airplane mode", 600)]
    assert _action(_ask("Turn on the airplane mode.", screen, history)) == "stop"
    assert parse_completion(_ask("Turn on the airplane mode.", screen, history, "complete")).done is True
    assert parse_completion(_ask("Turn on the airplane mode.", screen, history[:1], "complete")).done is False


def test_confirms_a_dialog() -> None:
    history = [HistoryEntry(1, "open App (Mail)", result="done", change=0.9)]
    screen = [("Send email?", 1000), ("Cancel", 1300), ("OK", 1300)]
    assert _action(_ask("Send an empty email to a@b.com.", screen, history)) == "click text (OK)"
