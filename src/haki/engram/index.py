"""The per-root index: parsed memories, term postings and hashes, cached as JSON.

The cache is keyed by the stat signature (mtime, size) of every memory file
and of the files that change derived fields (lock, ignore file, sources).
A warm load only stats files and reads one JSON document. A file whose signature
changed is read and hashed; what the index derives from it comes from the
content-keyed memo (``memo``) when those bytes were indexed before on this
machine, and is parsed and derived only otherwise.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .record import Record, as_dict, field, field_names, replace
from .text import ENGRAM_STOP_WORDS, estimate_tokens, words
from .vectors import Pending, save
from .vocabulary import phrase_terms, terms_of
from .workspace import Root, cache_dir, ignore_matcher, scan_files, stat_sig

TYPE_CHECKING = False  # ``typing`` stays unimported at run time (see record.py)
if TYPE_CHECKING:
    from typing import Any

    from .memo import Memo
    from .memory import Memory

INDEX_VERSION = 8

# Field weights for BM25F-style weighted term frequency: short, curated fields
# (id, tags, directive) say more about a memory than a word deep in its body.
FIELD_WEIGHTS: dict[str, float] = {
    "id": 3.0,
    "tags": 2.5,
    "directive": 2.0,
    "triggers": 2.0,
    "title": 1.5,
    "summary": 1.5,
    "content": 1.0,
}
FIELD_BITS: dict[str, int] = {name: 1 << i for i, name in enumerate(FIELD_WEIGHTS)}
STRONG_BITS = FIELD_BITS["id"] | FIELD_BITS["tags"] | FIELD_BITS["directive"]


class Doc(Record):
    """What routing and rendering need about one memory, without its body."""

    id: str
    type: str
    authority: str
    scope: str
    path: str
    title: str
    directive: str
    summary: str
    tags: tuple[str, ...]
    applies_to: tuple[str, ...]
    depends_on: tuple[str, ...]
    level: str
    confidence: str
    lifecycle: str
    valid_until: str | None
    role: tuple[str, ...]
    sha256: str
    recorded: str | None
    stale: bool
    unsafe: tuple[str, ...]
    ignored: bool
    length: float
    tokens: int

    @property
    def edited_outside(self) -> bool:
        return self.recorded is not None and self.recorded != self.sha256


class FileProblem(Record):
    """A memory file that could not be indexed, and why."""

    path: str
    line: int
    message: str


class Index(Record):
    """Columns every load needs, plus one JSON row per memory decoded on demand.

    Decoding 1,000 rows and postings lists on every prompt would dominate a
    warm load, so rows and postings stay strings until routing touches them.
    """

    root: Root
    ids: tuple[str, ...]
    lengths: tuple[float, ...]
    hidden_by_ignore: frozenset[int]
    roles: dict[int, tuple[str, ...]]
    applies_to: dict[int, tuple[str, ...]]
    # Multi-word triggers and tags as space-joined terms, keyed by doc number as a string:
    # left as decoded JSON, since only the candidates of one query are ever read.
    phrases: dict[str, list[str]]
    rows: tuple[str, ...]
    postings: dict[str, str]  # term -> "doc weighted_tf field_bits doc ..."
    problems: tuple[FileProblem, ...]
    rebuilt: bool
    _cache: dict[int, Doc]
    # Per doc number: the memory's unit vector from the static table (``semantic.encode``),
    # "" when the table was missing at build time, None while not derived yet: a load
    # reads the vectors of its candidates only (``vector``).
    vectors: list[str | None] = field(default_factory=list)
    # What this process derived and built but has not written yet (``vectors.save``).
    pending: Pending | None = None

    def doc(self, no: int) -> Doc:
        cached = self._cache.get(no)
        if cached is None:
            row = json.loads(self.rows[no])
            values: list[Any] = [tuple(v) if isinstance(v, list) else v for v in row]
            cached = Doc(*values)
            self._cache[no] = cached
        return cached

    def vector(self, no: int) -> str:
        """The memory's encoded vector ("" without one), derived from its file the first
        time a load reads it and kept for ``vectors.save`` to write back."""
        found = self.vectors[no] if no < len(self.vectors) else ""
        if found is None:
            from .vectors import derive

            found = self.vectors[no] = derive(self, no)
        return found

    @property
    def docs(self) -> tuple[Doc, ...]:
        return tuple(self.doc(no) for no in range(len(self.rows)))

    def hits(self, term: str) -> list[tuple[int, float, int]]:
        """Decoded postings of one term: ``(doc_no, weighted_tf, field_bits)``."""
        raw = self.postings.get(term)
        if not raw:
            return []
        parts = raw.split(" ")
        return [
            (int(parts[i]), float(parts[i + 1]), int(parts[i + 2])) for i in range(0, len(parts), 3)
        ]


_DOC_FIELDS = list(field_names(Doc))
# One encoder for every row: ``json.dumps`` with separators builds a new one per call.
_compact_json = json.JSONEncoder(separators=(",", ":")).encode


def open_index(
    root: Root, ignore_patterns: tuple[str, ...] = (), rebuild: bool = False, write: bool = True
) -> Index:
    """Return a fresh index for ``root``, rebuilding only what changed.

    ``write=False`` leaves a rebuilt index for ``vectors.save``, so a load writes it once,
    with the vectors its routing derived; its memo entries are written only if the same
    process fills the missing vectors (``vectors.fill``: a session start), not by a prompt."""
    if not root.path.is_dir():
        return Index(root, (), (), frozenset(), {}, {}, {}, (), {}, (), False, {})
    files = scan_files(root)
    cdir = cache_dir(root)
    index_path = cdir / "index.json"
    if not rebuild:
        cached = _read_json(index_path)
        if cached is not None and _fresh(cached, root, files, ignore_patterns):
            pending = Pending(cached, index_path, share=write)
            return _from_json(root, cached, rebuilt=False, pending=pending)
    from .memo import Memo, derivation_key

    # ``--rebuild`` derives every file again (and refreshes the memo), trusting no cache.
    memo = Memo(lambda: derivation_key(INDEX_VERSION), not rebuild)
    fields: dict[str, dict[str, list[str]]] = {}
    data, entries, new = _build(root, files, ignore_patterns, memo, fields)
    pending = Pending(data, index_path, memo, entries, new, fields, share=write)
    index = _from_json(root, data, rebuilt=True, pending=pending)
    if write:
        save(index)
    return index


def parse_file(root: Root, rel: str) -> tuple[Memory | None, str, FileProblem | None]:
    """Parse one memory file: ``(memory, sha256, problem)``."""
    from .hashes import sha256_bytes

    raw = (root.path / rel).read_bytes()
    memory, problem = parse_bytes(rel, raw)
    return memory, sha256_bytes(raw), problem


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


def _aux_sig(root: Root, ignore_patterns: tuple[str, ...], sources: list[str]) -> dict[str, Any]:
    from .semantic import table_signature

    return {
        # A table distilled after the index was built brings the memories' vectors.
        "table": table_signature(),
        "lock": stat_sig(root.lock_path),
        "ignore": stat_sig(root.ignore_path),
        "patterns": list(ignore_patterns),
        "sources": {s: stat_sig(root.base / s) for s in sources},
    }


def _fresh(
    cached: dict[str, Any], root: Root, files: dict[str, Any], patterns: tuple[str, ...]
) -> bool:
    if cached.get("version") != INDEX_VERSION or cached.get("root") != str(root.path):
        return False
    if cached.get("files") != files:
        return False
    aux = cached.get("aux", {})
    return bool(aux == _aux_sig(root, patterns, list(aux.get("sources", {}))))


def _entries(
    root: Root, rels: list[str], memo: Memo, fields: dict[str, dict[str, list[str]]]
) -> tuple[list[tuple[str, dict[str, Any]]], dict[str, dict[str, Any]]]:
    """Each file's memo name and entry (parsed memory or problem, and what the index
    derives from it), from the memo when these bytes at this path were indexed before on
    this machine; and the entries derived here, for the memo. ``fields`` receives, by
    name, the words of each memory parsed here, so that its vector needs no second parse."""
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
            entry = new[name] = entry_of(rel, raw, digest, vector, fields, name)
        out.append((name, entry))
    return out, new


def entry_of(
    rel: str,
    raw: bytes,
    digest: str,
    vector: str | None,
    fields: dict[str, dict[str, list[str]]],
    name: str,
) -> dict[str, Any]:
    """One file's memo entry: the parsed memory (or the problem) and what the index derives
    from it; ``fields`` receives the memory's words under ``name``."""
    memory, problem = parse_bytes(rel, raw)
    return {
        "sha256": digest,
        "memory": _memory_row(memory) if memory else None,
        "problem": as_dict(problem) if problem else None,
        "derived": _derive(memory, vector, fields, name) if memory else None,
    }


