"""``engram mcp``: Engram's read path as MCP tools over stdio.

Built on the official ``mcp`` SDK, imported only here so ``engram load`` and
the hooks never pay for it. Every call re-opens the index, so edits made while
the server runs are seen on the next call.
"""

from __future__ import annotations

from typing import Any

from .errors import EngramError
from .workspace import Roots

INSTRUCTIONS = (
    "Engram routes this repository's memories (rules, skills, knowledge) to the task at "
    "hand. Call engram_load with the task before starting; engram_fetch returns the full "
    "body of a memory listed as a card."
)


def build_server(roots: Roots) -> Any:
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.types import ToolAnnotations

    from .disclosure import render
    from .loader import load
    from .plan import LoadRequest

    server = MCPServer("engram", instructions=INSTRUCTIONS)
    # Every tool reads the repository's memories and changes nothing a user
    # would review (engram_load only counts usage in the local cache), so
    # hosts may run them without asking.
    read_only = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)

    def plan_for(request: LoadRequest) -> Any:
        try:
            return load(request, roots)
        except EngramError as exc:
            raise ToolError(str(exc)) from exc

    @server.tool(annotations=read_only)
    def engram_load(query: str, full: bool = False, files: list[str] | None = None) -> str:
        """Route the memories relevant to a task: the best as bodies, the rest as cards.

        ``files`` (repository-relative paths being worked on) also route memories whose
        applies_to globs match them. ``full`` returns every selected memory as a body.
        """
        if not query.strip() and not files:
            raise ToolError("give a query or files")
        request = LoadRequest(query=query, files=tuple(files or ()), full=full)
        return str(render(plan_for(request)).text)

    @server.tool(annotations=read_only)
    def engram_search(query: str) -> list[dict[str, Any]]:
        """Candidates for a query with their scores and match reasons; no bodies."""
        plan = plan_for(LoadRequest(query=query, record_usage=False))
        return [
            {
                "id": item.id,
                "type": item.type,
                "score": item.score,
                "selected": item in plan.batch,
                "directive": item.directive or item.summary,
                "reasons": list(item.reasons),
            }
            for item in (*plan.batch, *plan.omitted_cards)
        ]

    @server.tool(annotations=read_only)
    def engram_fetch(ids: list[str]) -> str:
        """The full bodies of these memory ids (as listed on cards)."""
        if not ids:
            raise ToolError("give at least one id")
        return str(render(plan_for(LoadRequest(ids=tuple(ids)))).text)

    @server.tool(annotations=read_only)
    def engram_verify() -> list[dict[str, str]]:
        """Memory files edited outside Engram and sources that changed since recorded."""
        from .integrity import verify

        return [
            {"status": f.status, "scope": f.scope, "path": f.path, "detail": f.detail}
            for f in verify(roots.all())
        ]

    @server.tool(annotations=read_only)
    def engram_status() -> dict[str, Any]:
        """Memory roots, memory counts, index problems and installed hooks."""
        from .hooks import install
        from .hooks.hosts import HOST_SPECS
        from .index import open_index

        out: dict[str, Any] = {"roots": [], "hooks": {}}
        for root in roots.all():
            ix = open_index(root, roots.config.ignore)
            out["roots"].append(
                {
                    "scope": root.scope,
                    "path": str(root.path),
                    "memories": len(ix.ids),
                    "problems": [f"{p.path}:{p.line}: {p.message}" for p in ix.problems],
                }
            )
        for name, spec in HOST_SPECS.items():
            path = spec.config_path(roots.workspace.base, False)
            out["hooks"][name] = list(install.installed_events(spec, path))
        return out

    return server


def serve(roots: Roots) -> None:
    build_server(roots).run("stdio")
