"""An offline brain needing no model: instruction + OCR'd screen -> Observation / Thought / Action.

Generic strategies only, no rule for a particular task or screen: open the app the instruction names or
implies; type quoted or named content into a focused field; tap the on-screen text that best matches
what is still to do (goal words such as Send/Save/Install, step words such as New/Compose, the
instruction's own phrases); tap a text field when something must be typed; scroll to look for a target;
stop when nothing is left to do and the instruction's content is on screen. It is a baseline.
"""

from __future__ import annotations

import re
from typing import Any

from droidpilot.agent.actions import Action, parse_action
from droidpilot.agent.brains.base import BrainReply, BrainRequest
from droidpilot.agent.brains.heuristic_plan import Plan, is_cjk, lexicon, make_plan, names_label, words_of
from droidpilot.agent.brains.heuristic_state import OK_RESULTS, HistoryState, read_history
from droidpilot.agent.coords import CoordSpace
from droidpilot.agent.response import format_response
from droidpilot.perception.match import match_text, similarity
from droidpilot.perception.normalize import match_key
from droidpilot.perception.types import OcrLine

STATUS_BAR = 0.045
TOP_BAND = 0.16  # search fields and titles live here; typed text shown here is not a result


def _keyboard_top(lines: list[OcrLine], height: int) -> int | None:
    """The top of an on-screen keyboard, or None: at least three rows of five or more single keys."""
    keys = [ln for ln in lines if ln.box[1] > height * 0.5 and len(ln.text.strip()) == 1]
    rows: list[list[OcrLine]] = []
    for key in sorted(keys, key=lambda ln: ln.box[1]):
        if rows and abs(rows[-1][0].box[1] - key.box[1]) <= 30:
            rows[-1].append(key)
        else:
            rows.append([key])
    full = [row for row in rows if len(row) >= 5]
    if len(full) < 3:
        return None
    return min(ln.box[1] for ln in full[0])


