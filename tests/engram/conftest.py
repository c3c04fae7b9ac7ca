"""Fixtures for Engram tests: a throwaway repository and isolated caches."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from engram_repo import Repo

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


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    return Repo(tmp_path / "repo")


@pytest.fixture
def fixture_roots() -> Callable[[], Roots]:
    corpus = FIXTURES / "corpus"
    return lambda: locate(corpus / "workspace", corpus / "global")
