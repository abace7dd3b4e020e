"""The action grammar: Mobile-Agent's eight operations, the extended, self-grounded ones, and ``answer``.

``answer (TEXT)`` ends the task with a reply (information retrieval; "infeasible: why" for a task that
cannot be done): it is recorded in the trace and judged, never performed on the device.

``parse_action`` is a real parser (verb, then one parenthesised argument), tolerant of what models write
(case, spacing, quotes, Chinese punctuation, a trailing period); ``format_action`` writes the canonical
form back. A failure raises ``ActionParseError`` whose message tells the model how to write it instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from droidpilot.errors import DroidpilotError

POSITIONS = ("top", "bottom", "left", "right", "center")
_POSITION_ALIASES = {
    "top": "top", "upper": "top", "up": "top", "bottom": "bottom", "lower": "bottom", "down": "bottom",
    "left": "left", "right": "right", "center": "center", "centre": "center", "middle": "center",
}

# verb (words joined by one space, lower case) -> action name
_VERBS: dict[str, str] = {
    "open app": "open_app", "open": "open_app", "launch": "open_app", "open application": "open_app",
    "click text": "click_text", "tap text": "click_text",
    "click icon": "click_icon", "tap icon": "click_icon",
    "page up": "page_up", "scroll up": "page_up",
    "page down": "page_down", "scroll down": "page_down",
    "type": "type", "input": "type", "type text": "type",
    "back": "back", "go back": "back",
    "exit": "exit",
    "stop": "stop", "finish": "stop", "done": "stop",
    "tap": "tap", "click": "tap",
    "long press": "long_press", "longpress": "long_press",
    "swipe": "swipe",
    "enter": "enter", "press enter": "enter",
    "home": "home", "press home": "home",
    "recents": "recents", "recent apps": "recents",
    "wait": "wait",
    "answer": "answer", "reply": "answer",
    "text": "type",  # AndroidLab's and AppAgent's text("...") types a quoted string literal
}
TEXT_ACTIONS = ("open_app", "click_text", "type", "answer")
NO_ARG_ACTIONS = ("page_up", "page_down", "back", "exit", "stop", "enter", "home", "recents")
POINT_ACTIONS = ("tap", "long_press")
ACTION_NAMES = (*TEXT_ACTIONS, "click_icon", *NO_ARG_ACTIONS, *POINT_ACTIONS, "swipe", "wait")
# Actions that end the run (after the completion check) instead of being performed on the device.
FINAL_ACTIONS = ("stop", "answer")

GRAMMAR_HELP = (
    "Write exactly one action on the Action line, one of: open App (NAME), click text (TEXT), "
    "click icon (COLOR SHAPE, POSITION) with POSITION one or two of top/bottom/left/right/center, "
    "page up, page down, type (TEXT), back, exit, stop; extended: tap (x, y), long press (x, y), "
    "swipe (x1, y1, x2, y2), enter, home, wait; answer (TEXT) to reply when the task asks a question."
)

_PUNCT_MAP = str.maketrans({"（": "(", "）": ")", "，": ",", "：": ":", "［": "[", "］": "]",
                            "\u3000": " ", "＂": '"', "＇": "'"})
_QUOTE_PAIRS = (('"', '"'), ("'", "'"), ("“", "”"), ("‘", "’"), ("「", "」"), ("『", "』"), ("`", "`"),
                ("《", "》"), ("<", ">"))
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


class ActionParseError(DroidpilotError):
    """The Action line is not a valid action; the message says what is wrong and how to write it."""


@dataclass(frozen=True)
class Action:
    """One parsed action. ``coords`` are in the deciding brain's coordinate space, not yet device px."""

    name: str
    text: str | None = None
    description: str | None = None
    position: tuple[str, ...] = ()
    coords: tuple[float, ...] = ()
    seconds: float | None = None

    def format(self) -> str:
        """The canonical text of this action (what a model would write)."""
        return format_action(self)

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"name": self.name, "text": format_action(self)}
        if self.text is not None:
            out["argument"] = self.text
        if self.description is not None:
            out["description"] = self.description
        if self.position:
            out["position"] = list(self.position)
        if self.coords:
            out["coords"] = list(self.coords)
        if self.seconds is not None:
            out["seconds"] = self.seconds
        return out


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def format_action(action: Action) -> str:
    """Write ``action`` in the canonical grammar, e.g. ``click icon (red heart, bottom left)``."""
    n = action.name
    if n == "open_app":
        return f"open App ({action.text})"
    if n == "click_text":
        return f"click text ({action.text})"
    if n == "type":
        return f"type ({action.text})"
    if n == "answer":
        return f"answer ({action.text})"
    if n == "click_icon":
        pos = f", {' '.join(action.position)}" if action.position else ""
        return f"click icon ({action.description}{pos})"
    if n in NO_ARG_ACTIONS:
        return n.replace("_", " ")
    if n in POINT_ACTIONS or n == "swipe":
        return f"{n.replace('_', ' ')} ({', '.join(_num(c) for c in action.coords)})"
    if n == "wait":
        return "wait" if action.seconds is None else f"wait ({_num(action.seconds)})"
    raise ValueError(f"unknown action name {n!r}")


