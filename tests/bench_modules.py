"""bench/ scripts loaded as modules, for the tests of the benchmarks' own code.

bench/ is not a package: its scripts import their siblings by name, so the
folder goes on ``sys.path``, and each module is registered under its name
before it runs (dataclasses look their module up in ``sys.modules``).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[1] / "bench"


def load_bench(filename: str, name: str) -> ModuleType:
    """``bench/filename`` executed as a fresh module called ``name``."""
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(name, BENCH / filename)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {BENCH / filename}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
