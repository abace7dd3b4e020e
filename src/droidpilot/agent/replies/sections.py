"""The labelled parts of a reply (Observation, Thought, Action, ...), however the model wrote its labels.

A label is one of ``LABELS``' words (English or Chinese, case-insensitive) written as
``Label: text``, ``**Label:** text``, ``**Label**: text``, ``Label - text``, a Markdown heading
(``#`` .. ``######``, with or without closing ``###``), a numbered section (``1. Thought:``) or a line that
is the label alone (plain or bold); the body is everything up to the next label or heading. Labels inside
code fences count only when there are none outside (a whole reply fenced), so a fenced example in a
Thought never opens a section. Replies written on one line keep their inline labels ("... Thought: ...")
when capitalised or Chinese, so "the next action: ..." inside a thought stays the thought's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# section name -> the words that open it (longest first when matched, so "action summary" is not "action")
LABELS: dict[str, tuple[str, ...]] = {
    "observation": ("observation", "observations", "screen description", "观察", "观察结果", "屏幕描述"),
    "thought": ("thought", "thoughts", "thinking", "think", "reasoning", "reason", "思考", "想法", "思路",
                "推理"),
    "action": ("action", "actions", "next action", "final action", "操作", "动作", "行动"),
    # CogAgent: the Action line is prose, the machine-readable call is under "Grounded Operation"
    "grounded": ("grounded operation", "grounded action"),
    # sections that end the one before them and are not read (Mobile-Agent v2's Operation, AppAgent's
    # Summary, UI-TARS's Reflection / Action_Summary, Mobile-Agent-E's Description, CogAgent's Status/Plan)
    "other": ("summary", "action summary", "action_summary", "description", "operation", "reflection",
              "plan", "status", "conclusion", "memory", "note", "notes", "progress", "explanation",
              "expectation", "expected result", "goal", "总结", "描述", "计划", "反思", "状态", "备注"),
}
_WORD_OF = {w: name for name, words in LABELS.items() for w in words}
_WORDS = "|".join(re.escape(w).replace(r"\ ", r"[ \t]+") for w in sorted(_WORD_OF, key=len, reverse=True))
_END = r"(?![A-Za-z])"  # an English label is a whole word: "Actions" is not "Action" + "s"
# line start: quote marks, heading hashes, a bullet, a number, emphasis, then the label, closing emphasis
_PREFIX = r"^[ \t]*(?:>[ \t]*)*(?:#{1,6}[ \t]*)?(?:[-*+][ \t]+)?[*_`]*(?:\d{1,2}[.)][ \t]*)?[*_`]*[ \t]*"
_CLOSE = r"[ \t]*[*_`]*[ \t]*"
# "Label: text" / "**Label:** text" / "Label - text" at a line start ...
_COLON = re.compile(_PREFIX + r"(" + _WORDS + r")" + _END + _CLOSE + r"(?:[:：]|[-–—](?=[ \t]|$))[*_ \t]*",
                    re.IGNORECASE | re.MULTILINE)
# ... or a line that is only the label: "### Action", "### Thought ###", "**Action**", "Action"
_ALONE = re.compile(_PREFIX + r"(" + _WORDS + r")" + _END + _CLOSE + r"#*[ \t]*[:：]?[*_ \t]*$",
                    re.IGNORECASE | re.MULTILINE)
# ... or, in replies written on one line, after whitespace or punctuation ("... Thought: ...")
_INLINE = re.compile(r"(?:^|(?<=[\s.。;；,，)）*_`]))[*_`]*(" + _WORDS + r")" + _END
                     + r"[ \t*_`]*[:：][*_ \t]*", re.IGNORECASE | re.MULTILINE)
_HEADING = re.compile(r"^[ \t]*#{1,6}[ \t]+\S.*$", re.MULTILINE)
_FENCE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)


@dataclass(frozen=True)
class Section:
    """One labelled part: ``name`` is a key of LABELS, ``body`` its text (fences kept)."""

    name: str
    body: str


def _masked(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each span blanked (newlines kept), so labels inside code fences are not seen."""
    chars = list(text)
    for start, end in spans:
        for i in range(start, end):
            if chars[i] != "\n":
                chars[i] = " "
    return "".join(chars)


def _starts(source: str) -> list[tuple[int, int, str]]:
    """(label start, body start, section name) of every label and heading in ``source``, in order."""
    found: dict[int, tuple[int, int, str]] = {}
    for m in _COLON.finditer(source):
        found[m.start()] = (m.start(), m.end(), _WORD_OF[_norm(m.group(1))])
    for m in _ALONE.finditer(source):
        found.setdefault(m.start(), (m.start(), m.end(), _WORD_OF[_norm(m.group(1))]))
    for m in _HEADING.finditer(source):  # any other heading ends the section before it
        found.setdefault(m.start(), (m.start(), m.end(), "other"))
    covered = [(s, e) for s, e, _ in found.values()]
    for m in _INLINE.finditer(source):
        inside = any(s <= m.start(1) < e for s, e in covered)
        if not inside and not m.group(1)[0].islower():
            found[m.start(1)] = (m.start(1), m.end(), _WORD_OF[_norm(m.group(1))])
    return [found[k] for k in sorted(found)]


def _norm(word: str) -> str:
    return re.sub(r"[ \t]+", " ", word.lower())


def split(text: str) -> list[Section]:
    """Every labelled section of ``text`` in order (a label may repeat; callers decide what that means)."""
    source = text or ""
    fences = [(m.start(), m.end()) for m in _FENCE.finditer(source)]
    starts = _starts(_masked(source, fences))
    if not any(name != "other" for _, _, name in starts) and fences:
        starts = _starts(source)  # the whole reply is fenced: its labels are inside
    out = []
    for i, (_, body_start, name) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else len(source)
        out.append(Section(name, source[body_start:end].strip().strip("*_").strip()))
    return out


def first(found: list[Section], name: str) -> str | None:
    """The body of the first non-empty section called ``name`` (the first empty one if all are)."""
    bodies = [s.body for s in found if s.name == name]
    return next((b for b in bodies if b), bodies[0] if bodies else None)
