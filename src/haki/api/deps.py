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
    return request.app.state.haki


def get_db(request: Request) -> Database:
    return request.app.state.haki.db


def get_settings(request: Request) -> Settings:
    return request.app.state.haki.settings


def get_providers(request: Request) -> Providers:
    return request.app.state.haki.providers


def get_traces(request: Request) -> TraceWriter:
    return request.app.state.haki.traces


StateDep = Annotated[AppState, Depends(get_state)]
DbDep = Annotated[Database, Depends(get_db)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
ProvidersDep = Annotated[Providers, Depends(get_providers)]
TracesDep = Annotated[TraceWriter, Depends(get_traces)]
