"""An app with auth ON (admin key set) and helpers to mint keys without HTTP."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from auth_helpers import ADMIN_KEY

from haki import auth
from haki.api.app import create_app
from haki.config import Settings, load_settings
from haki.providers import Providers


@pytest.fixture
def auth_settings() -> Settings:
    return load_settings(auth="on", admin_key=ADMIN_KEY, database_url=None)


async def _client(
    db_url: str, settings: Settings, providers: Providers
) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(settings, database_url=db_url, providers=providers, background=False)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://haki.test") as c:
            c.app = app  # type: ignore[attr-defined]
            yield c


@pytest.fixture
async def authed_client(
    db_url: str, auth_settings: Settings, providers: Providers
) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client on an app that requires keys; no Authorization header by default."""
    async for c in _client(db_url, auth_settings, providers):
        yield c


@pytest.fixture
def make_client(db_url: str, providers: Providers):
    """Build a client on an app with custom settings: ``async with make_client(settings) as c``."""
    from contextlib import asynccontextmanager

    @asynccontextmanager
    async def build(settings: Settings):
        async for c in _client(db_url, settings, providers):
            yield c

    return build


@pytest.fixture
def mint(authed_client: httpx.AsyncClient):
    """Create a key for a project straight through the service (as ``haki keys create`` does)."""

    async def issue(project_id: str, *, label: str = "", org_id: str = "default") -> auth.IssuedKey:
        db = authed_client.app.state.haki.db  # type: ignore[attr-defined]
        return await auth.issue(db, org_id=org_id, project_id=project_id, label=label)

    return issue
