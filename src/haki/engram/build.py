"""The cold build of a per-root index: memory files parsed, or read from the memo,
and what routing needs derived from each (weighted terms, length, safety findings,
tokens, multi-word phrases), laid out as the index document ``index.open_index`` caches.

Apart from ``index`` so that a warm load, which only reads the cached document, imports
none of it.
"""

from __future__ import annotations

import json
import os

from .index import FIELD_BITS, FIELD_WEIGHTS, INDEX_VERSION, Doc, FileProblem, aux_sig
from .record import as_dict, field_names, replace
from .text import ENGRAM_STOP_WORDS, estimate_tokens, words
from .vocabulary import phrase_terms, terms_of
from .workspace import Root, ignore_matcher

TYPE_CHECKING = False  # ``typing`` stays unimported at run time (see record.py)
if TYPE_CHECKING:
    from typing import Any

    from .memo import Memo
    from .memory import Memory

_DOC_FIELDS = list(field_names(Doc))
# One encoder for every row: ``json.dumps`` with separators builds a new one per call.
_compact_json = json.JSONEncoder(separators=(",", ":")).encode


def parse_bytes(rel: str, raw: bytes) -> tuple[Memory | None, FileProblem | None]:
    # Imported here: the frontmatter parser and the schema are only needed when a file changed.
    from .errors import FrontmatterError
    from .frontmatter import parse
    from .memory import from_fields

    try:
        fields_, body, line = parse(raw.decode("utf-8"), rel)
        memory = from_fields(fields_, body, rel, line)
    except UnicodeDecodeError:
        return None, FileProblem(rel, 1, "file is not UTF-8")
    except FrontmatterError as exc:
        return None, FileProblem(rel, exc.line, exc.message)
    if rel.startswith("archive/") and memory.lifecycle != "archived":
        memory = _replace_lifecycle(memory, "archived")
    return memory, None


def _replace_lifecycle(memory: Memory, lifecycle: str) -> Memory:
    return replace(memory, lifecycle=lifecycle)


def _entries(
    root: Root,
    rels: list[str],
    memo: Memo,
    fields: dict[str, dict[str, list[str]]],
    texts: dict[str, tuple[str, ...]] | None,
) -> tuple[list[tuple[str, dict[str, Any]]], dict[str, dict[str, Any]]]:
    """Each file's memo name and entry (parsed memory or problem, and what the index
    derives from it), from the memo when these bytes at this path were indexed before on
    this machine; and the entries derived here, for the memo. ``fields`` receives, by
    name, the words of each memory parsed here, so that its vector needs no second parse;
    ``texts``, when given, the texts the safety scan reads, which is then left to the
    first read of the memory's row (``vectors.scan_doc``)."""
    from .hashes import sha256_bytes
    from .semantic import table_signature

    # Plain ``open`` on joined strings: a ``Path`` per file costs more than reading it.
    base = os.path.join(root.path, "")
    raws = [_read_bytes(base + rel) for rel in rels]
    digests = [sha256_bytes(raw) for raw in raws]
    names = [memo.name(rel, digest) for rel, digest in zip(rels, digests, strict=True)]
    found = memo.get_many(names)
    new: dict[str, dict[str, Any]] = {}
    out: list[tuple[str, dict[str, Any]]] = []
    # With a table, vectors wait until a load reads them (``Index.vector``); without one
    # there is nothing to derive.
    vector: str | None = None if table_signature() is not None else ""
    for rel, raw, digest, name in zip(rels, raws, digests, names, strict=True):
        entry = found.get(name)
        if entry is None or entry.get("sha256") != digest:
            entry = new[name] = entry_of(rel, raw, digest, vector, fields, name, texts)
        out.append((name, entry))
    return out, new


def entry_of(
    rel: str,
    raw: bytes,
    digest: str,
    vector: str | None,
    fields: dict[str, dict[str, list[str]]],
    name: str,
    texts: dict[str, tuple[str, ...]] | None = None,
) -> dict[str, Any]:
    """One file's memo entry: the parsed memory (or the problem) and what the index derives
    from it; ``fields`` receives the memory's words under ``name`` (and ``texts``, when
    given, its scan texts, the scan left for later)."""
    memory, problem = parse_bytes(rel, raw)
    return {
        "sha256": digest,
        "memory": _memory_row(memory) if memory else None,
        "problem": as_dict(problem) if problem else None,
        "derived": _derive(memory, vector, fields, name, texts) if memory else None,
    }


