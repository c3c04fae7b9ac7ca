"""Engram: repo-local memories (rules, skills, knowledge) routed into coding-agent context.

``load`` is imported on first use: every hook event starts a fresh Python
process through this package, and most events never route anything.
"""

from typing import Any

from .errors import (
    ConfigError,
    DuplicateMemory,
    EngramError,
    FrontmatterError,
    GraphCycleError,
    MemoryNotFound,
    SchemaError,
    WorkspaceError,
)
from .plan import Item, LoadPlan, LoadRequest, Skip

__all__ = [
    "ConfigError",
    "DuplicateMemory",
    "EngramError",
    "FrontmatterError",
    "GraphCycleError",
    "Item",
    "LoadPlan",
    "LoadRequest",
    "MemoryNotFound",
    "SchemaError",
    "Skip",
    "WorkspaceError",
    "load",
]


def __getattr__(name: str) -> Any:
    if name == "load":
        from .loader import load

        return load
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
