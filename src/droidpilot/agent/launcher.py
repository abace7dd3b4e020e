"""Open an app wherever the launcher keeps it, the way a person does, from screenshots and OCR alone.

Mobile-Agent's ``open App (NAME)`` taps the icon above the app's label on the current screen. A person
whose app is not there goes home, swipes through the home pages, opens the app drawer, or types the name
into the launcher's search. ``seek_app`` does the same through the ``Device`` interface only (keys, swipes,
typing, screenshots): it never asks the phone which apps it has, so it works on any launcher that shows
labels under icons. Every move is bounded: a swipe that leaves the screen unchanged ends that way of
looking, and at most ``max_pages`` swipes are made each way, so a missing app ends in a clear failure.
"""

from __future__ import annotations

import contextlib
import difflib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from droidpilot.agent.actions import Action
from droidpilot.agent.coords import CoordFrame
from droidpilot.agent.grounding import Grounder, Grounding
from droidpilot.agent.prompts import message
from droidpilot.agent.reflection import screen_diff
from droidpilot.agent.screen import ScreenView
from droidpilot.device.base import Device, DeviceError
from droidpilot.errors import InputError
from droidpilot.perception.text import locate_text
from droidpilot.perception.types import Box

LABEL_SIMILARITY = 0.85  # an OCR reading this close to the name still reads as its label
MAX_PAGES = 6  # home pages (or drawer pages) looked at each way before giving up
SEARCH_HINTS = ("Search apps", "Search")  # the launcher's search field, as OCR reads its hint
SWIPE_MS = 300
PAGE_FROM, PAGE_TO = 0.85, 0.15  # a page swipe moves the finger across 70% of the width
DRAWER_FROM, DRAWER_TO = 0.80, 0.30  # swipe up from the lower screen opens the drawer


@dataclass
class AppSearch:
    """What ``seek_app`` found: the grounding on ``screen`` (where it was found) and the moves made."""

    grounding: Grounding
    screen: ScreenView
    moves: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.grounding.ok


def is_label(text: str, name: str) -> bool:
    """Does OCR's ``text`` read as the label of app ``name``? The name itself (any case), a label the
    launcher cut short ("Notes P..."), or the name with an OCR slip (similarity >= ``LABEL_SIMILARITY``);
    not a longer text that merely contains it ("Camera roll synced" is no label of Camera, "Notes" none
    of Notes Pro)."""
    t, n = " ".join(text.split()).casefold(), " ".join(name.split()).casefold()
    if not t or not n:
        return False
    if t == n:
        return True
    cut = t.rstrip(".…").rstrip()
    if cut != t and len(cut) >= 3 and n.startswith(cut):
        return True
    return difflib.SequenceMatcher(None, t, n).ratio() >= LABEL_SIMILARITY


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class _Seeker:
    """One search for ``name`` on ``device``: looks, moves, and remembers what it did."""

    def __init__(self, device: Device, name: str, grounder: Grounder, ocr_engine: Any | None,
                 max_pages: int) -> None:
        self.device, self.name, self.grounder = device, name, grounder
        self.ocr_engine, self.max_pages = ocr_engine, max_pages
        self.moves: list[str] = []
        self.action = Action("open_app", text=name)

    def look(self) -> ScreenView:
        return ScreenView(self.device.screenshot(), self.ocr_engine)

    def ground(self, screen: ScreenView, exclude: Box | None = None) -> Grounding:
        """``open App`` grounded on ``screen``, reading no text inside ``exclude`` (the search field) and
        keeping only candidates whose text reads as the app's label (``is_label``)."""
        if exclude is not None:
            lines = [line for line in screen.lines() if not _overlaps(line.box, exclude)]
            screen = ScreenView(screen.image, lines=lines)
        frame = CoordFrame("device", screen.size, screen.size)
        g = self.grounder.ground(self.action, screen, frame)
        if g.status not in ("found", "ambiguous"):
            return g
        kept = [c for c in g.candidates if is_label(c.text or "", self.name)]
        if not kept:
            return Grounding("not_found", target=self.name, closest=[c.text or "" for c in g.candidates])
        g.candidates, g.chosen = kept, None
        if len(kept) == 1:
            g.status = "found"
            g.point, g.box = tuple(kept[0].point), tuple(kept[0].box)  # type: ignore[assignment]
        return g

    def move(self, what: str, act: Callable[[], None], before: ScreenView) -> ScreenView | None:
        """Do ``act``; the new screen, or None when it did not change (nothing more that way)."""
        act()
        self.moves.append(what)
        after = self.look()
        return after if screen_diff(before.image, after.image).changed else None

    def swipe(self, start: tuple[float, float], end: tuple[float, float]) -> Callable[[], None]:
        w, h = self.device.size()
        x1, y1, x2, y2 = (round(w * start[0]), round(h * start[1]), round(w * end[0]), round(h * end[1]))
        return lambda: self.device.swipe(x1, y1, x2, y2, duration_ms=SWIPE_MS)

    def pages(self, screen: ScreenView, label: str, start: tuple[float, float], end: tuple[float, float]
              ) -> tuple[Grounding | None, ScreenView]:
        """Swipe ``start`` -> ``end`` up to ``max_pages`` times, looking after each; stop when it stops
        changing the screen. (the grounding when found, the last screen)."""
        for _ in range(self.max_pages):
            after = self.move(label, self.swipe(start, end), screen)
            if after is None:
                break
            screen = after
            g = self.ground(screen)
            if g.status in ("found", "ambiguous"):
                return g, screen
        return None, screen

    def home(self, screen: ScreenView) -> ScreenView:
        return self.move("home", lambda: self.device.key("home"), screen) or screen

    def search(self, screen: ScreenView) -> tuple[Grounding | None, ScreenView]:
        """Tap the launcher's search field (found by its hint text), type the name, look at the results."""
        for hint in SEARCH_HINTS:
            try:
                field_hit = locate_text(screen.lines(), hint, screen.size)
            except InputError:
                continue
            if field_hit.status == "found" and field_hit.candidates:
                break
        else:
            return None, screen
        box = tuple(field_hit.candidates[0].box)
        point = field_hit.candidates[0].point
        self.device.tap(*point)
        self.moves.append(f"tap {hint!r}")
        self.device.type_text(self.name)
        self.moves.append(f"type {self.name!r}")
        screen = self.look()
        # The typed query sits in the field: the app is a result below it, never the field itself.
        width = screen.size[0]
        g = self.ground(screen, exclude=(0, box[1], width, box[3]))  # type: ignore[index]
        if g.status in ("found", "ambiguous"):
            return g, screen
        self.device.key("back")  # close the search and clear the query, as a person backs out
        self.moves.append("back")
        return None, self.look()


