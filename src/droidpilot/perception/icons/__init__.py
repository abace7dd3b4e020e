"""Icon localization and icon template matching, offline and without neural weights by default.

``locate_icon(image, "red heart", position="bottom")`` finds an icon a model described in words;
``match_templates`` finds icon image files on a screenshot (MobiFlow's ``icons`` checker).
Neural rankers and detectors plug in through ``plugins`` when their weights are available locally.
"""

from __future__ import annotations

from droidpilot.perception.icons.plugins import (
    Detector,
    OnnxIconDetector,
    OpenClipRanker,
    PluginUnavailable,
    Ranker,
)
from droidpilot.perception.icons.query import IconQuery, Position, parse_icon_query, parse_position
from droidpilot.perception.icons.rank import describe_icons, locate_icon

__all__ = [
    "Detector",
    "IconQuery",
    "OnnxIconDetector",
    "OpenClipRanker",
    "PluginUnavailable",
    "Position",
    "Ranker",
    "describe_icons",
    "locate_icon",
    "parse_icon_query",
    "parse_position",
]
