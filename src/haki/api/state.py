"""What the application holds for the lifetime of the process."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..config import Settings
from ..consolidator.project_spaces import ProjectSpaces
from ..context.trace_writer import TraceWriter
from ..providers import Providers
from ..providers.embed import Embedder
from ..storage import Database


@dataclass(slots=True)
class AppState:
    settings: Settings
    db: Database
    providers: Providers
    traces: TraceWriter  # context traces, written after the response
    embedder_ready: bool = False
    extras: dict[str, object] = field(default_factory=dict)
    # Each project's embedding space and embedder (set at start-up).
    spaces: ProjectSpaces | None = None

    async def embedder_for(
        self, project_id: str, *, fresh: bool = True
    ) -> tuple[int | None, Embedder]:
        """The space and embedder of ``project_id``'s work (None: the process's
        space); ``fresh=False`` for reads (``ProjectSpaces.for_project``)."""
        if self.spaces is None:
            return None, self.providers.embedder
        return await self.spaces.for_project(project_id, fresh=fresh)
