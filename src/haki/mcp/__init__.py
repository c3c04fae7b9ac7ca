"""Haki's MCP server: the tools (``tools``), stdio (``stdio``) and host wiring (``install``).

The Streamable HTTP endpoint lives in the API (``haki.api.mcp_mount``).
"""

from .tools import INSTRUCTIONS, Scope, build

__all__ = ["INSTRUCTIONS", "Scope", "build"]
