"""Grounding: turn an action's words or coordinates into device pixels, through perception.

``click text`` and ``open App`` go through OCR text localization, ``click icon`` through icon
localization, extended actions through the brain's coordinate frame. The outcome keeps Mobile-Agent's
four cases (found, ambiguous 2-4, too many, not found) and, when grounding fails, the feedback message
the brain gets next.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from droidpilot.agent.actions import Action, ActionParseError, parse_action
from droidpilot.agent.coords import CoordFrame
from droidpilot.agent.prompts import message
from droidpilot.agent.screen import ScreenView
from droidpilot.errors import InputError
from droidpilot.perception.types import Box, Candidate, LocateResult

SCROLL_FROM, SCROLL_TO = 0.72, 0.30  # page down: the finger moves from 72% to 30% of the height
# "click text (check mark icon, top right)": a text action that names an icon (GPT-4V writes these).
_NAMES_ICON = re.compile(r"^(?P<what>.*\S)\s+icon\b(?P<rest>\s*,.*)?$", re.IGNORECASE | re.DOTALL)


@dataclass
class Grounding:
    """Where an action lands. ``status``: found, ambiguous, not_found, too_many, or ``direct`` (no lookup).

    ``point`` / ``end`` (swipes) / ``box`` are device pixels; ``message`` is the feedback for a failure.
    """

    status: str
    point: tuple[int, int] | None = None
    end: tuple[int, int] | None = None
    box: Box | None = None
    target: str = ""
    candidates: list[Candidate] = field(default_factory=list)
    closest: list[str] = field(default_factory=list)
    chosen: int | None = None
    message: str = ""
    choice_note: str = ""
    query: dict[str, Any] | None = None  # icons: the parsed description, with the words not understood

    @property
    def ok(self) -> bool:
        return self.status in ("found", "direct") or (self.status == "ambiguous" and self.chosen is not None)

    def choose(self, number: int) -> None:
        """Take candidate ``number`` (1-based) of an ambiguous outcome."""
        cand = self.candidates[number - 1]
        self.chosen, self.point, self.box = number, tuple(cand.point), tuple(cand.box)  # type: ignore[assignment]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "target": self.target}
        if self.point is not None:
            out["point"] = list(self.point)
        if self.end is not None:
            out["end"] = list(self.end)
        if self.box is not None:
            out["box"] = list(self.box)
        if self.candidates:
            out["candidates"] = [c.to_dict() for c in self.candidates]
        if self.closest:
            out["closest"] = self.closest
        if self.chosen is not None:
            out["chosen"] = self.chosen
        if self.message:
            out["message"] = self.message
        if self.choice_note:
            out["choice_note"] = self.choice_note
        if self.query is not None:
            out["query"] = self.query
        return out


def _quote_list(texts: list[str], limit: int = 8) -> str:
    return ", ".join(f'"{t}"' for t in texts[:limit])


class Grounder:
    """Grounds actions on a ScreenView, with feedback messages in the agent's language."""

    def __init__(self, language: str = "en") -> None:
        self.language = language

    def _msg(self, key: str, **values: object) -> str:
        return message(key, self.language, **values)

    def ground(self, action: Action, screen: ScreenView, frame: CoordFrame, context: str = "") -> Grounding:
        """Ground ``action`` on ``screen``; the brain's numbers are read through ``frame``. ``context`` is
        the model's own thought and observation of this step: a text found in a few places (an icon that
        fits in a few) is taken where those words single one out (``agent/context_pick.py``), else the
        model is asked."""
        name = action.name
        width, height = screen.size
        if name == "click_text":
            found = self._from_locate(self._locate_text(screen, action.text or ""), action.text or "", "text")
            if found.status == "ambiguous" and context:
                self._pick_by_context(found, screen, action.text or "", context)
            return self._text_naming_icon(action, screen, found)
        if name == "open_app":
            return self._from_locate(self._locate_app(screen, action.text or ""), action.text or "", "app")
        if name == "click_icon":
            found = self._ground_icon(action, screen)
            if found.status == "ambiguous" and context:
                self._pick_icon_by_context(found, screen, context)
            return found
        if name in ("tap", "long_press"):
            x, y = frame.to_device(action.coords[0], action.coords[1])
            return Grounding("direct", point=(x, y), box=(x, y, x, y), target=f"({x}, {y})")
        if name == "swipe":
            start = frame.to_device(action.coords[0], action.coords[1])
            end = frame.to_device(action.coords[2], action.coords[3])
            return Grounding("direct", point=start, end=end, target="swipe")
        if name in ("page_down", "page_up"):
            top, bottom = round(height * SCROLL_TO), round(height * SCROLL_FROM)
            start, end = ((width // 2, bottom), (width // 2, top)) if name == "page_down" else \
                ((width // 2, top), (width // 2, bottom))
            return Grounding("direct", point=start, end=end, target=name)
        return Grounding("direct", target=name)

    # -- perception calls ----------------------------------------------------------------------
    @staticmethod
    def _locate_text(screen: ScreenView, query: str) -> LocateResult:
        from droidpilot.perception.text import locate_text

        lines = screen.lines()
        with screen.timed():
            return locate_text(lines, query, screen.size, image=screen.image)

    @staticmethod
    def _locate_app(screen: ScreenView, name: str) -> LocateResult:
        from droidpilot.perception.text import locate_app

        lines = screen.lines()
        with screen.timed():
            return locate_app(lines, name, screen.image)

    @staticmethod
    def _pick_by_context(found: Grounding, screen: ScreenView, target: str, context: str) -> None:
        """Settle an ambiguous text on the candidate the model's own words name something beside."""
        from droidpilot.agent.context_pick import pick_by_context

        choice = pick_by_context(found.candidates, screen.lines(), target, context)
        if choice is None:
            return
        best = found.candidates[choice.index]
        found.status, found.point, found.box = "found", tuple(best.point), tuple(best.box)  # type: ignore[assignment]
        found.choice_note = (f"{len(found.candidates)} places read {target!r}; took the one beside "
                             f"{choice.name!r}, which the model named {choice.words_apart} words from it")

    @staticmethod
    def _pick_icon_by_context(found: Grounding, screen: ScreenView, context: str) -> None:
        """Settle an ambiguous icon on the candidate whose label the model's own words name, or on the
        launcher icon of the one app they say it opens."""
        from droidpilot.agent.context_pick import app_names, pick_icon_by_context

        choice = pick_icon_by_context(found.candidates, screen.lines(), context)
        if choice is not None:
            best = found.candidates[choice.index]
            found.status, found.point, found.box = "found", tuple(best.point), tuple(best.box)  # type: ignore[assignment]
            found.choice_note = f"{len(found.candidates)} icons fit; took the one labelled {choice.name!r}"
            return
        # a launcher's icon the model names as the app it opens ('the "Notes" app icon'): the app's icon
        apps = [(name, got) for name in app_names(context) if (got := Grounder._app_icon(screen, name))]
        if len(apps) == 1:
            name, best = apps[0]
            found.status, found.point, found.box = "found", tuple(best.point), tuple(best.box)  # type: ignore[assignment]
            found.choice_note = f"{len(found.candidates)} icons fit; took the icon of the app {name!r} named"

    @staticmethod
    def _app_icon(screen: ScreenView, name: str) -> Candidate | None:
        """The launcher icon of app ``name``, or of its last words ("Play Store" of "Google Play Store")."""
        words = name.split()
        for start in range(max(1, len(words) - 1)):
            got = Grounder._locate_app(screen, " ".join(words[start:]))
            if got.status == "found":
                return got.candidates[0]
        return None

    def _text_naming_icon(self, action: Action, screen: ScreenView, found: Grounding) -> Grounding:
        """A ``click text`` whose words are not on screen but name an icon ("check mark icon, top right")
        is grounded as that icon; the text outcome stands when the words are there or the icon is not."""
        m = _NAMES_ICON.match(action.text or "")
        if found.status != "not_found" or m is None:
            return found
        try:
            as_icon = parse_action(f"click icon ({m.group('what')}{m.group('rest') or ''})")
        except ActionParseError:
            return found
        icon = self._ground_icon(as_icon, screen)
        if icon.status == "not_found":
            return found
        icon.choice_note = f"no text {action.text!r} on screen; grounded as the icon it names"
        return icon

    def _ground_icon(self, action: Action, screen: ScreenView) -> Grounding:
        from droidpilot.perception.icons import locate_icon
        from droidpilot.perception.icons.placement import opposite
        from droidpilot.perception.icons.query import parse_position

        description = action.description or ""
        position = " ".join(action.position) or None
        lines = screen.lines()
        target = description + (f", {position}" if position else "")
        note = ""
        try:
            with screen.timed():
                result = locate_icon(screen.image, description, position=position, ocr_lines=lines)
                looser = " ".join(p for p in action.position if p != "center") or None
                if result.status == "not_found" and looser != position:
                    # GPT-4V says "center" for icons anywhere across the screen (a button at the right edge,
                    # an app in the launcher's first column); a corner or an edge it names is kept.
                    wider = locate_icon(screen.image, description, position=looser, ocr_lines=lines)
                    if wider.status in ("found", "ambiguous"):
                        result = wider
                        note = f"nothing like it at the {position}; found at {looser or 'any place'}"
                if result.status == "not_found" and looser is not None:
                    # its place words are often wrong ("thumbs up, bottom center" for a button halfway
                    # down at the left): one icon alone that fits, not on the opposite side, is taken
                    anywhere = locate_icon(screen.image, description, ocr_lines=lines)
                    if anywhere.status == "found" and not opposite(
                            tuple(anywhere.candidates[0].point), screen.size, parse_position(position)):
                        result = anywhere
                        note = f"nothing like it at the {position}; the one like it elsewhere"
        except InputError as exc:  # a description with neither colour nor shape
            return Grounding("not_found", target=target, message=self._msg("icon_not_found", target=target,
                                                                            where=f" ({exc})"))
        grounding = self._from_locate(result, target, "icon")
        grounding.choice_note = note
        return grounding

    # -- outcomes ------------------------------------------------------------------------------
    def _from_locate(self, result: LocateResult, target: str, kind: str) -> Grounding:
        g = Grounding(result.status, target=target, candidates=list(result.candidates),
                      closest=list(result.closest), query=result.query)
        if result.status == "found" and result.candidates:
            best = result.candidates[0]
            g.point, g.box = tuple(best.point), tuple(best.box)  # type: ignore[assignment]
        elif result.status == "found":
            g.status = "not_found"
        if g.status == "not_found":
            if kind == "icon":
                unknown = result.unknown_words
                where = f" (not understood: {', '.join(unknown)})" if unknown else ""
                g.message = self._msg("icon_not_found", target=target, where=where)
            elif kind == "app":
                g.message = self._msg("app_not_found", target=target,
                                      closest=_quote_list(g.closest) or "-")
            elif g.closest:
                g.message = self._msg("not_found", target=target, closest=_quote_list(g.closest))
            else:
                g.message = self._msg("not_found_none", target=target)
        elif g.status == "too_many":
            g.message = self._msg("too_many", target=target, count=len(g.candidates) or "many")
        return g
