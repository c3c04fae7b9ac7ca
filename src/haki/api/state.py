"""What the application holds for the lifetime of the process."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..config import Settings
from ..context.trace_writer import TraceWriter
from ..providers import Providers
from ..storage import Database


@dataclass(slots=True)
class AppState:
    settings: Settings
    db: Database
    providers: Providers
    traces: TraceWriter  # context traces, written after the response
    embedder_ready: bool = False
    extras: dict[str, object] = field(default_factory=dict)
