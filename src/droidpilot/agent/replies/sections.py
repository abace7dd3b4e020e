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

import bisect
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
# a label word, whole ("Actions" is not "Action" + "s"); matched at a known position, never scanned with
# nested repeats, so a line of 100,000 stars or spaces costs linear time
_WORD = re.compile(r"(" + _WORDS + r")(?![A-Za-z])", re.IGNORECASE)
# in replies written on one line: a label word followed by a colon ("... Thought: ..."); only the words
# of Mobile-Agent's own labels, so "Plan:", "Note:" or "Reason:" inside a typed text or a thought stay text
_INLINE_WORDS = ("observation", "thought", "action", "grounded operation", "观察", "思考", "操作", "动作")
_INLINE = re.compile(r"(" + "|".join(w.replace(" ", r"[ \t]+") for w in _INLINE_WORDS) + r")(?![A-Za-z])"
                     r"[ \t*_`]*[:：]", re.IGNORECASE)
_INLINE_AFTER = frozenset(" \t\r\n.。;；,，)）*_`")  # what may stand before an inline label
_HEADING = re.compile(r"^[ \t]*#{1,6}[ \t]+\S", re.MULTILINE)
_NUMBER = re.compile(r"\d{1,2}[.)]")
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


def _line_label(line: str) -> tuple[str, int] | None:
    """(section name, where its body starts in ``line``) when ``line`` opens with a label: quote marks,
    heading hashes, a bullet, a number and emphasis before it; a colon or a dash after it, or nothing
    more on the line but closing emphasis or hashes ("### Thought ###", "**Action**")."""
    rest = line.lstrip(" \t")
    while rest.startswith(">"):
        rest = rest[1:].lstrip(" \t")
    hashes = len(rest) - len(rest.lstrip("#"))
    if 0 < hashes <= 6:
        rest = rest[hashes:].lstrip(" \t")
    if rest[:1] in ("-", "*", "+") and rest[1:2] in (" ", "\t"):
        rest = rest[1:].lstrip(" \t")
    rest = rest.lstrip("*_`")
    number = _NUMBER.match(rest)
    if number:
        rest = rest[number.end():]
    rest = rest.lstrip("*_` \t")
    word = _WORD.match(rest)
    if word is None:
        return None
    name = _WORD_OF[_norm(word.group(1))]
    after = rest[word.end():].lstrip(" \t*_`")
    colon = after[:1] in (":", "：")
    dash = after[:1] in ("-", "–", "—") and after[1:2] in (" ", "\t", "")
    if colon or dash:
        body = after[1:].lstrip("*_ \t")
    elif not after.strip("#:：*_ \t"):
        body = ""
    else:
        return None
    return name, len(line) - len(body)


def _starts(source: str) -> list[tuple[int, int, str]]:
    """(label start, body start, section name) of every label and heading in ``source``, in order."""
    found: dict[int, tuple[int, int, str]] = {}
    offset = 0
    lines_with_label = set()
    line_starts = []
    for line in source.split("\n"):
        line_starts.append(offset)
        text = line.rstrip("\r")
        label = _line_label(text)
        if label is not None:
            found[offset] = (offset, offset + label[1], label[0])
            lines_with_label.add(offset)
        elif _HEADING.match(text):  # any other heading ends the section before it
            found[offset] = (offset, offset + len(text), "other")
        offset += len(line) + 1
    for m in _INLINE.finditer(source):
        at = m.start(1)
        line_start = line_starts[bisect.bisect_right(line_starts, at) - 1]
        before = source[line_start:at].rstrip("*_`")
        if m.group(1)[0].islower() or (before and before[-1] not in _INLINE_AFTER):
            continue
        if line_start in lines_with_label and not source[line_start:at].strip(" \t>#*_`-+0123456789.)"):
            continue  # the line's own label, already found
        if line_start in lines_with_label and at < found[line_start][1]:
            continue
        body = m.end()
        while body < len(source) and source[body] in "*_ \t":
            body += 1
        found[at] = (at, body, _WORD_OF[_norm(m.group(1))])
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
