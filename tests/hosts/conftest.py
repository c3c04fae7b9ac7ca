"""Fixtures for the real-host suite: one scripted model server, one workspace per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from harness import PACKAGES, Workspace, host_binary
from model_server import ModelServer


def pytest_sessionstart(session: pytest.Session) -> None:
    """Install the pinned CLIs before any test: a registry that cannot be reached
    stops the stage with one line, never a skip."""
    for host in PACKAGES:
        host_binary(host)


@pytest.fixture(scope="session")
def model() -> Iterator[ModelServer]:
    server = ModelServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def workspace(tmp_path: Path, model: ModelServer, request: pytest.FixtureRequest) -> Workspace:
    host = request.param if hasattr(request, "param") else "claude"
    model.reset()
    return Workspace.create(tmp_path, host, model)
