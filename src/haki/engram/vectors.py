"""Memory vectors derived when a load first reads them, and written back.

A task's candidates are a few dozen of a pool's memories (a median 34 of the shared
corpus's 144), and routing compares the task's vector with theirs only. Deriving every
memory's vector when the index is built was the largest step of a cold load
(docs/engram.md, "Where a cold load's CPU goes"), so the index and the memo hold None
until a load needs a memory's vector: ``Index.vector`` then derives it from the file,
exactly as a build would, and ``save`` writes it into the index document, so the next
load of the same bytes reads it.

A prompt hook that met underived candidates would pay for them (a dictionary of the
table, then about 0.3 ms a memory) on every new prompt. So what runs once per session
(the session-start hooks), ``engram hooks install`` and ``engram index`` fill every missing
vector (``fill``), into the index and the memo: the prompts that follow derive none, and
a rebuild after one memory changed finds the others' vectors in the memo.
"""

from __future__ import annotations

import json

from .record import field_names
from .workspace import write_atomic

TYPE_CHECKING = False  # ``typing`` stays unimported at run time (see record.py)
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from .index import Doc, Index
    from .memo import Memo
    from .memory import Memory
    from .workspace import Roots


class Pending:
    """What one process has to write for one index: the document (when it was rebuilt),
    the memo entries derived with it, and the vectors derived since it was opened."""

    __slots__ = (
        "computed",
        "data",
        "entries",
        "fields",
        "filled",
        "memo",
        "new",
        "parsed",
        "path",
        "rebuilt",
        "scanned",
        "share",
        "texts",
        "until",
    )

    def __init__(
        self,
        data: dict[str, Any],
        path: Path,
        memo: Memo | None = None,
        entries: list[tuple[str, dict[str, Any]]] | None = None,
        new: dict[str, dict[str, Any]] | None = None,
        fields: dict[str, dict[str, list[str]]] | None = None,
        share: bool = True,
        texts: dict[str, tuple[str, ...]] | None = None,
    ) -> None:
        self.data = data
        self.path = path
        self.memo = memo
        # Per doc number: its memo name and entry (a rebuilt index only).
        self.entries = entries
        self.new = new or {}
        # By memo name: the words of each memory this process parsed (``build._derive``).
        self.fields = fields or {}
        # By memo name: the scan texts of each memory this build left unscanned.
        self.texts = texts or {}
        self.rebuilt = memo is not None
        self.computed: dict[int, str] = {}
        # Per doc number: the safety findings scanned since the index was opened.
        self.scanned: dict[int, tuple[str, ...]] = {}
        # Per doc number: a memory parsed from its file for its scan, kept until its vector
        # is derived, so that the file is read and parsed once for both.
        self.parsed: dict[int, Memory] = {}
        # Set by ``fill``: the memo receives the vectors of an index read from its cache too.
        self.filled = False
        # Whether a rebuild's entries go to the memo (``_store``): yes for ``engram index``
        # and for a process that fills (a session start), not for a prompt's load, where
        # the memo write (importing sqlite3, hashing the deriving code, one transaction:
        # about 9 ms) would only serve another clone, which its own session start serves.
        self.share = share
        # The fill's deadline (``time.perf_counter``), which the memo catch-up keeps too.
        self.until: float | None = None


def derive(index: Index, no: int) -> str:
    """Doc ``no``'s encoded vector from its file ("" without a table, or when the file no
    longer holds the bytes indexed: the index is stale and the next load rebuilds it)."""
    from .build import field_words_of
    from .semantic import memory_parts, open_table

    pending = index.pending
    fields = None
    if pending is not None and pending.entries is not None:
        fields = pending.fields.get(pending.entries[no][0])
    if fields is None:
        memory = _memory_of(index, index.doc(no), no)
        if memory is None:  # stale: nothing derived, nothing kept
            return ""
        fields = field_words_of(memory)
    table = open_table()
    if fields is None or table is None:
        vector = ""
    else:
        # A memory looks up hundreds of pieces: the dictionary costs less than the scans.
        table.expect_many_lookups()
        vector = table.embed_encoded(memory_parts(fields))
    if pending is not None:
        pending.computed[no] = vector
    return vector