def _strip_quotes(value: str) -> str:
    value = value.strip()
    changed = True
    while changed and len(value) >= 2:
        changed = False
        for left, right in _QUOTE_PAIRS:
            if value.startswith(left) and value.endswith(right):
                value = value[len(left):len(value) - len(right)].strip()
                changed = True
                break
    return value


def _clean_line(raw: str) -> str:
    line = raw.translate(_PUNCT_MAP).strip()
    # Markdown emphasis, code fences and list bullets models wrap their answer in.
    line = re.sub(r"^(?:[-*>]\s+|\d+[.)]\s+)", "", line)
    line = line.strip("*_` ")
    line = re.sub(r"^action\s*:\s*", "", line, flags=re.IGNORECASE).strip("*_` ")
    while line.endswith((".", "。", ";", "；", "!")):
        line = line[:-1].rstrip()
    # A whole action in quotes: "back" or 'click text (OK)'.
    if len(line) >= 2 and line[0] in "\"'“‘`" and _strip_quotes(line) != line:
        line = _strip_quotes(line)
    return line


def _literal(value: str) -> str:
    """A quoted string literal's text (one pair of matching straight quotes removed), else ``value``."""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def _raw_argument(raw: str, line: str, arg: str) -> str:
    """``arg`` (cut from the cleaned ``line``) as the model wrote it in ``raw``: cleaning maps full-width
    punctuation one character for one, so the same span of ``raw`` holds the untouched text."""
    start = raw.translate(_PUNCT_MAP).find(line)
    at = line.find("(" if "(" in line else "[") + 1  # where _split_verb cut it
    if start < 0 or line[at:at + len(arg)] != arg:
        return arg
    return raw[start + at:start + at + len(arg)]


def _split_verb(line: str) -> tuple[str, str | None]:
    """Split into (verb, argument or None). The argument spans the first '(' to the last ')'."""
    for opener, closer in (("(", ")"), ("[", "]")):
        start = line.find(opener)
        if start != -1:
            end = line.rfind(closer)
            if end < start:
                raise ActionParseError(
                    f"The action {line!r} opens '{opener}' but never closes it. {GRAMMAR_HELP}")
            trailing = line[end + 1:].strip()
            if trailing:
                raise ActionParseError(
                    f"Unexpected text {trailing!r} after the closing '{closer}' in {line!r}. "
                    "Put the whole argument inside the parentheses.")
            return line[:start].strip(), line[start + 1:end]
    return line.strip(), None


def _normalise_verb(verb: str) -> str:
    verb = re.sub(r"[\s_\-]+", " ", verb.strip().strip(":").strip()).lower()
    return verb


def _match_bare(line: str) -> tuple[str, str] | None:
    """For ``click text Settings`` (no parentheses): the longest known verb prefix and the rest."""
    norm = _normalise_verb(line)
    for verb in sorted(_VERBS, key=len, reverse=True):
        if norm == verb:
            return verb, ""
        if norm.startswith(verb + " ") or norm.startswith(verb + ":"):
            # Keep the argument's original case: cut the same number of words from the raw line.
            words = len(verb.split(" "))
            parts = re.split(r"[\s_\-]+", line.strip(), maxsplit=words)
            rest = parts[words] if len(parts) > words else ""
            return verb, rest.lstrip(":").strip()
    return None


def _position_tokens(words: str) -> list[str]:
    return [t for t in re.split(r"[\s,\-/&]+|\band\b", words.lower()) if t]


def _parse_position(words: str, line: str) -> tuple[str, ...]:
    tokens = _position_tokens(words)
    out: list[str] = []
    for token in tokens:
        pos = _POSITION_ALIASES.get(token)
        if pos is None:
            raise ActionParseError(
                f"{token!r} is not a position in {line!r}: use one or two of top, bottom, left, right, "
                "center, e.g. click icon (red heart, bottom right).")
        if pos not in out:
            out.append(pos)
    if len(out) > 2:
        raise ActionParseError(f"Too many positions in {line!r}: give one or two, e.g. 'top left'.")
    return tuple(out)


