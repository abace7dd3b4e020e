"""Grounding an action from the phone's own UI instead of OCR: SimPhone knows every label it drew.

The labels SimPhone drew (text and box) stand in for OCR lines, so ``click text``, ``open App`` and
``click icon`` go through the agent's own ``Grounder`` with perfect reading and no OCR cost. When 2-4
candidates fit, the one whose text reads most like the target is taken (as the reference brain picks).
An ``open App`` whose label is not on the screen looks for it as the agent loop does (home, the home
pages, the app drawer, the launcher's search: ``agent.launcher``), reading labels the same way.
"""

from __future__ import annotations

import functools
from typing import Any

from PIL import Image

from droidpilot.agent.actions import Action
from droidpilot.agent.coords import CoordFrame
from droidpilot.agent.grounding import Grounder, Grounding
from droidpilot.agent.launcher import seek_if_missed
from droidpilot.agent.screen import ScreenView
from droidpilot.bench.reference import pick_candidate
from droidpilot.perception.types import OcrLine

LOOKUPS = ("click_text", "open_app", "click_icon")
# Icon localization is tuned on phone screens about 1080 px wide: a smaller screen is enlarged for it.
ICON_WIDTH = 1080


@functools.cache
def _blank(size: tuple[int, int]) -> Image.Image:
    """A stand-in screen for actions that read only the screen's size (taps, swipes, pages)."""
    return Image.new("RGB", size)


def label_lines(device: Any) -> list[OcrLine]:
    """Every label the device drew, as the OCR lines a perfect reader would return."""
    return [OcrLine(text, tuple(box), 1.0) for text, box in device.labels() if text.strip()]  # type: ignore[arg-type]


class LabelReader:
    """An OCR engine's ``recognize`` that reads the device's own labels: the screen it is asked about is
    always the one the device shows now (the launcher search reads each screen as soon as it looks)."""

    def __init__(self, device: Any) -> None:
        self.device = device

    def recognize(self, image: Image.Image) -> list[OcrLine]:
        return label_lines(self.device)


def ground(action: Action, device: Any, frame: CoordFrame, image: Image.Image | None = None) -> Grounding:
    """Where ``action`` lands on ``device`` (device pixels); lookups read the device's labels. ``image``
    (the screen at device size) is needed only by ``open App`` and ``click icon``, which look at pixels."""
    grounder = Grounder()
    if action.name not in LOOKUPS:
        return grounder.ground(action, ScreenView(_blank(tuple(device.size())), lines=[]), frame)
    image = image if image is not None else device.screenshot()
    lines = label_lines(device)
    if action.name == "click_icon" and image.width < ICON_WIDTH:
        return _ground_icon_scaled(grounder, action, image, lines, frame)
    screen = ScreenView(image, lines=lines)
    grounding = grounder.ground(action, screen, frame)
    if action.name == "open_app":
        grounding, _, _ = seek_if_missed(device, action, grounding, screen, grounder, LabelReader(device),
                                         record_xml=False)
    if grounding.status == "ambiguous" and grounding.candidates:
        choices = [c.to_dict() for c in grounding.candidates]
        grounding.choose(pick_candidate(action.text or action.description or "", choices))
    return grounding


def _ground_icon_scaled(grounder: Grounder, action: Action, image: Image.Image, lines: list[OcrLine],
                        frame: CoordFrame) -> Grounding:
    """``click icon`` on a small screen: located on the screen enlarged to ``ICON_WIDTH``, mapped back."""
    factor = ICON_WIDTH / image.width
    big = image.resize((ICON_WIDTH, round(image.height * factor)), Image.Resampling.BICUBIC)
    big_lines = [OcrLine(ln.text, tuple(round(v * factor) for v in ln.box), ln.score)  # type: ignore[arg-type]
                 for ln in lines]
    grounding = grounder.ground(action, ScreenView(big, lines=big_lines), frame)

    def back(value: float, limit: int) -> int:
        return min(max(round(value / factor), 0), limit - 1)

    width, height = image.size
    if grounding.point is not None:
        grounding.point = (back(grounding.point[0], width), back(grounding.point[1], height))
    if grounding.box is not None:
        x1, y1, x2, y2 = grounding.box
        grounding.box = (back(x1, width), back(y1, height), back(x2, width), back(y2, height))
    for cand in grounding.candidates:
        cand.point = (back(cand.point[0], width), back(cand.point[1], height))
        cand.box = (back(cand.box[0], width), back(cand.box[1], height), back(cand.box[2], width),
                    back(cand.box[3], height))
    return grounding
