"""Engram: repo-local memories (rules, skills, knowledge) routed into coding-agent context."""

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
from .loader import load
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
