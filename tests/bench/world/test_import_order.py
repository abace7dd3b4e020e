"""bench.world builds tasks from bench.task and never reaches back to bench.suite, whose loader calls it.

The graph is suite -> world -> task: importing the world package (and every module in it) first, in a
fresh interpreter, must work and must not load ``droidpilot.bench.suite``.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import droidpilot.bench.world as world_pkg

WORLD_DIR = Path(world_pkg.__file__).parent
SRC = WORLD_DIR.parents[2]

_PROBE = """
import importlib, pkgutil, sys
import droidpilot.bench.world as world
names = sorted(m.name for m in pkgutil.iter_modules(world.__path__))
for name in names:
    importlib.import_module("droidpilot.bench.world." + name)
loaded = "droidpilot.bench.suite" in sys.modules
print(len(names), "suite-loaded" if loaded else "suite-not-loaded")
"""


def test_world_imported_first_in_a_fresh_interpreter_does_not_load_the_suite_loader() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, env=env,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    count, verdict = done.stdout.split()
    assert int(count) >= 10  # every module of the package was imported, not an empty folder
    assert verdict == "suite-not-loaded"


def _imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, at any depth of the file (lazy imports inside functions too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_no_world_module_imports_bench_suite_even_lazily() -> None:
    files = sorted(WORLD_DIR.glob("*.py"))
    assert any(f.name == "instance.py" for f in files)
    offenders = {f.name: sorted(m for m in _imported_modules(f) if m == "droidpilot.bench.suite")
                 for f in files}
    assert {name: mods for name, mods in offenders.items() if mods} == {}


def test_bench_suite_still_exports_the_data_types_it_moved() -> None:
    from droidpilot.bench import suite, task

    for name in ("BenchTask", "RefOp", "Suite", "SuiteError"):
        assert getattr(suite, name) is getattr(task, name)
