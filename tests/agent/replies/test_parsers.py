"""Every recorded example reply of every format parses to the same canonical Action; bad ones say why."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from droidpilot.agent.replies import ReplyParseError, parse_reply
from droidpilot.agent.replies.tool_calls import tool_schema

EXAMPLES = Path(__file__).parent / "examples"


def _cases(name: str) -> list[Any]:
    items = yaml.safe_load((EXAMPLES / f"{name}.yaml").read_text("utf-8"))
    return [pytest.param(item, id=f"{name}-{i}") for i, item in enumerate(items)]


@pytest.mark.parametrize("case", [c for n in ("mobile_agent", "json", "mobiagent", "coordinates",
                                                "tool_calls", "styles") for c in _cases(n)])
def test_example_parses_to_its_action(case: dict[str, Any]) -> None:
    parsed = parse_reply(case.get("reply") or case.get("content", ""), case.get("tool_calls"))
    assert parsed.action.format() == case["action"]
    if "thought" in case:
        assert parsed.thought == case["thought"]
    if "format" in case:
        assert parsed.format == case["format"]
    assert parsed.raw  # the raw answer travels with the action


@pytest.mark.parametrize("case", _cases("unparseable"))
def test_unparseable_example_says_why(case: dict[str, Any]) -> None:
    with pytest.raises(ReplyParseError, match=case["error"]):
        parse_reply(case.get("reply", ""), case.get("tool_calls"))


def test_tool_schema_offers_one_function_per_action() -> None:
    basic = {t["function"]["name"] for t in tool_schema()}
    extended = {t["function"]["name"] for t in tool_schema(extended=True)}
    assert basic == {"open_app", "click_text", "click_icon", "type", "page_up", "page_down", "back", "exit",
                     "stop"}
    assert extended - basic == {"tap", "long_press", "swipe", "enter", "home", "wait"}
    for tool in tool_schema(extended=True):
        params = tool["function"]["parameters"]
        assert params["type"] == "object" and set(params["required"]) <= set(params["properties"])


@pytest.mark.parametrize("reply", ['Action: ' + '{"a": ' * 3000 + '1' + '}' * 3000,
                                   "Action: " + "{'a': " * 3000 + "1" + "}" * 3000])
def test_deeply_nested_objects_are_refused_with_a_reason(reply: str) -> None:
    with pytest.raises(ReplyParseError, match="Unknown action"):
        parse_reply(reply)


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize(("reply", "text"), [
    (r"{'action': 'INPUT', 'value': 'C:\Files\Docs', 'position': [0.5, 0.1]}", "C:\\Files\\Docs"),
    (r"{'action': 'INPUT', 'value': 'a\{b\}', 'position': None}", "a\\{b\\}"),
    # written differently, read the same: real escapes still mean what they mean, raw strings stay raw
    (r"{'action': 'INPUT', 'value': 'it\'s\tC:\\F', 'position': None}", "it's\tC:\\F"),
    (r"{'action': 'INPUT', 'value': r'C:\Files', 'position': None}", "C:\\Files"),
])
def test_a_backslash_starting_no_escape_is_read_as_written_without_a_warning(reply: str, text: str) -> None:
    """Python warns about '\\F' in a literal (DeprecationWarning; SyntaxWarning from 3.12): a model's Windows
    path or a sampled gym text action printed it from '<unknown>', and failed to parse where warnings are
    errors. The value is what Python reads (the backslash kept), with no warning."""
    parsed = parse_reply(reply)
    assert parsed.action.name == "type" and parsed.action.text == text


def test_every_collected_style_names_its_source() -> None:
    styles = yaml.safe_load((EXAMPLES / "styles.yaml").read_text("utf-8"))
    assert all(s.get("source") and s.get("style") and s.get("action") for s in styles)
    assert len({s["style"] for s in styles}) == len(styles) >= 20
