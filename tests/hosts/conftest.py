"""Fixtures for the real-host suite: one scripted model server, one workspace per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from harness import Workspace, host_binary
from model_server import ModelServer


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
    host_binary(host)  # install (or fail with one line) before the test starts its clock
    model.reset()
    return Workspace.create(tmp_path, host, model)