def _parse_icon(arg: str, line: str) -> Action:
    arg = _strip_quotes(arg)
    if not arg:
        raise ActionParseError("click icon needs a description, e.g. click icon (red heart, bottom).")
    description, position = arg, ()
    if "," in arg:
        # The earliest comma after which only position words follow; else the last comma.
        cuts = [i for i, ch in enumerate(arg) if ch == ","]
        cut = next((i for i in cuts if all(t in _POSITION_ALIASES for t in _position_tokens(arg[i + 1:]))),
                   cuts[-1])
        description, position = _strip_quotes(arg[:cut]), _parse_position(arg[cut + 1:], line)
    else:
        # "red heart bottom left": trailing position words without a comma.
        words = arg.split()
        cut = len(words)
        while cut > 1 and words[cut - 1].lower() in _POSITION_ALIASES and len(words) - cut < 2:
            cut -= 1
        if cut < len(words):
            description = " ".join(words[:cut])
            position = _parse_position(" ".join(words[cut:]), line)
    if not description:
        raise ActionParseError(f"click icon needs a colour and shape before the position in {line!r}.")
    return Action("click_icon", description=description, position=position)


def is_bare_action(text: str) -> bool:
    """Is ``text`` exactly an action that takes no argument (``back``, ``page down``, ``wait``)?"""
    key = _normalise_verb(_clean_line(text))
    return _VERBS.get(key) in (*NO_ARG_ACTIONS, "wait")


def _parse_numbers(arg: str, count: int, name: str, line: str) -> tuple[float, ...]:
    numbers = tuple(float(n) for n in _NUMBER.findall(arg))
    if count == 2 and len(numbers) == 4:  # a box (x1, y1, x2, y2), as AndroidLab taps: its centre
        return (numbers[0] + numbers[2]) / 2, (numbers[1] + numbers[3]) / 2
    if count == 2 and len(numbers) == 1:
        raise ActionParseError(
            f"{name.replace('_', ' ')} needs 2 numbers (x, y), got one in {line!r}; an element number "
            "cannot be tapped without the element list: write the point instead, e.g. tap (540, 1200).")
    if len(numbers) != count:
        example = "tap (540, 1200)" if count == 2 else "swipe (540, 1800, 540, 600)"
        raise ActionParseError(
            f"{name.replace('_', ' ')} needs {count} numbers, got {len(numbers)} in {line!r}; "
            f"write e.g. {example}.")
    return numbers


def parse_action(text: str) -> Action:
    """Parse one action line (see ``GRAMMAR_HELP``); raise ActionParseError with a fix when invalid."""
    lines = [ln for ln in (text or "").splitlines() if ln.strip()]
    if not lines:
        raise ActionParseError(f"The Action line is empty. {GRAMMAR_HELP}")
    line = _clean_line(lines[0])
    if not line:
        raise ActionParseError(f"The Action line is empty. {GRAMMAR_HELP}")
    verb, arg = _split_verb(line)
    key = _normalise_verb(verb)
    if key not in _VERBS:
        bare = _match_bare(line) if arg is None else None
        if bare is None or bare[0] == "text":  # "text ..." is an action only as a call: text("hi")
            raise ActionParseError(f"Unknown action {line!r}. {GRAMMAR_HELP}")
        key, arg = bare[0], bare[1] or None
    name = _VERBS[key]
    if name == "tap" and arg is not None and not _NUMBER.search(arg):
        name = "click_text"  # "click (Settings)": a click on text, not coordinates.
    if name in TEXT_ACTIONS:
        value = _strip_quotes(arg) if arg is not None else ""
        if name == "type" and arg is not None and key == "text":  # text("..."): a string literal
            value = _literal(_raw_argument(lines[0], line, arg).strip())
        elif name == "type" and arg is not None:  # typed as written: quotes and brackets are the text's own
            value = _raw_argument(lines[0], line, arg).strip()
        elif name == "answer" and arg is not None:
            value = arg.strip()
            value = _strip_quotes(value) if len(value) >= 2 else value
        if not value:
            what = {"open_app": "the app's name", "click_text": "the text to click",
                    "type": "the text to type", "answer": "the reply"}[name]
            raise ActionParseError(
                f"{format_action(Action(name, text='...')).split(' (')[0]} needs {what} in parentheses, "
                f"e.g. {format_action(Action(name, text='Settings' if name != 'type' else 'hello'))}.")
        return Action(name, text=value)
    if name == "click_icon":
        return _parse_icon(arg or "", line)
    if name in NO_ARG_ACTIONS:
        if arg is not None and _strip_quotes(arg):
            raise ActionParseError(f"{name.replace('_', ' ')} takes no parameter; write just "
                                   f"'{name.replace('_', ' ')}'.")
        return Action(name)
    if name in POINT_ACTIONS:
        return Action(name, coords=_parse_numbers(arg or "", 2, name, line))
    if name == "swipe":
        return Action(name, coords=_parse_numbers(arg or "", 4, name, line))
    # wait
    numbers = _NUMBER.findall(arg or "")
    if len(numbers) > 1:
        raise ActionParseError(f"wait takes at most one number of seconds, e.g. wait (2); got {line!r}.")
    return Action("wait", seconds=float(numbers[0]) if numbers else None)
