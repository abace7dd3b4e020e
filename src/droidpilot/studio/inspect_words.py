"""The inspector's droidpilot side: what droidpilot would write for a point, where its words land, and what
perception saw on a screen (OCR lines, icon candidates), all from the screenshot as the agent sees it.

These need OCR, so they run on demand (one click, one search), never for every node of a tree.
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from droidpilot.agent.actions import ActionParseError, parse_action
from droidpilot.agent.coords import CoordFrame
from droidpilot.agent.grounding import Grounder
from droidpilot.agent.screen import ScreenView
from droidpilot.perception.icons import describe_icons
from droidpilot.studio.faithful import faithful_click
from droidpilot.studio.inspect import InspectError, UiTree

WORD_VERBS = ("click", "tap", "long press", "open app")


def is_words(selector: str) -> bool:
    """Is ``selector`` droidpilot's words (``click text (...)``, ``click icon (...)``, ``tap (x, y)``)?"""
    low = selector.strip().lower()
    return any(low.startswith(v) for v in WORD_VERBS)


def words_at(image: Image.Image, point: tuple[int, int], ocr_engine: Any) -> dict[str, Any]:
    """What droidpilot records for a tap at ``point``: the action's words and the box its replay finds."""
    action, grounding = faithful_click(image, point, ocr_engine)
    return {"words": action.format(), "kind": action.name,
            "box": list(grounding.box) if grounding.box else None}


def find_words(selector: str, image: Image.Image, ocr_engine: Any, tree: UiTree | None) -> dict[str, Any]:
    """Ground droidpilot's words on ``image`` as the agent would; the node under the point it lands on."""
    try:
        action = parse_action(selector.strip())
    except ActionParseError as exc:
        raise InspectError(f"droidpilot words: {exc}") from None
    screen = ScreenView(image, ocr_engine)
    grounding = Grounder().ground(action, screen, CoordFrame("device", screen.size, screen.size))
    out: dict[str, Any] = {"status": grounding.status, "message": grounding.message,
                           "candidates": [list(c.box) for c in grounding.candidates], "nodes": []}
    if grounding.point is not None:
        out["point"] = list(grounding.point)
        hit = tree.deepest_at(*grounding.point) if tree is not None else None
        out["nodes"] = [] if hit is None else [hit]
    if grounding.box is not None:
        out["box"] = list(grounding.box)
    return out


def perception(image: Image.Image, ocr_engine: Any, tree: UiTree | None,
               point: tuple[int, int] | None) -> dict[str, Any]:
    """A step's OCR lines and icon candidates (with droidpilot's descriptions), and the node ``point`` hit."""
    screen = ScreenView(image, ocr_engine)
    lines = screen.lines()
    icons = describe_icons(screen.image, lines)
    hit = tree.deepest_at(*point) if tree is not None and point is not None else None
    return {"ocr": [ln.to_dict() for ln in lines],
            "icons": [{"box": list(r.box), "description": d.text} for r, d in icons],
            "point": list(point) if point else None, "hit": hit}
