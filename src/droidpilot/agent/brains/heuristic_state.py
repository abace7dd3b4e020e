"""What the offline heuristic brain reads from its history: what was opened, typed, tapped, toggled.

Only the brain's own history is used (actions and their reflected outcome), never the device.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from droidpilot.agent.actions import ActionParseError, parse_action
from droidpilot.agent.brains.base import HistoryEntry
from droidpilot.perception.normalize import match_key

OK_RESULTS = ("done", "完成")
IN_PLACE_CHANGE = 0.04  # a tap changing less of the screen than this flipped something in place


@dataclass
class HistoryState:
    """What the history says has been done."""

    opened: str | None = None
    typed: list[str] = field(default_factory=list)
    clicked: dict[str, int] = field(default_factory=dict)
    clicked_ok: list[str] = field(default_factory=list)
    failed: set[str] = field(default_factory=set)
    last: HistoryEntry | None = None
    before_last: HistoryEntry | None = None
    scrolls_in_row: int = 0
    scrolls: int = 0
    backs: int = 0
    entered_after_type: bool = False
    actions_in_app: int = 0
    depth: int = 0  # pages entered since the app opened (taps that changed the screen, minus backs)
    toggled: list[str] = field(default_factory=list)  # taps that changed the screen only a little
    icons_ok: list[str] = field(default_factory=list)  # icon descriptions tapped with an effect
    icons_tried: list[str] = field(default_factory=list)
    scroll_stuck: bool = False  # the last scroll did not move the page


def read_history(history: list[HistoryEntry]) -> HistoryState:
    """Fold the history into a HistoryState."""
    st = HistoryState()
    for entry in history:
        ok = entry.result in OK_RESULTS
        try:
            action = parse_action(entry.action)
        except ActionParseError:
            continue
        st.before_last, st.last = st.last, entry
        if not ok:
            st.failed.add(entry.action)
        if action.name == "open_app" and ok:
            st.opened, st.actions_in_app, st.scrolls, st.backs, st.depth = action.text, 0, 0, 0, 0
            continue
        st.scroll_stuck = action.name in ("page_down", "page_up") and not ok
        if ok and action.name in ("click_text", "click_icon", "enter", "tap"):
            st.depth += 1
        elif ok and action.name == "back":
            st.depth -= 1
        if st.opened:
            st.actions_in_app += int(ok)
        if action.name in ("page_down", "page_up"):
            st.scrolls_in_row += 1
            st.scrolls += 1
        else:
            st.scrolls_in_row = 0
        if action.name == "type" and ok:
            st.typed.append(action.text or "")
            st.entered_after_type = False
        elif action.name == "enter" and ok:
            st.entered_after_type = True
        elif action.name == "back":
            st.backs += 1
        elif action.name == "click_text":
            key = match_key(action.text or "")
            st.clicked[key] = st.clicked.get(key, 0) + 1
            if ok:
                st.clicked_ok.append(key)
                if entry.change is not None and entry.change < IN_PLACE_CHANGE:
                    st.toggled.append(key)
        elif action.name == "click_icon":
            desc = ", ".join([action.description or "", " ".join(action.position)]).strip(", ")
            st.icons_tried.append(desc)
            if ok:
                st.icons_ok.append(desc)
        elif action.name in ("exit", "home"):
            st.opened = None
    return st