def scan_doc(index: Index, no: int, doc: Doc) -> Doc:
    """Doc ``no`` with its safety findings, scanned now: from the texts this process's
    build kept, or from the file. A file that no longer holds the bytes indexed is not
    scanned, and its row is withheld as ``UNSCANNED`` (the next load rebuilds the index)."""
    from .record import replace
    from .safety import scan

    pending = index.pending
    parts = None
    if pending is not None and pending.entries is not None:
        parts = pending.texts.get(pending.entries[no][0])
    if parts is None:
        from .build import scan_texts

        memory = _memory_of(index, doc, no)
        parts = None if memory is None else scan_texts(memory)
        vectors = index.vectors
        if memory is not None and pending is not None and no < len(vectors) and vectors[no] is None:
            pending.parsed[no] = memory  # its vector is still to derive: parsed once for both
    if parts is None:
        return replace(doc, unsafe=UNSCANNED)
    found = scan(parts)
    if pending is not None:
        pending.scanned[no] = found
        if pending.entries is not None:
            derived = pending.entries[no][1]["derived"]
            derived["unsafe"] = found
    return replace(doc, unsafe=found)


# The finding of a row whose file changed before it could be scanned: never shown.
UNSCANNED = ("unscanned:changed since indexing",)


def _memory_of(index: Index, doc: Doc, no: int) -> Memory | None:
    """The memory in ``doc``'s file, when the file still holds the bytes indexed."""
    from .build import parse_bytes

    if index.pending is not None and no in index.pending.parsed:
        return index.pending.parsed.pop(no)
    raw = _indexed_bytes(index, doc)
    return None if raw is None else parse_bytes(doc.path, raw)[0]


def _indexed_bytes(index: Index, doc: Doc) -> bytes | None:
    """``doc``'s file, when it still holds the bytes indexed."""
    from .hashes import sha256_bytes

    try:
        raw = (index.root.path / doc.path).read_bytes()
    except OSError:
        return None
    return raw if sha256_bytes(raw) == doc.sha256 else None


def _write_scans(pending: Pending) -> None:
    """The findings scanned since the index was opened, into its document's rows."""
    if not pending.scanned:
        return
    from .index import Doc

    at = field_names(Doc).index("unsafe")
    rows = pending.data["rows"]
    pending.data["unscanned"] = [
        n for n in pending.data.get("unscanned", ()) if n not in pending.scanned
    ]
    for no, found in pending.scanned.items():
        row = json.loads(rows[no])
        row[at] = list(found)
        rows[no] = json.dumps(row, separators=(",", ":"))


def fill(index: Index, until: float | None = None) -> None:
    """Every vector not derived yet, for ``save`` to write into the index and the memo
    (later loads and hooks derive none); with ``until`` (a ``time.perf_counter`` value),
    those derived by then, the rest left to later loads."""
    import time

    for no in range(len(index.rows)):
        if until is not None and time.perf_counter() > until:
            break
        if no in index.unscanned:
            index.doc(no)  # scans it
        index.vector(no)
    if index.pending is not None:
        index.pending.share = True
        index.pending.until = until
        if index.pending.computed:
            index.pending.filled = True


def fill_roots(roots: Roots, rebuild: bool = False) -> list[Index]:
    """Each root's index with every vector derived and written (``engram index``,
    ``engram hooks install``)."""
    from .index import open_index

    indexes = []
    for root in roots.all():
        ix = open_index(root, roots.config.ignore, rebuild=rebuild, write=False)
        fill(ix)
        save(ix)
        indexes.append(ix)
    return indexes


