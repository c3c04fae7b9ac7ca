"""Fixtures for Engram tests: a throwaway repository and isolated caches."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from haki.engram.workspace import Roots, locate

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "engram"


@pytest.fixture(scope="session", autouse=True)
def static_table() -> Path:
    """The machine's static embedding table, distilled once if missing (a minute or two),
    and named in the environment so tests that move HOME still route with meaning."""
    import os

    from haki.engram.distil import distil
    from haki.engram.semantic import table_dir, table_path

    path = table_path()
    if not path.is_file():
        distil(path)
    os.environ["ENGRAM_MODEL_DIR"] = str(table_dir())
    return path


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENGRAM_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("ENGRAM_GLOBAL_DIR", str(tmp_path / "global"))


def memory_text(
    id: str, type: str = "rule", directive: str = "", content: str = "", **fields: Any
) -> str:
    lines = ["---", f"id: {id}", f"type: {type}"]
    fields.setdefault("directive", directive or f"Follow the {id} convention.")
    for key, value in fields.items():
        lines.append(
            f"{key}: {json.dumps(value) if not isinstance(value, str) or key != 'raw' else value}"
        )
    lines += [
        "---",
        "",
        f"# {id}",
        "",
        "## Content",
        "",
        content or f"- Body of {id}.",
        "",
        "## Context",
        "",
        "Hidden context line.",
        "",
        "## Origin",
        "",
        "- hidden origin",
        "",
    ]
    return "\n".join(lines)


class Repo:
    def __init__(self, root: Path) -> None:
        self.root = root
        (root / ".git").mkdir(parents=True, exist_ok=True)
        self.engram = root / ".agents" / "engram"
        self.global_dir = root.parent / "global"

    def add(
        self,
        id: str,
        type: str = "rule",
        where: str = "workspace",
        folder: str | None = None,
        **fields: Any,
    ) -> Path:
        base = self.engram if where == "workspace" else self.global_dir
        folder = folder or {"rule": "rules", "skill": "skills", "knowledge": "knowledge"}[type]
        path = base / folder / f"{id}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(memory_text(id, type, **fields), encoding="utf-8")
        return path

    def roots(self) -> Roots:
        return locate(self.root, self.global_dir)


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    return Repo(tmp_path / "repo")


@pytest.fixture
def fixture_roots() -> Callable[[], Roots]:
    corpus = FIXTURES / "corpus"
    return lambda: locate(corpus / "workspace", corpus / "global")
