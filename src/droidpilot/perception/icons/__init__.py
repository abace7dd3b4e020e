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
from droidpilot.perception.icons.resolve import resolve_icon
from droidpilot.perception.icons.templates import TemplateMatch, match_template, search_template

__all__ = [
    "Detector",
    "IconQuery",
    "OnnxIconDetector",
    "OpenClipRanker",
    "PluginUnavailable",
    "Position",
    "Ranker",
    "TemplateMatch",
    "describe_icons",
    "locate_icon",
    "match_template",
    "parse_icon_query",
    "parse_position",
    "resolve_icon",
    "search_template",
]
