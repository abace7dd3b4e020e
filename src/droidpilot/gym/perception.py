"""The agent's perception list as an observation: the numbered OCR lines and icon candidates the v2 and E
loops show their role models, as text, with points in the environment's coordinate space.

``labels`` reads the texts from SimPhone's own labels (a perfect, free reader) and ``ocr`` from a real OCR
engine on the screenshot (what an agent on a real phone gets); the icons are always found in the pixels.
Built once per distinct frame: a screen seen again costs a dictionary look-up.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from PIL import Image

from droidpilot.agent.coords import CoordFrame
from droidpilot.agent.loops.perception_list import format_list, perception_list
from droidpilot.agent.screen import ScreenView
from droidpilot.gym.uiground import label_lines

PERCEPTION_MODES = ("labels", "ocr")
KEEP = 16  # frames whose perception list is kept


class PerceptionText:
    """``describe(device, frame)``: the perception list of the device's current screen, as text."""

    def __init__(self, mode: str, ocr: str = "rapidocr") -> None:
        if mode not in PERCEPTION_MODES:
            raise ValueError(f"perception={mode!r} is not one of: {', '.join(PERCEPTION_MODES)} "
                             "(or None: no perception list)")
        self.mode = mode
        self._engine: Any = None
        if mode == "ocr":
            from droidpilot.perception.ocr import make_ocr_engine

            self._engine = make_ocr_engine(ocr)
        self._seen: OrderedDict[int, tuple[Any, str]] = OrderedDict()

    def describe(self, device: Any, frame: CoordFrame) -> str:
        """The list of the screen ``device`` shows now, points in ``frame``'s space."""
        pixels = device.screenshot_array()  # one array object per distinct cached frame
        key = id(pixels)
        kept = self._seen.get(key)
        if kept is not None and kept[0] is pixels:
            self._seen.move_to_end(key)
            return kept[1]
        image = Image.fromarray(pixels)
        if self.mode == "labels":
            screen = ScreenView(image, lines=label_lines(device))
        else:
            screen = ScreenView(image, ocr_engine=self._engine)
        text = format_list(perception_list(screen), frame)
        self._seen[key] = (pixels, text)
        while len(self._seen) > KEEP:
            self._seen.popitem(last=False)
        return text
