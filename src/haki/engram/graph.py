"""Dependency layers from ``depends_on``: foundations in layer 0, cycles reported."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Graph:
    layers: tuple[tuple[str, ...], ...]
    cycles: tuple[tuple[str, ...], ...]
    broken: tuple[tuple[str, str], ...]  # (memory, missing prerequisite)


def build(edges: Mapping[str, Sequence[str]]) -> Graph:
    """Layer ``n`` holds memories whose deepest prerequisite sits in layer ``n - 1``."""
    broken = tuple(
        sorted((node, dep) for node, deps in edges.items() for dep in deps if dep not in edges)
    )
    deps = {node: sorted({d for d in ds if d in edges}) for node, ds in edges.items()}
    layer_of: dict[str, int] = {}
    remaining = set(deps)
    layers: list[tuple[str, ...]] = []
    while remaining:
        ready = sorted(n for n in remaining if all(d in layer_of for d in deps[n]))
        if not ready:
            break
        for n in ready:
            layer_of[n] = len(layers)
        layers.append(tuple(ready))
        remaining.difference_update(ready)
    return Graph(tuple(layers), _cycles({n: deps[n] for n in remaining}), broken)


def _cycles(deps: Mapping[str, Sequence[str]]) -> tuple[tuple[str, ...], ...]:
    """Each distinct cycle once, rotated to start at its smallest id."""
    found: set[tuple[str, ...]] = set()
    for start in sorted(deps):
        stack: list[tuple[str, tuple[str, ...]]] = [(start, (start,))]
        while stack:
            node, path = stack.pop()
            for dep in deps.get(node, ()):
                if dep == start:
                    i = path.index(min(path))
                    found.add(path[i:] + path[:i])
                elif dep not in path and dep > start:
                    stack.append((dep, (*path, dep)))
    return tuple(sorted(found))
