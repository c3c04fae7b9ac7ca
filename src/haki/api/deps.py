"""FastAPI dependencies with ``Annotated`` aliases, so routes stay one-liners.

Each is ``async def``, though none awaits: FastAPI runs a plain ``def``
dependency in its thread pool, a thread hop per dependency per request
for what is an attribute read.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from ..config import Settings
from ..context.trace_writer import TraceWriter
from ..providers import Providers
from ..storage import Database
from .state import AppState


def _state(request: Request) -> AppState:
    state: AppState = request.app.state.haki
    return state


async def get_state(request: Request) -> AppState:
    return _state(request)


async def get_db(request: Request) -> Database:
    return _state(request).db


async def get_settings(request: Request) -> Settings:
    return _state(request).settings


async def get_providers(request: Request) -> Providers:
    return _state(request).providers


async def get_traces(request: Request) -> TraceWriter:
    return _state(request).traces


StateDep = Annotated[AppState, Depends(get_state)]
DbDep = Annotated[Database, Depends(get_db)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
ProvidersDep = Annotated[Providers, Depends(get_providers)]
TracesDep = Annotated[TraceWriter, Depends(get_traces)]
