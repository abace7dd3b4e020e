"""What the offline heuristic brain reads from an instruction: targets, texts to type, goals.

Generic language handling only (quotes, e-mail addresses, "X about Y", capitalised names, a shared
vocabulary of phone wishes in ``heuristic_lexicon.yaml``); nothing here knows a particular task or app.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

import yaml

_QUOTED = re.compile(r"[\"“”「『]([^\"“”「」『』]+)[\"“”」』]")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_CONTENT_AFTER_COLON = re.compile(r"(?:content|following|write down|note)[^:：]*[:：]\s*(.+)$", re.IGNORECASE)
_TOLD = re.compile(r"\b(?:tell|know|about)\s+(?:him|her|them)?\s*(.+?)(?:[,.;!?]|\s+and\s|$)",
                   re.IGNORECASE)
_WANTS_APP = re.compile(r"\b(?:want|need|get)\b[^.]*\b[A-Z]\w+\b[^.]*\bon my phone\b|"
                        r"\b(?i:install|download)\s+[A-Z]\w+")
# CJK instructions: what follows a final full-width colon is typed ("给他发消息：你好"); what follows a
# search verb up to a particle or punctuation is searched ("搜索西湖的视频" -> 西湖).
_CJK_COLON = re.compile(r"[：:]\s*([^：:，。；！？,;!?]+?)[。.!！]?$")
_CJK_SEARCH = re.compile(r"(?:搜索|搜一下|查找)\s*([^的，。；、,;\s]+)")
_WRITING = {"write", "type", "comment", "say", "enter", "input", "search", "about", "reply", "message",
            "note", "text", "content", "saying", "commenting", "writing", "typing"}
_OBJECT_VERBS = ("search for", "search", "look for", "look up", "find", "buy", "download", "install",
                 "navigate to", "listen to", "play", "want to know", "go to")
_CHOOSE_APP = re.compile(r"\b(?:find|use|choose|pick|open)\s+(?:an?|the|some)\s+app\b(?:\s+to\s+help\s+me)?",
                         re.IGNORECASE)
_CUTS = re.compile(r"\s+(?:in|on|with|using|from)\s+[A-Z]|[,.;!?]|\s+and\s+|\s+then\s+|\s+if\s+",
                   re.UNICODE)


def names_label(instruction: str, label: str) -> bool:
    """Does ``instruction`` name the on-screen ``label`` as a whole word?

    Latin labels must stand between word boundaries ("Notes" is not named by "Keynotes"); CJK text has no
    spaces, so a CJK label counts wherever it occurs ("在微聊中给张伟发送消息" names "微聊").
    """
    text, wanted = instruction.lower(), label.lower()
    # A Latin end of the label must not continue a Latin word; next to CJK text (no spaces) it may stand.
    latin_word = r"[^\W\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff]"
    before = "" if is_cjk(wanted[:1]) else rf"(?<!{latin_word})"
    after = "" if is_cjk(wanted[-1:]) else rf"(?!{latin_word})"
    return re.search(before + re.escape(wanted) + after, text) is not None


def is_cjk(text: str) -> bool:
    """True when ``text`` holds a CJK ideograph, kana or hangul (scripts written without spaces)."""
    return any("\u2e80" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af" or "\uf900" <= ch <= "\ufaff"
               for ch in text)


def mentions(text: str, word: str) -> bool:
    """Does lower-case ``text`` hold ``word`` as a word (see ``names_label``)?"""
    return names_label(text, word)


@lru_cache(maxsize=1)
def lexicon() -> dict[str, object]:
    """The generic vocabulary (stopwords, implied apps, goal and step words, field words)."""
    raw = resources.files("droidpilot.agent.brains").joinpath("heuristic_lexicon.yaml").read_text("utf-8")
    return yaml.safe_load(raw)


def words_of(text: str) -> list[str]:
    """Lower-case word tokens (CJK runs kept whole)."""
    return re.findall(r"[\w@.'+-]+", text.lower())


@dataclass
class Plan:
    """The parts of an instruction the heuristic acts on."""

    instruction: str
    content_words: list[str]
    phrases: list[str]
    query: str | None
    texts_to_type: list[str]
    goals: list[list[str]]
    steps: list[str]
    app_hints: list[str]
    has_search_verb: bool = False
    email: str | None = None
    wants_toggle: bool = False
    goal_icons: list[list[str]] = field(default_factory=list)  # per goal group, icon descriptions
    step_icons: list[str] = field(default_factory=list)
    wants_app: bool = False  # "I want X on my phone": X is an app to get


def _strip_edges(words: list[str], stop: set[str]) -> list[str]:
    while words and words[0].lower().strip("'") in stop:
        words = words[1:]
    while words and words[-1].lower().strip("'") in stop:
        words = words[:-1]
    return words


def _object_after_verb(instruction: str, stop: set[str]) -> str | None:
    low = instruction.lower()
    best: tuple[int, str] | None = None
    for verb in _OBJECT_VERBS:
        match = re.search(rf"\b{re.escape(verb)}\b\s+", low)
        if match and (best is None or match.start() < best[0]):
            best = (match.start(), instruction[match.end():])
    if best is None:
        return None
    rest = best[1]
    about = re.search(r"\babout\s+", rest, re.IGNORECASE)
    if about:
        rest = rest[about.end():]
    cut = _CUTS.search(rest)
    if cut:
        rest = rest[:cut.start()]
    words = _strip_edges(rest.split(), stop)
    # A capitalised name inside the phrase is the target ("singer Jay Chou" -> "Jay Chou").
    if words and not words[0][:1].isupper():
        for i, word in enumerate(words):
            if word[:1].isupper():
                words = words[i:]
                break
    phrase = " ".join(words).strip(" '\"")
    return phrase or None


def make_plan(full_instruction: str) -> Plan:
    """Analyse ``instruction`` once (see module docstring)."""
    # "Find an App to help me" says how, not what: it is left out of the analysis.
    instruction = _CHOOSE_APP.sub("", full_instruction).strip() or full_instruction
    lex = lexicon()
    stop = set(str(lex["stopwords"]).split())
    quoted = [q.strip() for q in _QUOTED.findall(instruction) if q.strip()]
    email_match = _EMAIL.search(instruction)
    email = email_match.group(0) if email_match else None
    tokens = words_of(instruction)
    content = [t.strip("'.") for t in tokens if t.strip("'.") not in stop and len(t.strip("'.")) > 1]
    obj = _object_after_verb(instruction, stop)
    has_search = bool(re.search(r"\b(search|look for|look up|find|want to know)\b", instruction,
                                re.IGNORECASE))
    cjk_search = _CJK_SEARCH.search(instruction) if is_cjk(instruction) else None
    if cjk_search:
        has_search, obj = True, cjk_search.group(1)
    query = obj
    texts: list[str] = []
    if email:
        texts.append(email)
        told = _TOLD.search(instruction)
        if told and not quoted:
            texts.append(told.group(1).strip())
        steps_extra = ["compose", "new"]
    else:
        steps_extra = []
    colon = _CONTENT_AFTER_COLON.search(instruction) or (_CJK_COLON.search(instruction)
                                                          if is_cjk(instruction) else None)
    if colon and not quoted:
        texts.append(colon.group(1).strip().rstrip("."))
    # Quoted text is typed when a verb of writing leads to it ("write "Hello""), not when it names a
    # button ("click a "like"", "if "Add to cart" is available").
    for q in quoted:
        before = [w.strip(",.:") for w in instruction[:instruction.find(q)].lower().split()[-4:]]
        if q not in texts and any(w in _WRITING for w in before):
            texts.append(q)
            if has_search and query == obj:
                query = q  # 'search a music about "agent"': the quoted words are what to search
    low = instruction.lower()
    goals: list[list[str]] = []
    steps: list[str] = []
    goal_icons: list[list[str]] = []
    icons = lex.get("goal_icons") or {}
    for verb, words in lex["goals"].items():  # type: ignore[union-attr]
        if mentions(low, verb) and words and words not in goals:
            goals.append(list(words))
            goal_icons.append([str(i) for w in words for i in icons.get(w, [])])  # type: ignore[union-attr]
    for verb, words in lex["steps"].items():  # type: ignore[union-attr]
        if mentions(low, verb):
            steps.extend(w for w in words if w not in steps)
    step_icons = [str(i) for verb, found in (lex.get("step_icons") or {}).items()  # type: ignore[union-attr]
                  if mentions(low, verb) for i in found]
    hints: list[str] = []
    for word in tokens:
        for hint in lex["intents"].get(word.strip("'."), []):  # type: ignore[union-attr]
            if hint not in hints:
                hints.append(hint)
    phrases = _phrases(instruction, stop, quoted, obj)
    toggle = bool(re.search(r"\b(turn on|turn off|enable|disable|switch on|switch off)\b", low))
    steps.extend(w for w in steps_extra if w not in steps)
    if email and not any("send" in g for g in goals):  # a message to an address is finished by sending it
        goals.append(list(lex["goals"]["send"]))  # type: ignore[index]
        goal_icons.append([str(i) for i in icons.get("send", [])])  # type: ignore[union-attr]
    wants_app = bool(_WANTS_APP.search(instruction))
    if wants_app and not goals:
        goals.append(list(lex["goals"]["install"]))  # type: ignore[index]
        goal_icons.append([])
    return Plan(full_instruction, content, phrases, query, texts, goals, steps, hints, has_search, email,
                toggle, goal_icons, list(dict.fromkeys(step_icons)), wants_app)


def _phrases(instruction: str, stop: set[str], quoted: list[str], obj: str | None) -> list[str]:
    """Target phrases, longest first: the object, quoted texts, and runs of content words."""
    out: list[str] = []
    for item in [obj, *quoted]:
        if item and item not in out:
            out.append(item)
    run: list[str] = []
    for raw in re.findall(r"[\w'+-]+|[^\w\s]", instruction):
        word = raw.strip("'")
        if word and word.lower() not in stop and re.match(r"\w", word) and not _EMAIL.match(raw):
            run.append(word)
            continue
        if run:
            out.append(" ".join(run))
        run = []
    if run:
        out.append(" ".join(run))
    seen: list[str] = []
    for phrase in sorted(out, key=len, reverse=True):
        if phrase.lower() not in (s.lower() for s in seen) and len(phrase) > 1:
            seen.append(phrase)
    return seen
