"""The per-root index: parsed memories, term postings and hashes, cached as JSON.

The cache is keyed by the stat signature (mtime, size) of every memory file
and of the files that change derived fields (lock, ignore file, sources).
A warm load only stats files and reads one JSON document. A file whose signature
changed is read and hashed; what the index derives from it comes from the
content-keyed memo (``memo``) when those bytes were indexed before on this
machine, and is parsed and derived only otherwise (``build``).
"""

from __future__ import annotations

import json

from .record import Record, field
from .vectors import Pending, save
from .workspace import Root, cache_dir, scan_files, stat_sig

TYPE_CHECKING = False  # ``typing`` stays unimported at run time (see record.py)
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from .memory import Memory

INDEX_VERSION = 9

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
    # Safety findings. None in the index document while not scanned (a load's build scans
    # only the rows it reads); ``Index.doc`` never returns a None.
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
    # The rows a load's build left unscanned (a fill reads them without decoding the rest).
    unscanned: frozenset[int] = frozenset()

    def doc(self, no: int) -> Doc:
        cached = self._cache.get(no)
        if cached is None:
            row = json.loads(self.rows[no])
            values: list[Any] = [tuple(v) if isinstance(v, list) else v for v in row]
            cached = Doc(*values)
            if cached.unsafe is None:  # not scanned yet: scanned before anyone reads it
                from .vectors import scan_doc

                cached = scan_doc(self, no, cached)
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
    from .build import build
    from .memo import Memo, derivation_key

    # ``--rebuild`` derives every file again (and refreshes the memo), trusting no cache.
    memo = Memo(lambda: derivation_key(INDEX_VERSION), not rebuild)
    fields: dict[str, dict[str, list[str]]] = {}
    # A load's build leaves the safety scan to the rows routing reads (``vectors.scan_doc``);
    # a command that writes the index at once scans every memory.
    texts: dict[str, tuple[str, ...]] | None = None if write else {}
    data, entries, new = build(root, files, ignore_patterns, memo, fields, texts)
    pending = Pending(data, index_path, memo, entries, new, fields, share=write, texts=texts)
    index = _from_json(root, data, rebuilt=True, pending=pending)
    if write:
        save(index)
    return index


def parse_file(root: Root, rel: str) -> tuple[Memory | None, str, FileProblem | None]:
    """Parse one memory file: ``(memory, sha256, problem)``."""
    from .build import parse_bytes
    from .hashes import sha256_bytes

    raw = (root.path / rel).read_bytes()
    memory, problem = parse_bytes(rel, raw)
    return memory, sha256_bytes(raw), problem


def aux_sig(root: Root, ignore_patterns: tuple[str, ...], sources: list[str]) -> dict[str, Any]:
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
    return bool(aux == aux_sig(root, patterns, list(aux.get("sources", {}))))


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
        frozenset(data.get("unscanned", ())),
    )


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
