"""Authoring commands: ``init``, ``add`` and ``lint``."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from . import graph
from .body import LEVELS
from .errors import DuplicateMemory, SchemaError
from .hashes import record, sha256_file
from .index import open_index, parse_file
from .integrity import unsafe_findings
from .loader import unsafe_reason
from .memory import ID_PATTERN, TYPE_DIRS, TYPES, Memory
from .text import estimate_tokens
from .workspace import CONFIG_NAME, IGNORE_NAME, SUBDIRS, Root, Roots, memory_files, write_atomic

MAX_BODY_TOKENS = 800

CONFIG_TEMPLATE = """\
# Engram configuration (see docs/engram.md).
load:
  disclosure: auto   # auto: top results as bodies, the rest as cards; full: all bodies
  expand_top: 3      # bodies shown in auto disclosure
  limit: 8           # memories in a compact load
roles: []            # e.g. [backend]; memories with another role are hidden
ignore: []           # gitignore patterns, relative to .agents/engram/
global: true         # also load $ENGRAM_GLOBAL_DIR (default ~/.engram)
"""

IGNORE_TEMPLATE = """\
# gitignore syntax, paths relative to this folder; '!' re-includes.
archive/
"""


def init(root: Root) -> list[Path]:
    """Create the workspace layout; existing files are left untouched."""
    created: list[Path] = []
    for sub in (*SUBDIRS, ".cache"):
        path = root.path / sub
        if not path.is_dir():
            path.mkdir(parents=True)
            created.append(path)
    for name, text in (
        (CONFIG_NAME, CONFIG_TEMPLATE),
        (IGNORE_NAME, IGNORE_TEMPLATE),
        (".gitignore", ".cache/\n"),
    ):
        path = root.path / name
        if not path.exists():
            write_atomic(path, text)
            created.append(path)
    if not root.lock_path.exists():
        record(root, {}, {})
        created.append(root.lock_path)
    return created


@dataclass(frozen=True, slots=True)
class NewMemory:
    type: str
    id: str
    directive: str
    tags: tuple[str, ...] = ()
    summary: str = ""
    triggers: tuple[str, ...] = ()
    applies_to: tuple[str, ...] = ()
    depends_on: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    level: str = "foundation"
    title: str = ""
    content: str = ""


def add(
    root: Root, new: NewMemory, today: str | None = None, other_ids: Collection[str] = ()
) -> Path:
    """Write a memory from the template, check it parses, and record its hash.

    ``depends_on`` must name memories that exist in this root or in ``other_ids``
    (the other root's ids).
    """
    if new.type not in TYPES:
        raise SchemaError(new.id, 1, f"type must be one of {', '.join(TYPES)}")
    if not ID_PATTERN.match(new.id):
        raise SchemaError(new.id, 1, "id must be a lower-case slug (a-z, 0-9, '.', '_', '-')")
    if not new.directive.strip():
        raise SchemaError(new.id, 1, "--directive must not be empty")
    if new.level not in LEVELS and not new.level.isdigit():
        raise SchemaError(new.id, 1, f"level must be one of {', '.join(LEVELS)} or an integer")
    for rel in memory_files(root):
        if Path(rel).stem == new.id:
            raise DuplicateMemory(f"a memory file for {new.id!r} already exists: {rel}")
    known = {doc.id for doc in open_index(root).docs}
    if new.id in known:
        raise DuplicateMemory(f"a memory with id {new.id!r} already exists")
    missing = [d for d in new.depends_on if d not in known and d not in other_ids]
    if missing:
        import difflib

        hints = sorted(
            {h for d in missing for h in difflib.get_close_matches(d, [*known, *other_ids], 3)}
        )
        hint = f"; did you mean {', '.join(hints)}?" if hints else ""
        raise SchemaError(new.id, 1, f"--depends-on {', '.join(missing)}: no such memory{hint}")
    today = today or dt.date.today().isoformat()
    rel = f"{TYPE_DIRS[new.type]}/{new.id}.md"
    path = root.path / rel
    write_atomic(path, render_template(new, today))
    memory, digest, problem = parse_file(root, rel)
    if problem is not None or memory is None:
        path.unlink()
        raise SchemaError(
            rel, problem.line if problem else 1, problem.message if problem else "invalid"
        )
    sources = {s: d for s in new.sources if (d := sha256_file(root.base / s)) is not None}
    record(root, {rel: digest}, sources)
    return path


def render_template(new: NewMemory, today: str) -> str:
    authority = "reference" if new.type == "knowledge" else "instruction"

    def q(value: str) -> str:
        return json.dumps(value, ensure_ascii=False)  # JSON strings are valid YAML scalars

    def seq(values: Sequence[str]) -> str:
        return "[" + ", ".join(q(v) for v in values) + "]"

    lines = [
        "---",
        f"id: {new.id}",
        f"type: {new.type}",
        f"authority: {authority}",
        f"tags: {seq(new.tags)}",
        f"directive: {q(new.directive.strip())}",
        f"summary: {q(new.summary.strip())}",
        f"triggers: {seq(new.triggers)}",
    ]
    if new.applies_to:
        lines.append(f"applies_to: {seq(new.applies_to)}")
    if new.depends_on:
        lines.append(f"depends_on: {seq(new.depends_on)}")
    if new.sources:
        lines.append(f"sources: {seq(new.sources)}")
    lines += [
        f"level: {new.level}",
        "confidence: high",
        "lifecycle: active",
        f"created: {today}",
        f"updated: {today}",
        "---",
        "",
        f"# {new.title or new.directive.strip().rstrip('.')}",
        "",
        "## Content",
        "",
        new.content.strip() or f"- {new.directive.strip()}",
        "",
        "## Context",
        "",
        "Why this memory exists (never shown to agents).",
        "",
    ]
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class LintFinding:
    severity: Literal["error", "warning"]
    where: str
    message: str


def lint(roots: Roots) -> tuple[LintFinding, ...]:
    """Schema, duplicate ids, broken ``depends_on``, cycles and oversize bodies."""
    findings: list[LintFinding] = []
    edges: dict[str, tuple[str, ...]] = {}
    for root in roots.all():
        seen: dict[str, str] = {}
        for rel in memory_files(root):
            where = f"{root.scope}:{rel}"
            memory, _, problem = parse_file(root, rel)
            if problem is not None:
                findings.append(
                    LintFinding(
                        "error", f"{root.scope}:{problem.path}:{problem.line}", problem.message
                    )
                )
                continue
            assert memory is not None
            if memory.id in seen:
                findings.append(
                    LintFinding(
                        "error", where, f"duplicate id {memory.id!r} (also {seen[memory.id]})"
                    )
                )
                continue
            seen[memory.id] = rel
            findings.extend(_memory_checks(memory, where))
            unsafe = unsafe_findings(root, rel)
            if unsafe:
                findings.append(
                    LintFinding(
                        "error",
                        where,
                        f"never shown to agents: {unsafe_reason(unsafe)}; remove it from the file",
                    )
                )
            edges.setdefault(memory.id, memory.depends_on)
    g = graph.build(edges)
    findings.extend(
        LintFinding("error", node, f"depends_on {dep!r}: no such memory") for node, dep in g.broken
    )
    findings.extend(
        LintFinding("error", c[0], "depends_on cycle: " + " -> ".join((*c, c[0]))) for c in g.cycles
    )
    return tuple(sorted(findings, key=lambda f: (f.severity, f.where, f.message)))


def _memory_checks(m: Memory, where: str) -> list[LintFinding]:
    out: list[LintFinding] = []
    if Path(m.path).stem != m.id:
        out.append(LintFinding("warning", where, f"file name does not match id {m.id!r}"))
    if not m.directive and not m.summary:
        out.append(
            LintFinding("error", where, "needs a directive or a summary (cards show one of them)")
        )
    if not m.content:
        out.append(LintFinding("error", where, "empty '## Content' section"))
    tokens = estimate_tokens(m.content)
    if tokens > MAX_BODY_TOKENS:
        out.append(
            LintFinding(
                "warning", where, f"body is {tokens} tokens (over {MAX_BODY_TOKENS}); split it"
            )
        )
    if not m.tags:
        out.append(LintFinding("warning", where, "no tags"))
    for name in m.unknown_fields:
        out.append(LintFinding("warning", where, f"unknown field {name!r}"))
    return out
