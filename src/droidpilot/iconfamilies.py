"""Icon families: Debian icon-font packages and their glyph names (name -> codepoint), as data.

``iconfamilies.yaml`` names each family's package, font, stylesheet, the CSS selector that names a glyph,
its licence and the environment variables that point elsewhere. A family whose font or stylesheet is not
installed is left out (the rest still work); a stylesheet that is there but cannot be read as the family's
rules is a ``FamilyError`` naming the file and line. ``DROIDPILOT_ICON_FAMILIES`` ("material,fa") limits
the families used; naming one that is not installed logs how to install it.
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import yaml

from droidpilot.errors import InputError

FAMILIES_ENV = "DROIDPILOT_ICON_FAMILIES"
FIELDS = {"package", "font", "stylesheet", "selector", "licence", "env"}
_RULE = re.compile(r"([^{}]*)\{([^{}]*)\}")
_CONTENT = re.compile(r"content\s*:\s*([\"'])\\([0-9a-fA-F]{1,6})\1")
_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_log = logging.getLogger(__name__)


class FamilyError(InputError):
    """An icon family's data (iconfamilies.yaml, a stylesheet) cannot be read as one."""


@dataclass(frozen=True)
class Family:
    """One icon family: where its font and stylesheet are, and how a stylesheet rule names a glyph."""

    key: str
    package: str
    font_default: Path
    css_default: Path
    selector: re.Pattern[str]
    licence: str
    font_env: str
    css_env: str

    @property
    def font(self) -> Path:
        """The font file (the env override when set)."""
        return Path(os.environ.get(self.font_env) or self.font_default)

    @property
    def stylesheet(self) -> Path:
        """The stylesheet naming each glyph's codepoint (the env override when set)."""
        return Path(os.environ.get(self.css_env) or self.css_default)

    def missing(self) -> str | None:
        """Why the family cannot be used here (None when its font and stylesheet are both present)."""
        for what, path in (("font", self.font), ("stylesheet", self.stylesheet)):
            if not path.is_file():
                return (f"icon family {self.key!r}: its {what} {path} is missing; install the package "
                        f"({self.package}: `sudo make system-deps` or `apt-get install {self.package}`) "
                        f"or set {self.font_env if what == 'font' else self.css_env}")
        return None


def _family(key: str, entry: object, source: str) -> Family:
    if not isinstance(entry, dict) or set(entry) != FIELDS:
        got = sorted(entry) if isinstance(entry, dict) else type(entry).__name__
        raise FamilyError(f"{source}: family {key!r} needs exactly the fields {sorted(FIELDS)}, got {got}")
    env = entry["env"]
    if not (isinstance(env, list) and len(env) == 2 and all(isinstance(e, str) for e in env)):
        raise FamilyError(f"{source}: family {key!r}: env must list two variable names (FONT, CSS)")
    try:
        selector = re.compile(str(entry["selector"]))
    except re.error as e:
        raise FamilyError(f"{source}: family {key!r}: selector is not a regular expression ({e})") from e
    if selector.groups != 1:
        raise FamilyError(f"{source}: family {key!r}: selector needs one group, the glyph's name")
    return Family(key, str(entry["package"]), Path(entry["font"]), Path(entry["stylesheet"]), selector,
                  str(entry["licence"]), env[0], env[1])


@lru_cache(maxsize=1)
def all_families() -> tuple[Family, ...]:
    """Every family iconfamilies.yaml names, in its order of preference."""
    text = resources.files("droidpilot").joinpath("iconfamilies.yaml").read_text("utf-8")
    data = yaml.safe_load(text)
    if not isinstance(data, dict):
        raise FamilyError("iconfamilies.yaml: expected a mapping of family keys to entries")
    return tuple(_family(str(k), v, "iconfamilies.yaml") for k, v in data.items())


def family(key: str) -> Family:
    """The family of that key; FamilyError naming the known ones otherwise."""
    for f in all_families():
        if f.key == key:
            return f
    raise FamilyError(f"unknown icon family {key!r}; known: {', '.join(f.key for f in all_families())}")


def chosen_families() -> tuple[Family, ...]:
    """The families in use: all, or those ``DROIDPILOT_ICON_FAMILIES`` names (comma-separated), installed
    or not (``codepoints`` leaves a missing one empty)."""
    wanted = [w.strip() for w in os.environ.get(FAMILIES_ENV, "").split(",") if w.strip()]
    if not wanted:
        return all_families()
    chosen = [family(w) for w in wanted]
    for f in chosen:
        why = f.missing()
        if why:
            _warn_once(f"{FAMILIES_ENV} names {why}")
    return tuple(chosen)


@lru_cache(maxsize=16)
def _warn_once(message: str) -> None:
    _log.warning("%s", message)


def parse_stylesheet(text: str, selector: re.Pattern[str], source: str) -> dict[str, int]:
    """Glyph name -> codepoint from a stylesheet's rules whose selectors match ``selector``.

    A matching rule without a ``content: "\\XXXX"`` codepoint, an unclosed rule, or a stylesheet with no
    matching rule at all is a FamilyError naming ``source`` and the line.
    """
    text = _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    out: dict[str, int] = {}
    end = 0
    for rule in _RULE.finditer(text):
        end = rule.end()
        selectors, body = rule.group(1), rule.group(2)
        names = [m.group(1) for s in selectors.split(",") if (m := selector.fullmatch(s.strip()))]
        if not names:
            continue
        content = _CONTENT.search(body)
        if content is None:
            start = rule.start(1) + len(selectors) - len(selectors.lstrip())
            line = text.count("\n", 0, start) + 1
            raise FamilyError(f"{source}:{line}: the rule for {names[0]!r} has no content: \"\\XXXX\" "
                              "codepoint; fix it or point the family's CSS variable at another stylesheet")
        for name in names:
            out.setdefault(name, int(content.group(2), 16))
    rest = text[end:]
    if "{" in rest:
        line = text.count("\n", 0, end + rest.index("{")) + 1
        raise FamilyError(f"{source}:{line}: a rule is opened with '{{' and never closed")
    if not out:
        raise FamilyError(f"{source}: no rule's selector matches {selector.pattern!r}; is it the family's "
                          "stylesheet?")
    return out


@lru_cache(maxsize=16)
def _read(css: str, selector: str, font: str) -> dict[str, int]:
    del font  # a cache key only
    try:
        text = Path(css).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise FamilyError(f"{css}: the stylesheet cannot be read ({e})") from e
    return parse_stylesheet(text, re.compile(selector), css)


def codepoints(f: Family) -> dict[str, int]:
    """The family's glyph names with their codepoints; {} when its package is not installed."""
    if f.missing() is not None:
        return {}
    return _read(str(f.stylesheet), f.selector.pattern, str(f.font))


def installed() -> tuple[Family, ...]:
    """The chosen families whose font and stylesheet are here."""
    return tuple(f for f in chosen_families() if f.missing() is None)
