"""The world suite's counts that README.md and src/droidpilot/bench/README.md state are the loaded suite's:
templates, apps, kinds, tiers at seed 0, static templates, templates declaring effects, the long tier and
AndroidWorld coverage. They went stale by hand as templates were added; measured here, they cannot."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from droidpilot.bench.suite import SUITES_DIR
from droidpilot.bench.world.coverage import load_mapping
from droidpilot.bench.world.instance import instantiate
from droidpilot.bench.world.template import load_templates

ROOT = Path(__file__).resolve().parents[3]
README = ROOT / "README.md"
BENCH_README = ROOT / "src" / "droidpilot" / "bench" / "README.md"
MAPPING = ROOT / "docs" / "world-vs-androidworld.yaml"

# figure name -> (which README, a pattern whose groups are the stated numbers, after whitespace is folded)
PHRASES: dict[str, tuple[str, str]] = {
    "readme": ("README.md", r"`world` \((\d+) seeded task templates over (\d+) SimPhone apps, (\d+) of them "
                            r"infeasible"),
    "holds": ("bench", r"What the suite holds\*\* \(`droidpilot suite validate world`\): (\d+) templates "
                       r"over (\d+) apps;"),
    "kinds": ("bench", r"What the suite holds\*\*.*? by kind ((?:\d+ [a-z-]+, )*\d+ [a-z-]+);"),
    "tiers": ("bench", r"by tier \(seed 0\) ((?:\d+ [a-z]+, )*\d+ [a-z]+);"),
    "static": ("bench", r"by tier \(seed 0\) [^;]*; (\d+) marked static"),
    "effects": ("bench", r"on seed 0 all (\d+) references pass oracle .*? \((\d+) templates declare "
                         r"`effects`\)"),
    "long": ("bench", r"The \*\*long tier\*\* \((\d+) templates, `longtier-\*\.yaml`"),
    "androidworld": ("bench", r"maps AndroidWorld's (\d+) tasks to them: all (\d+) covered"),
}

# Issue 27's families as the bench README lists them: the words before a family's "(N" -> its template files
# (stems in suites/world/); None for the families the README names without a count. Their total is the
# README's "Issue 27's families (N templates, the long tier apart)".
ISSUE27: list[tuple[str | None, tuple[str, ...]]] = [
    ("Calendar with dates", ("calendar-dates",)),
    ("Clock's timer and stopwatch", ("clock-timers",)),
    ("System", ("system",)),
    ("multi-row work", ("expenses-multi", "recipes-multi")),
    ("the clipboard", ("clipboard",)),
    ("shared contacts", ("contacts-shared",)),
    ("notes edited in place", ("notes-edit",)),
    ("Tracker's dated activities", ("tracker",)),
    ("Tasks with priorities and due dates", ("tasks-dated",)),
    ("a Music playlist's total length", ("music-playlists",)),
    ("media written in order", ("music-create", "video-local", "music-length")),
    (None, ("camera", "sketch", "gallery-read", "gallery-lists", "files-storage", "web", "web-tasks")),
    ("Messages read before written", ("messages-more", "contacts-draft", "maps-saved")),
    ("notes in folders and read or carried elsewhere", ("notes-folders", "notes-read-body", "notes-multi")),
]


def _fold(path: Path) -> str:
    return " ".join(path.read_text(encoding="utf-8").split())


def stated(texts: dict[str, str]) -> dict[str, tuple[int, ...] | dict[str, int]]:
    """Each figure as the READMEs state it; a phrase no longer found fails, naming it and where to look."""
    out: dict[str, tuple[int, ...] | dict[str, int]] = {}
    for name, (where, pattern) in PHRASES.items():
        found = re.search(pattern, texts[where])
        if found is None:
            pytest.fail(f"{where}: the {name!r} figure is no longer written as {pattern!r}; update PHRASES "
                        f"in {Path(__file__).name} with the README's new wording")
        if name in ("kinds", "tiers"):
            out[name] = {label: int(n) for n, label in re.findall(r"(\d+) ([a-z-]+)", found.group(1))}
        else:
            out[name] = tuple(int(g) for g in found.groups())
    return out


@pytest.fixture(scope="module")
def measured() -> dict[str, tuple[int, ...] | dict[str, int]]:
    """The same figures from the loaded suite (tiers from each template's seed-0 instance, as
    `droidpilot suite validate world` counts them) and the AndroidWorld mapping."""
    templates = load_templates(SUITES_DIR / "world")
    kinds = Counter(t.kind for t in templates)
    tiers = Counter(instantiate(t, 0, 0, "world").tier for t in templates)
    apps = {app for t in templates for app in t.apps}
    mapping = load_mapping(MAPPING)
    n = len(templates)
    return {
        "readme": (n, len(apps), kinds["infeasible"]),
        "holds": (n, len(apps)),
        "kinds": dict(kinds),
        "tiers": dict(tiers),
        "static": (sum(1 for t in templates if t.static),),
        "effects": (n, sum(1 for t in templates if t.effects)),
        "long": (tiers["long"],),
        "androidworld": (len(mapping.entries), len(mapping.covered)),
    }


def test_the_readmes_state_the_loaded_suites_counts(measured: dict[str, tuple[int, ...] | dict[str, int]]
                                                     ) -> None:
    texts = {"README.md": _fold(README), "bench": _fold(BENCH_README)}
    figures = stated(texts)
    stale = {name: (figures[name], measured[name]) for name in PHRASES if figures[name] != measured[name]}
    assert stale == {}, (f"stated vs measured: {stale}; re-measure with `droidpilot suite validate world` "
                         "(and benchmarks/world_effects.py for the references) and update the README")


def test_a_stale_count_is_caught(measured: dict[str, tuple[int, ...] | dict[str, int]]) -> None:
    """The near miss: one template fewer in README.md's sentence, or two kinds' counts swapped, differ."""
    texts = {"README.md": _fold(README), "bench": _fold(BENCH_README)}
    n = measured["readme"][0]
    texts["README.md"] = texts["README.md"].replace(f"({n} seeded task", f"({n - 1} seeded task")
    kinds = measured["kinds"]
    assert isinstance(kinds, dict)
    texts["bench"] = texts["bench"].replace(f"{kinds['edit']} edit,", f"{kinds['edit'] + 1} edit,")
    figures = stated(texts)
    assert figures["readme"] != measured["readme"]
    assert figures["kinds"] != measured["kinds"]


def test_a_rewritten_phrase_fails_with_its_name() -> None:
    texts = {"README.md": "`world` (many seeded task templates)", "bench": _fold(BENCH_README)}
    with pytest.raises(pytest.fail.Exception, match=r"README\.md: the 'readme' figure is no longer written"):
        stated(texts)


def test_issue_27_families_are_counted_from_their_files() -> None:
    """Each counted family's "(N" and the families' total are the templates in the family's files."""
    text = _fold(BENCH_README)
    per_file = Counter(t.path.stem for t in load_templates(SUITES_DIR / "world"))
    unknown = [stem for _, stems in ISSUE27 for stem in stems if per_file[stem] == 0]
    assert unknown == [], "files named in ISSUE27 that hold no template (renamed or removed?)"
    stale = {}
    for label, stems in ISSUE27:
        if label is None:
            continue
        found = re.search(re.escape(label) + r" \((\d+)", text)
        assert found is not None, f"bench README: no '{label} (N' any more; update ISSUE27"
        if int(found.group(1)) != sum(per_file[s] for s in stems):
            stale[label] = (int(found.group(1)), sum(per_file[s] for s in stems))
    total = re.search(r"Issue 27's families \((\d+) templates, the long tier apart\)", text)
    assert total is not None, "bench README: the Issue 27 families' total is no longer written as expected"
    measured_total = sum(per_file[s] for _, stems in ISSUE27 for s in stems)
    if int(total.group(1)) != measured_total:
        stale["total"] = (int(total.group(1)), measured_total)
    assert stale == {}, f"stated vs counted from the suite's files: {stale}"
