"""The action grammar: Mobile-Agent's operations, tolerant parsing, canonical formatting, clear errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from droidpilot.agent.actions import Action, ActionParseError, format_action, parse_action


@pytest.mark.parametrize(("text", "expected"), [
    ("open App (Settings)", Action("open_app", text="Settings")),
    ("Open app（设置）", Action("open_app", text="设置")),
    ("click text (Stop watch)", Action("click_text", text="Stop watch")),
    ("Click Text (\"Stop watch\").", Action("click_text", text="Stop watch")),
    ("click  text   ( 'Add to cart' )", Action("click_text", text="Add to cart")),
    ("CLICK TEXT “Wi-Fi”", Action("click_text", text="Wi-Fi")),
    ("click icon (red heart, bottom)", Action("click_icon", description="red heart", position=("bottom",))),
    ("click icon (gray magnifier, top right)",
     Action("click_icon", description="gray magnifier", position=("top", "right"))),
    ("click icon（blue circle，upper-left）",
     Action("click_icon", description="blue circle", position=("top", "left"))),
    ("click icon (green plus)", Action("click_icon", description="green plus")),
    ("page down", Action("page_down")),
    ("Page_Up.", Action("page_up")),
    ("type (Hello, this is a note.)", Action("type", text="Hello, this is a note.")),
    ("type (\"meeting at 3pm\")", Action("type", text='"meeting at 3pm"')),  # typed as written
    ("type (a (nested) text)", Action("type", text="a (nested) text")),
    ("back", Action("back")),
    ("**Action:** exit.", Action("exit")),
    ("stop。", Action("stop")),
    ("tap (540, 1200)", Action("tap", coords=(540.0, 1200.0))),
    ("long press [0.5, 0.25]", Action("long_press", coords=(0.5, 0.25))),
    ("swipe (540, 1800, 540, 600)", Action("swipe", coords=(540.0, 1800.0, 540.0, 600.0))),
    ("enter", Action("enter")),
    ("home", Action("home")),
    ("wait (2)", Action("wait", seconds=2.0)),
    ("wait", Action("wait")),
    ("click (Settings)", Action("click_text", text="Settings")),
])
def test_parses_the_variants_models_write(text: str, expected: Action) -> None:
    assert parse_action(text) == expected


def test_click_text_naming_an_action_word_is_still_a_click() -> None:
    # Substring dispatch would see "stop" here; the parser sees a click on the text "Stop watch".
    assert parse_action("click text (Stop watch)").name == "click_text"
    assert parse_action("click text (back)").text == "back"


def test_type_argument_comes_from_the_action_line_only() -> None:
    action = parse_action("type (first line)\nThought: type (something else)")
    assert action.text == "first line"


@pytest.mark.parametrize(("text", "fragment"), [
    ("", "empty"),
    ("jump (3)", "Unknown action"),
    ("click icon (red heart, sideways)", "'sideways' is not a position"),
    ("click icon (red heart, top, left, right)", "Too many positions"),
    ("tap (100)", "needs 2 numbers"),
    ("swipe (1, 2)", "needs 4 numbers"),
    ("type ()", "needs the text to type"),
    ("open App ()", "needs the app's name"),
    ("back (now)", "takes no parameter"),
    ("click text (OK) please", "after the closing"),
    ("click text (OK", "never closes"),
    ("wait (1, 2)", "at most one number"),
])
def test_errors_say_what_is_wrong_and_how_to_write_it(text: str, fragment: str) -> None:
    with pytest.raises(ActionParseError, match=fragment.replace("(", r"\(")):
        parse_action(text)


def test_unknown_action_lists_the_grammar() -> None:
    with pytest.raises(ActionParseError) as info:
        parse_action("scroll sideways")
    assert "open App (NAME)" in str(info.value) and "click icon (COLOR SHAPE, POSITION)" in str(info.value)


@pytest.mark.parametrize("action", [
    Action("open_app", text="Mail"), Action("click_text", text="Dark mode"), Action("type", text="hi, (you)"),
    Action("click_icon", description="red heart", position=("bottom", "right")), Action("page_down"),
    Action("tap", coords=(0.5, 12.0)), Action("swipe", coords=(1.0, 2.0, 3.0, 4.0)),
    Action("wait", seconds=1.5),
])
def test_format_then_parse_round_trips(action: Action) -> None:
    assert parse_action(format_action(action)) == action


_QUOTES = "\"'“”‘’「」『』`《》<>"
_safe_text = st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp", "Zs")), min_size=1,
                     max_size=30).filter(lambda s: s[-1] not in ".。;；!" and s[0] not in _QUOTES
                                         and s[-1] not in _QUOTES)


@given(_safe_text)
def test_typed_text_survives_round_trip(text: str) -> None:
    parsed = parse_action(format_action(Action("type", text=text)))
    assert parsed == Action("type", text=text)


@given(st.sampled_from(["click text", "CLICK TEXT", "Click  text", "click_text"]),
       st.sampled_from(["({})", "（{}）", "(\"{}\")", "( {} )", "({}).", "“{}”"]))
def test_click_text_is_tolerant_of_spacing_case_and_brackets(verb: str, wrapper: str) -> None:
    assert parse_action(f"{verb} {wrapper.format('Add to cart')}") == Action("click_text", text="Add to cart")


def test_recents_opens_the_app_switcher_and_is_traced_as_such() -> None:
    from droidpilot.agent.execute import perform, trace_entries
    from droidpilot.agent.grounding import Grounding
    from droidpilot.device.sim.phone import SimDevice

    action = parse_action("Recent apps")
    assert action == Action("recents") and action.format() == "recents"
    phone = SimDevice()
    phone.open_app("Settings")
    perform(phone, action, Grounding("direct"))
    assert phone.state()["foreground"]["screen"] == "recents"
    assert trace_entries(action, Grounding("direct"))[0] == {"type": "recents", "status": "ok"}
