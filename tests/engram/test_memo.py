"""The content-keyed memo: a fresh copy of a repository reuses what an earlier build derived,
builds the same index as a build without it, and never serves an edited memory's old entry."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from engram_repo import Repo

from haki.engram import build as build_module
from haki.engram.index import open_index
from haki.engram.loader import load
from haki.engram.memo import MEMO_NAME
from haki.engram.plan import LoadRequest
from haki.engram.workspace import cache_dir, locate, memo_dir


def _copy(repo: Repo, into: Path) -> Path:
    clone = into / "clone"
    (clone / ".git").mkdir(parents=True)
    shutil.copytree(repo.engram, clone / ".agents" / "engram")
    return clone


def _index_json(root_path: Path) -> dict:
    roots = locate(root_path, use_global=False)
    ix = open_index(roots.workspace)
    data = json.loads((cache_dir(roots.workspace) / "index.json").read_text(encoding="utf-8"))
    data.pop("root")  # the one field that names the checkout
    data.pop("files")  # mtimes differ between copies
    assert ix.rebuilt
    return data


def _fill(repo: Repo) -> None:
    repo.add("db-migrations", tags=["migrations"], triggers=["migration"])
    repo.add("api-errors", tags=["api"], directive="Return the error envelope.")
    repo.add("leaky", content="- token ghp_" + "a" * 36)  # the safety finding is memoised too


def test_fresh_copy_reuses_the_memo_and_builds_the_same_index(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fill(repo)
    first = _index_json(repo.root)
    assert (memo_dir() / MEMO_NAME).is_file()

    def no_parse(rel: str, raw: bytes) -> object:
        raise AssertionError(f"{rel} parsed again although its bytes were memoised")

    monkeypatch.setattr(build_module, "parse_bytes", no_parse)
    clone = _copy(repo, tmp_path)
    assert _index_json(clone) == first
    assert any("secret" in row for row in first["rows"])


def test_memo_hit_matches_a_build_without_memo(repo: Repo, tmp_path: Path, monkeypatch) -> None:
    _fill(repo)
    _index_json(repo.root)  # fills the memo
    with_memo = _index_json(_copy(repo, tmp_path / "a"))
    monkeypatch.setenv("ENGRAM_MEMO_DIR", str(tmp_path / "empty-memo"))
    without = _index_json(_copy(repo, tmp_path / "b"))
    assert with_memo == without


def test_an_edited_memory_is_derived_again(repo: Repo, tmp_path: Path) -> None:
    repo.add("db-migrations", tags=["migrations"], triggers=["migration"])
    roots = repo.roots()
    assert [i.id for i in load(LoadRequest("write a migration"), roots).batch] == ["db-migrations"]
    clone = _copy(repo, tmp_path)
    path = clone / ".agents" / "engram" / "rules" / "db-migrations.md"
    text = path.read_text(encoding="utf-8").replace('["migrations"]', '["deploys"]')
    path.write_text(text.replace('["migration"]', '["deploy"]'), encoding="utf-8")
    plan = load(LoadRequest("ship a deploy"), locate(clone, use_global=False))
    assert [i.id for i in plan.batch] == ["db-migrations"]
    assert "deploy" in " ".join(plan.batch[0].reasons)


def test_rebuild_ignores_the_memo_and_an_unwritable_memo_is_no_error(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fill(repo)
    _index_json(repo.root)
    calls: list[str] = []
    real = build_module.parse_bytes

    def counting(rel: str, raw: bytes):  # type: ignore[no-untyped-def]
        calls.append(rel)
        return real(rel, raw)

    monkeypatch.setattr(build_module, "parse_bytes", counting)
    open_index(repo.roots().workspace, rebuild=True)
    assert len(calls) == 3
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("ENGRAM_MEMO_DIR", str(blocker / "memo"))
    assert _index_json(_copy(repo, tmp_path / "c"))["columns"]["ids"]


def test_a_damaged_memo_file_is_replaced(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fill(repo)
    memo_file = memo_dir() / MEMO_NAME
    memo_file.parent.mkdir(parents=True)
    memo_file.write_bytes(b"not a database at all, " * 100)
    first = _index_json(repo.root)  # derives everything, then writes a new memo
    monkeypatch.setattr(build_module, "parse_bytes", lambda rel, raw: pytest.fail(rel))
    assert _index_json(_copy(repo, tmp_path)) == first


def _code_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the deriving code's folders, which the derivation key reads."""
    from haki.engram import memo

    copies = []
    for folder in memo._PACKAGES:
        copy = tmp_path / "code" / folder.name
        shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("__pycache__"))
        copies.append(copy)
    monkeypatch.setattr(memo, "_PACKAGES", tuple(copies))
    return copies[0]


def test_code_changed_under_pinned_mtimes_gives_another_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An install that pins every mtime (reproducible builds, Nix, some wheels)
    # can replace a code file by another of the same size: its entries were
    # derived by the old code and must not be read.
    from haki.engram.memo import derivation_key

    engram = _code_copy(tmp_path, monkeypatch)
    before = derivation_key(1)
    code = engram / "safety.py"
    st = code.stat()
    text = code.read_bytes()
    changed = text.replace(b"(", b"[", 1)
    assert changed != text and len(changed) == len(text)
    code.write_bytes(changed)
    os.utime(code, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert derivation_key(1) != before


def test_the_same_code_touched_keeps_its_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Content, not times: a reinstall of the same code reuses the entries.
    import haki
    from haki.engram.memo import derivation_key

    engram = _code_copy(tmp_path, monkeypatch)
    before = derivation_key(1)
    os.utime(engram / "safety.py", ns=(1, 1))
    assert derivation_key(1) == before
    # Another release is another key, whatever its files.
    monkeypatch.setattr(haki, "__version__", "0.0.0-other")
    assert derivation_key(1) != before
