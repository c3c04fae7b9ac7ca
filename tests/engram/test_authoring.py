"""init, add, lint, graph, verify and rehash."""

from __future__ import annotations

import pytest

from haki.engram import graph
from haki.engram.authoring import NewMemory, add, init, lint
from haki.engram.errors import DuplicateMemory, SchemaError
from haki.engram.index import parse_file
from haki.engram.integrity import rehash, verify


def test_init_creates_layout_once(repo) -> None:
    root = repo.roots().workspace
    created = init(root)
    assert (repo.engram / "config.yaml").exists() and (repo.engram / "rules").is_dir()
    assert root.lock_path in created
    assert init(root) == []


def test_add_writes_a_valid_recorded_file(repo) -> None:
    root = repo.roots().workspace
    init(root)
    path = add(
        root,
        NewMemory(
            "rule", "api-errors", "Return errors as {error: {type, message}}.", tags=("api",)
        ),
        today="2026-01-02",
    )
    memory, _digest, problem = parse_file(root, "rules/api-errors.md")
    assert problem is None and memory is not None
    assert memory.directive == "Return errors as {error: {type, message}}."
    assert memory.tags == ("api",) and memory.created == "2026-01-02"
    assert path.name == "api-errors.md"
    assert verify(repo.roots().all()) == ()
    with pytest.raises(DuplicateMemory):
        add(root, NewMemory("rule", "api-errors", "Again."))
    with pytest.raises(SchemaError):
        add(root, NewMemory("rule", "Bad Id", "x"))


def test_lint_reports_schema_duplicates_broken_deps_cycles_and_oversize(repo) -> None:
    repo.add("a-rule", depends_on=["b-rule"])
    repo.add("b-rule", depends_on=["a-rule"])
    repo.add("c-rule", depends_on=["missing-rule"])
    repo.add("big-rule", content="word " * 4000)
    repo.add("a-rule", type="skill", folder="skills")
    (repo.engram / "rules" / "broken.md").write_text(
        "---\nid: broken\ntype: rule\ntype: skill\n---\n"
    )
    messages = [f"{f.severity} {f.message}" for f in lint(repo.roots())]
    assert any("duplicate key 'type'" in m for m in messages)
    assert any("duplicate id 'a-rule'" in m for m in messages)
    assert "error depends_on 'missing-rule': no such memory" in messages
    assert "error depends_on cycle: a-rule -> b-rule -> a-rule" in messages
    assert any(m.startswith("warning body is") for m in messages)


def test_graph_layers_and_cycles() -> None:
    g = graph.build({"a": (), "b": ("a",), "c": ("b", "a"), "d": ("x",)})
    assert g.layers == (("a", "d"), ("b",), ("c",))
    assert g.broken == (("d", "x"),)
    cyc = graph.build({"a": ("c",), "b": ("a",), "c": ("b",), "z": ()})
    assert cyc.cycles == (("a", "c", "b"),)
    assert cyc.layers == (("z",),)


def test_verify_and_rehash_track_sources(repo) -> None:
    (repo.root / "docs").mkdir(parents=True)
    (repo.root / "docs" / "api.md").write_text("v1")
    repo.add("api-doc", sources=["docs/api.md"])
    assert {f.status for f in verify(repo.roots().all())} == {"untracked"}
    assert rehash(repo.roots().all()) == 2
    assert verify(repo.roots().all()) == ()
    (repo.root / "docs" / "api.md").write_text("v2")
    assert [(f.status, f.path) for f in verify(repo.roots().all())] == [
        ("stale_source", "docs/api.md")
    ]
    (repo.engram / "rules" / "api-doc.md").unlink()
    assert "removed" in {f.status for f in verify(repo.roots().all())}
