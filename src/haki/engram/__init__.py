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

TYPE_CHECKING = False  # ``typing`` stays unimported at run time (see record.py)
if TYPE_CHECKING:
    from .loader import load
    from .plan import Item, LoadPlan, LoadRequest, Skip
del TYPE_CHECKING  # not one of the package's names

# The loader (index, routing) is imported on first use: every `engram hook`
# process imports this package, and most hook events never route.
_LAZY = {
    "load": "loader",
    "Item": "plan",
    "LoadPlan": "plan",
    "LoadRequest": "plan",
    "Skip": "plan",
}


def __getattr__(name: str) -> object:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f"{__name__}.{_LAZY[name]}"), name)
    globals()[name] = value
    return value


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
