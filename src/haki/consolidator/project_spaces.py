"""Each project in its own embedding space, whatever the serving process's.

A project's active space is a setting (``project_embedding_spaces``,
migration 0171), written when ``haki embeddings reembed`` switches it. A
process resolves a project's space before it embeds for it: no row, the
process's own space and embedder (its HAKI_EMBED_* settings); a row, that
space and an embedder built once from the space's recipe (provider, model,
dimensions, endpoint). The work for the project then runs in that space
(``storage.db.in_space``): its transactions stamp vectors with it and
compare within it.

Writes (consolidation jobs, facts asserted or corrected) read the row each
time: the switch commits the new vectors and the new setting together, and
the next write after it embeds in the new space. A context call may use the
row as read up to ``HAKI_EMBED_SPACE_CACHE_S`` ago (one transaction saved
per call, about what an empty transaction costs: bench/project_space_lookup.py),
and checks it with one statement in its own fact transaction
(``storage.spaces.check_space``): after a switch that check fails, and the
call reads the row again and runs again in the new space.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from ..config import Settings
from ..errors import ProviderError
from ..providers.embed import Embedder
from ..providers.embedders import build_from_recipe
from ..storage import Database
from ..storage.spaces import project_space

# Projects whose row a process keeps at once.
MAX_CACHED = 10_000


class ProjectSpaces:
    """The space and embedder each project's work runs with, in one process."""

    def __init__(
        self,
        db: Database,
        settings: Settings,
        embedder: Embedder,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.db = db
        self.settings = settings
        self.embedder = embedder
        self._built: dict[int, Embedder] = {}
        self._lock = asyncio.Lock()
        self._clock = clock
        # project -> (when read, its row: (space, recipe) or None)
        self._read: dict[str, tuple[float, tuple[int, dict[str, Any] | None] | None]] = {}

    async def _row(self, project_id: str, fresh: bool) -> tuple[int, dict[str, Any] | None] | None:
        now = self._clock()
        cached = self._read.get(project_id)
        if not fresh and cached is not None and now - cached[0] < self.settings.embed_space_cache_s:
            return cached[1]
        found = await project_space(self.db, project_id)
        if len(self._read) >= MAX_CACHED:
            self._read.clear()  # bounded; the next calls read their rows again
        self._read[project_id] = (now, found)
        return found

    async def for_project(
        self, project_id: str, *, fresh: bool = True
    ) -> tuple[int | None, Embedder]:
        """(space, embedder) of the project; space None: the process's own.
        ``fresh=False``: the row as read within HAKI_EMBED_SPACE_CACHE_S will do."""
        found = await self._row(project_id, fresh)
        if found is None or found[0] == self.db.embedding_space:
            return self.db.embedding_space, self.embedder
        space, recipe = found
        if space not in self._built:
            if recipe is None:
                raise ProviderError(
                    f"project {project_id!r} is in embedding space {space}, which this process "
                    "cannot build (no recipe: start a process configured for it once)"
                )
            async with self._lock:
                if space not in self._built:
                    self._built[space] = await asyncio.to_thread(
                        build_from_recipe, self.settings, recipe
                    )
        return space, self._built[space]
