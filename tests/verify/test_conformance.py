"""The MobiFlow corpus (../shared/reference/mobiflow/task_rules): 55 rules load, 4 fail and say why."""

from __future__ import annotations

from pathlib import Path

import pytest

from droidpilot.verify.checkers import registered_names
from droidpilot.verify.spec import RuleError, load_rule

SHARED = Path(__file__).parents[2].parent / "shared"
CORPUS = SHARED / "reference" / "mobiflow" / "task_rules"

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(),
                                reason=f"MobiFlow corpus not found at {CORPUS} (../shared is absent)")

BROKEN = {
    "ele/ele-type3.yaml": ("node 'add_to_cart': deps names 'select_item_and_specs', which is not a node "
                           "(a node with that id is commented out at line 32)"),
    "feizhu/feizhu-type7.yaml": "YAML syntax error: expected <block end>, but found '-'",
    "xiechen-jiudian/xiecheng_jd-type7.yaml": "YAML syntax error: expected <block end>, but found '-'",
    "gaode/gaode-type1.yaml": ("success.any_of names 'start_navigation', which is not a node "
                               "(a node with that id is commented out at line 39)"),
}
BROKEN_LINES = {"ele/ele-type3.yaml": 47, "feizhu/feizhu-type7.yaml": 39,
                "xiechen-jiudian/xiecheng_jd-type7.yaml": 39, "gaode/gaode-type1.yaml": 73}


def corpus_files() -> list[str]:
    if not CORPUS.is_dir():
        return []
    return sorted(str(p.relative_to(CORPUS)) for p in CORPUS.rglob("*.yaml"))


def test_corpus_is_complete() -> None:
    assert len(corpus_files()) == 59


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_rules_fail_with_a_message_saying_what_is_wrong(name: str) -> None:
    with pytest.raises(RuleError) as err:
        load_rule(CORPUS / name)
    (problem,) = err.value.problems
    assert problem.file == str(CORPUS / name) and problem.line == BROKEN_LINES[name]
    assert BROKEN[name] in str(problem) and problem.fix


def test_valid_rules_load_with_the_expected_warnings() -> None:
    loaded = {}
    for name in corpus_files():
        if name not in BROKEN:
            loaded[name] = load_rule(CORPUS / name)
    assert len(loaded) == 55
    deps_and_next = {n for n, t in loaded.items() if any("is also named in next" in w for w in t.warnings)}
    assert deps_and_next == {
        "ele/ele-type4.yaml", "ele/ele-type5.yaml", "feizhu/feizhu-type3.yaml", "feizhu/feizhu-type4.yaml",
        "feizhu/feizhu-type6.yaml", "xiechen-jiudian/xiecheng_jd-type3.yaml",
        "xiechen-jiudian/xiecheng_jd-type4.yaml", "xiechen-jiudian/xiecheng_jd-type6.yaml",
    }  # the corpus's ninth such file, ele-type3, is one of the broken ones
    beside = loaded["bilibili/bilibili-type2.yaml"]
    assert any("'llm' stands beside type: instead of under params:" in w for w in beside.warnings)
    assert beside.node("click_video_from_feed_2").condition.params["llm"]["expected_true"] is True
    if "ocr_match" in registered_names():  # its parameters are checked only when it is installed
        (stray,) = loaded["weixin/weixin-type7.yaml"].warnings
        assert "juxtaposition.ocr: parameter 'all:' has a stray ':' and is read as 'all'" in stray
    for task in loaded.values():
        assert task.nodes and all(n.line for n in task.nodes)
        assert all(n.condition is not None for n in task.nodes)
