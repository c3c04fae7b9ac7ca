"""The safety scan of a load's cold build covers the rows routing reads: a row no one
reads stays unscanned in the index, a row read is scanned before anyone sees it (from
the texts the build kept, or from its file), and what a session start or the memo keeps
is always scanned."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from engram_repo import Repo

from haki.engram import safety, vectors
from haki.engram.index import Doc, open_index
from haki.engram.loader import load
from haki.engram.memo import MEMO_NAME, Memo, derivation_key
from haki.engram.plan import LoadRequest
from haki.engram.record import field_names
from haki.engram.workspace import cache_dir, memo_dir

TASK = "write a migration for the orders table"
TOKEN = "ghp_" + "a" * 36
_UNSAFE = field_names(Doc).index("unsafe")


def _fill(repo: Repo) -> None:
    repo.add("db-migrations", tags=["migrations"], triggers=["migration"])
    # Routed for the task, and holding a secret: the gate must still see it.
    repo.add("orders-leak", tags=["orders"], content=f"- The orders token is {TOKEN}")
    repo.add("css-grid", tags=["css"], content=f"- Grid token {TOKEN}")
    repo.add("api-errors", tags=["api"], directive="Return the error envelope.")


def _rows(repo: Repo) -> dict[str, object]:
    """Each row's findings by id (None: not scanned yet), checked against the list of
    unscanned rows the document keeps for a fill."""
    data = json.loads(
        (cache_dir(repo.roots().workspace) / "index.json").read_text(encoding="utf-8")
    )
    rows = [json.loads(r) for r in data["rows"]]
    assert data["unscanned"] == [n for n, row in enumerate(rows) if row[_UNSAFE] is None]
    return {row[0]: row[_UNSAFE] for row in rows}


def test_a_loads_build_scans_the_rows_it_reads_and_still_withholds_a_secret(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fill(repo)
    scanned: list[str] = []
    real = safety.scan

    def counting(parts):  # type: ignore[no-untyped-def]
        scanned.append(next(iter(parts)))
        return real(parts)

    monkeypatch.setattr(safety, "scan", counting)
    plan = load(LoadRequest(TASK, record_usage=False), repo.roots())
    assert "db-migrations" in [i.id for i in plan.batch]
    assert ("orders-leak", "unsafe") in [(s.id, s.reason) for s in plan.skipped]
    rows = _rows(repo)
    assert rows["orders-leak"] == ["secret:github-token"]
    # Not a candidate: never scanned, so the index says so rather than "safe".
    assert rows["css-grid"] is None
    assert len(scanned) < 4


def test_a_later_load_scans_an_unscanned_row_from_its_file_and_writes_it_back(
    repo: Repo,
) -> None:
    _fill(repo)
    load(LoadRequest(TASK, record_usage=False), repo.roots())
    assert _rows(repo)["css-grid"] is None
    plan = load(LoadRequest("lay out the page with css grid", record_usage=False), repo.roots())
    assert ("css-grid", "unsafe") in [(s.id, s.reason) for s in plan.skipped]
    assert _rows(repo)["css-grid"] == ["secret:github-token"]


def test_a_row_whose_file_changed_before_its_scan_is_withheld(repo: Repo) -> None:
    _fill(repo)
    load(LoadRequest(TASK, record_usage=False), repo.roots())
    ix = open_index(repo.roots().workspace, write=False)
    assert not ix.rebuilt
    path = repo.engram / "rules" / "css-grid.md"
    path.write_text(path.read_text(encoding="utf-8").replace(TOKEN, "nothing"), encoding="utf-8")
    doc = ix.doc(ix.ids.index("css-grid"))
    assert doc.unsafe == vectors.UNSCANNED
    vectors.save(ix)
    assert _rows(repo)["css-grid"] is None  # not written: the next load rebuilds


def test_a_session_start_leaves_no_row_unscanned_and_the_memo_holds_findings(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ENGRAM_MEMO_DIR", str(tmp_path / "memo"))
    _fill(repo)
    load(LoadRequest(TASK, record_usage=False), repo.roots(), fill_seconds=60)
    rows = _rows(repo)
    assert None not in rows.values()
    assert rows["css-grid"] == ["secret:github-token"]
    assert (memo_dir() / MEMO_NAME).is_file()
    ix = open_index(repo.roots().workspace, write=False)
    from haki.engram.index import INDEX_VERSION

    memo = Memo(derivation_key(INDEX_VERSION))
    names = [Memo.name(d.path, d.sha256) for d in ix.docs]
    entries = memo.get_many(names)
    assert len(entries) == 4
    assert all(e["derived"]["unsafe"] is not None for e in entries.values())


def test_a_fill_reads_and_parses_each_unscanned_file_once_for_scan_and_vector(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    from haki.engram import build

    _fill(repo)
    load(LoadRequest(TASK, record_usage=False), repo.roots())
    ix = open_index(repo.roots().workspace, write=False)
    assert not ix.rebuilt and ix.unscanned
    parsed: list[str] = []
    real = build.parse_bytes

    def counting(rel: str, raw: bytes):  # type: ignore[no-untyped-def]
        parsed.append(rel)
        return real(rel, raw)

    monkeypatch.setattr(build, "parse_bytes", counting)
    vectors.fill(ix)
    assert parsed and len(parsed) == len(set(parsed))
    assert all(ix.doc(no).unsafe is not None for no in range(len(ix.rows)))
