"""A live Haki server on a loopback port, for clients that speak real HTTP.

The app runs under uvicorn in a thread of the test process, on the test's
own fresh database, so the sync SDK client (which cannot use an ASGI
transport) talks to it over a real socket.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn

from haki.api.app import create_app
from haki.config import Settings
from haki.providers import Providers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def live_url(db_url: str, settings: Settings, providers: Providers) -> Iterator[str]:
    app = create_app(settings, database_url=db_url, providers=providers, background=False)
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None, access_log=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
