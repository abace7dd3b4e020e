"""The uiautomator server's parts without a client: UiSelector matching over a dump, and JSON-RPC framing."""

from __future__ import annotations

import json

import pytest

from droidpilot.device.sim.phone import SimDevice
from droidpilot.device.u2 import rpc
from droidpilot.device.u2.selector import SelectorError, describe, select
from droidpilot.device.u2.tree import DumpError, parse_dump


def sel(**fields: object) -> dict[str, object]:
    return {"mask": 1, "childOrSibling": [], "childOrSiblingSelector": [], **fields}


@pytest.fixture(scope="module")
def nodes() -> list:
    sim = SimDevice()
    sim.open_app("settings")
    return parse_dump(sim.ui_xml())


def test_fields_instance_and_chains(nodes: list) -> None:
    titles = select(sel(resourceId="com.android.settings:id/title"), nodes)
    assert len(titles) >= 3 and all(n.get("resource-id").endswith("/title") for n in titles)
    second = select(sel(resourceId="com.android.settings:id/title", instance=1), nodes)
    assert second == titles[1:2]
    assert select(sel(resourceId="com.android.settings:id/title", instance=99), nodes) == []
    assert [n.get("text") for n in select(sel(textMatches="Dis.*"), nodes)] == ["Display"]
    assert select(sel(textMatches="Dis"), nodes) == []  # Java's matches(): the whole text
    child = sel(resourceId="com.android.settings:id/display", childOrSibling=["child"],
                childOrSiblingSelector=[sel(resourceId="com.android.settings:id/summary")])
    assert [n.get("text") for n in select(child, nodes)] == ["Dark mode, font size, brightness"]
    sibling = sel(text="Display", childOrSibling=["sibling"], childOrSiblingSelector=[sel(index=1)])
    assert [n.get("text") for n in select(sibling, nodes)] == ["Dark mode, font size, brightness"]


def test_bad_selectors_say_what_is_wrong(nodes: list) -> None:
    with pytest.raises(SelectorError, match="PatternSyntaxException"):
        select(sel(textMatches="("), nodes)
    with pytest.raises(SelectorError, match="unknown UiSelector field 'colour'"):
        select(sel(colour="red"), nodes)
    assert describe(sel(text="A", instance=2)) == "UiSelector[TEXT=A, INSTANCE=2]"
    with pytest.raises(DumpError):
        parse_dump("<hierarchy>")


def test_jsonrpc_answers_and_errors() -> None:
    def fail() -> None:
        raise rpc.not_found("UiSelector[X]")

    methods = {"add": lambda a, b: a + b, "fail": fail}
    body = json.dumps({"jsonrpc": "2.0", "id": 3, "method": "add", "params": [1, 2]}).encode()
    ok = rpc.handle(body, methods)
    assert ok == {"jsonrpc": "2.0", "id": 3, "result": 3}
    err = rpc.handle(b'{"jsonrpc": "2.0", "id": 4, "method": "fail", "params": []}', methods)["error"]
    assert err["code"] == -32002 and "uiautomator.UiObjectNotFoundException" in err["message"]
    assert rpc.handle(b"{", methods)["error"]["code"] == rpc.PARSE_ERROR
    assert rpc.handle(b'{"id": 1, "method": "nope"}', methods)["error"]["code"] == rpc.METHOD_NOT_FOUND
    bad = rpc.handle(b'{"id": 1, "method": "add", "params": [1]}', methods)["error"]
    assert bad["code"] == rpc.INVALID_PARAMS and "add" in bad["message"]


def test_a_number_beyond_a_double_is_an_argument_error_and_does_not_hide_deep_nesting() -> None:
    """[1e400, 80] was answered 'nested more than 100 levels deep' (the number stopped the depth scan)."""
    methods = {"f": lambda *args: 1}
    flat = rpc.handle(b'{"id": 1, "method": "f", "params": [1e400, 80]}', methods)["error"]
    assert flat["code"] == rpc.INVALID_PARAMS and "not a finite number" in flat["message"]
    for depth in (150, 5000):  # below and beyond Python's own recursion limit
        body = '{"id": 2, "method": "f", "params": ' + "[" * depth + "1e400" + "]" * depth + "}"
        err = rpc.handle(body.encode(), methods)
        assert err["id"] == 2 and "nested more than 100 levels deep" in err["error"]["message"]
    assert rpc.handle(b'{"id": 3, "method": "f", "params": [[[1.5e300]]]}', methods)["result"] == 1


def test_named_ui_objects_are_capped_oldest_first(monkeypatch: pytest.MonkeyPatch) -> None:
    from droidpilot.device.adbd.phone import Phone
    from droidpilot.device.u2 import methods_gesture
    from droidpilot.device.u2.session import Session

    monkeypatch.setattr(methods_gesture, "MAX_OBJECTS", 5)  # the real cap is 10,000: the rule is the same
    sim = SimDevice()
    sim.open_app("settings")
    session = Session(Phone("simphone-1", 1, sim))
    get = methods_gesture.gesture_methods(session)["getUiObject"]
    sel = {"mask": 1, "text": "Display"}
    names = [get(sel) for _ in range(8)]
    assert list(session.objects) == names[3:]
