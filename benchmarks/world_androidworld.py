"""Write docs/world-vs-androidworld.md from docs/world-vs-androidworld.yaml and print the coverage count:
which `world` template covers each of AndroidWorld's tasks. Exits 1 when a template id is unknown."""

from __future__ import annotations

import sys
from pathlib import Path

from droidpilot.bench.suite import SUITES_DIR
from droidpilot.bench.world.coverage import load_mapping, render, unknown_templates
from droidpilot.bench.world.template import load_templates

ROOT = Path(__file__).resolve().parent.parent
MAPPING = ROOT / "docs" / "world-vs-androidworld.yaml"
PAGE = ROOT / "docs" / "world-vs-androidworld.md"


def main() -> int:
    """Check the mapping, write the page, print one figure per line."""
    mapping = load_mapping(MAPPING)
    kinds = {t.id: t.kind for t in load_templates(SUITES_DIR / "world")}
    problems = unknown_templates(mapping, set(kinds))
    for line in problems:
        print(f"error: {line}", file=sys.stderr)
    if problems:
        return 1
    PAGE.write_text(render(mapping, kinds), encoding="utf-8")
    print(f"androidworld tasks covered: {len(mapping.covered)}/{len(mapping.entries)}")
    print(f"world templates used: {len({e.template for e in mapping.covered})}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