def _reached(query: str, st: HistoryState) -> bool:
    """Was what the instruction searches for tapped already? A CJK result line holds the query inside a
    longer title ("杭州西湖十景航拍" for 西湖); a Latin one is the query itself."""
    key = match_key(query)
    if is_cjk(query):
        return any(key in k for k in st.clicked_ok)
    return key in st.clicked_ok


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
        st = read_history(request.history)
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
    def _matches(word: str, text: str, strict: bool = True, leading: bool = False) -> float:
        found = match_text(word, text)
        if found is None:
            return 0.0
        if leading and found.span[0] > 0.2:  # a field's hint starts with its word ("Search products")
            return 0.0
        # A UI word must be (nearly) the whole line: "Send" matches "Send", not "Sender list".
        if strict and len(match_key(text)) > len(match_key(word)) + 3:
            return 0.0
        return found.score

    def _find(self, words: list[str], lines: list[OcrLine], height: int, st: HistoryState,
              field: bool = False) -> OcrLine | None:
        """The line best matching one of ``words`` (UI words: the whole line; with ``field``, a short
        placeholder such as "Search products" may hold more words)."""
        best: tuple[float, OcrLine] | None = None
        typed = [match_key(t) for t in st.typed]
        for line in lines:
            key = match_key(line.text)
            if st.opened and key == match_key(st.opened):
                continue  # the app's own title
            if line.box[1] < height * TOP_BAND and any(t and t in key for t in typed):
                continue  # the search box echoing what was typed, not a result
            if st.clicked.get(key, 0) >= 2 or f"click text ({line.text})" in st.failed:
                continue
            for word in words:
                cjk = is_cjk(word)  # a CJK field hint is one run of text, its word anywhere in it
                loose = field and len(line.text.split()) <= 6 and (len(word) >= 4 or cjk)
                score = self._matches(word, line.text, strict=not loose, leading=loose and not cjk)
                if score >= self.match_threshold and (best is None or score > best[0]):
                    best = (score, line)
        return best[1] if best else None

    def _target(self, plan: Plan, lines: list[OcrLine], height: int, st: HistoryState,
                keyboard: bool) -> OcrLine | None:
        """The line that best matches the instruction's own words: a phrase it contains (scored by the
        phrase's length in words) or the content words it shares (for targets worded differently)."""
        stop = set(str(lexicon()["stopwords"]).split())
        wanted = {w for c in plan.content_words for w in re.split(r"[-']", c) if len(w) > 2}
        typed = [match_key(t) for t in st.typed]
        best: tuple[float, OcrLine] | None = None
        for line in lines:
            key = match_key(line.text)
            if key in st.clicked_ok or (st.opened and key == match_key(st.opened)) or \
                    st.clicked.get(key, 0) >= 2 or f"click text ({line.text})" in st.failed:
                continue
            if keyboard and any(t and t in key for t in typed):
                continue  # the field being edited shows what was typed: not a target
            score = 0.0
            for phrase in plan.phrases:
                size = len(phrase.split())
                m = self._matches(phrase, line.text, strict=size == 1)
                if m >= self.match_threshold:
                    score = max(score, size + m)
            label = line.text.strip()
            goal_word = any(match_key(label) == match_key(w) for group in plan.goals for w in group)
            if is_cjk(label) and len(label) >= 2 and not goal_word:
                if names_label(plan.instruction, label):
                    score = max(score, 1.0 + len(label) / 4)  # no spaces in CJK: the name is the phrase
                elif plan.query and is_cjk(plan.query) and plan.query in label:
                    # A result holding what was searched, in a longer title: above the query itself, which
                    # the search box echoes and the whole instruction matches loosely.
                    score = max(score, 3.0 + len(plan.query) / 4)
            words = {w for t in words_of(line.text) for w in re.split(r"[-']", t)
                     if len(w) > 2 and w not in stop}
            shared = len(words & wanted)
            if shared >= 2 or (shared == 1 and len(words) <= 2):
                score = max(score, shared + shared / max(1, len(words)))
            if score > 0 and (best is None or score >= best[0]):
                best = (score, line)  # on a tie the lower line: results sit below titles and fields
        return best[1] if best else None

    # -- deciding ------------------------------------------------------------------------------
    def _pending_text(self, plan: Plan, st: HistoryState, lines: list[OcrLine], height: int) -> str | None:
        for text in plan.texts_to_type:
            if text not in st.typed:
                return text
        query = plan.query
        if query and query not in st.typed and plan.has_search_verb and not _reached(query, st):
            return query
        if query and query not in st.typed and st.scrolls >= 1 and not self._on_screen(query, lines, height):
            return query  # the target is not in sight: look for it with the app's search
        return None

    @staticmethod
    def _on_screen(text: str, lines: list[OcrLine], height: int) -> bool:
        return any(line.box[1] >= height * TOP_BAND and similarity(text, line.text) >= 80 for line in lines)

    def _open_app(self, plan: Plan, lines: list[OcrLine], st: HistoryState) -> OcrLine | None:
        named: list[tuple[int, OcrLine]] = []
        for line in lines:
            label = line.text.strip()
            if 2 <= len(label) <= 24 and names_label(plan.instruction, label):
                named.append((len(label), line))
        if named:
            return max(named, key=lambda t: t[0])[1]
        hints = list(plan.app_hints)
        if plan.wants_app:  # an app the instruction names is not on the phone: the app store has it
            hints += [str(h) for h in lexicon()["intents"]["install"]]  # type: ignore[index]
        for hint in hints:
            for line in lines:
                if len(line.text) <= 24 and self._matches(hint, line.text) >= 0.9 and \
                        f"open App ({line.text})" not in st.failed:
                    return line
        return None

    def _next(self, plan: Plan, st: HistoryState, lines: list[OcrLine], keyboard: bool,
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
        last = parse_action(st.last.action) if st.last else None
        if pending and keyboard and (last is None or last.name != "type"):
            return f'A text field is focused; type "{pending}".', Action("type", text=pending)
        just_typed_query = last is not None and last.name == "type" and st.typed[-1:] == [plan.query]
        if just_typed_query and not st.entered_after_type:
            return "The search text is typed; submit it.", Action("enter")
        below = self._below_failed(lines, st)
        if below is not None:
            return _click(f'Tapping "{st.last.action}" did nothing; try the item under it.', below)
        confirm = self._confirm(lines, height, st)
        if confirm is not None:
            return _click(f'A dialog asks to confirm; tap "{confirm.text}".', confirm)
        if not pending:
            for group, icons in zip(plan.goals, plan.goal_icons, strict=False):
                if not self._goal_done(group, icons, st):
                    line = self._find(group, lines, height, st)
                    if line is not None:
                        return _click(f'"{line.text}" finishes the instruction; tap it.', line)
                    for icon in icons:
                        if icon not in st.icons_tried:
                            desc, _, where = icon.partition(",")
                            return (f'No "{group[0]}" text is shown; try its usual icon, a {desc.strip()}.',
                                    Action("click_icon", description=desc.strip(),
                                           position=tuple(where.split())))
        submitted = plan.has_search_verb and st.entered_after_type
        if st.actions_in_app and (plan.goals or plan.wants_toggle or plan.texts_to_type or submitted) and \
                not self._missing(plan, st, lines, height):
            return "Everything the instruction asks for is done.", Action("stop")
        target = self._target(plan, lines, height, st, keyboard)
        searching = pending is not None and pending == plan.query and plan.has_search_verb
        if target is not None and not searching:
            return _click(f'"{target.text}" matches the instruction; tap it.', target)
        step = self._find(plan.steps, lines, height, st)
        if step is not None and match_key(step.text) in st.clicked_ok:
            step = None  # taken already (a title repeating the word is not a new step)
        if step is not None:
            return _click(f'"{step.text}" is a step towards the instruction; tap it.', step)
        untried = [i for i in plan.step_icons if i not in st.icons_tried]
        if untried and (pending or not st.actions_in_app):
            desc, _, where = untried[0].partition(",")
            return (f"No step word is shown; try the usual {desc.strip()} button.",
                    Action("click_icon", description=desc.strip(), position=tuple(where.split())))
        if pending:
            fields = [str(f) for f in lexicon()["fields"]]  # type: ignore[union-attr]
            if pending == plan.email:
                fields = ["to", "recipient"]
            elif plan.email:  # the address is typed: what is left goes into the message body
                fields = ["compose email", "body", "message"]
            field_line = self._find(fields, lines, height, st, field=True)
            if field_line is not None:
                return _click(f'Tap the field "{field_line.text}" to type into it.', field_line)
            if pending == plan.query and "magnifier, top" not in st.icons_tried:
                return ("No search box is shown; tap the search icon.",
                        Action("click_icon", description="magnifier", position=("top",)))
        if target is not None:
            return _click(f'"{target.text}" matches the instruction; tap it.', target)
        if not self._missing(plan, st, lines, request.screen.size[1]):
            return "Everything the instruction asks for is done.", Action("stop")
        if st.scrolls_in_row < self.max_scrolls and not st.scroll_stuck:
            return "Nothing on screen matches what is left to do; scroll further.", Action("page_down")
        if st.depth > 0:
            return "Nothing here leads on; go back a page.", Action("back")
        return "No strategy is left; stop here.", Action("stop")

    def _missing(self, plan: Plan, st: HistoryState, lines: list[OcrLine], height: int | None = None) -> str:
        """What is still to do ('' when nothing)."""
        if not st.opened:
            return "no app has been opened."
        if st.actions_in_app == 0:
            return "nothing has been done in the app yet."
        for text in plan.texts_to_type:
            if text not in st.typed:
                return f'"{text}" has not been typed yet.'
        for group, icons in zip(plan.goals, plan.goal_icons, strict=False):
            if not self._goal_done(group, icons, st):
                return f'none of {", ".join(group)} has been tapped yet.'
        switched = st.toggled or [k for k in st.clicked_ok if any(_same(p, k) for p in plan.phrases[:2])]
        if plan.wants_toggle and not switched:
            return "the setting has not been switched yet."
        if plan.query and plan.has_search_verb and plan.query not in st.typed and \
                not _reached(plan.query, st):
            return f'"{plan.query}" has been neither searched for nor tapped yet.'
        return ""

    @staticmethod
    def _below_failed(lines: list[OcrLine], st: HistoryState) -> OcrLine | None:
        """When tapping a text did nothing (a heading), the first text below it (its first item)."""
        if st.last is None or st.last.result in OK_RESULTS or not st.last.action.startswith("click text ("):
            return None
        if st.before_last is not None and st.before_last.result not in OK_RESULTS:
            return None  # one step down only: a chain of dead taps is not a strategy
        wanted = match_key(st.last.action[len("click text ("):-1])
        heads = [ln for ln in lines if match_key(ln.text) == wanted]
        if not heads:
            return None
        head = heads[0]
        under = [ln for ln in lines if ln.box[1] >= head.box[3] - 5 and match_key(ln.text) not in st.clicked]
        return min(under, key=lambda ln: (ln.box[1], ln.box[0]), default=None)

    def _confirm(self, lines: list[OcrLine], height: int, st: HistoryState) -> OcrLine | None:
        """The affirmative button of a confirmation dialog (shown next to a cancel button), if any."""
        lex = lexicon()
        if self._find([str(w) for w in lex["cancel"]], lines, height, st) is None:  # type: ignore[union-attr]
            return None
        line = self._find([str(w) for w in lex["confirm"]], lines, height, st)  # type: ignore[union-attr]
        if line is None or (st.last is not None and st.last.action == f"click text ({line.text})"):
            return None
        return line

    @staticmethod
    def _goal_done(group: list[str], icons: list[str], st: HistoryState) -> bool:
        return any(w in st.clicked_ok for w in map(match_key, group)) or any(i in st.icons_ok for i in icons)

    @staticmethod
    def _choose(request: BrainRequest) -> str:
        """Among ambiguous matches take the lowest one: results sit below titles and search boxes."""
        boxes = [c.get("box") or [0, 0, 0, 0] for c in request.choices]
        if not boxes:
            return "1"
        return str(max(range(len(boxes)), key=lambda i: (boxes[i][1], -i)) + 1)
