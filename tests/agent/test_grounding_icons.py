"""Icon grounding in the agent: unknown words reach steps.jsonl and the brain's feedback."""

from __future__ import annotations

from PIL import Image, ImageDraw

from droidpilot.agent.actions import Action
from droidpilot.agent.coords import CoordFrame
from droidpilot.agent.grounding import Grounder
from droidpilot.agent.screen import ScreenView


def _screen() -> ScreenView:
    img = Image.new("RGB", (360, 640), (250, 250, 250))
    draw = ImageDraw.Draw(img)
    draw.ellipse((150, 520, 230, 600), fill=(220, 30, 30))
    draw.rectangle((40, 100, 90, 150), fill=(30, 90, 220))
    return ScreenView(img, lines=[])


def test_unknown_icon_words_are_recorded_and_the_model_chooses_among_marks() -> None:
    screen = _screen()
    frame = CoordFrame("device", screen.size, screen.size)
    g = Grounder().ground(Action("click_icon", description="frobnicator"), screen, frame)
    assert g.status == "not_found" and "frobnicator" in g.message  # nothing understood at all
    g = Grounder().ground(Action("click_icon", description="red frobnicator"), screen, frame)
    record = g.to_dict()
    assert record["query"]["unknown"] == ["frobnicator"]
    assert g.status in ("ambiguous", "found")
    if g.status == "ambiguous":
        assert all(c.crop is not None for c in g.candidates)
