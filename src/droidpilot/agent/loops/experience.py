"""E's experience reflection after a task: the tip reflector and the shortcut reflector, each one role
call (recorded like any other, re-prompted once when unreadable), merged into the next memory version."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from droidpilot.agent.actions import GRAMMAR_HELP
from droidpilot.agent.loop import _Run
from droidpilot.agent.memory.learn import merged, parse_shortcuts, parse_tips
from droidpilot.agent.memory.store import Memory
from droidpilot.agent.prompting import history_text
from droidpilot.agent.prompts import render
from droidpilot.agent.replies import ReplyParseError
from droidpilot.agent.screen import ScreenView

if TYPE_CHECKING:
    from droidpilot.agent.loops.e import EAgent


def learn_from_run(agent: EAgent, run: _Run, screen: ScreenView, reason: str,
                   record: dict[str, Any]) -> Memory | None:
    """The memory after reflecting on ``run`` (None when neither reflector could be read or asked)."""
    memory, language = agent.memory, agent.language
    atomic = "\n".join(f"{i}. {a}" for i, a in enumerate(agent.state.atomic, 1)) or "(none)"
    tips: list[str] | None = None
    shortcuts: list[Any] = []
    if agent.role_by_model("tip_reflector"):
        prompt = render("role_tip_reflector", language, instruction=run.instruction, termination=reason,
                        history=history_text(run.history, language, keep_last=30), tips=memory.tips_text())
        try:
            tips = agent._role_call(run, "tip_reflector", prompt, screen, record,
                                    lambda r: parse_tips(r.text))
        except ReplyParseError:
            tips = None
    else:
        agent._code_role(record, "tip_reflector", None, "the brain reads no role prompts; no tips learnt")
    if agent.role_by_model("shortcut_reflector"):
        prompt = render("role_shortcut_reflector", language, instruction=run.instruction, termination=reason,
                        history=atomic, shortcuts=memory.shortcuts_text(), grammar=GRAMMAR_HELP)
        try:
            found = agent._role_call(run, "shortcut_reflector", prompt, screen, record,
                                     lambda r: parse_shortcuts(r.text, run.instruction))
            shortcuts = list(found)
        except ReplyParseError:
            shortcuts = []
    else:
        agent._code_role(record, "shortcut_reflector", [], "the brain reads no role prompts; none learnt")
    if tips is None and not shortcuts:
        return None
    return merged(memory, tips, shortcuts, run.instruction)