def _read_bytes(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _build(
    root: Root,
    files: dict[str, Any],
    patterns: tuple[str, ...],
    memo: Memo,
    fields: dict[str, dict[str, list[str]]],
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
    found, new = _entries(root, rels, memo, fields)
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
        "aux": _aux_sig(root, patterns, sources),
        "columns": {**_columns(docs), "phrases": phrases},
        "rows": [_compact_json([d[name] for name in _DOC_FIELDS]) for d in docs],
        "postings": {term: " ".join(found) for term, found in postings.items()},
        "vectors": [e["derived"]["vector"] for _, e in memories],
        "problems": [as_dict(p) for p in problems],
        # Whether every entry reached the memo; a prompt's rebuild leaves that to the next
        # fill (``vectors.save``).
        "memo": False,
    }
    return data, named, new


def _derive(
    m: Memory, vector: str | None, fields: dict[str, dict[str, list[str]]], name: str
) -> dict[str, Any]:
    """What the index keeps of one memory apart from its fields: weighted terms (``"tf
    field_bits"`` per term, in term order), length, safety findings, tokens, phrases, and
    ``vector`` for the static vector (None: derived when a load first reads it)."""
    from . import safety

    field_words = fields[name] = field_words_of(m)
    weighted: dict[str, float] = {}
    bits: dict[str, int] = {}
    length = 0.0
    for name, tokens in field_words.items():
        field_terms = terms_of(tokens, ENGRAM_STOP_WORDS)
        weight = FIELD_WEIGHTS[name]
        length += weight * len(field_terms)
        for term in field_terms:
            weighted[term] = weighted.get(term, 0.0) + weight
            bits[term] = bits.get(term, 0) | FIELD_BITS[name]
    return {
        "terms": {t: _posting(weighted[t], bits[t]) for t in sorted(weighted)},
        "length": round(length, 2),
        "unsafe": safety.scan((m.title, m.directive, m.summary, m.content)),
        "tokens": estimate_tokens(m.content),
        "phrases": _phrases(m),
        "vector": vector,
    }


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


def _from_json(
    root: Root, data: dict[str, Any], rebuilt: bool, pending: Pending | None = None
) -> Index:
    cols = data["columns"]
    problems = tuple(FileProblem(**p) for p in data.get("problems", []))
    return Index(
        root,
        tuple(cols["ids"]),
        tuple(cols["lengths"]),
        frozenset(cols["ignored"]),
        {int(k): tuple(v) for k, v in cols["roles"].items()},
        {int(k): tuple(v) for k, v in cols["applies_to"].items()},
        cols["phrases"],
        tuple(data["rows"]),
        data["postings"],
        problems,
        rebuilt,
        {},
        list(data.get("vectors", ())),
        pending,
    )


def _columns(docs: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "ids": [d["id"] for d in docs],
        "lengths": [d["length"] for d in docs],
        "ignored": [n for n, d in enumerate(docs) if d["ignored"]],
        "roles": {str(n): d["role"] for n, d in enumerate(docs) if d["role"]},
        "applies_to": {str(n): d["applies_to"] for n, d in enumerate(docs) if d["applies_to"]},
    }


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
