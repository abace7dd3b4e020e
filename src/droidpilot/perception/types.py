"""Results of perception shared by OCR, text localization and icon localization.

Every box is ``(x1, y1, x2, y2)`` in device pixels of the original, full-resolution screenshot.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Box = tuple[int, int, int, int]
LocateStatus = Literal["found", "ambiguous", "not_found", "too_many"]


@dataclass(frozen=True)
class OcrLine:
    """One line of recognised text."""

    text: str
    box: Box
    score: float

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "box": list(self.box), "score": round(float(self.score), 4)}


def box_center(box: Box) -> tuple[int, int]:
    """The tap point of a box: its centre, in device pixels."""
    return ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)


@dataclass
class Candidate:
    """A place on screen that may be what was asked for; ``point`` is where to tap."""

    box: Box
    point: tuple[int, int]
    score: float
    text: str | None = None
    description: str | None = None
    crop: Any = None  # PIL image of the region around the box with the box drawn (ambiguous outcomes)
    details: dict[str, Any] | None = None  # how the candidate was read and scored (icons), for --json

    def to_dict(self) -> dict[str, Any]:
        out = self._base_dict()
        if self.details:
            out["details"] = self.details
        return out

    def _base_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"box": list(self.box), "point": list(self.point),
                               "score": round(float(self.score), 4)}
        if self.text is not None:
            out["text"] = self.text
        if self.description is not None:
            out["description"] = self.description
        return out


@dataclass
class LocateResult:
    """The outcome of looking for a target: found (1), ambiguous (2-4), too_many (>4) or not_found."""

    status: LocateStatus
    candidates: list[Candidate] = field(default_factory=list)
    # On not_found: the closest texts on screen, so the agent can choose another target.
    closest: list[str] = field(default_factory=list)
    # Icons: the parsed query (colour, shape, glyphs, position, unknown words), never dropped silently.
    query: dict[str, Any] | None = None

    @property
    def unknown_words(self) -> list[str]:
        """Words of an icon description that were not understood (empty for text lookups)."""
        return list((self.query or {}).get("unknown", []))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "candidates": [c.to_dict() for c in self.candidates]}
        if self.closest:
            out["closest"] = self.closest
        if self.query is not None:
            out["query"] = self.query
        return out
