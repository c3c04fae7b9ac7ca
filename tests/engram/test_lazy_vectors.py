"""Memory vectors derived when a load first reads them: the same vector as a build that
derives them all, written back into the index and the memo, and never kept for bytes
that changed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from engram_repo import Repo

from haki.engram import semantic, vectors
from haki.engram.index import Index, open_index
from haki.engram.loader import load
from haki.engram.plan import LoadRequest
from haki.engram.text import words
from haki.engram.workspace import cache_dir, locate

TASK = "write a migration for the orders table"


def _fill(repo: Repo) -> None:
    repo.add("db-migrations", tags=["migrations"], triggers=["migration"])
    repo.add("orders-table", type="knowledge", tags=["orders"], content="- The orders table.")
    repo.add("api-errors", tags=["api"], directive="Return the error envelope.")
    repo.add("css-grid", tags=["css"], directive="Lay pages out with CSS grid.")


def _fresh_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new process's table: no dictionary built, no scans made yet."""
    monkeypatch.setattr(semantic, "_LOADED", {})


def _stored(root_path: Path) -> list[str | None]:
    roots = locate(root_path, use_global=False)
    data = json.loads((cache_dir(roots.workspace) / "index.json").read_text(encoding="utf-8"))
    found: list[str | None] = data["vectors"]
    return found


def _by_id(ix: Index, values: list[str | None]) -> dict[str, str | None]:
    return dict(zip(ix.ids, values, strict=True))


def _clone(repo: Repo, into: Path) -> Repo:
    clone = Repo(into)
    shutil.copytree(repo.engram, clone.engram)
    return clone


def _eager(repo: Repo, mid: str, type: str = "rule") -> str:
    """The vector as an eager build encoded it: each field cut into words, weighted."""
    folder = {"rule": "rules", "knowledge": "knowledge"}[type]
    from haki.engram.build import parse_bytes

    memory, _ = parse_bytes(f"{folder}/{mid}.md", (repo.engram / folder / f"{mid}.md").read_bytes())
    assert memory is not None
    fields = {
        "id": words(" ".join(words(memory.id))),
        "tags": words(" ".join(memory.tags)),
        "directive": words(memory.directive),
        "triggers": words(" ".join(memory.triggers)),
        "title": words(memory.title),
        "summary": words(memory.summary),
        "content": words(memory.content),
    }
    table = semantic.open_table()
    assert table is not None
    return semantic.encode(table.embed_words(semantic.memory_parts(fields)))


