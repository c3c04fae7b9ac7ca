"""The import-layer contract of ``src/haki`` (docs/architecture.md), checked on the source.

Every import is read with ``ast`` — lazy ones inside functions and the
``TYPE_CHECKING`` ones too, since a loop hidden behind a lazy import is still
a loop. A package may import packages of a lower layer, or of its own layer
as long as no two packages import each other (directly or through others).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "haki"

# Lower number = lower layer. Every top-level module or package of haki is
# listed: a new one must be placed here before it can be imported.
LAYERS: dict[str, int] = {
    # faces
    "api": 3,
    "cli": 3,
    # services
    "ledger": 2,
    "consolidator": 2,
    "context": 2,
    "forget": 2,
    "portability": 2,
    "retention": 2,
    "auth": 2,
    "client": 2,
    "integrations": 2,
    "mcp": 2,
    "gateway": 2,
    "console": 2,
    # infrastructure
    "storage": 1,
    "providers": 1,
    "jobs": 1,
    # foundations
    "config": 0,
    "errors": 0,
    "text": 0,
    "types": 0,
    "logs": 0,
    "backoff": 0,
    # Metrics and spans: recorded by every layer above, so beneath them all.
    "observability": 0,
    # Engram stands apart: it may use the text lexicon and nothing else.
    "engram": 1,
}

# Packages with a closed list of what they may import, whatever their layer.
ONLY: dict[str, set[str]] = {
    "engram": {"text"},
    # The SDK installs without the server: no storage, providers or services.
    "client": {"errors", "types", "text"},
    # Framework adapters speak to the server through the SDK alone.
    "integrations": {"client"},
}


def _package(path: Path, root: Path = SRC) -> str:
    return path.relative_to(root).parts[0].removesuffix(".py")


def _imported(rel: Path, tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, top-level haki package) for every haki import in the file at ``rel``."""
    module_parts = list(rel.with_suffix("").parts)
    if module_parts[-1] == "__init__":
        module_parts.pop()
        here = module_parts  # a package's own relative imports start at it
    else:
        here = module_parts[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "haki" and len(parts) > 1:
                    yield node.lineno, parts[1]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                parts = (node.module or "").split(".")
                if parts[0] != "haki":
                    continue
                target = parts[1:]
            else:
                base = here[: len(here) - (node.level - 1)] if node.level > 1 else here
                target = [*base, *(node.module.split(".") if node.module else [])]
            if target:
                yield node.lineno, target[0]
            else:  # ``from .. import jobs`` at the top of the tree
                for alias in node.names:
                    if not alias.name.startswith("__"):  # ``__version__`` is no package
                        yield node.lineno, alias.name


def package_imports(root: Path = SRC) -> dict[tuple[str, str], list[str]]:
    """(importer, imported) package pairs, each with where it happens."""
    edges: dict[tuple[str, str], list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        source = _package(path, root)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, target in _imported(path.relative_to(root), tree):
            if target != source:
                edges.setdefault((source, target), []).append(f"{path.relative_to(root)}:{line}")
    return edges


def violations(edges: dict[tuple[str, str], list[str]]) -> list[str]:
    found = []
    for (source, target), where in sorted(edges.items()):
        if source not in LAYERS or target not in LAYERS:
            unknown = source if source not in LAYERS else target
            found.append(f"haki.{unknown} has no layer in tests/unit/test_layers.py ({where[0]})")
        elif source in ONLY and target not in ONLY[source]:
            found.append(f"haki.{source} may not import haki.{target} ({where[0]})")
        elif LAYERS[target] > LAYERS[source]:
            found.append(f"haki.{source} imports haki.{target}, a higher layer ({where[0]})")
        elif (target, source) in edges:
            found.append(
                f"haki.{source} and haki.{target} import each other ({where[0]}, "
                f"{edges[(target, source)][0]})"
            )
    graph: dict[str, set[str]] = {}
    for source, target in edges:
        graph.setdefault(source, set()).add(target)
    found += [f"package cycle: {' -> '.join(cycle)}" for cycle in _cycles(graph)]
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Cycles longer than two packages (pairs are reported above), each once."""
    cycles: set[tuple[str, ...]] = set()

    def walk(start: str, node: str, path: list[str]) -> None:
        for nxt in sorted(graph.get(node, ())):
            if nxt == start and len(path) > 2:
                cycles.add(tuple(path))
            elif nxt not in path and nxt > start:
                walk(start, nxt, [*path, nxt])

    for start in sorted(graph):
        walk(start, start, [start])
    return [[*cycle, cycle[0]] for cycle in sorted(cycles)]


def test_imports_point_down():
    assert violations(package_imports()) == []


def test_every_package_has_a_layer():
    present = {_package(p) for p in SRC.rglob("*.py")} - {"__init__", "__main__"}
    assert present - set(LAYERS) == set()


def test_the_check_sees_lazy_and_relative_imports(tmp_path):
    """A violation hidden in a function body, written relatively, is still caught."""
    (tmp_path / "storage").mkdir()
    (tmp_path / "storage" / "__init__.py").write_text("")
    (tmp_path / "storage" / "db.py").write_text(
        "def connect():\n    from ..ledger.events import timeline\n    return timeline\n"
    )
    (tmp_path / "engram").mkdir()
    (tmp_path / "engram" / "index.py").write_text("from haki.storage import Connection\n")
    found = violations(package_imports(tmp_path))
    assert found == [
        "haki.engram may not import haki.storage (engram/index.py:1)",
        "haki.storage imports haki.ledger, a higher layer (storage/db.py:2)",
    ]


def test_the_check_sees_cycles_within_a_layer():
    edges = {
        ("ledger", "context"): ["a"],
        ("context", "forget"): ["b"],
        ("forget", "ledger"): ["c"],
    }
    assert violations(edges) == ["package cycle: context -> forget -> ledger -> context"]
