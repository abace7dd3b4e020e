"""Prompt templates (files ``NAME.LANG.txt``) and feedback messages (``messages.LANG.yaml``).

Templates use ``{{name}}`` placeholders; filling one never re-reads the substituted text, so screen text
or model output containing braces is inserted as is. Languages: ``en`` and ``zh``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

import yaml

from droidpilot.errors import InputError

LANGUAGES = ("en", "zh")
_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")


def check_language(language: str) -> str:
    """Validate a prompt language given by a user."""
    if language not in LANGUAGES:
        raise InputError(f"unknown prompt language {language!r}; use one of {', '.join(LANGUAGES)}")
    return language


@lru_cache(maxsize=64)
def template(name: str, language: str = "en") -> str:
    """The text of template ``name`` in ``language``."""
    check_language(language)
    path = resources.files(__name__).joinpath(f"{name}.{language}.txt")
    if not path.is_file():
        raise InputError(f"no prompt template {name!r} for language {language!r}")
    return path.read_text(encoding="utf-8")


@lru_cache(maxsize=8)
def messages(language: str = "en") -> dict[str, str]:
    """The feedback messages of ``language`` (key -> template)."""
    check_language(language)
    raw = resources.files(__name__).joinpath(f"messages.{language}.yaml").read_text(encoding="utf-8")
    data = yaml.safe_load(raw)
    if not isinstance(data, dict):
        raise InputError(f"messages.{language}.yaml is not a mapping")
    return {str(k): str(v) for k, v in data.items()}


def fill(text: str, values: dict[str, object]) -> str:
    """Replace every ``{{name}}`` in ``text``; a placeholder without a value is an error."""

    def sub(match: re.Match[str]) -> str:
        key = match.group(1)
        if key not in values:
            raise KeyError(f"prompt placeholder {{{{{key}}}}} has no value")
        return str(values[key])

    return _PLACEHOLDER.sub(sub, text)


def render(name: str, language: str = "en", **values: object) -> str:
    """Fill template ``name``; blank lines left by empty sections are collapsed."""
    text = fill(template(name, language), values)
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def message(key: str, language: str = "en", **values: object) -> str:
    """One feedback message, filled."""
    table = messages(language)
    if key not in table:
        raise KeyError(f"no feedback message {key!r}")
    return fill(table[key], values)
