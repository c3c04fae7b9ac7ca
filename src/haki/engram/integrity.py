"""``engram verify`` and ``engram rehash``: compare files with their recorded hashes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .hashes import Lock, read_lock, sha256_file, write_lock
from .index import parse_file
from .workspace import Root, memory_files

Status = Literal["edited_outside", "untracked", "removed", "stale_source", "missing_source"]


@dataclass(frozen=True, slots=True)
class Finding:
    scope: str
    path: str
    status: Status
    detail: str = ""


def verify(roots: tuple[Root, ...]) -> tuple[Finding, ...]:
    findings: list[Finding] = []
    for root in roots:
        lock = read_lock(root)
        files = memory_files(root)
        for rel in files:
            digest = sha256_file(root.path / rel)
            recorded = lock.memories.get(rel)
            if recorded is None:
                findings.append(
                    Finding(root.scope, rel, "untracked", "never recorded; run engram rehash")
                )
            elif recorded != digest:
                findings.append(
                    Finding(root.scope, rel, "edited_outside", "hash differs from engram.lock.json")
                )
        for rel in sorted(set(lock.memories) - set(files)):
            findings.append(Finding(root.scope, rel, "removed", "recorded but the file is gone"))
        for src, users in sorted(_sources(root, files).items()):
            current = sha256_file(root.base / src)
            who = ", ".join(sorted(users))
            if current is None:
                findings.append(Finding(root.scope, src, "missing_source", f"used by {who}"))
            elif lock.sources.get(src) not in (None, current):
                findings.append(Finding(root.scope, src, "stale_source", f"changed; used by {who}"))
    return tuple(findings)


@dataclass(frozen=True, slots=True)
class Refusal:
    scope: str
    path: str
    findings: tuple[str, ...]


def rehash(roots: tuple[Root, ...]) -> int:
    """Accept every current safe file and source; returns how many hashes changed."""
    return rehash_report(roots)[0]


def rehash_report(roots: tuple[Root, ...]) -> tuple[int, tuple[Refusal, ...]]:
    """Like ``rehash``, and say which files were refused.

    A file holding a secret or a prompt-injection line is never accepted: its
    previous hash (if any) stays recorded, so it keeps failing the gate.
    """
    changed = 0
    refused: list[Refusal] = []
    for root in roots:
        if not root.path.is_dir():
            continue
        old = read_lock(root)
        files = memory_files(root)
        memories = {}
        for rel in files:
            findings = unsafe_findings(root, rel)
            if findings:
                refused.append(Refusal(root.scope, rel, findings))
                if rel in old.memories:
                    memories[rel] = old.memories[rel]
                continue
            memories[rel] = sha256_file(root.path / rel) or ""
        sources = {
            src: digest
            for src in _sources(root, files)
            if (digest := sha256_file(root.base / src)) is not None
        }
        new = Lock(memories, sources)
        changed += sum(1 for k, v in memories.items() if old.memories.get(k) != v)
        changed += sum(1 for k, v in sources.items() if old.sources.get(k) != v)
        changed += len(set(old.memories) - set(memories))
        if new != old:
            write_lock(root, new)
    return changed, tuple(refused)


def unsafe_findings(root: Root, rel: str) -> tuple[str, ...]:
    """Secrets anywhere in the file, injection lines in what agents would see."""
    from . import safety

    try:
        raw = (root.path / rel).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ()
    memory, _, _ = parse_file(root, rel)
    shown = (memory.title, memory.directive, memory.summary, memory.content) if memory else ()
    secrets = tuple(f for f in safety.scan([raw]) if f.startswith("secret:"))
    return tuple(sorted(set(secrets) | set(safety.scan(shown))))


def _sources(root: Root, files: list[str]) -> dict[str, set[str]]:
    users: dict[str, set[str]] = {}
    for rel in files:
        memory, _, _ = parse_file(root, rel)
        if memory is not None:
            for src in memory.sources:
                users.setdefault(src, set()).add(memory.id)
    return users
