"""The agent's grounding on real Mobile-Eval screens, for the GPT-4V actions its text grounding used to miss.

Screens: ../shared/reference/mobile-eval-real (X-PLUG/MobileAgent results/, MIT licence, copyright mPLUG; see
the README and LICENSE there). Where each step should tap is the hand label in
benchmarks/data/grounded_actions.yaml (benchmarks/grounding_real.py scores all 129 of them).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from PIL import Image
from tests.support.benchmarks import load_benchmark

from droidpilot.agent.actions import parse_action
from droidpilot.agent.coords import CoordFrame
from droidpilot.agent.grounding import Grounder
from droidpilot.agent.screen import ScreenView
from droidpilot.perception.rapid import RapidOcrEngine
from droidpilot.perception.types import OcrLine

BENCH = load_benchmark("grounding_real")  # the labels' loader, the step's words and the judge live there
RUNS: Path = BENCH.SCREENS
LABELS = {label.step: label for label in BENCH.load_labels(BENCH.LABELS)}
needs_runs = pytest.mark.skipif(not RUNS.is_dir(), reason=f"Mobile-Eval runs not found at {RUNS}")


@pytest.fixture(scope="module")
def engine() -> RapidOcrEngine:
    return RapidOcrEngine()


def _ground(step: str, engine: Any, context: str = "") -> tuple[Any, Any]:
    label = LABELS[step]
    image = Image.open(RUNS / label.screen).convert("RGB")
    g = Grounder().ground(parse_action(label.action), ScreenView(image, engine),
                          CoordFrame("device", image.size), context=context)
    return g, label


def _right(g: Any, label: Any) -> bool:
    """Found inside one of the label's boxes (the benchmark's own judge)."""
    return g.status == "found" and BENCH.judge(label, g)[0] == "right"


def _settled_by_words(step: str, engine: Any) -> tuple[Any, tuple[Any, ScreenView], CoordFrame]:
    """(grounding with the model's words, (action, view), frame) of a step asserted ambiguous without the
    words and right with them."""
    label = LABELS[step]
    image = Image.open(RUNS / label.screen).convert("RGB")
    view = ScreenView(image, engine)
    action, frame = parse_action(label.action), CoordFrame("device", image.size)
    assert Grounder().ground(action, view, frame).status == "ambiguous"  # without the model's words
    g = Grounder().ground(action, view, frame, context=BENCH.step_context(RUNS, label))
    assert _right(g, label), g.to_dict()
    return g, (action, view), frame


@needs_runs
@pytest.mark.parametrize("step", [
    "Amazon Music/3#7",  # "Taylor鈥檚" (UTF-8 read as GBK) against a title cut short: "Best of 2023 (Tay..."
    "Amazon Music/3#4",  # "Playlists" alone on a tile, and ending the "All-Access / Playlists" tile
    "Multi-App/3#9",  # click text (check mark icon, top right): a text action naming an icon
])
def test_steps_the_text_grounding_used_to_miss_land_in_their_label(step: str, engine: RapidOcrEngine) -> None:
    g, label = _ground(step, engine)
    assert _right(g, label), g.to_dict()


@needs_runs
@pytest.mark.parametrize("step", ["Multi-App/1#4", "Settings/2#1", "Amazon Music/3#10"])
def test_an_icon_gpt4v_placed_at_the_center_is_found_where_it_is(step: str, engine: RapidOcrEngine) -> None:
    g, label = _ground(step, engine)  # the yellow add button at the bottom right, the gear at the top left
    assert _right(g, label), g.to_dict()
    assert "found at" in g.choice_note


@needs_runs
@pytest.mark.parametrize("step", ["Notes/1#5", "Notes/1#6"])
def test_an_icon_missing_from_the_corner_named_is_not_looked_for_elsewhere(step: str, engine: RapidOcrEngine
                                                                           ) -> None:
    g, label = _ground(step, engine)  # "checkmark, top right" after the note was saved: no checkmark there
    assert label.targets is None and g.status == "not_found"


@needs_runs
def test_words_not_on_screen_that_do_not_name_an_icon_stay_not_found(engine: RapidOcrEngine) -> None:
    g, label = _ground("Gmail/2#5", engine)  # "Subject", hidden under the recipient suggestion
    assert label.targets is None and g.status == "not_found" and "Subject" in g.message


def test_text_showing_the_word_icon_is_grounded_as_text() -> None:
    view = ScreenView(Image.new("RGB", (540, 1170), "white"),
                      lines=[OcrLine("Change icon", (40, 300, 200, 330), 0.99)])
    g = Grounder().ground(parse_action("click text (Change icon)"), view, CoordFrame("device", view.size))
    assert g.status == "found" and g.point == (120, 315) and not g.choice_note


def test_an_icon_named_in_text_that_is_not_there_keeps_the_text_feedback() -> None:
    view = ScreenView(Image.new("RGB", (540, 1170), "white"),
                      lines=[OcrLine("Inbox", (40, 300, 200, 330), 0.99)])
    g = Grounder().ground(parse_action("click text (red heart icon, top right)"), view,
                          CoordFrame("device", view.size))
    assert g.status == "not_found" and "red heart icon" in g.message


@needs_runs
def test_every_click_text_and_click_icon_gpt4v_wrote_is_labelled_once() -> None:
    written = {f"{p.parent.relative_to(RUNS)}#{k}": v["Action"] for p in RUNS.glob("*/*/data.json")
               for k, v in json.loads(p.read_text("utf-8")).items()
               if v["Action"].startswith(("click text", "click icon"))}
    assert {step: label.action for step, label in LABELS.items()} == written
    nexts = {e["step"]: e["next"] for e in yaml.safe_load(BENCH.LABELS.read_text("utf-8"))}  # not in Label
    for step, label in LABELS.items():
        assert (RUNS / label.screen).is_file() and (nexts[step] is None or (RUNS / nexts[step]).is_file())
        for box in label.targets or []:
            assert 0 <= box[0] < box[2] <= 540 and 0 <= box[1] < box[3] <= 1170, step


@pytest.mark.parametrize(("text", "message"), [
    ("- {step: a, action: 'click text (A)', screen: s.jpg}\n", "missing target"),
    ("- {step: a, action: 'click text (A)', screen: s.jpg, target: [[5, 5, 1, 9]]}\n", "empty or reversed"),
    ("- {step: a, action: 'click text (A)', screen: s.jpg, target: [[5, 5, 9]]}\n", "four whole numbers"),
    ("- {step: a, action: 'click text (A)', screen: s.jpg, target: []}\n", "or null"),
    ("step: a\n", "a list of labelled steps"),
])
def test_a_malformed_label_is_refused_naming_the_entry(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "labels.yaml"
    path.write_text(text, "utf-8")
    with pytest.raises(BENCH.LabelError, match=message) as err:
        BENCH.load_labels(path)
    assert str(path) in str(err.value)


@needs_runs
@pytest.mark.parametrize(("step", "name"), [
    ("Google Play/2#7", "instagram"),  # 'the "Install" button associated with the Instagram app listing'
    ("Google Play/2#9", "Bigo Live"),  # 'the accidental download of Bigo Live should be canceled'
    ("Chrome/2#4", "American singer-songwriter"),  # '"Taylor Swift," with a subtext "American ..."'
])
def test_an_ambiguous_text_is_settled_by_what_the_model_names_beside_it(step: str, name: str,
                                                                        engine: RapidOcrEngine) -> None:
    g, _, _ = _settled_by_words(step, engine)
    assert f"beside {name!r}" in g.choice_note


@needs_runs
@pytest.mark.parametrize("step", ["Gmail/2#7", "Alibaba.com/2#8"])
def test_words_that_single_out_no_candidate_still_ask_the_model(step: str, engine: RapidOcrEngine) -> None:
    # the thought names '"To" field' / '"Add to cart"': nothing beside one
    g, _ = _ground(step, engine, context=BENCH.step_context(RUNS, LABELS[step]))
    assert g.status == "ambiguous" and not g.choice_note


# No click icon step GPT-4V wrote is left ambiguous by the icon matcher and settled by a label (its two
# ambiguous icon steps are launcher icons, settled by the app they open), so a tune-split screen of
# benchmarks/data/real_icons.yaml stands in: Alibaba's bottom bar, where the set's own query for the
# Messenger tab fits the tab and the question-mark button above "My Alibaba".
ALIBABA = "Alibaba.com/2/3.jpg"
MESSENGER = "speech bubble with red badge, bottom"


def _real_icon_box(screen: str, query: str) -> tuple[int, int, int, int]:
    data = yaml.safe_load((Path(BENCH.__file__).parent / "data" / "real_icons.yaml").read_text("utf-8"))
    entry = next(s for s in data["screens"] if s["path"] == screen)
    assert entry["split"] == "tune"  # the holdout is never looked at through the grounder
    return tuple(next(i["box"] for i in entry["icons"] if i["query"] == query))  # type: ignore[return-value]


@pytest.fixture(scope="module")
def alibaba(engine: RapidOcrEngine) -> ScreenView:
    return ScreenView(Image.open(RUNS / ALIBABA).convert("RGB"), engine)


@needs_runs
@pytest.mark.parametrize("words", [
    'I should tap the "Messenger" icon at the bottom to read the supplier\'s reply.',
    "The Messenger tab at the bottom has a red badge.",  # unquoted, a tab
])
def test_an_ambiguous_icon_is_settled_by_the_label_the_model_names(alibaba: ScreenView, words: str) -> None:
    action, frame = parse_action(f"click icon ({MESSENGER})"), CoordFrame("device", alibaba.size)
    bare = Grounder().ground(action, alibaba, frame)
    assert bare.status == "ambiguous" and len(bare.candidates) >= 2, bare.to_dict()  # the matcher alone
    g = Grounder().ground(action, alibaba, frame, context=words)
    box = _real_icon_box(ALIBABA, MESSENGER)
    x, y = g.point or (-1, -1)
    assert g.status == "found" and box[0] <= x < box[2] and box[1] <= y < box[3], g.to_dict()
    assert "took the one labelled 'messenger'" in g.choice_note


@needs_runs
@pytest.mark.parametrize("words", [
    'I should tap the "Settings" icon to read the reply.',  # a label not on this screen
    'I should tap the "Cart" icon at the bottom.',  # on screen, but under no candidate (a cart, no bubble)
    "I should tap the speech bubble icon at the bottom.",  # names no label at all
])
def test_words_naming_no_candidate_s_label_leave_the_icon_ambiguous(alibaba: ScreenView, words: str) -> None:
    action, frame = parse_action(f"click icon ({MESSENGER})"), CoordFrame("device", alibaba.size)
    g = Grounder().ground(action, alibaba, frame, context=words)
    assert g.status == "ambiguous" and not g.choice_note, g.to_dict()


@needs_runs
def test_an_icon_the_matcher_finds_alone_is_not_moved_by_the_model_s_words(engine: RapidOcrEngine) -> None:
    # Amazon Music: "The 'Find' icon at the bottom center": of two magnifiers, the one above FIND
    g, label = _ground("Amazon Music/2#2", engine)
    assert _right(g, label) and not g.choice_note, g.to_dict()
    g, _ = _ground("Amazon Music/2#2", engine, context=BENCH.step_context(RUNS, label))
    assert _right(g, label) and not g.choice_note, g.to_dict()


@needs_runs
@pytest.mark.parametrize(("step", "app"), [
    ("Notes/2#1", "notes"),  # 'the "Notes" app icon, ... with a white background and an orange part'
    ("Google Play/2#1", "google play store"),  # 'open the Google Play Store app' (its label: Play Store)
])
def test_a_launcher_icon_is_taken_from_the_app_the_model_says_it_opens(step: str, app: str,
                                                                        engine: RapidOcrEngine) -> None:
    g, (action, view), frame = _settled_by_words(step, engine)
    assert f"app {app!r}" in g.choice_note
    # the near miss: an app that is not on this screen, or two apps, settle nothing
    for words in ('open the "Netflix" app', 'open the "Notes" app, then the "Settings" app'):
        g = Grounder().ground(action, view, frame, context=words)
        assert g.status == "ambiguous", (words, g.choice_note)
