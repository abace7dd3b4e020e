"""A query for a status-bar icon ("battery, status bar") takes the bar as its place: an icon of the same
looks below the bar does not fit it (before, it tied with the bar's own icon and the answer was a
question); a query not naming the bar still never gets the bar's icons (perception/icons/rank.py)."""

from __future__ import annotations

from droidpilot.perception.icons import locate_icon
from droidpilot.perception.icons.drawing import as_rgb, blank_screen, draw_icon

W, H = 1080, 2400


def _inside(point: tuple[int, int], box: tuple[int, int, int, int]) -> bool:
    return box[0] <= point[0] < box[2] and box[1] <= point[1] < box[3]


def _screen():
    img = blank_screen(W, H, "light")
    in_bar = draw_icon(img, "star", (940, 48), 50, "gray")  # inside the top 4% of the screen
    below = draw_icon(img, "star", (540, 1300), 50, "gray")
    return as_rgb(img), in_bar, below


def test_a_status_bar_query_takes_the_icon_in_the_bar() -> None:
    img, in_bar, _ = _screen()
    for query in ("gray star, status bar", "gray star in the status bar"):
        result = locate_icon(img, query)
        assert result.status == "found" and _inside(result.candidates[0].point, in_bar.box), query


def test_a_query_not_naming_the_bar_takes_the_icon_below_it() -> None:
    img, _, below = _screen()
    result = locate_icon(img, "gray star")
    assert result.status == "found" and _inside(result.candidates[0].point, below.box)


def test_a_status_bar_query_with_no_icon_in_the_bar_is_not_tapped_below_it() -> None:
    img = blank_screen(W, H, "light")
    draw_icon(img, "star", (540, 1300), 50, "gray")
    assert locate_icon(as_rgb(img), "gray star, status bar").status != "found"