def test_a_load_derives_only_its_candidates_and_writes_them_back(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fill(repo)
    _fresh_table(monkeypatch)
    plan = load(LoadRequest(TASK, record_usage=False), repo.roots())
    assert "db-migrations" in [i.id for i in plan.batch]
    ix = open_index(repo.roots().workspace)
    assert not ix.rebuilt
    stored = _by_id(ix, _stored(repo.root))
    # The candidates' vectors are on disk, exactly as an eager build encodes them;
    # memories no task word reached were never derived.
    assert stored["db-migrations"] == _eager(repo, "db-migrations")
    assert stored["orders-table"] == _eager(repo, "orders-table", "knowledge")
    assert stored["api-errors"] is None and stored["css-grid"] is None

    # The next load of the same task reads them: nothing is derived again.
    def no_derive(index: Index, no: int) -> str:
        raise AssertionError(f"{index.ids[no]} derived again")

    monkeypatch.setattr(vectors, "derive", no_derive)
    again = load(LoadRequest(TASK, record_usage=False), repo.roots())
    assert again.to_dict() == plan.to_dict()


def test_vectors_derived_over_several_loads_equal_a_full_index(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fill(repo)
    tasks = ["add an api error", TASK, "fix the css grid of the page"]
    for task in tasks:  # each a new process: a fresh table state
        _fresh_table(monkeypatch)
        load(LoadRequest(task, record_usage=False), repo.roots())
    lazily = _stored(repo.root)
    assert None not in lazily and "" not in lazily

    # ``engram index`` on a copy derives every vector at once.
    clone = tmp_path / "clone"
    (clone / ".git").mkdir(parents=True)
    shutil.copytree(repo.engram, clone / ".agents" / "engram")
    monkeypatch.setenv("ENGRAM_MEMO_DIR", str(tmp_path / "other-memo"))
    _fresh_table(monkeypatch)
    ix = open_index(locate(clone, use_global=False).workspace, write=False)
    assert set(ix.vectors) == {None}
    vectors.fill(ix)
    vectors.save(ix)
    assert _stored(clone) == lazily
    assert _by_id(ix, lazily)["api-errors"] == _eager(repo, "api-errors")


def test_the_memo_is_written_by_a_session_not_by_a_prompt(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fill(repo)
    # A prompt's load builds, derives its candidates' vectors and writes the index only.
    load(LoadRequest(TASK, record_usage=False), repo.roots())
    # A load on the cached index writes what it derives into the index only.
    load(LoadRequest("fix the css grid of the page", record_usage=False), repo.roots())
    assert _by_id(open_index(repo.roots().workspace), _stored(repo.root))["css-grid"]
    clone = open_index(_clone(repo, tmp_path / "clone").roots().workspace, write=False)
    assert clone.rebuilt and set(clone.vectors) == {None}  # nothing came from the memo
    # What runs once per session (a load that fills) writes every entry, with its vector.
    second = _clone(repo, tmp_path / "second")
    load(LoadRequest("fix the css grid", record_usage=False), second.roots(), fill_seconds=60)
    third = open_index(_clone(repo, tmp_path / "third").roots().workspace)
    from_memo = _by_id(third, third.vectors)
    assert from_memo["css-grid"] == _eager(repo, "css-grid")
    assert from_memo["db-migrations"] == _eager(repo, "db-migrations")
    assert None not in third.vectors


def test_a_session_after_a_prompt_writes_the_entries_the_prompt_left_out(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A prompt's load builds the index without the memo; the next fill (a session start,
    here on the cached index) writes every entry, derived again from the files: a clone
    then builds from the memo alone, the same index as a build that read no memo."""
    _fill(repo)
    load(LoadRequest(TASK, record_usage=False), repo.roots())
    data = json.loads((cache_dir(repo.roots().workspace) / "index.json").read_text("utf-8"))
    assert data["memo"] is False
    load(LoadRequest("fix the css grid", record_usage=False), repo.roots(), fill_seconds=60)
    data = json.loads((cache_dir(repo.roots().workspace) / "index.json").read_text("utf-8"))
    assert data["memo"] is True
    clone = open_index(_clone(repo, tmp_path / "clone").roots().workspace, write=False)
    assert clone.rebuilt and clone.pending is not None and clone.pending.new == {}
    assert None not in clone.vectors
    monkeypatch.setenv("ENGRAM_MEMO_DIR", str(tmp_path / "no-memo"))
    alone = open_index(_clone(repo, tmp_path / "alone").roots().workspace, write=False)
    assert alone.pending is not None and len(alone.pending.new) == len(alone.rows)
    # The same rows as read (a load's build leaves the rows it does not read unscanned).
    assert (clone.docs, clone.postings, clone.lengths) == (
        alone.docs,
        alone.postings,
        alone.lengths,
    )
    vectors.fill(alone)
    assert alone.vectors == clone.vectors


def test_the_memo_catch_up_keeps_the_fill_deadline(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session start past its fill deadline writes no missing entry and leaves the index
    marked, so a later fill writes them: a large pool never costs a hook its answer."""
    _fill(repo)
    load(LoadRequest(TASK, record_usage=False), repo.roots())
    index_json = cache_dir(repo.roots().workspace) / "index.json"
    late = open_index(repo.roots().workspace, write=False)
    vectors.fill(late, until=0.0)
    vectors.save(late)
    assert json.loads(index_json.read_text("utf-8"))["memo"] is False
    later = open_index(repo.roots().workspace, write=False)
    vectors.fill(later)
    vectors.save(later)
    assert json.loads(index_json.read_text("utf-8"))["memo"] is True
    clone = open_index(_clone(repo, tmp_path / "clone").roots().workspace, write=False)
    assert clone.pending is not None and clone.pending.new == {}


def test_a_prompt_rebuild_keeps_its_vectors_for_a_later_fill(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Vectors a prompt derived on a rebuild, then a fill in the same process: the memo gets
    every entry with its vector, those of the prompt included."""
    _fill(repo)
    ix = open_index(_clone(repo, tmp_path / "clone").roots().workspace, write=False)
    doc = ix.ids.index("db-migrations")
    derived = ix.vector(doc)
    vectors.save(ix)  # a prompt: index only
    vectors.fill(ix)
    vectors.save(ix)
    other = open_index(_clone(repo, tmp_path / "other").roots().workspace)
    assert _by_id(other, other.vectors)["db-migrations"] == derived
    assert None not in other.vectors


def test_an_edited_memory_gets_the_vector_of_its_new_words(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fill(repo)
    load(LoadRequest(TASK, record_usage=False), repo.roots())
    before = _by_id(open_index(repo.roots().workspace), _stored(repo.root))["db-migrations"]
    repo.add(
        "db-migrations",
        tags=["migrations"],
        triggers=["migration"],
        content="- Squash old migrations before a release; never edit an applied one.",
    )
    _fresh_table(monkeypatch)
    load(LoadRequest(TASK, record_usage=False), repo.roots())
    ix = open_index(repo.roots().workspace)
    after = _by_id(ix, _stored(repo.root))["db-migrations"]
    assert after == _eager(repo, "db-migrations")
    assert after != before


def test_bytes_changed_since_indexing_give_no_vector_and_none_is_kept(repo: Repo) -> None:
    """The index is stale (other bytes since it was read): no vector is derived from bytes
    the index does not describe, and none is written back."""
    _fill(repo)
    open_index(repo.roots().workspace)
    ix = open_index(repo.roots().workspace, write=False)  # from the cache, no words kept
    assert not ix.rebuilt
    no = ix.ids.index("db-migrations")
    path = repo.engram / "rules" / "db-migrations.md"
    path.write_text(path.read_text(encoding="utf-8").replace("Body", "Bodx"), encoding="utf-8")
    assert ix.vector(no) == ""
    assert ix.pending is not None and no not in ix.pending.computed
    vectors.save(ix)
    assert _stored(repo.root)[no] is None


def test_a_build_derives_from_the_words_it_parsed(repo: Repo) -> None:
    """Within the process that built the index, a vector comes from the bytes it indexed,
    whatever the file holds by then."""
    _fill(repo)
    indexed = _eager(repo, "db-migrations")
    ix = open_index(repo.roots().workspace, write=False)
    path = repo.engram / "rules" / "db-migrations.md"
    path.write_text(path.read_text(encoding="utf-8").replace("Body", "Bodx"), encoding="utf-8")
    assert ix.vector(ix.ids.index("db-migrations")) == indexed


def test_without_a_table_nothing_waits_to_be_derived(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fill(repo)
    monkeypatch.setenv("ENGRAM_MODEL_DIR", str(tmp_path / "no-table"))
    _fresh_table(monkeypatch)
    monkeypatch.setattr(vectors, "derive", lambda index, no: pytest.fail("derived"))
    plan = load(LoadRequest(TASK, record_usage=False), repo.roots())
    assert "db-migrations" in [i.id for i in plan.batch]
    assert set(_stored(repo.root)) == {""}


def _hook(repo: Repo, event: dict[str, object]) -> dict[str, object]:
    from haki.engram.hooks.runtime import run

    payload = {"session_id": "s1", "cwd": str(repo.root), **event}
    answer: dict[str, object] = json.loads(run("claude", json.dumps(payload), repo.global_dir))
    return answer


def test_the_session_start_hook_fills_every_vector_for_the_prompts(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fill(repo)
    load(LoadRequest(TASK, record_usage=False), repo.roots())  # some derived, some not
    assert None in _stored(repo.root)
    _fresh_table(monkeypatch)
    _hook(repo, {"hook_event_name": "SessionStart", "source": "startup"})
    stored = _by_id(open_index(repo.roots().workspace), _stored(repo.root))
    assert None not in stored.values()
    assert stored["css-grid"] == _eager(repo, "css-grid")
    assert stored["api-errors"] == _eager(repo, "api-errors")

    # A prompt that follows reads every candidate's vector: it derives none.
    monkeypatch.setattr(vectors, "derive", lambda index, no: pytest.fail("derived"))
    answer = _hook(
        repo,
        {"hook_event_name": "UserPromptSubmit", "prompt": "fix the css grid of the page"},
    )
    assert "css-grid" in json.dumps(answer)


def test_a_fill_on_a_cached_index_reaches_the_memo_for_the_next_rebuild(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fill(repo)
    open_index(repo.roots().workspace)  # built: no vector derived, none in the memo
    ix = open_index(repo.roots().workspace, write=False)
    assert not ix.rebuilt
    vectors.fill(ix)
    vectors.save(ix)
    filled = _by_id(ix, _stored(repo.root))
    # One memory changes: the rebuild reads the others' vectors from the memo.
    repo.add("css-grid", tags=["css"], directive="Lay pages out with CSS grid areas.")
    derived: list[str] = []
    derive = vectors.derive

    def counted(index: Index, no: int) -> str:
        derived.append(index.ids[no])
        return derive(index, no)

    monkeypatch.setattr(vectors, "derive", counted)
    rebuilt = open_index(repo.roots().workspace, write=False)
    assert rebuilt.rebuilt
    from_memo = _by_id(rebuilt, rebuilt.vectors)
    assert from_memo["css-grid"] is None
    assert {k: v for k, v in from_memo.items() if k != "css-grid"} == {
        k: v for k, v in filled.items() if k != "css-grid"
    }
    vectors.fill(rebuilt)
    assert derived == ["css-grid"]


def test_hooks_install_fills_every_vector(repo: Repo) -> None:
    from haki.engram.cli import main

    _fill(repo)
    open_index(repo.roots().workspace)
    assert set(_stored(repo.root)) == {None}
    args = ["hooks", "install", "--host", "claude", "--workspace", str(repo.root)]
    assert main([*args, "--global-dir", str(repo.global_dir)]) == 0
    stored = _by_id(open_index(repo.roots().workspace), _stored(repo.root))
    assert None not in stored.values()
    assert stored["orders-table"] == _eager(repo, "orders-table", "knowledge")


def test_a_fill_out_of_time_keeps_what_it_derived(repo: Repo) -> None:
    import time

    _fill(repo)
    open_index(repo.roots().workspace)
    ix = open_index(repo.roots().workspace, write=False)
    vectors.fill(ix, until=time.perf_counter() - 1)
    assert set(ix.vectors) == {None}
    vectors.fill(ix, until=time.perf_counter() + 60)
    vectors.save(ix)
    assert None not in _stored(repo.root)
