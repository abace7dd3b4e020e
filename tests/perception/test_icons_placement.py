"""Place words are a soft preference with a clear ordering: among equal-looking icons the one furthest
toward the asked place wins; a row of equals stays ambiguous; an icon away from the place is still seen."""

from __future__ import annotations

from droidpilot.perception.icons import locate_icon
from droidpilot.perception.icons.drawing import DrawnIcon, as_rgb, blank_screen, draw_icon
from droidpilot.perception.icons.placement import most_toward, opposite, toward
from droidpilot.perception.icons.query import Position, parse_position
from droidpilot.perception.icons.rank import rank_icons

W, H = 1080, 2400
SIZE = (W, H)


def _inside(point: tuple[int, int], icon: DrawnIcon) -> bool:
    x1, y1, x2, y2 = icon.box
    return x1 <= point[0] < x2 and y1 <= point[1] < y2


def test_most_toward_picks_the_clear_extreme_and_refuses_a_row() -> None:
    column = [(100, 1700, 160, 1760), (100, 1900, 160, 1960), (100, 2100, 160, 2160)]
    assert most_toward(column, SIZE, parse_position("bottom")) == 2
    assert most_toward(column, SIZE, parse_position("top")) == 0
    row = [(100, 2100, 160, 2160), (300, 2102, 360, 2162)]  # side by side: "bottom" does not order them
    assert most_toward(row, SIZE, parse_position("bottom")) is None
    assert most_toward(row, SIZE, parse_position("bottom left")) == 0
    assert most_toward(column, SIZE, Position()) is None  # no place asked: no ordering


def test_toward_center_prefers_the_middle() -> None:
    where = parse_position("center")
    middle, lower, corner = (toward(p, SIZE, where) for p in ((540, 1200), (540, 1500), (100, 1500)))
    assert middle > lower > corner


def test_the_lowest_of_equal_icons_is_the_bottom_one() -> None:
    img = blank_screen(W, H, "light")
    hearts = [draw_icon(img, "heart", (150, y), 80, "red") for y in (1700, 1950, 2200)]
    result = locate_icon(as_rgb(img), "red heart, bottom")
    assert result.status == "found" and _inside(result.candidates[0].point, hearts[2])
    top = locate_icon(as_rgb(img), "red heart", "bottom left")
    assert top.status == "found" and _inside(top.candidates[0].point, hearts[2])


def test_a_row_of_equal_icons_in_the_place_stays_ambiguous() -> None:
    img = blank_screen(W, H, "light")
    draw_icon(img, "heart", (300, 2200), 80, "red")
    draw_icon(img, "heart", (780, 2200), 80, "red")
    assert locate_icon(as_rgb(img), "red heart, bottom").status == "ambiguous"


def test_ordering_is_among_equal_looks_only_a_lower_star_does_not_win_for_heart() -> None:
    img = blank_screen(W, H, "light")
    heart = draw_icon(img, "heart", (300, 1800), 80, "red")
    draw_icon(img, "star", (300, 2200), 80, "red")
    result = locate_icon(as_rgb(img), "red heart, bottom")
    assert result.status == "found" and _inside(result.candidates[0].point, heart)


def test_an_icon_away_from_the_asked_place_is_still_ranked_not_filtered_out() -> None:
    img = blank_screen(W, H, "light")
    heart = draw_icon(img, "heart", (540, 300), 80, "red")  # at the top, asked at the bottom
    ranked = rank_icons(as_rgb(img), "red heart, bottom", ocr_lines=[])
    assert ranked and _inside(((ranked[0].region.box[0] + ranked[0].region.box[2]) // 2,
                               (ranked[0].region.box[1] + ranked[0].region.box[3]) // 2), heart)
    result = locate_icon(as_rgb(img), "red heart, bottom", ocr_lines=[])
    assert result.status == "not_found" and any("(top)" in c for c in result.closest), result.closest


def test_regions_in_place_rank_before_a_better_looking_one_away_from_it() -> None:
    img = blank_screen(W, H, "light")
    heart = draw_icon(img, "heart", (540, 300), 80, "red")  # the asked icon, but at the top
    star = draw_icon(img, "star", (540, 2100), 80, "blue")  # a poor fit, but at the asked bottom
    ranked = rank_icons(as_rgb(img), "red heart, bottom", ocr_lines=[])
    centres = [((s.region.box[0] + s.region.box[2]) // 2, (s.region.box[1] + s.region.box[3]) // 2)
               for s in ranked]
    assert _inside(centres[0], star) and any(_inside(c, heart) for c in centres[1:])


def test_equals_in_different_rows_are_not_ordered_by_a_sideways_place_word() -> None:
    # TikTok's "white share arrow, right": equal candidates on the right, in rows far apart; the one a
    # little further right is not what "right" tells apart from the others
    rows_apart = [(1000, 900, 1060, 960), (940, 1800, 1000, 1860)]
    assert most_toward(rows_apart, SIZE, parse_position("right")) is None
    one_row = [(1000, 900, 1060, 960), (700, 905, 760, 965)]  # the same lead along one row: ordered
    assert most_toward(one_row, SIZE, parse_position("right")) == 0


def test_a_corner_word_does_not_pick_one_that_is_behind_on_either_axis() -> None:
    # "bottom left": the lower key is further right, the left one is higher; neither is clearly it
    lower_right, upper_left = (300, 2100, 360, 2160), (100, 1950, 160, 2010)
    assert most_toward([lower_right, upper_left], SIZE, parse_position("bottom left")) is None
    lower_left = (100, 2100, 160, 2160)  # lower and further left than the first: clearly it
    assert most_toward([lower_right, lower_left], SIZE, parse_position("bottom left")) == 1


def test_equal_icons_on_the_right_in_different_rows_are_asked_about() -> None:
    img = blank_screen(W, H, "light")
    draw_icon(img, "heart", (1010, 800), 80, "red")
    draw_icon(img, "heart", (930, 1700), 80, "red")
    result = locate_icon(as_rgb(img), "red heart, right")
    assert result.status == "ambiguous" and len(result.candidates) == 2
    img = blank_screen(W, H, "light")  # the near miss the other way: one row, "right" orders them
    right = draw_icon(img, "heart", (1010, 1700), 80, "red")
    draw_icon(img, "heart", (760, 1700), 80, "red")
    result = locate_icon(as_rgb(img), "red heart, right")
    assert result.status == "found" and _inside(result.candidates[0].point, right)


def test_a_tab_bar_icon_in_a_row_of_its_own_is_the_bottom_one_though_sideways_apart() -> None:
    # Amazon Music's "magnifier, bottom": the tab bar's icon lies below the page's look-alikes, which sit
    # far to its right; its own row sets it apart
    tab, page_icon = (300, 2230, 370, 2300), (900, 2120, 970, 2190)
    assert most_toward([tab, page_icon], SIZE, parse_position("bottom")) == 0
    overlapping = (900, 2180, 970, 2250)  # the near miss: rows overlap, so the sideways gap decides
    assert most_toward([tab, overlapping], SIZE, parse_position("bottom")) is None


def test_opposite_is_the_far_third_not_the_neighbouring_one() -> None:
    where = parse_position("top right")
    assert opposite((900, 2200), SIZE, where) and opposite((100, 200), SIZE, where)  # bottom / left third
    assert not opposite((540, 1200), SIZE, where)  # the middle: one third off on both axes
    assert not opposite((100, 2200), SIZE, parse_position("center"))  # "center" has no opposite side