def seek_app(device: Device, name: str, grounder: Grounder, ocr_engine: Any | None = None, *,
             screen: ScreenView | None = None, max_pages: int = MAX_PAGES) -> AppSearch:
    """Find app ``name``'s icon wherever the launcher keeps it; the device is left on the screen it was
    found on (not yet tapped). Order: the current screen, home, the home pages to the right then to the
    left (home in between), the app drawer (swipe up, then its pages), the launcher's search. A failure's
    grounding is ``not_found`` with a message saying where it looked.
    """
    if not name.strip():
        raise InputError("open App needs the app's name")
    if max_pages < 0:
        raise InputError(f"max_pages must be 0 or more, got {max_pages}")
    s = _Seeker(device, name, grounder, ocr_engine, max_pages)
    screen = screen or s.look()
    first = s.ground(screen)
    if first.status in ("found", "ambiguous"):
        return AppSearch(first, screen)
    screen = s.home(screen)
    g = s.ground(screen)
    if g.status in ("found", "ambiguous"):
        return AppSearch(g, screen, s.moves)
    right = ((PAGE_FROM, 0.5), (PAGE_TO, 0.5))  # finger right to left: the next page
    for label, start, end in (("swipe left", *right), ("swipe right", right[1], right[0])):
        found, screen = s.pages(screen, label, start, end)
        if found is not None:
            return AppSearch(found, screen, s.moves)
        screen = s.home(screen)  # back to the first page before looking the other way
    found, screen = s.pages(screen, "swipe up", (0.5, DRAWER_FROM), (0.5, DRAWER_TO))
    if found is not None:
        return AppSearch(found, screen, s.moves)
    screen = s.home(screen)
    found, screen = s.search(screen)
    if found is not None:
        return AppSearch(found, screen, s.moves)
    tried = ", ".join(s.moves) or "-"
    failed = Grounding("not_found", target=name, closest=first.closest,
                       message=message("app_not_anywhere", grounder.language, target=name, moves=tried))
    return AppSearch(failed, screen, s.moves)


def seek_if_missed(device: Device, action: Action, grounding: Grounding, screen: ScreenView,
                   grounder: Grounder, ocr_engine: Any | None = None, *, record_xml: bool = True
                   ) -> tuple[Grounding, ScreenView, list[str]]:
    """For an ``open App``: ``seek_app`` from ``screen``, which drops candidates that are no app label and
    makes no move when the label is on ``screen``; (its grounding, the screen the device is now on, with its
    UI dump when ``record_xml``, the moves made). Any other action comes back as it is. A move the phone
    refuses ends the search as ``not_found`` with the phone's error, on the screen the phone is then on."""
    if action.name != "open_app" or grounding.status == "direct":
        return grounding, screen, []
    try:
        found = seek_app(device, action.text or "", grounder, ocr_engine, screen=screen)
    except DeviceError as exc:
        failed = Grounding("not_found", target=action.text or "", closest=grounding.closest,
                           message=message("app_not_anywhere", grounder.language, target=action.text or "",
                                           moves=f"the phone refused a move: {exc}"))
        with contextlib.suppress(DeviceError):
            screen = ScreenView(device.screenshot(), ocr_engine)
        return failed, screen, ["refused"]
    if not found.moves:
        return found.grounding, screen, []
    xml = None
    if record_xml:
        with contextlib.suppress(DeviceError):
            xml = device.ui_xml()
    now = ScreenView(found.screen.image, ocr_engine, xml, lines=found.screen.lines())
    return found.grounding, now, found.moves
