"""ui_flag on the frame's UI state and xml_text_match on the UI XML's visible texts."""

from __future__ import annotations

import pytest

from droidpilot.verify.checkers import Verdict, get_checker
from droidpilot.verify.frame import Frame

XML = """<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
<hierarchy rotation="0">
  <node index="0" text="" resource-id="com.shop:id/root" class="android.widget.FrameLayout"
        package="com.shop" content-desc="" bounds="[0,0][1080,2400]">
    <node index="0" text="购物车" resource-id="com.shop:id/cart" class="android.widget.TextView"
          package="com.shop" content-desc="" clickable="true" bounds="[10,20][200,80]" />
    <node index="1" text="" resource-id="com.shop:id/search_button" class="android.widget.ImageView"
          package="com.shop" content-desc="Search" clickable="true" bounds="[900,20][1060,80]" />
  </node>
</hierarchy>"""


def test_declarations() -> None:
    assert get_checker("ui").reads == "screen" and get_checker("xml").reads == "screen"
    assert get_checker("ui_flag").params_spec["key"].required


@pytest.mark.parametrize(("params", "verdict"), [
    ({"key": "screen", "equals": "search"}, Verdict.YES),
    ({"key": "screen", "equals": "home"}, Verdict.NO),
    ({"key": "screen", "in": ["home", "search"]}, Verdict.YES),
    ({"key": "screen", "in": ["home"]}, Verdict.NO),
    ({"key": "keyboard"}, Verdict.YES),                  # neither: the flag must be truthy
    ({"key": "dialog"}, Verdict.NO),
    ({"key": "keyboard", "equals": "true"}, Verdict.YES),  # YAML may quote a boolean
    ({"key": "cart.count", "equals": 2}, Verdict.YES),     # dotted path
    ({"key": "missing", "equals": 1}, Verdict.NO),
])
def test_ui_flag(params: dict, verdict: Verdict) -> None:
    frame = Frame(index=0, ui={"screen": "search", "keyboard": True, "dialog": False, "cart": {"count": 2}})
    result = get_checker("ui_flag").run(frame, params, None)
    assert result.verdict is verdict
    assert result.event == "screen"


def test_ui_flag_details_and_validate() -> None:
    result = get_checker("ui_flag").run(Frame(index=0, ui={"screen": "home"}),
                                        {"key": "screen", "equals": "search"}, None)
    assert result.details == {"key": "screen", "value": "home"}
    assert "is not == 'search'" in result.reason
    assert get_checker("ui_flag").run(Frame(index=0), {"key": "screen"}, None).reason == \
        "the UI state has no 'screen'"
    assert get_checker("ui_flag").validate({"key": "a", "equals": 1, "in": [1]}) == \
        ["give either 'equals' or 'in', not both"]


@pytest.mark.parametrize(("params", "verdict"), [
    ({"any": ["购物车"]}, Verdict.YES),
    ({"any": ["search"]}, Verdict.YES),                 # content-desc counts, case folded
    ({"all": ["购物车", "Search"]}, Verdict.YES),        # across elements
    ({"all": ["购物车", "结算"]}, Verdict.NO),
    ({"any": ["bounds", "resource-id", "com.shop", "FrameLayout", "search_button"]}, Verdict.NO),
])
def test_xml_text_match_reads_texts_not_markup(params: dict, verdict: Verdict) -> None:
    result = get_checker("xml_text_match").run(Frame(index=0, xml_text=XML), params, None)
    assert result.verdict is verdict


def test_xml_text_match_details_name_the_elements() -> None:
    result = get_checker("xml").run(Frame(index=0, xml_text=XML), {"any": ["search"]}, None)
    assert result.details["found"] == ["search"]
    assert result.details["elements"] == [{"label": "Search", "bounds": [900, 20, 1060, 80]}]


@pytest.mark.parametrize("xml_text", [None, "", "<hierarchy_dump_failed/>", "<hierarchy><node"])
def test_xml_text_match_without_a_usable_dump_is_undecided(xml_text: str | None) -> None:
    result = get_checker("xml_text_match").run(Frame(index=4, xml_text=xml_text), {"any": ["x"]}, None)
    assert result.undecided and result.reason


def test_xml_text_match_on_a_mobiflow_dict_frame() -> None:
    frame = {"xml": XML}
    assert get_checker("xml_text_match").run(frame, {"any": ["购物车"]}, None).yes  # type: ignore[arg-type]


SWITCH_XML = """<hierarchy rotation="0">
  <node text="" class="android.widget.FrameLayout" package="com.simphone.settings" bounds="[0,0][1080,2400]">
    <node text="Airplane mode" class="android.widget.TextView" package="com.simphone.settings"
          bounds="[40,300][700,380]" />
    <node text="" class="android.widget.Switch" checkable="true" checked="true" content-desc="Airplane mode"
          package="com.simphone.settings" bounds="[900,300][1040,380]" />
  </node>
</hierarchy>"""


def test_ui_state_is_derived_from_the_dump_and_explicit_keys_win() -> None:
    frame = Frame(index=0, xml_text=SWITCH_XML)
    assert frame.ui_state() == {"checked": {"Airplane mode": True}, "package": "com.simphone.settings"}
    assert frame.get("ui") == frame.ui_state()
    flag = get_checker("ui")
    assert flag.check(frame, {"key": "checked.Airplane mode", "equals": True}).verdict is Verdict.YES
    given = Frame(index=0, xml_text=SWITCH_XML, ui={"package": "com.other"})
    assert given.ui_state()["package"] == "com.other" and given.ui_state()["checked"]["Airplane mode"]
    given.xml_text = None  # a withheld dump leaves only what the trace said
    assert given.ui_state() == {"package": "com.other"}
