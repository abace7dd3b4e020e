"""What a query says the icon does ("arrow to fill in jpmorgan chase", "icon to open the menu", "button
used to go back"): a purpose phrase, split off the words that describe the icon's looks.

A purpose opens with "to" (or "used to", "meant to", "that", "which") followed by a verb a person uses
for what a button does (PURPOSE_VERBS). Its words are understood, not "not understood": they say what
tapping does, which the looks and the screen's text already settle. What they name is used only where
the icon's own words leave it open: "icon to open the menu" and "button used to go back" name no glyph
before the purpose, so the purpose's object is read as the icon ("menu", "back" -> arrow_back); "x to
clear the search" and "chevron to hide the keyboard" do, and the purpose's object (a search field, a
keyboard) is not the icon. A place phrase inside the purpose ("to fill in jpmorgan chase": the
suggestion row reading it) stays a place phrase.

"next to", "close to", "up to" are places or amounts, not purposes; "to-dos" is a word.
"""

from __future__ import annotations

PURPOSE_VERBS = frozenset({
    "go", "open", "fill", "hide", "show", "clear", "save", "end", "close", "dismiss", "add", "create",
    "search", "find", "return", "navigate", "view", "see", "play", "pause", "share", "send", "edit",
    "delete", "remove", "like", "call", "select", "choose", "pick", "switch", "toggle", "turn", "expand",
    "collapse", "exit", "leave", "cancel", "refresh", "reload", "download", "upload", "write", "compose",
    "type", "enter", "record", "take", "zoom", "change", "sort", "filter", "display", "mute", "unmute",
    "stop", "skip", "follow", "subscribe", "reply", "comment", "launch", "start", "access", "enable",
    "disable", "scan", "copy", "post", "install", "minimize", "maximize", "undo", "redo", "sign", "log",
    "scroll", "unlock", "lock", "bookmark", "rotate", "print", "translate", "listen", "dial", "get",
    "set", "adjust", "reveal", "collect", "favorite", "favourite", "attach", "insert", "swap", "move",
    "opens", "goes", "shows", "hides", "clears", "saves", "closes", "adds", "searches", "plays", "shares",
    "sends", "deletes", "fills", "returns", "switches", "toggles", "expands", "dismisses",
})
OPENERS = ("used to", "meant to", "to", "that", "which")
NOT_PURPOSE_BEFORE = {"next", "close", "up", "down", "due", "according", "prior", "similar", "closest"}
# words of a purpose that say nothing of what the icon shows ("open the menu": "the")
PURPOSE_FILLER = {"to", "used", "meant", "that", "which", "the", "a", "an", "your", "my", "this", "it",
                  "up", "out", "off", "new", "current", "previous", "page", "screen", "one", "you"}
# what some purposes draw, where the icon's own words name only a kind of icon ("arrow to fill in west
# lake": a search suggestion's fill-in arrow points up and left, not back)
PURPOSE_LOOKS: dict[tuple[str, ...], str] = {("fill", "in"): "arrow pointing up left",
                                             ("go", "back"): "back arrow"}
GENERIC = {"arrow", "icon", "button"}  # the icon's words that name only a kind of icon


def split_purpose(words: list[str]) -> tuple[list[str], list[str]]:
    """(words before the purpose, the purpose's words from its verb on); no purpose: (words, [])."""
    for k in range(1, len(words)):
        for opener in OPENERS:
            parts = opener.split()
            end = k + len(parts)
            if words[k:end] != parts or end >= len(words) or words[end] not in PURPOSE_VERBS:
                continue
            if words[k - 1] in NOT_PURPOSE_BEFORE:
                continue
            return words[:k], words[end:]
    return words, []


def object_words(purpose: list[str]) -> list[str]:
    """The words of a purpose that may name what the icon shows, its verb included ("open the menu" ->
    open, menu; "search" names the magnifier itself): all but its particles and articles."""
    return [w for w in purpose if w not in PURPOSE_FILLER]


def purpose_looks(purpose: list[str], glyph_words: list[str]) -> list[str]:
    """The words of what the purpose draws (PURPOSE_LOOKS), when the icon's glyph words name only a kind
    of icon ("arrow"); else []."""
    if not all(w in GENERIC for w in glyph_words):
        return []
    for verb, looks in PURPOSE_LOOKS.items():
        if tuple(purpose[:len(verb)]) == verb:
            return looks.split()
    return []


def filled_row(purpose: list[str]) -> str | None:
    """The row label a fill-in purpose names ("fill in west lake" -> "west lake"): the suggestion reading
    it is the row whose arrow is asked for, read as "for" names a row (query.anchor_row); else None."""
    if purpose[:2] == ["fill", "in"] and len(purpose) > 2:
        return " ".join(purpose[2:])
    return None