def _read_bytes(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def build(
    root: Root,
    files: dict[str, Any],
    patterns: tuple[str, ...],
    memo: Memo,
    fields: dict[str, dict[str, list[str]]],
    texts: dict[str, tuple[str, ...]] | None = None,
) -> tuple[dict[str, Any], list[tuple[str, dict[str, Any]]], dict[str, dict[str, Any]]]:
    """The index document, each doc's memo name and entry (by doc number), and the memo
    entries derived here."""
    from .hashes import read_lock, sha256_file

    lock = read_lock(root)
    ignored = ignore_matcher(root, patterns)
    # Memory rows stay the dicts the memo stores: building a ``Memory`` for each would
    # import the schema module on every cold load for nothing.
    memories: list[tuple[dict[str, Any], dict[str, Any]]] = []
    named: list[tuple[str, dict[str, Any]]] = []
    problems: list[FileProblem] = []
    seen: dict[str, str] = {}
    rels = list(files)
    found, new = _entries(root, rels, memo, fields, texts)
    for rel, (name, entry) in zip(rels, found, strict=True):
        if entry.get("problem"):
            problems.append(FileProblem(**entry["problem"]))
        elif entry.get("memory"):
            memory = entry["memory"]
            mid = memory["id"]
            if mid in seen:
                problems.append(FileProblem(rel, 1, f"duplicate id {mid!r} (also in {seen[mid]})"))
                continue
            seen[mid] = rel
            memories.append((memory, entry))
            named.append((name, entry))
    docs: list[dict[str, Any]] = []
    postings: dict[str, list[str]] = {}
    source_hashes: dict[str, str | None] = {}
    for doc_no, (m, entry) in enumerate(memories):
        derived = entry["derived"]
        for term, posting in derived["terms"].items():
            postings.setdefault(term, []).append(f"{doc_no} {posting}")
        stale = False
        for src in m["sources"]:
            if src not in source_hashes:
                source_hashes[src] = sha256_file(root.base / src)
            recorded = lock.sources.get(src)
            if source_hashes[src] is None or (
                recorded is not None and recorded != source_hashes[src]
            ):
                stale = True
        docs.append(
            {
                "id": m["id"],
                "type": m["type"],
                "authority": m["authority"],
                "scope": root.scope,
                "path": m["path"],
                "title": m["title"],
                "directive": m["directive"],
                "summary": m["summary"],
                "tags": m["tags"],
                "applies_to": m["applies_to"],
                "depends_on": m["depends_on"],
                "level": m["level"],
                "confidence": m["confidence"],
                "lifecycle": m["lifecycle"],
                "valid_until": m["valid_until"],
                "role": m["role"],
                "sha256": entry["sha256"],
                "recorded": lock.memories.get(m["path"]),
                "stale": stale,
                "unsafe": derived["unsafe"],
                "ignored": bool(ignored(m["path"])),
                "length": derived["length"],
                "tokens": derived["tokens"],
            }
        )
    phrases = {
        str(n): e["derived"]["phrases"]
        for n, (_, e) in enumerate(memories)
        if e["derived"]["phrases"]
    }
    sources = sorted({s for m, _ in memories for s in m["sources"]})
    data = {
        "version": INDEX_VERSION,
        "root": str(root.path),
        "files": files,
        "aux": aux_sig(root, patterns, sources),
        "columns": {**_columns(docs), "phrases": phrases},
        "rows": [_compact_json([d[name] for name in _DOC_FIELDS]) for d in docs],
        "postings": {term: " ".join(found) for term, found in postings.items()},
        "vectors": [e["derived"]["vector"] for _, e in memories],
        # The rows whose safety scan waits for their first read (``Index.doc``).
        "unscanned": [n for n, d in enumerate(docs) if d["unsafe"] is None],
        "problems": [as_dict(p) for p in problems],
        # Whether every entry reached the memo; a prompt's rebuild leaves that to the next
        # fill (``vectors.save``).
        "memo": False,
    }
    return data, named, new


def _derive(
    m: Memory,
    vector: str | None,
    fields: dict[str, dict[str, list[str]]],
    name: str,
    texts: dict[str, tuple[str, ...]] | None,
) -> dict[str, Any]:
    """What the index keeps of one memory apart from its fields: weighted terms (``"tf
    field_bits"`` per term, in term order), length, safety findings, tokens, phrases, and
    ``vector`` for the static vector (None: derived when a load first reads it). With
    ``texts``, the safety findings are None (scanned when a load first reads the row) and
    ``texts`` keeps what the scan reads."""
    field_words = fields[name] = field_words_of(m)
    weighted: dict[str, float] = {}
    bits: dict[str, int] = {}
    length = 0.0
    for field_name, tokens in field_words.items():
        field_terms = terms_of(tokens, ENGRAM_STOP_WORDS)
        weight = FIELD_WEIGHTS[field_name]
        length += weight * len(field_terms)
        for term in field_terms:
            weighted[term] = weighted.get(term, 0.0) + weight
            bits[term] = bits.get(term, 0) | FIELD_BITS[field_name]
    return {
        "terms": {t: _posting(weighted[t], bits[t]) for t in sorted(weighted)},
        "length": round(length, 2),
        "unsafe": _scan(m, texts, name),
        "tokens": estimate_tokens(m.content),
        "phrases": _phrases(m),
        "vector": vector,
    }


def scan_texts(m: Memory) -> tuple[str, ...]:
    """What the safety scan reads of a memory: every text an agent may be shown."""
    return (m.title, m.directive, m.summary, m.content)


def _scan(m: Memory, texts: dict[str, tuple[str, ...]] | None, name: str) -> tuple[str, ...] | None:
    """The memory's safety findings; None with ``texts``, which keeps what the scan reads."""
    if texts is not None:
        texts[name] = scan_texts(m)
        return None
    from .safety import scan

    return scan(scan_texts(m))


def _posting(weight: float, bits: int) -> str:
    """``"tf field_bits"`` of one term. A term's weight is a sum of a few field weights, so
    a cold build formats the same few dozen pairs thousands of times: each once."""
    key = (weight, bits)
    text = _POSTINGS.get(key)
    if text is None:
        text = _POSTINGS[key] = f"{round(weight, 2):g} {bits}"
    return text


_POSTINGS: dict[tuple[float, int], str] = {}


def _phrases(m: Memory) -> list[str]:
    """Multi-word triggers and tags: a task that contains one whole says more than its words."""
    found: dict[str, None] = {}
    for text in (*m.triggers, *m.tags):
        terms = phrase_terms(text)
        if len(terms) >= 2:
            found.setdefault(" ".join(terms), None)
    return list(found)


def field_words_of(m: Memory) -> dict[str, list[str]]:
    """Each field cut into words, as the terms and the vector read them."""
    return {k: words(t) for k, t in _field_texts(m).items()}


def _field_texts(m: Memory) -> dict[str, str]:
    return {
        "id": " ".join(words(m.id)),
        "tags": " ".join(m.tags),
        "directive": m.directive,
        "triggers": " ".join(m.triggers),
        "title": m.title,
        "summary": m.summary,
        "content": m.content,
    }


def _memory_row(memory: Memory) -> dict[str, Any]:
    """The fields an index row needs, without the body: what the index keeps of the body
    is derived (``_derive``), and the memo reads every row on a fresh clone's build."""
    return {n: getattr(memory, n) for n in field_names(memory) if n != "content"}


def _columns(docs: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "ids": [d["id"] for d in docs],
        "lengths": [d["length"] for d in docs],
        "ignored": [n for n, d in enumerate(docs) if d["ignored"]],
        "roles": {str(n): d["role"] for n, d in enumerate(docs) if d["role"]},
        "applies_to": {str(n): d["applies_to"] for n, d in enumerate(docs) if d["applies_to"]},
    }
