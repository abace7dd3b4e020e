"""An offline brain needing no model: instruction + OCR'd screen -> Observation / Thought / Action.

Generic strategies only, no rule for a particular task or screen: open the app the instruction names or
implies; type quoted or named content into a focused field; tap the on-screen text that best matches
what is still to do (goal words such as Send/Save/Install, step words such as New/Compose, the
instruction's own phrases); tap a text field when something must be typed; scroll to look for a target;
stop when nothing is left to do and the instruction's content is on screen. It is a baseline.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from droidpilot.agent.actions import Action, ActionParseError, parse_action
from droidpilot.agent.brains.base import BrainReply, BrainRequest, HistoryEntry
from droidpilot.agent.brains.heuristic_plan import Plan, lexicon, make_plan
from droidpilot.agent.coords import CoordSpace
from droidpilot.agent.response import format_response
from droidpilot.perception.match import match_text, similarity
from droidpilot.perception.normalize import match_key
from droidpilot.perception.types import OcrLine

STATUS_BAR = 0.045
TOP_BAND = 0.16  # search fields and titles live here; typed text shown here is not a result
OK_RESULTS = ("done", "完成")


@dataclass
class _State:
    """What the history says has been done."""

    opened: str | None = None
    typed: list[str] = field(default_factory=list)
    clicked: dict[str, int] = field(default_factory=dict)
    clicked_ok: list[str] = field(default_factory=list)
    failed: set[str] = field(default_factory=set)
    last: HistoryEntry | None = None
    scrolls_in_row: int = 0
    scrolls: int = 0
    backs: int = 0
    entered_after_type: bool = False
    actions_in_app: int = 0


def _state(history: list[HistoryEntry]) -> _State:
    st = _State()
    for entry in history:
        ok = entry.result in OK_RESULTS
        try:
            action = parse_action(entry.action)
        except ActionParseError:
            continue
        st.last = entry
        if not ok:
            st.failed.add(entry.action)
        if action.name == "open_app" and ok:
            st.opened, st.actions_in_app, st.scrolls, st.backs = action.text, 0, 0, 0
            continue
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
        elif action.name in ("exit", "home"):
            st.opened = None
    return st


def _keyboard_top(lines: list[OcrLine], height: int) -> int | None:
    """The top of an on-screen keyboard, read from its rows of single letters, or None."""
    keys = [ln for ln in lines if ln.box[1] > height * 0.5 and
            (len(ln.text.strip()) == 1 or re.fullmatch(r"(?:[a-zA-Z]\s*){7,}", ln.text.strip()))]
    if len(keys) < 6:
        return None
    return min(ln.box[1] for ln in keys)


def _same(phrase: str, key: str) -> bool:
    """Is the tapped text ``key`` the phrase itself (not a longer line that mentions it)?"""
    return similarity(phrase, key) >= 90 and len(key) <= 1.5 * len(match_key(phrase))


def _click(thought: str, line: OcrLine) -> tuple[str, Action]:
    return thought, Action("click_text", text=line.text)


class HeuristicBrain:
    """The offline baseline brain (see module docstring). Its coordinates are never used: it taps text."""

    name = "heuristic"
    coord_space: CoordSpace = "device"
    extended_actions = True

    def __init__(self, match_threshold: float = 0.82, max_scrolls: int = 2) -> None:
        self.match_threshold = match_threshold
        self.max_scrolls = max_scrolls
        self._plans: dict[str, Plan] = {}

    def describe(self) -> dict[str, Any]:
        return {"match_threshold": self.match_threshold, "max_scrolls": self.max_scrolls}

    # -- entry point -------------------------------------------------------------------------------
    def decide(self, request: BrainRequest) -> BrainReply:
        plan = self._plans.setdefault(request.instruction, make_plan(request.instruction))
        if request.kind == "choose":
            return BrainReply(self._choose(request))
        lines, keyboard = self._visible(request)
        st = _state(request.history)
        if request.kind == "complete":
            missing = self._missing(plan, st, lines)
            answer = "Completed: no\nReason: " + missing if missing else \
                "Completed: yes\nReason: every part of the instruction is done."
            return BrainReply(answer)
        observation = self._observe(lines, keyboard)
        thought, action = self._next(plan, st, lines, keyboard, request)
        return BrainReply(format_response(observation, thought, action.format()))

    # -- reading the screen --------------------------------------------------------------------
    def _visible(self, request: BrainRequest) -> tuple[list[OcrLine], bool]:
        height = request.screen.size[1]
        lines = [ln for ln in request.screen.lines()
                 if ln.box[1] >= height * STATUS_BAR and ln.text.strip()]
        top = _keyboard_top(lines, height)
        if top is not None:
            lines = [ln for ln in lines if ln.box[3] <= top]
        return lines, top is not None

    @staticmethod
    def _observe(lines: list[OcrLine], keyboard: bool) -> str:
        shown = ", ".join(f'"{ln.text}"' for ln in lines[:12]) or "no readable text"
        return f"The screen shows {shown}" + ("; a keyboard is open." if keyboard else ".")

    @staticmethod
    def _matches(word: str, text: str) -> float:
        found = match_text(word, text)
        if found is None:
            return 0.0
        # A short UI word must be (nearly) the whole line: "Send" matches "Send", not "Sender list".
        if len(match_key(word)) <= 8 and len(match_key(text)) > len(match_key(word)) + 3:
            return 0.0
        return found.score

    def _find(self, words: list[str], lines: list[OcrLine], height: int, st: _State,
              skip_done: bool = False) -> OcrLine | None:
        best: tuple[float, OcrLine] | None = None
        typed = [match_key(t) for t in st.typed]
        for line in lines:
            key = match_key(line.text)
            if skip_done and key in st.clicked_ok:
                continue  # tapped already: tapping a switch again would undo it
            if line.box[1] < height * TOP_BAND and any(t and t in key for t in typed):
                continue  # the search box echoing what was typed, not a result
            if st.clicked.get(key, 0) >= 2 or f"click text ({line.text})" in st.failed:
                continue
            for word in words:
                score = self._matches(word, line.text)
                if score >= self.match_threshold and (best is None or score > best[0]):
                    best = (score, line)
        return best[1] if best else None

    # -- deciding ------------------------------------------------------------------------------
    def _pending_text(self, plan: Plan, st: _State, lines: list[OcrLine], height: int) -> str | None:
        for text in plan.texts_to_type:
            if text not in st.typed:
                return text
        query = plan.query
        if query and query not in st.typed and plan.has_search_verb:
            return query
        if query and query not in st.typed and st.scrolls >= 1 and not self._on_screen(query, lines, height):
            return query  # the target is not in sight: look for it with the app's search
        return None

    @staticmethod
    def _on_screen(text: str, lines: list[OcrLine], height: int) -> bool:
        return any(line.box[1] >= height * TOP_BAND and similarity(text, line.text) >= 80 for line in lines)

    def _open_app(self, plan: Plan, lines: list[OcrLine], st: _State) -> OcrLine | None:
        instruction = plan.instruction.lower()
        named: list[tuple[int, OcrLine]] = []
        for line in lines:
            label = line.text.strip()
            if 2 <= len(label) <= 24 and re.search(rf"(?<!\w){re.escape(label.lower())}(?!\w)", instruction):
                named.append((len(label), line))
        if named:
            return max(named, key=lambda t: t[0])[1]
        for hint in plan.app_hints:
            for line in lines:
                if len(line.text) <= 24 and self._matches(hint, line.text) >= 0.9 and \
                        f"open App ({line.text})" not in st.failed:
                    return line
        return None

    def _next(self, plan: Plan, st: _State, lines: list[OcrLine], keyboard: bool,
              request: BrainRequest) -> tuple[str, Action]:
        height = request.screen.size[1]
        if not st.opened:
            app = self._open_app(plan, lines, st)
            if app is not None:
                return (f'The instruction concerns the app "{app.text}"; open it.',
                        Action("open_app", text=app.text))
            if st.last is None or st.last.action != "exit":
                return "No app for the instruction is visible; go to the home screen.", Action("exit")
            return "The app is not on this page of the home screen; scroll.", Action("page_down")
        pending = self._pending_text(plan, st, lines, height)
        if pending and keyboard:
            return f'A text field is focused; type "{pending}".', Action("type", text=pending)
        last = parse_action(st.last.action) if st.last else None
        just_typed_query = last is not None and last.name == "type" and st.typed[-1:] == [plan.query]
        if just_typed_query and not st.entered_after_type:
            return "The search text is typed; submit it.", Action("enter")
        if not pending:
            for group in plan.goals:
                if not any(w in st.clicked_ok for w in map(match_key, group)):
                    line = self._find(group, lines, height, st)
                    if line is not None:
                        return _click(f'"{line.text}" finishes the instruction; tap it.', line)
        target = self._find(plan.phrases, lines, height, st, skip_done=True)
        searching = pending is not None and pending == plan.query and plan.has_search_verb
        if target is not None and not searching:
            return _click(f'"{target.text}" matches the instruction; tap it.', target)
        step = self._find(plan.steps, lines, height, st)
        if step is not None:
            return _click(f'"{step.text}" is a step towards the instruction; tap it.', step)
        if pending:
            fields = [str(f) for f in lexicon()["fields"]]  # type: ignore[union-attr]
            if pending == plan.email:
                fields = ["to", "recipient", *fields]
            field_line = self._find(fields, lines, height, st)
            if field_line is not None:
                return _click(f'Tap the field "{field_line.text}" to type into it.', field_line)
        if target is not None:
            return _click(f'"{target.text}" matches the instruction; tap it.', target)
        if not self._missing(plan, st, lines, request.screen.size[1]):
            return "Everything the instruction asks for is done.", Action("stop")
        if st.scrolls_in_row < self.max_scrolls:
            return "Nothing on screen matches what is left to do; scroll further.", Action("page_down")
        if st.backs < 2:
            return "Scrolling found nothing; go back.", Action("back")
        return "No strategy is left; stop here.", Action("stop")

    def _missing(self, plan: Plan, st: _State, lines: list[OcrLine], height: int | None = None) -> str:
        """What is still to do ('' when nothing)."""
        if not st.opened:
            return "no app has been opened."
        if st.actions_in_app == 0:
            return "nothing has been done in the app yet."
        for text in plan.texts_to_type:
            if text not in st.typed:
                return f'"{text}" has not been typed yet.'
        for group in plan.goals:
            if not any(w in st.clicked_ok for w in map(match_key, group)):
                return f'none of {", ".join(group)} has been tapped yet.'
        if plan.wants_toggle and not any(_same(p, key) for p in plan.phrases[:2] for key in st.clicked_ok):
            return "the setting has not been switched yet."
        if plan.query and plan.has_search_verb and plan.query not in st.typed and \
                match_key(plan.query) not in st.clicked_ok:
            h = height or max((ln.box[3] for ln in lines), default=1)
            if not self._on_screen(plan.query, lines, h):
                return f'"{plan.query}" is not on the screen yet.'
        return ""

    @staticmethod
    def _choose(request: BrainRequest) -> str:
        """Among ambiguous matches prefer the first one below the top band (results, not the search box)."""
        height = request.screen.size[1]
        for i, choice in enumerate(request.choices, 1):
            box = choice.get("box") or [0, 0, 0, 0]
            if box[1] >= height * TOP_BAND:
                return str(i)
        return "1"
