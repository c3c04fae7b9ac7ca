"""Errors raised by Engram.

EngramError                  base; the CLI prints one line and exits with ``exit_code``
├── ConfigError              bad config file or bad option value
├── FrontmatterError         a memory file whose frontmatter cannot be parsed
├── SchemaError              frontmatter parsed but a field is invalid
├── MemoryNotFound           ``--id`` names no visible memory
├── DuplicateMemory          ``engram add`` would overwrite an existing id
├── GraphCycleError          ``depends_on`` edges form a cycle
└── WorkspaceError           no workspace could be located or created
"""

from __future__ import annotations


class EngramError(Exception):
    exit_code = 2


class ConfigError(EngramError):
    pass


class FrontmatterError(EngramError):
    """Carries the file and the 1-based line so editors can jump to it."""

    def __init__(self, path: str, line: int, message: str) -> None:
        self.path, self.line, self.message = path, line, message
        super().__init__(f"{path}:{line}: {message}")


class SchemaError(FrontmatterError):
    pass


class MemoryNotFound(EngramError):
    exit_code = 1


class DuplicateMemory(EngramError):
    pass


class GraphCycleError(EngramError):
    def __init__(self, cycles: list[list[str]]) -> None:
        self.cycles = cycles
        shown = "; ".join(" -> ".join(c) for c in cycles)
        super().__init__(f"depends_on cycle: {shown}")


class WorkspaceError(EngramError):
    pass
