"""Opening an app wherever SimPhone's launcher keeps it, from screenshots and OCR only (agent.launcher).

SimPhone's home screen shows the apps that fit on its first screen; the others (Calculator, Gallery, ...)
are reached through its "Search apps" field, as a person finds them. Each test checks which app really
came to the front after the tap.
"""

from __future__ import annotations

from typing import Any

import pytest

from droidpilot.agent.actions import Action
from droidpilot.agent.brains.replay import ReplayBrain
from droidpilot.agent.grounding import Grounder, Grounding
from droidpilot.agent.launcher import MAX_PAGES, is_label, seek_app, seek_if_missed
from droidpilot.agent.loop import Agent, Limits
from droidpilot.agent.screen import ScreenView
from droidpilot.device.sim.phone import SimDevice
from droidpilot.errors import InputError

SEED = 0


def _open(phone: SimDevice, name: str, ocr: Any) -> tuple[Any, str]:
    """seek_app, then the tap the agent makes; (the search, the package in front after it)."""
    found = seek_app(phone, name, Grounder(), ocr)
    if found.ok:
        assert found.grounding.point is not None
        phone.tap(*found.grounding.point)
    return found, phone.current_app()


def test_an_app_on_the_first_screen_opens_without_a_move(ocr_engine: Any) -> None:
    found, front = _open(SimDevice(seed=SEED), "Notes", ocr_engine)
    assert found.moves == [] and found.grounding.status == "found"
    assert front == "com.simphone.notes"


def test_an_app_past_the_first_screen_is_found_through_the_launcher_search(ocr_engine: Any) -> None:
    phone = SimDevice(seed=SEED)
    assert "Calculator" not in [ln.text for ln in ocr_engine.recognize(phone.screenshot())]
    found, front = _open(phone, "Calculator", ocr_engine)
    assert front == "com.simphone.calculator"
    assert found.moves[-2:] == ["tap 'Search apps'", "type 'Calculator'"]


def test_from_inside_another_app_it_goes_home_first(ocr_engine: Any) -> None:
    phone = SimDevice(seed=SEED)
    phone.open_app("Settings")
    found, front = _open(phone, "Mail", ocr_engine)
    assert found.moves == ["home"] and front == "com.simphone.mail"


def test_a_missing_app_fails_clearly_after_a_bounded_number_of_moves(ocr_engine: Any) -> None:
    phone = SimDevice(seed=SEED)
    found, front = _open(phone, "Zorblax", ocr_engine)
    assert found.grounding.status == "not_found" and not found.ok
    assert 'The app "Zorblax" is not on the home screen' in found.grounding.message
    assert "type 'Zorblax'" in found.grounding.message  # it says where it looked
    # SimPhone's launcher has no pages: each way of swiping is given up after one unchanged swipe.
    assert len(found.moves) <= 3 * MAX_PAGES + 8
    assert [m for m in found.moves if m.startswith("swipe")] == ["swipe left", "swipe right", "swipe up"]
    assert front == "com.simphone.launcher"
    assert "Zorblax" not in [ln.text for ln in ocr_engine.recognize(phone.screenshot())]  # query cleared


def test_the_typed_query_in_the_search_field_is_never_taken_for_the_app(ocr_engine: Any) -> None:
    # After typing, "Gallery" shows twice: in the search field and under the result's icon. Only the
    # result opens the app; tapping the field would leave the launcher in front.
    phone = SimDevice(seed=SEED)
    found, front = _open(phone, "Gallery", ocr_engine)
    lines = [ln for ln in found.screen.lines() if ln.text.startswith("Gallery")]
    assert len(lines) == 2  # the field reads "Gallery" and the cursor ("Galleryl"), the result "Gallery"
    field = min(lines, key=lambda ln: ln.box[1])
    point = found.grounding.point
    assert point is not None and not field.box[1] <= point[1] <= field.box[3]
    assert front == "com.simphone.gallery"


def test_a_similar_label_on_the_first_screen_is_not_opened_instead(ocr_engine: Any) -> None:
    # "Calendar" is on the first screen and close to "Calculator"; it must not be the one opened.
    phone = SimDevice(seed=SEED)
    assert "Calendar" in [ln.text for ln in ocr_engine.recognize(phone.screenshot())]
    _, front = _open(phone, "Calculator", ocr_engine)
    assert front == "com.simphone.calculator"


def test_seek_if_missed_leaves_other_actions_alone_and_makes_no_move_for_a_label_in_sight(
        ocr_engine: Any) -> None:
    phone = SimDevice(seed=SEED)
    screen = ScreenView(phone.screenshot(), ocr_engine)
    missed = Grounding("not_found")
    assert seek_if_missed(phone, Action("click_text", text="Zorblax"), missed, screen, Grounder(),
                          ocr_engine) == (missed, screen, [])
    grounding, same, moves = seek_if_missed(phone, Action("open_app", text="Notes"), Grounding("found"),
                                            screen, Grounder(), ocr_engine)
    assert (grounding.status, same, moves) == ("found", screen, [])
    assert grounding.point is not None and phone.current_app() == "com.simphone.launcher"


def test_is_label_reads_labels_not_texts_that_mention_them() -> None:
    assert is_label("Notes", "notes") and is_label("Setting", "Settings")
    assert is_label("Notes P...", "Notes Pro")  # a label the launcher cut short
    assert not is_label("Notes", "Notes Pro") and not is_label("Camera roll synced", "Camera")
    assert not is_label("Calendar", "Calculator") and not is_label("", "Notes")


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(InputError, match="app's name"):
        seek_app(SimDevice(seed=SEED), "  ", Grounder())
    with pytest.raises(InputError, match="max_pages"):
        seek_app(SimDevice(seed=SEED), "Notes", Grounder(), max_pages=-1)


def _replay_run(tmp_path: Any, ocr: Any, actions: list[str]) -> Any:
    import json

    path = tmp_path / "responses.json"
    path.write_text(json.dumps([{"text": f"Action: {a}", "must_ground": True} for a in actions] +
                               [{"text": "Action: stop"}, {"text": "yes", "kind": "complete"}]))
    phone = SimDevice(seed=SEED)
    run = Agent(phone, ReplayBrain(path), ocr_engine=ocr, out_dir=tmp_path / "run",
                limits=Limits(max_steps=6, max_model_calls=12)).run("Open the app.")
    return run, phone


def test_the_agent_loop_opens_an_app_past_the_first_screen(tmp_path: Any, ocr_engine: Any) -> None:
    run, phone = _replay_run(tmp_path, ocr_engine, ["open App (Calculator)"])
    assert run.termination == "completed" and phone.current_app() == "com.simphone.calculator"
    steps = (run.trace_dir / "steps.jsonl").read_text()
    assert "launcher_moves" in steps and "Search apps" in steps


def test_the_agent_loop_does_not_complete_when_the_app_is_nowhere(tmp_path: Any, ocr_engine: Any) -> None:
    run, phone = _replay_run(tmp_path, ocr_engine, ["open App (Zorblax)"])
    assert run.termination == "brain_error" and not run.completed
    assert "did not ground (not_found)" in run.error
    assert phone.current_app() == "com.simphone.launcher"
