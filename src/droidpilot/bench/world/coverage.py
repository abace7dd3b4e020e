"""Which `world` template covers each task of another benchmark (AndroidWorld's 116): a mapping file
(``docs/world-vs-androidworld.yaml``: per task its class name, difficulty, and a template id or why none
covers it yet), checked against the suite and rendered as the page ``docs/world-vs-androidworld.md``, so
the page is data and cannot go stale."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import yaml

from droidpilot import yamlfast
from droidpilot.errors import InputError

DIFFICULTIES = ("easy", "medium", "hard")


class CoverageError(InputError):
    """A mapping file that cannot be read; the message names the file, the entry and the fix."""


@dataclass(frozen=True)
class Entry:
    """One task of the other benchmark: the template covering it, or why none does (``none``)."""

    task: str
    difficulty: str
    template: str = ""
    none: str = ""
    note: str = ""


@dataclass(frozen=True)
class Mapping:
    """A whole mapping file: its source line (licence) and its entries in order."""

    source: str
    entries: tuple[Entry, ...]

    @property
    def covered(self) -> list[Entry]:
        """The entries a template covers."""
        return [e for e in self.entries if e.template]


def load_mapping(path: Path) -> Mapping:
    """The mapping in ``path``; CoverageError naming the entry for a missing, doubled or unknown field."""
    try:
        raw = yamlfast.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise CoverageError(f"{path}: cannot read the mapping: {exc}") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("tasks"), list):
        raise CoverageError(f"{path}: expected `source:` and a `tasks:` list of "
                            "{task, difficulty, template}")
    entries, seen = [], set()
    for i, item in enumerate(raw["tasks"]):
        where = f"{path}: tasks[{i}]"
        if not isinstance(item, dict) or set(item) - {"task", "difficulty", "template", "none", "note"}:
            raise CoverageError(f"{where}: an entry has task, difficulty and template or none (and a note)")
        task = str(item.get("task") or "")
        if not task or task in seen:
            raise CoverageError(f"{where}: task {task!r} is {'missing' if not task else 'listed twice'}")
        seen.add(task)
        if item.get("difficulty") not in DIFFICULTIES:
            raise CoverageError(f"{where} ({task}): difficulty {item.get('difficulty')!r}; use one of "
                                f"{', '.join(DIFFICULTIES)}")
        if bool(item.get("template")) == bool(item.get("none")):
            raise CoverageError(f"{where} ({task}): give either `template` (the id covering it) or `none` "
                                "(why no template covers it yet), not both or neither")
        entries.append(Entry(task, item["difficulty"], str(item.get("template") or ""),
                             str(item.get("none") or ""), str(item.get("note") or "")))
    return Mapping(str(raw.get("source") or ""), tuple(entries))


def unknown_templates(mapping: Mapping, template_ids: set[str]) -> list[str]:
    """One line per entry naming a template the suite does not have."""
    return [f"{e.task}: no template {e.template!r} in the suite" for e in mapping.covered
            if e.template not in template_ids]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render(mapping: Mapping, kinds: dict[str, str]) -> str:
    """The Markdown page: counts at the top (overall and by difficulty), then one line per task."""
    total = len(mapping.entries)
    done = mapping.covered
    by_level = Counter(e.difficulty for e in mapping.entries)
    done_level = Counter(e.difficulty for e in done)
    levels = ", ".join(f"{d} {done_level[d]}/{by_level[d]}" for d in DIFFICULTIES)
    lines = [
        "# AndroidWorld's tasks and the `world` suite",
        "",
        f"**{len(done)} of {total} AndroidWorld tasks are covered** by a `world` template of the same kind "
        f"and check ({levels}); {total - len(done)} {'is' if total - len(done) == 1 else 'are'} not yet, "
        f"{'with' if total - len(done) == 1 else 'each with'} the reason.",
        "",
        "Generated from `docs/world-vs-androidworld.yaml` by `benchmarks/world_androidworld.py`; "
        "`tests/bench/world/test_coverage.py` checks that every template exists and that this page is "
        "current. Task names and difficulty: " + _cell(mapping.source) + ". The `world` suite's "
        "instructions and checks are its own.",
        "",
        "| AndroidWorld task | difficulty | `world` template (kind) | note |",
        "|---|---|---|---|",
    ]
    for e in mapping.entries:
        if e.template:
            lines.append(f"| {e.task} | {e.difficulty} | `{e.template}` ({kinds.get(e.template, '?')}) | "
                         f"{_cell(e.note)} |")
        else:
            lines.append(f"| {e.task} | {e.difficulty} | none | {_cell(e.none)} |")
    return "\n".join(lines) + "\n"


__all__ = ["CoverageError", "Entry", "Mapping", "load_mapping", "render", "unknown_templates"]
