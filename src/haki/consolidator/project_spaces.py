"""Each project in its own embedding space, whatever the serving process's.

A project's active space is a setting (``project_embedding_spaces``,
migration 0171), written when ``haki embeddings reembed`` switches it. A
process resolves a project's space before it embeds for it: no row, the
process's own space and embedder (its HAKI_EMBED_* settings); a row, that
space and an embedder built once from the space's recipe (provider, model,
dimensions, endpoint). The work for the project then runs in that space
(``storage.db.in_space``): its transactions stamp vectors with it and
compare within it.

The row is read on every call, not cached: the switch commits the new
vectors and the new setting together, and the next call after it embeds in
the new space.
"""

from __future__ import annotations

import asyncio

from ..config import Settings
from ..errors import ProviderError
from ..providers.embed import Embedder, build_from_recipe
from ..storage import Database
from ..storage.spaces import project_space


class ProjectSpaces:
    """The space and embedder each project's work runs with, in one process."""

    def __init__(self, db: Database, settings: Settings, embedder: Embedder):
        self.db = db
        self.settings = settings
        self.embedder = embedder
        self._built: dict[int, Embedder] = {}
        self._lock = asyncio.Lock()

    async def for_project(self, project_id: str) -> tuple[int | None, Embedder]:
        """(space, embedder) of the project; space None: the process's own."""
        found = await project_space(self.db, project_id)
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
