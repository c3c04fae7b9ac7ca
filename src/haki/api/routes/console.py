"""Mounts the web console (``haki.console``) and its static files on the app."""

from __future__ import annotations

from fastapi import FastAPI

from ...console import mount_static
from ...console import router as console_router


def install(app: FastAPI) -> None:
    app.include_router(console_router)
    mount_static(app)
