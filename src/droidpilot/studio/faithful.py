"""The words for a manual tap that a replay can ground again on the same screen.

A person's tap is written the way an agent would write it, but only in a form that the agent's own
grounding (``agent.grounding.Grounder``) finds back at the tapped point: ``click text (X)`` when OCR reads X
at that point and X is found there (and only there), otherwise ``click icon (colour shape, position)`` from
droidpilot's own icon description of the region tapped, when that description is found back there,
otherwise ``tap (x, y)``. The UI tree's labels are never used: a content-desc is not on the screen, so a
replay from screenshots cannot find it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image

from droidpilot.agent.actions import Action
from droidpilot.agent.coords import CoordFrame
from droidpilot.agent.grounding import Grounder, Grounding
from droidpilot.agent.screen import ScreenView
from droidpilot.perception.icons import describe_icons
from droidpilot.perception.icons.rank import where_on_screen
from droidpilot.perception.types import Box, OcrLine

# Actions a replay grounds from the screen (open App too: the agent finds the app's label by OCR).
GROUNDED = ("click_text", "click_icon", "open_app")
TEXT_PAD = 6  # device pixels around an OCR line that still count as tapping it
MAX_ICON_TRIES = 4  # icon regions under the point whose description is tried, smallest first


def contains(box: Sequence[int] | None, point: tuple[int, int], pad: int = 0) -> bool:
    """Is ``point`` inside ``box`` (x1, y1, x2, y2), widened by ``pad`` pixels on each side?"""
    if box is None or len(box) != 4:
        return False
    x1, y1, x2, y2 = box
    return x1 - pad <= point[0] <= x2 + pad and y1 - pad <= point[1] <= y2 + pad


def _area(box: Sequence[int]) -> int:
    return max(0, box[2] - box[0]) * max(0, box[3] - box[1])


def writable_text(text: str) -> bool:
    """Can ``text`` be written inside ``click text (...)`` and mean words? Not a glyph OCR read as a symbol
    ("+"), nor as one foreign character (an up arrow read as "个", a plus as "十"): a one-character label
    counts only as an ASCII letter or digit, such as a calculator's keys."""
    text = text.strip()
    if not text or any(ch in text for ch in "()\n\r") or not any(ch.isalnum() for ch in text):
        return False
    return len(text) > 1 or (text.isascii() and text.isalnum())


def grounds_at(action: Action, screen: ScreenView, point: tuple[int, int]) -> Grounding | None:
    """The agent's grounding of ``action`` on ``screen`` when it lands where ``point`` is, else None.

    Only a clear ``found`` counts: an ambiguous outcome needs a choice a replay cannot repeat.
    """
    frame = CoordFrame("device", screen.size, screen.size)
    grounding = Grounder().ground(action, screen, frame)
    if grounding.status != "found" or grounding.point is None:
        return None
    if contains(grounding.box, point) or grounding.point == point:
        return grounding
    return None


def text_action(screen: ScreenView, point: tuple[int, int]) -> tuple[Action, Grounding] | None:
    """``click text (X)`` for the OCR line read at ``point``, when X grounds back there."""
    lines: list[OcrLine] = [line for line in screen.lines() if contains(line.box, point, TEXT_PAD)]
    for line in sorted(lines, key=lambda ln: _area(ln.box)):
        if not writable_text(line.text):
            continue
        action = Action("click_text", text=line.text.strip())
        found = grounds_at(action, screen, point)
        if found is not None:
            return action, found
    return None


def icon_action(screen: ScreenView, point: tuple[int, int]) -> tuple[Action, Grounding] | None:
    """``click icon (description, position)`` for the icon region under ``point``, when it grounds back."""
    regions = [(r, d) for r, d in describe_icons(screen.image, screen.lines()) if contains(r.box, point)]
    regions.sort(key=lambda rd: _area(rd[0].box))
    for region, desc in regions[:MAX_ICON_TRIES]:
        box: Box = region.box
        centre = ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)
        where = where_on_screen(centre, screen.size)
        for position in (tuple(where.split()), ()):
            action = Action("click_icon", description=desc.text, position=position)
            found = grounds_at(action, screen, point)
            if found is not None:
                return action, found
    return None


def faithful_click(image: Image.Image, point: tuple[int, int], ocr_engine: Any | None = None,
                   lines: list[OcrLine] | None = None) -> tuple[Action, Grounding]:
    """The action to record for a tap at ``point`` (device pixels) on ``image``, and where it landed.

    The grounding's ``point`` is the tap itself; its ``box`` and ``target`` what the replay finds there.
    Without OCR (no engine and no lines) only icons and the bare point are tried.
    """
    screen = ScreenView(image, ocr_engine, lines=lines if lines is not None or ocr_engine else [])
    for finder in (text_action, icon_action):
        hit = finder(screen, point)
        if hit is not None:
            action, found = hit
            return action, Grounding("direct", point=point, box=found.box, target=found.target)
    x, y = point
    return Action("tap", coords=(x, y)), Grounding("direct", point=point, box=(x, y, x, y),
                                                  target=f"({x}, {y})")
