"""Choosing among a few text candidates by the names the model writes beside the target."""

from __future__ import annotations

from droidpilot.agent.context_pick import (
    app_names,
    icon_names,
    names_in,
    pick_by_context,
    pick_icon_by_context,
    words_apart,
)
from droidpilot.perception.types import Candidate, OcrLine


def _cand(x: int, y: int) -> Candidate:
    return Candidate((x - 40, y - 15, x + 40, y + 15), (x, y), 1.0, text="Install")


# Two apps in a list, each with an Install button at its right (Play Store's search results).
LINES = [OcrLine("Bigo Live-Live Stream", (117, 343, 354, 370), 0.99),
         OcrLine("Install", (424, 366, 503, 396), 1.0),
         OcrLine("Instagram", (115, 540, 220, 566), 1.0), OcrLine("Install", (425, 562, 502, 590), 1.0)]
CANDS = [_cand(463, 381), _cand(463, 576)]


def test_names_are_quoted_phrases_and_capitalised_runs_without_the_target_or_sentence_words() -> None:
    text = 'The screen shows "Install" next to the Instagram app. Then tap Bigo Live, "American singer".'
    assert names_in(text, "Install") == ["American singer", "Instagram", "Bigo Live"]
    assert names_in('Tap "Taylor Swift" on Taylor Swift Music', "Taylor Swift") == ["Music"]  # not the target


def test_words_apart_counts_words_between_and_matches_longer_forms_of_the_target() -> None:
    text = "the download of Bigo Live should be canceled and the one for Instagram kept"
    assert words_apart(text, "Cancel", "Bigo Live") == 2
    assert words_apart(text, "Cancel", "Instagram") == 4
    assert words_apart(text, "Cancel", "Netflix") is None


def test_the_candidate_beside_the_named_app_is_chosen() -> None:
    got = pick_by_context(CANDS, LINES, "Install", 'click the "Install" button of the Instagram listing')
    assert got is not None and (got.index, got.name) == (1, "Instagram")
    got = pick_by_context(CANDS, LINES, "Install", "Bigo Live was installed by accident")
    assert got is not None and got.index == 0  # a hyphenated title still holds "Bigo Live"


def test_two_names_written_about_as_near_the_target_choose_nothing() -> None:
    text = "Install Bigo Live or Install Instagram"  # each name one word from a mention
    assert pick_by_context(CANDS, LINES, "Install", text) is None


def test_a_nearer_name_wins_only_by_a_clear_margin() -> None:
    text = "the Bigo Live app should be installed, then Instagram"
    got = pick_by_context(CANDS, LINES, "Install", text)  # Bigo 3 words before, Instagram 1 after
    assert got is not None and got.name == "Instagram"
    assert pick_by_context(CANDS, LINES, "Install", "Bigo Live then installed then Instagram") is None


def test_names_far_from_the_target_or_not_on_screen_or_halfway_choose_nothing() -> None:
    far = "Instagram " + "word " * 13 + "Install"
    assert pick_by_context(CANDS, LINES, "Install", far) is None
    assert pick_by_context(CANDS, LINES, "Install", "tap Install for Netflix") is None
    middle = [OcrLine("Instagram", (115, 470, 220, 490), 1.0)]  # as near one button as the other
    assert pick_by_context(CANDS, middle, "Install", "tap Install for Instagram") is None
    assert pick_by_context(CANDS, LINES, "Install", "") is None
    assert pick_by_context(CANDS[:1], LINES, "Install", "tap Install for Instagram") is None


def test_a_line_that_is_itself_a_candidate_supports_nothing() -> None:
    lines = [OcrLine("Install Instagram", (400, 366, 520, 396), 1.0), *LINES[1:2], LINES[3]]
    assert pick_by_context(CANDS, lines, "Install", "tap Install for Instagram") is None


def test_candidates_in_a_row_are_told_apart_by_columns() -> None:
    cands = [_cand(100, 600), _cand(400, 600)]
    lines = [OcrLine("Chamet", (60, 660, 140, 690), 1.0), OcrLine("Voya", (360, 660, 440, 690), 1.0)]
    got = pick_by_context(cands, lines, "Install", "Install Voya")
    assert got is not None and got.index == 1


def test_a_name_in_another_sentence_or_line_than_the_target_says_nothing() -> None:
    assert words_apart("Bigo Live is shown.\nTap Install", "Install", "Bigo Live") is None
    assert words_apart("It shows Bigo Live. Install it", "Install", "Bigo Live") is None
    # SimPhone: "Observation: Settings / Thought: the network page", two Network rows, the title beside one
    lines = [OcrLine("Settings", (20, 60, 140, 90), 1.0), OcrLine("Network", (20, 100, 140, 130), 1.0),
             OcrLine("Network", (20, 500, 140, 530), 1.0)]
    cands = [_cand(80, 115), _cand(80, 515)]
    assert pick_by_context(cands, lines, "Network", "the network page\nSettings") is None


# Amazon Music: a magnifier on the page and one in the tab bar above its FIND label; both fit the query.
TABS = [OcrLine("HOME", (44, 1117, 82, 1133), 1.0), OcrLine("FIND", (150, 1117, 184, 1133), 1.0),
        OcrLine("LIBRARY", (236, 1117, 304, 1133), 1.0)]
LENSES = [Candidate((290, 920, 318, 950), (304, 935), 0.6),
          Candidate((152, 1074, 183, 1105), (167, 1089), 0.6)]


def test_the_icon_whose_label_the_model_names_is_chosen() -> None:
    thought = "The 'Find' icon at the bottom center of the screen is typically used for searching."
    got = pick_icon_by_context(LENSES, TABS, thought)
    assert got is not None and (got.index, got.name) == (1, "find")
    assert icon_names('launch the "Notes" app icon; open the Google Play Store app') == ["notes",
                                                                                       "google play store"]


def test_names_listed_without_calling_them_the_icon_choose_nothing() -> None:
    listed = "five navigation icons labeled 'Home', 'Find', 'Library', and 'Upgrade'."
    assert icon_names(listed) == [] and pick_icon_by_context(LENSES, TABS, listed) is None


def test_a_label_far_from_both_or_between_them_chooses_nothing() -> None:
    far = [OcrLine("FIND", (400, 300, 434, 316), 1.0)]  # the label is nowhere near either magnifier
    assert pick_icon_by_context(LENSES, far, "tap the 'Find' icon") is None
    side_by_side = [LENSES[1], Candidate((200, 1074, 231, 1105), (215, 1089), 0.6)]
    between = [OcrLine("FIND", (175, 1110, 208, 1126), 1.0)]  # under both, as near to each
    assert pick_icon_by_context(side_by_side, between, "tap the 'Find' icon") is None


def test_names_pointing_at_different_icons_choose_nothing() -> None:
    lines = [*TABS, OcrLine("Search", (280, 955, 330, 970), 1.0)]
    assert pick_icon_by_context(LENSES, lines, "the 'Find' tab, or the 'Search' button") is None


def test_app_names_are_what_the_model_says_it_opens() -> None:
    words = 'Among these icons is the "Notes" app icon. I need to launch the "Notes" app'
    assert app_names(words) == ["notes"]
    assert app_names("open the Google Play Store app where Instagram can be downloaded") == \
        ["google play store"]
    assert app_names("The 'Find' icon at the bottom; the Settings tab") == []  # icons, tabs: not apps
