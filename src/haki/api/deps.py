"""FastAPI dependencies with ``Annotated`` aliases, so routes stay one-liners."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from ..config import Settings
from ..context.trace_writer import TraceWriter
from ..providers import Providers
from ..storage import Database
from .state import AppState


def get_state(request: Request) -> AppState:
    state: AppState = request.app.state.haki
    return state


def get_db(request: Request) -> Database:
    return get_state(request).db


def get_settings(request: Request) -> Settings:
    return get_state(request).settings


def get_providers(request: Request) -> Providers:
    return get_state(request).providers


def get_traces(request: Request) -> TraceWriter:
    return get_state(request).traces


StateDep = Annotated[AppState, Depends(get_state)]
DbDep = Annotated[Database, Depends(get_db)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
ProvidersDep = Annotated[Providers, Depends(get_providers)]
TracesDep = Annotated[TraceWriter, Depends(get_traces)]
