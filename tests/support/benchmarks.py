"""Loading a script of ``benchmarks/`` as a module, so its tests call the script's own functions."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load_benchmark(name: str) -> ModuleType:
    """``benchmarks/NAME.py`` as the module ``NAME``, registered in sys.modules (its dataclasses look their
    module up there); loaded once per session."""
    if name in sys.modules:
        return sys.modules[name]
    path = BENCHMARKS / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path}: not a Python file a module can be loaded from")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module