def save(index: Index) -> None:
    """Write what ``index.pending`` holds: the document and the memo entries of a rebuild,
    with the vectors derived since. Idempotent; a cache only, so failures cost the next
    load a derivation, never an error."""
    pending = index.pending
    if pending is None:
        return
    # A cached index built by a prompt's load, whose entries never reached the memo: the
    # first process that shares (a fill) writes them.
    catch_up = pending.share and pending.entries is None and not pending.data.get("memo")
    if not (pending.rebuilt or pending.computed or pending.scanned or catch_up):
        return
    vectors = pending.data.setdefault("vectors", [])
    for no, vector in pending.computed.items():
        vectors[no] = vector
    _write_scans(pending)
    complete = True
    if pending.entries is None and (pending.filled or catch_up):
        complete = _keep(index, vectors, catch_up, pending.until)
    if pending.share:
        # ``_keep`` wrote the entries (all of them unless its deadline came first, and the
        # next fill goes on), or ``_store`` below writes them.
        pending.data["memo"] = complete
    try:  # noqa: SIM105 - contextlib stays unimported on the load path
        write_atomic(pending.path, json.dumps(pending.data, separators=(",", ":")))
    except OSError:  # a read-only cache only costs the next load a build
        pass
    _store(pending)
    pending.rebuilt = False
    pending.computed = {}
    pending.scanned = {}
    pending.filled = False


def _store(pending: Pending) -> None:
    """The memo's entries of a rebuild: those it derived, and the vectors derived since in
    their entries. A load on an index read from its cache writes its vectors into the index
    only: reaching the memo would cost it importing sqlite3 and hashing the deriving code
    (about 8 ms of a warm hook), for the benefit of other clones only. A rebuild that does
    not share (a prompt's load) keeps its entries, vectors folded in, for a later fill."""
    if pending.memo is None or pending.entries is None:
        return
    for no, vector in pending.computed.items():
        name, entry = pending.entries[no]
        entry["derived"]["vector"] = vector
        if name not in pending.new:
            pending.new[name] = entry
    if pending.share and pending.new:
        # The memo's entries are always scanned: a memo hit builds a row without a scan.
        for name, entry in pending.new.items():
            derived = entry.get("derived")
            if derived is not None and derived["unsafe"] is None:
                from .safety import scan

                derived["unsafe"] = scan(pending.texts[name])
        pending.memo.put_many(pending.new)
        pending.new = {}


def _keep(
    index: Index, vectors: list[str | None], complete: bool = False, until: float | None = None
) -> bool:
    """A filled index read from its cache: its vectors into the memo entries of the same
    bytes that lack one (those derived by the fill and by earlier loads), so that a rebuild
    after one memory changed derives only that memory; with ``complete``, the entries the
    memo lacks too, derived again from the files (an index a prompt's load built). Once per
    fill, never per prompt: it costs importing sqlite3 and hashing the deriving code
    (about 8 ms), and a memory's parse when its entry is missing, until ``until`` (a
    ``time.perf_counter`` value). Whether every missing entry was written."""
    import time

    from .index import INDEX_VERSION
    from .memo import Memo, derivation_key

    memo = Memo(derivation_key(INDEX_VERSION))
    numbers: dict[str, int] = {}
    for no, vector in enumerate(vectors):
        if vector or complete:
            doc = index.doc(no)
            numbers[Memo.name(doc.path, doc.sha256)] = no
    found = memo.get_many(list(numbers))
    updates: dict[str, dict[str, Any]] = {}
    done = True
    for name, no in numbers.items():
        entry = found.get(name)
        if entry is None:
            if complete and until is not None and time.perf_counter() > until:
                done = False
            elif complete:
                missing = _entry_from_file(index, no, vectors[no], name)
                if missing is not None:
                    updates[name] = missing
            continue
        derived = entry.get("derived")
        if derived is not None and derived.get("vector") is None and vectors[no]:
            derived["vector"] = vectors[no]
            updates[name] = entry
    memo.put_many(updates)
    return done


def _entry_from_file(index: Index, no: int, vector: str | None, name: str) -> dict[str, Any] | None:
    """Doc ``no``'s memo entry as a rebuild derives it, from its file; None when the file
    no longer holds the bytes indexed."""
    from .build import entry_of

    doc = index.doc(no)
    raw = _indexed_bytes(index, doc)
    if raw is None:
        return None
    return entry_of(doc.path, raw, doc.sha256, vector, {}, name)
