"""The search with the built-in checkers: events of combinators, the kept debug output, call counts."""

from __future__ import annotations

from droidpilot.verify.engine import verify
from droidpilot.verify.examples import example_dir
from droidpilot.verify.frame import Frame
from droidpilot.verify.rule import Condition, Node, Task
from droidpilot.verify.spec import load_rule
from droidpilot.verify.trace import load_trace

XML = ('<hierarchy><node text="{}" content-desc="" class="android.widget.TextView" '
       'bounds="[0,0][100,50]"/></hierarchy>')


def test_bundled_example_passes_with_seed_003_debug_output_kept() -> None:
    folder = example_dir()
    result = verify(load_rule(folder / "rule.yaml"), load_trace(folder / "trace"))
    assert result.ok and not result.manual_review_needed
    assert [m.node for m in result.matched][-2:] == ["cart_confirmed", "finished"]
    assert any("[Juxtaposition]" in line and "final" in line for line in result.logs)
    assert any("[Escalate]" in line and "returning yes at once" in line for line in result.logs)
    assert result.checker_calls >= result.evaluations


def test_juxtaposition_of_screen_and_action_parts_holds_at_the_action() -> None:
    task = Task(nodes=[
        Node(id="cart_tapped", condition=Condition(type="juxtaposition", params={
            "xml": {"any": ["Cart"]}, "action": {"type": "click"}}))])
    frames = [Frame(index=0, xml_text=XML.format("Home"), action={"type": "click"}),
              Frame(index=1, xml_text=XML.format("Cart"), action={"type": "click"})]
    result = verify(task, frames)
    assert result.ok
    assert [(m.node, m.frame, m.event) for m in result.matched] == [("cart_tapped", 1, "action")]
    assert result.evaluations == 2  # only the action events are asked
    assert result.checker_calls == sum(len(d["check"].get("children", [])) for d in result.decisions)


def test_escalate_pins_where_its_deciding_part_reads() -> None:
    task = Task(nodes=[
        Node(id="seen", next=["typed"],
             condition=Condition(type="xml_text_match", params={"any": ["Search"]})),
        Node(id="typed", condition=Condition(type="escalate", params={
            "xml": {"any": ["never"]}, "action": {"type": "input"}}))])
    frames = [Frame(index=0, xml_text=XML.format("Search"), action={"type": "input"})]
    result = verify(task, frames)
    assert [(m.node, m.event) for m in result.matched] == [("seen", "screen"), ("typed", "action")]


def test_builtin_chain_stays_within_frames_plus_nodes() -> None:
    n_nodes, n_frames = 10, 60
    nodes = [Node(id=f"n{k}", next=[f"n{k + 1}"] if k + 1 < n_nodes else [],
                  condition=Condition(type="text_match", params={"any": [f"step{k};"]}) if k % 2 == 0 else
                  Condition(type="ui_flag", params={"key": f"s{k}", "equals": True}))
             for k in range(n_nodes)]
    frames = [Frame(index=f, text=f"step{f // 6};" if (f // 6) % 2 == 0 else "",
                    ui={f"s{f // 6}": True} if (f // 6) % 2 else {}) for f in range(n_frames)]
    result = verify(Task(nodes=nodes), frames)
    assert result.ok
    assert result.checker_calls <= n_frames + n_nodes
