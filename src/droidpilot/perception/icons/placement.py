"""Where on screen an icon is, against the place words of a query ("top left", "bottom", "center").

A place word is a soft preference, never a hard filter: ``position_score`` weighs candidates (1.0 inside
the asked third, falling off outside), and among candidates that look equally like the asked icon
``most_toward`` picks the one clearly furthest in the asked direction ("magnifier, bottom" of two
magnifiers is the lower one), so equal-looking icons are ordered by place instead of shown as a tie;
when the words do not clearly separate them (equals in different rows for "right"), they stay a tie.
"""

from __future__ import annotations

from collections.abc import Sequence

from droidpilot.perception.icons.query import Position
from droidpilot.perception.types import Box, box_center

CLEAR_LEAD = 0.025  # how much further (in screen fractions) the chosen one must be than the next
BEYOND = 0.25  # the gap, in the box's own extent, that sets a box in a row of its own
BEHIND = 0.01  # how far behind on one asked axis it may be (two icons of one row are not exactly level)


def _axis_score(centre: float, extent: float, place: str | None) -> float:
    if place is None:
        return 1.0
    third = extent / 3.0
    lo, hi = {"top": (0.0, third), "left": (0.0, third), "center": (third, 2 * third),
              "bottom": (2 * third, extent), "right": (2 * third, extent)}[place]
    dist = max(0.0, lo - centre, centre - hi)
    return max(0.0, 1.0 - dist / (0.25 * extent))


def position_score(point: tuple[int, int], size: tuple[int, int], where: Position) -> float:
    """1.0 inside the asked third(s) of the screen, falling to 0 a quarter-screen outside; size = (w, h)."""
    return (_axis_score(point[1], size[1], where.vertical)
            * _axis_score(point[0], size[0], where.horizontal))


def where_on_screen(point: tuple[int, int], size: tuple[int, int]) -> str:
    """"top left", "center", "bottom": the words for where a point is, by thirds of the screen."""
    v = ("top", "center", "bottom")[min(2, int(3 * point[1] / max(1, size[1])))]
    h = ("left", "center", "right")[min(2, int(3 * point[0] / max(1, size[0])))]
    if v == h == "center":
        return "center"
    return f"{v} {h}" if h != "center" else v


def opposite(point: tuple[int, int], size: tuple[int, int], where: Position) -> bool:
    """Is the point in the third of the screen opposite an asked side (asked "top right", it lies in the
    bottom or the left third)? A place one third off ("bottom" for a button halfway down) is not."""
    col = min(2, int(3 * point[0] / max(1, size[0])))
    row = min(2, int(3 * point[1] / max(1, size[1])))
    return ((where.vertical == "top" and row == 2) or (where.vertical == "bottom" and row == 0)
            or (where.horizontal == "left" and col == 2) or (where.horizontal == "right" and col == 0))


def _toward_axis(coord: float, extent: float, place: str | None) -> float:
    if place is None:
        return 0.0
    frac = coord / max(1.0, extent)
    return {"top": -frac, "left": -frac, "bottom": frac, "right": frac, "center": -abs(frac - 0.5)}[place]


def toward(point: tuple[int, int], size: tuple[int, int], where: Position) -> float:
    """How far a point lies in the asked direction (larger = more "top", "bottom left", "center")."""
    return (_toward_axis(point[1], size[1], where.vertical)
            + _toward_axis(point[0], size[0], where.horizontal))


def _axes(where: Position) -> tuple[list[int], list[int]]:
    """(asked axes, unasked axes) as indexes into (x, y): "bottom" asks y, "center" asks both."""
    asked = [i for i, place in ((0, where.horizontal), (1, where.vertical)) if place is not None]
    return asked, [i for i in (0, 1) if i not in asked]


def clearly_ahead(box: Box, other: Box, size: tuple[int, int], where: Position) -> bool:
    """Do the place words clearly set ``box`` before ``other``? It must be CLEAR_LEAD further toward the
    place, behind on no asked axis (in "bottom left", a lower box further right is not clearly it), and
    the two must lie along the asked direction: one move along an unasked axis as large as the lead (two
    "right" arrows in different rows) means the words do not separate them, unless it is in a row of its
    own beyond the other (``_beyond``)."""
    asked, unasked = _axes(where)
    (px, py), (ox, oy) = box_center(box), box_center(other)
    fracs = ((px / max(1, size[0]), ox / max(1, size[0])), (py / max(1, size[1]), oy / max(1, size[1])))
    places = (where.horizontal, where.vertical)
    leads = [_toward_axis(fracs[i][0], 1.0, places[i]) - _toward_axis(fracs[i][1], 1.0, places[i])
             for i in asked]
    lead = sum(leads)
    if lead < CLEAR_LEAD or min(leads) < -BEHIND:
        return False
    drift = max((abs(fracs[i][0] - fracs[i][1]) for i in unasked), default=0.0)
    return drift < lead or _beyond(box, other, where)


def _beyond(box: Box, other: Box, where: Position) -> bool:
    """Is ``box`` in a row (column) of its own beyond ``other`` toward one asked side ("bottom": its top
    below the other's bottom by a quarter of its height), as a tab bar's icon is below the page's?"""
    if where.vertical not in (None, "center") and where.horizontal in (None, "center"):
        lo, hi, extent = (1, 3, box[3] - box[1])
        gap = box[lo] - other[hi] if where.vertical == "bottom" else other[lo] - box[hi]
    elif where.horizontal not in (None, "center") and where.vertical in (None, "center"):
        lo, hi, extent = (0, 2, box[2] - box[0])
        gap = box[lo] - other[hi] if where.horizontal == "right" else other[lo] - box[hi]
    else:
        return False
    return gap >= BEYOND * extent


def most_toward(boxes: Sequence[Box], size: tuple[int, int], where: Position) -> int | None:
    """Index of the box the place words clearly set before every other (see ``clearly_ahead``), or None
    when no place was asked or none is (a row of equal icons, equals in different rows): then the model
    is asked, since a wrong tap costs more than a question."""
    if not where.given or len(boxes) < 2:
        return None
    keys = [toward(box_center(b), size, where) for b in boxes]
    first = max(range(len(boxes)), key=lambda i: keys[i])
    others = [b for i, b in enumerate(boxes) if i != first]
    return first if all(clearly_ahead(boxes[first], b, size, where) for b in others) else None
