"""Mobile-Agent's ``wait (N)`` keeps its seconds; UI-TARS's bare ``wait()`` is still a coordinate call."""

from __future__ import annotations

from droidpilot.agent.replies import parse_reply


def test_mobile_agent_wait_keeps_its_seconds() -> None:
    parsed = parse_reply("Thought: the banner will go\nAction: wait (2)")
    assert (parsed.action.name, parsed.action.seconds, parsed.format) == ("wait", 2.0, "mobile-agent")


def test_ui_tars_bare_wait_is_a_call() -> None:
    parsed = parse_reply("Thought: loading\nAction: wait()")
    assert (parsed.action.name, parsed.format) == ("wait", "coordinates")
