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


def _heart_at(x: int, y: int) -> ScreenView:
    from droidpilot.perception.icons.drawing import as_rgb, blank_screen, draw_icon

    img = blank_screen(1080, 2400, "light")
    draw_icon(img, "heart", (x, y), 80, "red")
    return ScreenView(Image.fromarray(as_rgb(img)), lines=[])


def test_wrong_place_words_still_find_the_one_icon_a_third_off_but_not_on_the_opposite_side() -> None:
    # GPT-4V's "thumbs up, bottom center" for a button halfway down at the left: the one heart there is it
    screen = _heart_at(120, 1150)
    frame = CoordFrame("device", screen.size, screen.size)
    g = Grounder().ground(Action("click_icon", description="red heart", position=["bottom", "center"]),
                          screen, frame)
    assert g.status == "found" and abs(g.point[0] - 120) < 60 and abs(g.point[1] - 1150) < 60
    assert "elsewhere" in g.choice_note
    # asked at the top right, the only heart is at the bottom left: not it (the model hears so)
    screen = _heart_at(120, 2200)
    g = Grounder().ground(Action("click_icon", description="red heart", position=["top", "right"]),
                          screen, frame)
    assert g.status == "not_found"
