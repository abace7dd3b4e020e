"""Words in CJK replies: no spaces between words, so a CJK value needs no word boundary at its CJK ends,
while negation and Latin word boundaries still hold."""

from __future__ import annotations

import pytest

from droidpilot.typed import match, shown


@pytest.mark.parametrize(("spec", "text", "ok"), [
    ({"type": "text", "equals": "明天见"}, "他说明天见", True),
    ({"type": "name", "equals": "张伟"}, "是张伟发来的", True),
    ({"type": "name", "equals": "张伟"}, "不是张伟", False),        # negated
    ({"type": "name", "equals": "张伟"}, "张伟或者李娜", False),    # hedged
    ({"type": "name", "equals": "张伟"}, "李娜", False),
    ({"type": "name", "equals": "Paige Parker"}, "Paige Parkerson", False),  # Latin ends keep boundaries
    ({"type": "text", "equals": "Gym"}, "Gymnastics", False),
])
def test_cjk_replies(spec: dict, text: str, ok: bool) -> None:
    assert match(spec, text).ok is ok, match(spec, text).reason


def test_cjk_screen_line() -> None:
    assert shown({"type": "name", "equals": "王芳"}, ["来自王芳的消息"]).ok
    assert not shown({"type": "name", "equals": "王芳"}, ["来自李娜的消息"]).ok
