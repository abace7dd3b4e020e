"""Line-aware safe loading of rule files: every mapping remembers its line and the line of each key.

Rule validation needs lines to point authors at the problem. PyYAML's safe loader is extended so that a
mapping becomes a ``LineDict`` (a dict with ``line``, ``key_lines`` and the keys written twice); JSON
files are parsed by the json module and, when YAML reads them the same way, get lines too.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from typing import Any

import yaml

from droidpilot import yamlfast
from droidpilot.datalimits import DataLimitError, check_json, check_yaml


class LineDict(dict):
    """A dict loaded from YAML: ``line`` of the mapping, ``key_lines`` of its keys (1-based)."""

    line: int | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.key_lines: dict[Any, int] = {}
        self.duplicate_keys: list[tuple[Any, int]] = []

    def line_of(self, key: Any) -> int | None:
        """The line of ``key`` if known, else the mapping's own line."""
        return self.key_lines.get(key, self.line)


class LineList(list):
    """A list loaded from YAML with the line it starts on and the line of each item."""

    line: int | None = None

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.item_lines: list[int] = []


class _LineLoader(yaml.SafeLoader):
    """SafeLoader that records start lines; nothing but plain data can be constructed."""


class _FastLineLoader(yamlfast.SafeLoader):  # type: ignore[misc]
    """The same on libyaml's parser when installed (much faster); errors are re-read by _LineLoader."""


def _construct_map(loader: _LineLoader, node: yaml.MappingNode):
    data = LineDict()
    data.line = node.start_mark.line + 1
    yield data
    loader.flatten_mapping(node)
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError:
            raise yaml.constructor.ConstructorError(
                "while constructing a mapping", node.start_mark,
                "found an unhashable key", key_node.start_mark) from None
        line = key_node.start_mark.line + 1
        if key in data:
            data.duplicate_keys.append((key, line))
        data[key] = loader.construct_object(value_node, deep=True)
        data.key_lines[key] = line


def _construct_seq(loader: _LineLoader, node: yaml.SequenceNode):
    data = LineList()
    data.line = node.start_mark.line + 1
    yield data
    data.extend(loader.construct_object(child, deep=True) for child in node.value)
    data.item_lines = [child.start_mark.line + 1 for child in node.value]


for _loader in (_LineLoader, _FastLineLoader):
    _loader.add_constructor("tag:yaml.org,2002:map", _construct_map)
    _loader.add_constructor("tag:yaml.org,2002:seq", _construct_seq)


@dataclass(frozen=True)
class SyntaxProblem:
    """Why a file could not be parsed at all: message, line, column and a hint how to fix it."""

    message: str
    line: int | None
    column: int | None
    fix: str


def load_yaml(text: str) -> Any:
    """Parse YAML safely into LineDict / LineList; raises SyntaxProblemError on bad syntax."""
    # Both loaders derive from the safe loaders. On an error, parse again with the pure-Python
    # parser, whose messages say more. Alias bombs and deep nesting are refused before either runs.
    _check_limits(check_yaml, text)
    with contextlib.suppress(yaml.YAMLError):
        return yaml.load(text, Loader=_FastLineLoader)
    try:
        return yaml.load(text, Loader=_LineLoader)
    except yaml.MarkedYAMLError as exc:
        raise SyntaxProblemError(_describe_yaml_error(exc)) from None
    except yaml.YAMLError as exc:
        raise SyntaxProblemError(SyntaxProblem(f"YAML error: {exc}", None, None,
                                               "fix the YAML syntax")) from None


def load_json(text: str) -> Any:
    """Parse JSON strictly; mappings get lines when YAML reads the text identically."""
    _check_limits(check_json, text)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SyntaxProblemError(SyntaxProblem(
            f"JSON syntax error: {exc.msg} (column {exc.colno})", exc.lineno, exc.colno,
            "fix the JSON syntax there (a missing comma, quote or bracket is the usual cause)")) from None
    try:
        with_lines = yaml.load(text, Loader=_FastLineLoader)
    except yaml.YAMLError:
        return data
    return with_lines if with_lines == data else data


def _check_limits(check: Any, text: str) -> None:
    try:
        check(text)
    except DataLimitError as exc:
        fix = ("write a smaller number, or quote it if it is text" if exc.number else
               "a rule needs neither deep nesting nor aliases")
        raise SyntaxProblemError(SyntaxProblem(f"too large: {exc.bare}", exc.line, None, fix)) from None


class SyntaxProblemError(Exception):
    """Raised by the loaders when the text cannot be parsed; carries a SyntaxProblem."""

    def __init__(self, problem: SyntaxProblem) -> None:
        super().__init__(problem.message)
        self.problem = problem


def _describe_yaml_error(exc: yaml.MarkedYAMLError) -> SyntaxProblem:
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark is not None else None
    column = mark.column + 1 if mark is not None else None
    what = (exc.problem or "invalid YAML").strip()
    if isinstance(exc, yaml.constructor.ConstructorError):
        return SyntaxProblem(f"YAML error: {what}", line, column,
                             "a rule holds plain data only (mappings, lists, text, numbers, booleans): "
                             "remove the '!!' tag")
    message = f"YAML syntax error: {what}"
    if column is not None:
        message += f" (column {column})"
    if exc.context and exc.context_mark is not None:
        message += f", {exc.context.strip()} started at line {exc.context_mark.line + 1}"
    fix = "fix the indentation or punctuation at that line"
    if "found '-'" in what and exc.context and "mapping" in exc.context:
        fix = ("a '- item' line stands where YAML expected another 'key: value' of that mapping: "
               "move the item into the [...] list of the key above it (e.g. next: [a, b]) "
               "or indent it under its key")
    elif exc.context and "quoted scalar" in exc.context and exc.context_mark is not None:
        fix = f"close the quote opened at line {exc.context_mark.line + 1}"
    elif exc.context and "flow" in exc.context and exc.context_mark is not None:
        fix = (f"close the [ or {{ opened at line {exc.context_mark.line + 1}, "
               "and separate its items with commas")
    elif "mapping values are not allowed" in what:
        fix = "a ':' inside a value needs quotes around the value, or a key is indented wrongly"
    elif "could not find expected ':'" in what:
        fix = "a key is missing its ':' or a quoted string is not closed"
    elif "found character '\\t'" in what:
        fix = "YAML forbids tabs for indentation: use spaces"
    return SyntaxProblem(message, line, column, fix)


def line_of(value: Any) -> int | None:
    """The line a loaded mapping or list starts on, when known."""
    return getattr(value, "line", None)


def key_line(mapping: Any, key: Any, default: int | None = None) -> int | None:
    """The line of ``key`` in a loaded mapping (else its own line); ``default`` for plain dicts."""
    if isinstance(mapping, LineDict):
        return mapping.key_lines.get(key, mapping.line)
    return default
