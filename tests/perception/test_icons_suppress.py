"""The same icon seen by several regions is kept once (scored.suppress); a kept container (an avatar with
its plus badge) is tapped on the asked glyph inside it, not at its centre, which may miss the glyph."""

from __future__ import annotations

from droidpilot.perception.icons.candidates import Region
from droidpilot.perception.icons.describe import describe_region
from droidpilot.perception.icons.drawing import blank_screen, draw_icon
from droidpilot.perception.icons.scored import ScoredIcon, suppress

AVATAR = (462, 503, 530, 587)  # an avatar with a plus badge under it: the group of both
PLUS = (486, 560, 504, 578)  # the badge, centred below the avatar's centre


def _scored(box: tuple[int, int, int, int], score: float, glyph: float,
            glyph_box: tuple[int, int, int, int] | None = None) -> ScoredIcon:
    img = blank_screen(540, 1170)
    draw_icon(img, "plus", ((PLUS[0] + PLUS[2]) // 2, (PLUS[1] + PLUS[3]) // 2), 16, "red")
    return ScoredIcon(Region(box, "mask"), describe_region(img, box), None, glyph, None, None, score,
                      glyph=glyph, glyph_box=glyph_box)


def _inside(point: tuple[int, int], box: tuple[int, int, int, int]) -> bool:
    return box[0] <= point[0] < box[2] and box[1] <= point[1] < box[3]


def test_a_container_is_tapped_on_the_asked_glyph_inside_it() -> None:
    outer, inner = _scored(AVATAR, 1.0, 1.0), _scored(PLUS, 0.4, 0.84)
    assert not _inside(outer.point, PLUS)  # the group's centre is on the avatar, above the badge
    kept = suppress([outer, inner])
    assert len(kept) == 1 and kept[0].score == 1.0 and _inside(kept[0].point, PLUS)
    assert _inside(kept[0].point, AVATAR)  # still a tap on the container


def test_near_misses_keep_the_container_centre() -> None:
    centre = ((AVATAR[0] + AVATAR[2]) // 2, (AVATAR[1] + AVATAR[3]) // 2)
    weak = suppress([_scored(AVATAR, 1.0, 1.0), _scored(PLUS, 0.4, 0.6)])  # reads the glyph far worse
    assert weak[0].point == centre
    unsure = suppress([_scored(AVATAR, 1.0, 0.3), _scored(PLUS, 0.2, 0.3)])  # no sure glyph reading
    assert unsure[0].point == centre
    big = (470, 510, 526, 580)  # most of the container: a tighter box of the same icon, not a glyph in it
    assert suppress([_scored(AVATAR, 1.0, 1.0), _scored(big, 0.4, 1.0)])[0].point == centre
    # a tile already tapped on its own glyph keeps that point
    tiled = suppress([_scored(AVATAR, 1.0, 1.0, glyph_box=(470, 510, 490, 530)), _scored(PLUS, 0.4, 1.0)])
    assert tiled[0].point == (480, 520)
